"""Regression tests for session 18a (issue 12): English inflection and reordering.

Each meaning-preserving restatement stands next to meaning-changing neighbours that must
NOT be supported. The sentences are written for these tests, not taken from the verify
set."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- a sentence-initial "It"/"They" read as the document the sentence before names
# (answer/document_subject.py)

_MEMO = (
    "This staffing memo is version 2 and takes effect on 3 May 2027.\n"
    "It was drafted by the office manager, Ms Lina Ortiz, and approved by the director, Mr Paul Weber."
)


@pytest.mark.parametrize(
    "claim",
    [
        "The staffing memo was approved by the director, Mr Paul Weber, and drafted by the office manager, Ms Lina Ortiz.",
        "The staffing memo was drafted by the office manager, Ms Lina Ortiz.",
        "It was drafted by the office manager, Ms Lina Ortiz, and approved by the director, Mr Paul Weber.",
    ],
)
def test_document_pronoun_names_the_document(claim: str) -> None:
    assert _verdict(claim, _MEMO) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        # roles swapped
        "The staffing memo was approved by the office manager, Ms Lina Ortiz, and drafted by the director, Mr Paul Weber.",
        # another document
        "The rota was drafted by the office manager, Ms Lina Ortiz.",
        # tense or modality changed
        "The staffing memo will be drafted by the office manager, Ms Lina Ortiz.",
        "The staffing memo must be approved by the director, Mr Paul Weber.",
        # the agent changed
        "The staffing memo was drafted by the director, Mr Paul Weber.",
    ],
)
def test_document_pronoun_keeps_the_roles(claim: str) -> None:
    assert _verdict(claim, _MEMO) != "supported"


def test_plural_pronoun_needs_a_plural_demonstrative() -> None:
    rules = "These house rules are version 5.\nThey were proposed by Ann Cole and seconded by Raj Patel."
    assert _verdict("The house rules were seconded by Raj Patel and proposed by Ann Cole.", rules) == "supported"
    assert _verdict("The house rules were proposed by Raj Patel and seconded by Ann Cole.", rules) != "supported"
    singular = "This house rule is new.\nThey were proposed by Ann Cole."  # "They": not the rule
    assert _verdict("The house rule was proposed by Ann Cole.", singular) != "supported"


def test_pronoun_is_not_resolved_across_a_heading_or_without_a_demonstrative() -> None:
    heading = "This staffing memo is version 2.\n\n## Annex\n\nIt was drafted by Ms Lina Ortiz."
    assert _verdict("The staffing memo was drafted by Ms Lina Ortiz.", heading) != "supported"
    plain = "The staffing memo refers to the annex.\nIt was drafted by Ms Lina Ortiz."
    assert _verdict("The staffing memo was drafted by Ms Lina Ortiz.", plain) != "supported"
    gap = "This staffing memo is version 2.\nThe annex lists the shifts.\nIt was drafted by Ms Lina Ortiz."
    assert _verdict("The staffing memo was drafted by Ms Lina Ortiz.", gap) != "supported"


def test_pronoun_chain_keeps_the_document() -> None:
    chain = (
        "This grant sheet applies to round 4.\nIt replaces the round 3 grant sheet.\n"
        "It was drafted by Mr Tom Reyes and approved by Mrs Ada Lind."
    )
    assert _verdict("The grant sheet was approved by Mrs Ada Lind and drafted by Mr Tom Reyes.", chain) == "supported"
    assert _verdict("The round 3 grant sheet was drafted by Mr Tom Reyes.", chain) != "supported"


# --- a subject "No X may ..." = "Xs must not ..." (answer/negative_subjects.py)

_BAN = "Bicycles must not be locked to the library railings overnight."


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("No bicycle may be locked to the library railings overnight.", _BAN),
        ("No ladder is stored in the boiler room, which is kept locked.",
         "The ladders are not stored in the boiler room, which is kept locked."),
        ("No delivery to the loading bay is accepted on Sundays.",
         "Deliveries to the loading bay are not accepted on Sundays."),
        ("Bicycles must not be locked to the library railings overnight.",
         "No bicycle may be locked to the library railings overnight."),
    ],
)
def test_no_subject_is_the_negated_plural_rule(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # negation dropped in the evidence
        ("No bicycle may be locked to the library railings overnight.",
         "Bicycles may be locked to the library railings overnight."),
        # only some / not all
        ("No bicycle may be locked to the library railings overnight.",
         "Some bicycles must not be locked to the library railings overnight."),
        ("No bicycle may be locked to the library railings overnight.",
         "Not all bicycles may be locked to the library railings overnight."),
        # a weaker modal, another modal in the claim
        ("No bicycle may be locked to the library railings overnight.",
         "Bicycles should not be locked to the library railings overnight."),
        ("No bicycle will be locked to the library railings overnight.", _BAN),
        ("No bicycle must be locked to the library railings overnight.", _BAN),
        # a restriction of the evidence dropped
        ("No bicycle may be locked to the library railings overnight.",
         "Bicycles must not be locked to the library railings overnight unless they are tagged."),
        # one fuse is not every fuse
        ("No fuse was replaced during the visit.", "A fuse was not replaced during the visit."),
        # another time or place
        ("No bicycle may be locked to the library railings in the daytime.", _BAN),
        # "No more than" is no negated subject
        ("No more than two bicycles may be locked to the railings.",
         "Two bicycles must not be locked to the railings."),
    ],
)
def test_no_subject_keeps_its_meaning(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- "A, while B" / "A, but B" against "B; A" (answer/clause_order.py contrast_clauses)

_SHIFTS = "Day staff work from 08:00 to 16:00; night staff work from 22:00 to 06:00."


@pytest.mark.parametrize(
    "claim",
    [
        "Night staff work from 22:00 to 06:00, while day staff work from 08:00 to 16:00.",
        "Day staff work from 08:00 to 16:00, whereas night staff work from 22:00 to 06:00.",
        "Night staff work from 22:00 to 06:00, but day staff work from 08:00 to 16:00.",
    ],
)
def test_contrast_joins_two_semicolon_clauses(claim: str) -> None:
    assert _verdict(claim, _SHIFTS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        # the times moved to the other clause
        "Night staff work from 08:00 to 16:00, while day staff work from 22:00 to 06:00.",
        # a time of one clause changed
        "Night staff work from 22:00 to 07:00, while day staff work from 08:00 to 16:00.",
        # a negation added to one clause
        "Night staff do not work from 22:00 to 06:00, but day staff work from 08:00 to 16:00.",
        # a modal added
        "Night staff must work from 22:00 to 06:00, while day staff work from 08:00 to 16:00.",
    ],
)
def test_contrast_keeps_each_clause(claim: str) -> None:
    assert _verdict(claim, _SHIFTS) != "supported"


def test_temporal_while_is_not_a_semicolon() -> None:
    # "while" between clauses that share no word reads "at the time".
    assert _verdict("The pump must stop, while the tank is filled.", "The tank is filled; the pump must stop.") != "supported"
    # Only a contrast of two clauses, not of a clause and a phrase.
    assert _verdict("Night staff work from 22:00, but not to 06:00.", _SHIFTS) != "supported"


# --- "... and <verb> on it": the pronoun is the first part's object, never its subject
# (answer/coordination.py clause_readings)

_LOCKERS = "Season members keep the same locker and may leave kit in it overnight."


def test_conjunct_pronoun_is_the_object() -> None:
    claim = "A season member keeps the same locker and may leave kit in it overnight."
    assert _verdict(claim, _LOCKERS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "A season member keeps the same locker and must leave kit in it overnight.",  # modal
        "A season member keeps the same locker and may not leave kit in it overnight.",  # negation
        "A season member keeps the same bench and may leave kit in it overnight.",  # object
        "A day member keeps the same locker and may leave kit in it overnight.",  # subject
    ],
)
def test_conjunct_pronoun_keeps_the_rest(claim: str) -> None:
    assert _verdict(claim, _LOCKERS) != "supported"


# --- "by every pupil" = "by all pupils" (answer/universals.py)

_HELMETS = "Helmets must be worn by all riders under 14 on the track."


def test_universal_after_a_preposition() -> None:
    assert _verdict("A helmet must be worn by every rider under 14 on the track.", _HELMETS) == "supported"
    assert _verdict("Helmets must be worn by each rider under 14 on the track.", _HELMETS) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the evidence's bare plural may mean only some
        ("The bus was boarded by every pupil of class 3.", "The bus was boarded by pupils of class 3."),
        ("Helmets must be worn by every rider under 14 on the track.",
         "Helmets must be worn by some riders under 14 on the track."),
        # another group, age or modal
        ("Helmets must be worn by every coach under 14 on the track.", _HELMETS),
        ("Helmets must be worn by every rider under 16 on the track.", _HELMETS),
        ("Helmets may be worn by every rider under 14 on the track.", _HELMETS),
    ],
)
def test_universal_after_a_preposition_keeps_its_meaning(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- "This X is version N, written by ..." = "Version N of the X was written by ..."
# (answer/document_subject.py version_reading)

_HANDBOOK = "This handbook is edition 6, written by Ms Aisha Khan and approved by Mr Leo Brandt on 3 March 2027."


@pytest.mark.parametrize(
    "claim",
    [
        "Edition 6 of the handbook was approved by Mr Leo Brandt and written by Ms Aisha Khan.",
        "Edition 6 of the handbook was written by Ms Aisha Khan.",
    ],
)
def test_version_of_the_document(claim: str) -> None:
    assert _verdict(claim, _HANDBOOK) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Edition 7 of the handbook was written by Ms Aisha Khan.",  # another edition
        "Edition 6 of the handbook was written by Mr Leo Brandt and approved by Ms Aisha Khan.",  # roles
        "Edition 6 of the guide was written by Ms Aisha Khan.",  # another document
        "Edition 6 of the handbook will be approved by Mr Leo Brandt.",  # tense
        "Edition 6 of the handbook was approved by Mr Leo Brandt on 4 March 2027.",  # date
    ],
)
def test_version_of_the_document_keeps_its_meaning(claim: str) -> None:
    assert _verdict(claim, _HANDBOOK) != "supported"


def test_version_reading_needs_a_participle() -> None:
    # "... is version 2, and Ms Khan approved it" names no participle: read as written.
    evidence = "This handbook is version 2, and the staff council discussed it."
    assert _verdict("Version 2 of the handbook was discussed by the staff council.", evidence) != "supported"


# --- a dated lead "9 March 2027 — X" = "On 9 March 2027, X" (answer/document_subject.py)

_LOG = (
    "4 June 2027 — The boiler pressure was raised from 1.2 bar to 1.5 bar.\n"
    "5 June 2027, 14:00 — The expansion vessel was replaced.\n"
    "16:30 — The system was refilled and checked for leaks.\n"
)


@pytest.mark.parametrize(
    "claim",
    [
        "On 4 June 2027 the boiler pressure was raised to 1.5 bar from 1.2 bar.",
        "The boiler pressure was raised from 1.2 bar to 1.5 bar on 2027-06-04.",
        "On 5 June 2027 at 14:00 the expansion vessel was replaced.",
        "At 16:30 the system was refilled and checked for leaks.",
    ],
)
def test_dated_lead_is_a_date_of_its_sentence(claim: str) -> None:
    assert _verdict(claim, _LOG) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "On 5 June 2027 the boiler pressure was raised from 1.2 bar to 1.5 bar.",  # another line's date
        "On 4 June 2027 the expansion vessel was replaced.",  # date moved to another item
        "On 5 June 2027 at 16:30 the expansion vessel was replaced.",  # another line's time
        "On 4 June 2027 the boiler pressure was raised from 1.5 bar to 1.2 bar.",  # ends swapped
        "On 4 June 2027 the boiler pressure will be raised from 1.2 bar to 1.5 bar.",  # tense
    ],
)
def test_dated_lead_stays_with_its_line(claim: str) -> None:
    assert _verdict(claim, _LOG) != "supported"


# --- "Each X is V-ed daily" from "The Xs are V-ed daily" (answer/universals.py)

_FILTERS = "The air filters are replaced monthly by the caretaker and inspected every 2 weeks."


def test_each_of_a_periodic_definite_plural() -> None:
    claim = "Each air filter is replaced monthly by the caretaker and inspected every 2 weeks."
    assert _verdict(claim, _FILTERS) == "supported"
    assert _verdict("Each box is checked weekly for 5 minutes.", "The boxes are checked weekly for 5 minutes.") == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # another period, another agent, another tense
        ("Each air filter is replaced weekly by the caretaker and inspected every 2 weeks.", _FILTERS),
        ("Each air filter is replaced monthly by the cleaner and inspected every 2 weeks.", _FILTERS),
        ("Each box is checked weekly.", "The boxes were checked weekly."),
        # no period: a definite plural may be said of the group
        ("Each pump is rated at 40 l/min.", "The pumps are rated at 40 l/min."),
        ("Each pump is serviced by Ana.", "The pumps are serviced by Ana."),
        # a number of the group, not of each occurrence
        ("Each tank is filled weekly with 200 litres.", "The tanks are filled weekly with 200 litres."),
        # another noun
        ("Each water filter is replaced monthly by the caretaker and inspected every 2 weeks.", _FILTERS),
    ],
)
def test_each_of_a_definite_plural_keeps_its_meaning(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
