"""Regression tests for session 8 (issue 12): English near-verbatim recall by mechanism and
the dropped negation of a table cell. Each equivalence stands next to a changed neighbour
that must not be supported; the sentences are general forms, not the verify_set's."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- a table cell keeps its polarity: a claim that reads a negative cell, by a word of
# its value or by naming its column, must be negated too.

_PLANS = (
    "| Carrier | Coverage | EU roaming | Tethering | Roaming fee |\n"
    "|---|---|---|---|---|\n"
    "| Northwind | 92% | included | yes | £0 per day |\n"
    "| Harbour Telecom | 88% | {roaming} | {tethering} | £2.50 per day |\n"
)


@pytest.mark.parametrize(("roaming", "tethering"), [("not included", "no"), ("No", "–"), ("none", "✗")])
@pytest.mark.parametrize(
    "claim",
    [
        "EU roaming is included with Harbour Telecom.",
        "Harbour Telecom includes EU roaming.",
        "Harbour Telecom has EU roaming.",
        "Harbour Telecom has tethering.",
    ],
)
def test_a_negative_cell_is_not_read_without_its_negation(claim: str, roaming: str, tethering: str) -> None:
    assert _verdict(claim, _PLANS.format(roaming=roaming, tethering=tethering)) != "supported"


@pytest.mark.parametrize(
    ("claim", "roaming", "tethering"),
    [
        ("EU roaming is not included with Harbour Telecom.", "not included", "no"),
        ("Harbour Telecom has no tethering.", "not included", "no"),
        # The positive row is still read, and so is another column of the negative row.
        ("Northwind has EU roaming.", "not included", "no"),
        ("EU roaming is included with Northwind.", "not included", "no"),
        ("The roaming fee of Harbour Telecom is £2.50 per day.", "not included", "no"),
        ("Harbour Telecom has a coverage of 88%.", "not included", "no"),
    ],
)
def test_a_cell_read_with_its_polarity_is_supported(claim: str, roaming: str, tethering: str) -> None:
    assert _verdict(claim, _PLANS.format(roaming=roaming, tethering=tethering)) == "supported"


# --- one universal subject said four ways: "All Xs" = "Every X" = "Each X" = "Any X" =
# the bare plural of a rule; "Xs each V" = "Each X Vs". Another quantifier stays apart,
# and a claim adds "all" to a bare plural only in a rule, not in a report of an event.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("All badges must be worn visibly.", "Every badge must be worn visibly."),
        ("Every badge must be worn visibly.", "All badges must be worn visibly."),
        ("Each badge must be worn visibly.", "All badges must be worn visibly."),
        ("Badges must be worn visibly.", "Every badge must be worn visibly."),
        ("All badges must be worn visibly.", "Badges must be worn visibly."),
        ("Defects above 5 mm must be logged.", "Any defect above 5 mm must be logged."),
        ("Night nurses each cover 12 beds.", "Each night nurse covers 12 beds."),
        ("Each night nurse covers 12 beds.", "Night nurses each cover 12 beds."),
        ("Guests were given a map.", "All guests were given a map."),
    ],
)
def test_a_universal_subject_said_another_way_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Some badges must be worn visibly.", "Every badge must be worn visibly."),
        ("Most badges must be worn visibly.", "All badges must be worn visibly."),
        ("No badge must be worn visibly.", "Every badge must be worn visibly."),
        ("One badge must be worn visibly.", "All badges must be worn visibly."),
        ("All badges must be worn visibly.", "Some badges must be worn visibly."),
        ("All badges must be worn visibly.", "Badges of visitors must be worn visibly."),
        ("All guests were given a map.", "Guests were given a map."),
        ("Night nurses each cover 12 beds.", "Night nurses cover 12 beds in total."),
        ("Staff may not take any leave in March.", "Staff may not take all leave in March."),
    ],
)
def test_another_quantifier_is_not_a_universal(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a generic singular subject coordinated with "or" states the plural rule with "and".


def test_a_generic_or_subject_reads_the_plural_and_rule() -> None:
    assert _verdict("A van or trailer needs a permit.", "Vans and trailers need a permit.") == "supported"


@pytest.mark.parametrize(
    "evidence",
    ["Vans need a permit.", "Vans need a permit and trailers need a licence.", "Vans or cars need a permit."],
)
def test_a_generic_or_subject_needs_both_nouns_under_one_rule(evidence: str) -> None:
    assert _verdict("A van or trailer needs a permit.", evidence) != "supported"


# --- money in a subunit: "35p" = £0.35; "10 cents" = €0.10 or $0.10 where the evidence
# names that one currency; never across currencies or scales.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Calls cost 35p per minute.", "Calls cost £0.35 per minute."),
        ("Calls cost £0.35 per minute.", "Calls cost 35p per minute."),
        ("E-scooters cost an extra 10 cents per minute.", "E-scooters cost an extra €0.10 per minute."),
        ("E-scooters cost an extra 5 cents per minute.", "E-scooters cost an extra $0.05 per minute."),
    ],
)
def test_an_amount_in_a_subunit_is_the_same_amount(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Calls cost 35 cents per minute.", "Calls cost £0.35 per minute."),
        ("Calls cost 35p per minute.", "Calls cost €0.35 per minute."),
        ("Calls cost 0.35p per minute.", "Calls cost £0.35 per minute."),
        ("Calls cost 3.5p per minute.", "Calls cost £0.35 per minute."),
        ("E-scooters cost an extra 10 cents per minute.", "E-scooters cost an extra £0.10 per minute."),
        ("E-scooters cost an extra 1 cent per minute.", "E-scooters cost an extra €0.10 per minute."),
        ("E-scooters cost an extra 10 cents per minute.", "E-scooters cost an extra €10 per minute."),
        # Two cent currencies: the cents belong to neither for sure.
        ("E-scooters cost an extra 10 cents per minute.", "E-scooters cost an extra €0.10 or $0.12 per minute."),
    ],
)
def test_an_amount_in_another_subunit_or_scale_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a fortnight is two weeks.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The bin is collected every fortnight.", "The bin is collected every 2 weeks."),
        ("The bin is collected fortnightly.", "The bin is collected every two weeks."),
        ("The course lasts a fortnight.", "The course lasts 14 days."),
    ],
)
def test_a_fortnight_is_two_weeks(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The bin is collected every fortnight.", "The bin is collected every week."),
        ("The bin is collected every fortnight.", "The bin is collected every 4 weeks."),
        ("The bin is collected every 2 fortnights.", "The bin is collected every 2 weeks."),
    ],
)
def test_a_fortnight_is_not_another_period(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_a_universal_is_not_read_into_a_determined_subject() -> None:
    assert _verdict("All visitor cards are returned at the desk.", "A visitor card is returned at the desk.") != "supported"
    assert _verdict("All visitor cards are returned at the desk.", "The visitor cards are returned at the desk.") != "supported"


# --- "S <verb> A for x and B for y": the second part shares the subject and verb, so the
# two pairs may come in either order; crossing the pairs is a role swap.

_ROOMS = "The council assigned Room 7 to the band and Room 4 to the choir."
_SLOTS = "The clinic offers Friday slots to children and Monday slots to adults."


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The council assigned Room 4 to the choir and Room 7 to the band.", _ROOMS),
        ("The clinic offers Monday slots to adults and Friday slots to children.", _SLOTS),
        ("The clinic offers Monday slots to adults.", _SLOTS),
    ],
)
def test_pairs_sharing_a_verb_may_be_reordered(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The council assigned Room 4 to the band and Room 7 to the choir.", _ROOMS),
        ("The council assigned Room 7 to the choir and Room 4 to the band.", _ROOMS),
        ("The clinic offers Monday slots to children and Friday slots to adults.", _SLOTS),
        ("The clinic offers Monday slots to children.", _SLOTS),
        (
            "The clinic offers Monday slots to adults and Friday slots to children.",
            "The clinic offers Friday slots to children and may offer Monday slots to adults.",
        ),
        (
            "The council assigned Room 4 to the choir and Room 7 to the band.",
            "The council assigned Room 7 to the band and the mayor assigned Room 4 to the choir.",
        ),
    ],
)
def test_crossed_or_changed_pairs_are_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a table row read as a sentence: "and" joins two cells of the row; "from"/"to" say
# which way a value goes only where the row says so (a route cell "A – B" in that order,
# an Origin or Destination column).

_ROUTES = (
    "| Route | Transit time | Freight |\n|---|---|---|\n"
    "| Shanghai – Gothenburg | 38 days | USD 3,250 |\n"
    "| Gothenburg – Shanghai | 40 days | USD 2,100 |\n"
)
_ORIGINS = "| HS code | Origin | Rate |\n|---|---|---|\n| 9403.60 | Vietnam | 2.7% |\n| 9403.60 | China | 4% |\n"
_PASSES = (
    "| Pass | Price | Included ride time |\n|---|---|---|\n"
    "| Single ride | €1.50 | 30 minutes |\n| Day pass | €6.00 | 45 minutes per ride |\n"
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The transit time from Shanghai to Gothenburg is 38 days.", _ROUTES),
        ("The transit time from Gothenburg to Shanghai is 40 days.", _ROUTES),
        ("The rate for HS 9403.60 from Vietnam is 2.7%.", _ORIGINS),
        ("A single ride costs €1.50 and includes 30 minutes of ride time.", _PASSES),
        ("A single ride costs €1.50 and includes half an hour of ride time.", _PASSES),
    ],
)
def test_a_row_read_with_its_direction_or_two_cells_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The transit time from Gothenburg to Shanghai is 38 days.", _ROUTES),
        ("The transit time from Shanghai to Gothenburg is 40 days.", _ROUTES),
        ("The transit time to Gothenburg is 38 days.", _ROUTES),
        ("The rate for HS 9403.60 from China is 2.7%.", _ORIGINS),
        ("The rate for HS 9403.60 to Vietnam is 2.7%.", _ORIGINS),
        ("A single ride costs €1.50 and includes 45 minutes of ride time.", _PASSES),
        ("A single ride costs €6.00 and includes 30 minutes of ride time.", _PASSES),
        ("A single ride or a day pass costs €1.50.", _PASSES),
    ],
)
def test_a_row_read_the_wrong_way_or_across_rows_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- two semicolon clauses in either order, the subject pronoun standing for the first
# clause's subject; a claim never makes another noun phrase the pronoun's referent.

_DOCKS = "Bikes must be returned to a docking station; they must not be left on the street."


@pytest.mark.parametrize(
    "claim",
    [
        "Bikes must not be left on the street; they must be returned to a docking station.",
        "Bikes must not be left on the street.",
    ],
)
def test_semicolon_clauses_may_come_in_the_other_order(claim: str) -> None:
    assert _verdict(claim, _DOCKS) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Bikes must not be returned to a docking station; they must be left on the street.", _DOCKS),
        ("Bikes must not be left on the street; they may be returned to a docking station.", _DOCKS),
        ("Docking stations must not be left on the street.", _DOCKS),
        ("A docking station must not be left on the street.", _DOCKS),
        (
            "Bikes must not be left on the street; they must be returned to a docking station.",
            "Bikes must be returned to a docking station; scooters must not be left on the street.",
        ),
        ("Clients are optional.", "Clients may send an If-Match header with PATCH requests; it is optional."),
    ],
)
def test_semicolon_clauses_keep_their_subject_and_polarity(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- two conjuncts reordered move the full noun phrase and its pronoun: "starts when the
# bike is unlocked and ends when it is locked" = "ends when the bike is locked and
# starts when it is unlocked"; crossing the verbs or the noun phrases is not.

_ALARM = "The alarm sounds when the door is opened and stops when it is closed."


def test_reordered_conjuncts_move_their_pronoun() -> None:
    assert _verdict("The alarm stops when the door is closed and sounds when it is opened.", _ALARM) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The alarm stops when the door is opened and sounds when it is closed.",
        "The alarm stops when the window is closed and sounds when it is opened.",
        "The alarm sounds when the door is closed and stops when it is opened.",
    ],
)
def test_reordered_conjuncts_keep_their_verbs_and_referent(claim: str) -> None:
    assert _verdict(claim, _ALARM) != "supported"


# --- a restriction of the subject said as a final condition: "Xs aged 16 or 17 need Y" =
# "Xs need Y if they are aged 16 or 17"; "unless", a negated or another condition is not.

_CONSENT = "Climbers aged 16 or 17 need the consent of a parent or guardian."


def test_a_restriction_may_be_said_as_a_condition() -> None:
    claim = "Climbers need the consent of a parent or guardian if they are aged 16 or 17."
    assert _verdict(claim, _CONSENT) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Climbers need the consent of a parent or guardian if they are aged 18.",
        "Climbers need the consent of a parent or guardian if they are not aged 16 or 17.",
        "Climbers need the consent of a parent or guardian unless they are aged 16 or 17.",
        "Climbers need the consent of a guardian if they are aged 16 or 17.",
    ],
)
def test_a_changed_condition_is_not_the_restriction(claim: str) -> None:
    assert _verdict(claim, _CONSENT) != "supported"


# --- a fronted phrase of time or place read at the end; a scope the claim leaves out is
# never moved to where it could be dropped, and a fronted phrase of two clauses is not
# moved into one.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The gym opens at 6 am on weekdays.", "On weekdays the gym opens at 6 am."),
        ("Roaming is free in the EU.", "In the EU, roaming is free."),
        ("The board resigned after the audit.", "After the audit, the board resigned."),
        ("The latency to Frankfurt fell from 52 ms to 29 ms in Porto.", "In Porto, the latency to Frankfurt fell from 52 ms to 29 ms."),
    ],
)
def test_a_fronted_phrase_may_be_read_at_the_end(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The gym opens at 6 am on weekends.", "On weekdays the gym opens at 6 am."),
        ("The gym opens at 6 am.", "On weekdays the gym opens at 6 am."),
        ("Roaming is free.", "In the EU, roaming is free."),
        ("Roaming is free in the UK.", "In the EU, roaming is free."),
        ("The board resigned before the audit.", "After the audit, the board resigned."),
        ("The latency to Frankfurt fell from 52 ms to 29 ms in Lyon.", "In Porto, the latency to Frankfurt fell from 52 ms to 29 ms."),
    ],
)
def test_a_fronted_phrase_keeps_its_scope(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_words_are_not_joined_across_a_conjunction_into_another_clause() -> None:
    evidence = "In 2025, the plant hired 40 engineers and in 2024 it closed the Leeds site."
    assert _verdict("The plant hired 40 engineers in 2024.", evidence) != "supported"
    # A list item after "and" is still read in its place.
    assert _verdict(
        "A stolen scooter must be reported to the operator and to the police within 24 hours.",
        "A stolen scooter must be reported to the police and to the operator within 24 hours.",
    ) == "supported"
