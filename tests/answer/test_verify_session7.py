"""Regression tests for session 7 (issue 12): causes found by the mutation harness
(bench/verify_mutations.py), each written in general form next to the neighbour that
must keep its verdict."""

from __future__ import annotations

import pytest

from cairn.answer.tokens import account_tokens
from tests.answer.verdicts import verdict as _verdict

# --- safety 1: a negation, modal or quantifier matches only itself, never a word that
# shares its stem ("not" in "notes", "noted", "Note:").


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "One handwritten sheet of notes is not allowed.",
            "One handwritten sheet of notes is allowed.",
        ),
        ("Differences were not noted in this group.", "Differences were noted in this group."),
        (
            "Note: you can not do the same thing with the -t option.",
            "Note: you can do the same thing with the -t option.",
        ),
        ("The vendor will deliver the willing units.", "The vendor delivers the willing units."),
    ],
)
def test_a_negation_or_modal_is_never_matched_by_its_stem(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
    assert _verdict(evidence, evidence) == "supported"


# --- safety 2: every number, negation and content word of the claim needs its own
# evidence token (a claim may not say a value twice that the evidence says once).


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Deploys must not start between 18:00 and 18:00 UTC.",
            "Deploys must not start between 12:00 and 18:00 UTC.",
        ),
        ("The dose is 30 mg/kg and 30 mg/kg.", "The dose is 20 mg/kg and 30 mg/kg."),
        ("Details are given in references 2 and 2.", "Details are given in references 1 and 2."),
        (
            "The number was seen to decrease with cooling and decrease with speed.",
            "The number was seen to decrease with cooling and increase with speed.",
        ),
        ("It is not also not difficult to show.", "It is also not difficult to show."),
        (
            "The dosage is in or above, but certainly not above, the range.",
            "The dosage is in or below, but certainly not above, the range.",
        ),
    ],
)
def test_a_claim_may_not_use_one_evidence_token_twice(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
    assert _verdict(evidence, evidence) == "supported"


def test_repeated_words_the_evidence_also_repeats_are_supported() -> None:
    ev = "Room 1 seats 10 people and room 2 seats 10 people."
    assert _verdict("Room 2 seats 10 people and room 1 seats 10 people.", ev) == "supported"
    assert _verdict("The dose is 20 mg/kg and 30 mg/kg.", "The dose is 20 mg/kg and 30 mg/kg.") == "supported"


# --- safety 3: numbers glued to letters keep their value ("Unit 4B", "5xx", "10km").


def test_glued_numbers_are_read() -> None:
    keys = [t.key for t in account_tokens("Unit 4B is 10km away; 200ml in 5ms; the 1970s")]
    assert "id:4b" in keys
    assert "n:1" not in keys and "n:20" not in keys
    assert "decade:1970" in keys


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The tenant maintains Unit 5B.", "The tenant maintains Unit 4B."),
        ("The 5G backup took over.", "The 4G backup took over."),
        ("The alert fires when the 6xx rate is above 2%.", "The alert fires when the 5xx rate is above 2%."),
        ("The depot is 20km from the city.", "The depot is 10km from the city."),
        ("Each vial holds 300ml.", "Each vial holds 200ml."),
        ("The threshold is 2e-9.", "The threshold is 1e-9."),
    ],
)
def test_a_changed_glued_number_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
    assert _verdict(evidence, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The depot is 10 km from the city.", "The depot is 10km from the city."),
        ("The depot is 10,000 m from the city.", "The depot is 10km from the city."),
        ("Each vial holds 0.2 l.", "Each vial holds 200ml."),
        ("The request times out after 30 seconds.", "The request times out after 30s."),
        ("The disk holds 2 GB.", "The disk holds 2GB."),
    ],
)
def test_a_glued_quantity_equals_its_spaced_conversion(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


# --- safety 4: the words of a name keep their order.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Trains are operated by Ltd Valley Rail.",
            "Trains are operated by Valley Rail Ltd.",
        ),
        (
            "The cost was approved by Sayed Al-Fatima in October.",
            "The cost was approved by Fatima Al-Sayed in October.",
        ),
        ("I love trips to City New York.", "I love trips to New York City."),
    ],
)
def test_reordered_name_words_are_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
    assert _verdict(evidence, evidence) == "supported"


def test_coordinated_names_may_still_be_reordered() -> None:
    ev = "The budget was reviewed by Maria Lopez and Tom Becker."
    assert _verdict("The budget was reviewed by Tom Becker and Maria Lopez.", ev) == "supported"


def test_a_label_keeps_its_value() -> None:
    ev = "Maintainer: Platform team (lead: Oskar Lindqvist)."
    assert _verdict("Maintainer: Oskar Lindqvist team (lead: Platform).", ev) != "supported"
    assert _verdict(ev, ev) == "supported"
    lst = "Maintainers: Chen Wei (release manager), Olga Petrova (QA lead)."
    assert _verdict("Maintainers: Olga Petrova (QA lead), Chen Wei (release manager).", lst) == "supported"


# --- recall 1: number agreement — irregular plurals, "-eed" words, do/does.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("A wrapped loaf keeps for up to 5 days.", "Wrapped loaves keep for up to 5 days."),
        ("A pumpkin seed was replaced by a sunflower seed.", "Pumpkin seeds were replaced by sunflower seeds."),
        ("A folding bicycle does not need to be booked.", "Folding bicycles do not need to be booked."),
        ("A child needs a signed form.", "Children need a signed form."),
        ("The request exceeds 1 MB.", "Requests exceed 1 MB."),
        ("The board agreed the budget.", "The board agreed the budget."),
        ("An analysis was repeated twice.", "Analyses were repeated twice."),
    ],
)
def test_number_agreement_is_near_verbatim(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


def test_an_irregular_plural_still_needs_its_own_noun() -> None:
    assert _verdict("A wrapped loaf keeps for up to 5 days.", "Wrapped knives keep for up to 5 days.") != "supported"
    assert _verdict("A seed was replaced.", "A see was replaced.") != "supported"


# --- recall 2: exact equivalences of the written form — "every hour" = "every 60 minutes",
# prices per data/mass unit, contractions, British/American spelling, "first" without
# its article.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("On Saturdays trains run every hour from 07:10 to 21:10.", "On Saturdays trains run every 60 minutes from 07:10 to 21:10."),
        ("Backups run every day at 02:00.", "Backups run every 24 hours at 02:00."),
        ("Transfer between regions costs $20 per TB.", "Transfer between regions costs $0.02 per GB."),
        ("Flour costs €1,200 per tonne.", "Flour costs €1.20 per kg."),
        ("Request bodies mustn't exceed 1 MB.", "Request bodies must not exceed 1 MB."),
        ("Quizzes can't be submitted late.", "Quizzes cannot be submitted late."),
        ("Participants aren't told which treatment they receive.", "Participants are not told which treatment they receive."),
        ("A total of 360 participants will be randomized.", "A total of 360 participants will be randomised."),
        ("The centre is closed for labor day.", "The center is closed for labour day."),
        ("The fee is capped for first 2 years.", "The fee is capped for the first 2 years."),
    ],
)
def test_exact_equivalences_of_the_written_form(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Trains run every hour.", "Trains run every 30 minutes."),
        ("Transfer costs $20 per TB.", "Transfer costs $0.02 per MB."),
        ("Transfer costs $20 per TB.", "Transfer costs $20 per month."),
        ("Storage costs $0.02 per GB.", "Storage costs $0.02 per GB-month for archives and $0.05 per GB."),
        ("Request bodies mustn't exceed 1 MB.", "Request bodies must exceed 1 MB."),
        ("Quizzes can't be submitted late.", "Quizzes can be submitted late."),
        ("The fee is capped for first 3 years.", "The fee is capped for the first 2 years."),
    ],
)
def test_the_equivalences_keep_their_values(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- recall 3: a sentence with a code span copied whole; a verbatim copy is never
# contradicted by another span.


def test_a_sentence_with_its_code_span_copied_whole_is_supported() -> None:
    ev = "1. Drain traffic from eu-west-1 with `pgwctl drain --region eu-west-1`.\n2. Promote the standby."
    assert _verdict("Drain traffic from eu-west-1 with `pgwctl drain --region eu-west-1`.", ev) == "supported"
    assert _verdict("Drain traffic from eu-west-2 with `pgwctl drain --region eu-west-1`.", ev) != "supported"
    assert _verdict("Drain traffic from eu-west-1 with `pgwctl drain --region eu-west-2`.", ev) != "supported"


def test_a_verbatim_copy_is_never_contradicted() -> None:
    ev = (
        "The principal amount is EUR 240,000.\n\n| Item | Amount |\n|---|---|\n"
        "| Arrangement fee | EUR 2,400 (1% of the principal) |\n"
    )
    assert _verdict("The principal amount is EUR 240,000.", ev) == "supported"
    assert _verdict("The principal amount is EUR 250,000.", ev) != "supported"
    pages = "Convert a PDF file to an HTML file:\n\n`pdftohtml a.pdf`\n\nConvert a PDF file to an XML file:\n\n`pdftohtml -xml a.pdf`\n"
    assert _verdict("Convert a PDF file to an XML file.", pages) == "supported"


# --- recall 4: coordinated parts in another order — participle clauses sharing their
# subject, "both ... and", a particle before "and".


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The report was written by Ana Silva and reviewed by Tom Becker.",
            "The report was reviewed by Tom Becker and written by Ana Silva.",
        ),
        (
            "Both the tenant and the landlord must sign the notice.",
            "Both the landlord and the tenant must sign the notice.",
        ),
        ("Visitors must sign in and wear a badge.", "Visitors must wear a badge and sign in."),
    ],
)
def test_coordinated_parts_in_another_order(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The report was written by Tom Becker and reviewed by Ana Silva.",
            "The report was reviewed by Tom Becker and written by Ana Silva.",
        ),
        ("Both the tenant and the landlord must sign the notice.", "The landlord must sign the notice."),
        ("Visitors must sign in and wear a badge.", "Visitors must wear a badge."),
    ],
)
def test_reordered_parts_keep_their_pairings(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- recall 5: a later clause's subject pronoun; a dated title's event.


def test_a_subject_pronoun_after_a_semicolon_reads_as_the_subject() -> None:
    ev = "This SLA is version 3.2 and takes effect on 1 September 2026; it replaces version 3.1 of 1 February 2026."
    assert _verdict("This SLA replaces version 3.1 of February 1, 2026.", ev) == "supported"
    assert _verdict("This SLA replaces version 3.2 of February 1, 2026.", ev) != "supported"
    assert _verdict("Version 3.1 replaces this SLA.", ev) != "supported"
    assert _verdict("This SLA replaces version 3.1 of March 1, 2026.", ev) != "supported"


def test_a_dated_title_says_when_its_event_happened() -> None:
    ev = "# Postmortem: product search outage, 11 March 2026\n\nThe outage lasted 47 minutes."
    assert _verdict("The product search outage happened on March 11, 2026.", ev) == "supported"
    assert _verdict("The product search outage occurred on 11 March 2026.", ev) == "supported"
    assert _verdict("The product search outage happened on March 12, 2026.", ev) != "supported"
    assert _verdict("The checkout outage happened on 11 March 2026.", ev) != "supported"


def test_an_ambiguous_pronoun_is_not_read_as_the_subject() -> None:
    ev = "The server is connected to a database; it stores 5 GB of logs."
    assert _verdict("The server stores 5 GB of logs.", ev) != "supported"


def test_a_range_between_names_keeps_its_ends() -> None:
    ev = "The caretaker, Luis Ortega, works 30 hours a week, Monday to Friday."
    assert _verdict("The caretaker, Monday, works 30 hours a week, Luis Ortega to Friday.", ev) != "supported"
    assert _verdict("The caretaker, Luis Ortega, works 30 hours a week, Monday to Friday.", ev) == "supported"
    route = "Trains run from Harrow Cross to Lindenfield every hour."
    assert _verdict("Trains run from Harrow Cross to Lindenfield every hour.", route) == "supported"
    assert _verdict("Trains run from Lindenfield to Harrow Cross every hour.", route) != "supported"


def test_a_glued_quantity_with_thousands_separators() -> None:
    assert _verdict("The route is 1,000 km long.", "The route is 1,000km long.") == "supported"
    assert _verdict("The route is 1 km long.", "The route is 1,000km long.") != "supported"
