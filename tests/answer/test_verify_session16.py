"""Regression tests for session 16 (issue 12): two coordinations of one clause that pair
their items by position, reordered on one side only.

Each meaning-preserving restatement stands next to a meaning-changing neighbour that must
NOT be supported. The sentences are written for these tests, not taken from the verify
set."""

from __future__ import annotations

import pytest

from cairn.answer.conjuncts import swapped_conjuncts
from tests.answer.verdicts import verdict as _verdict

# --- two lists paired by position (answer/paired_lists.py, conjuncts.py, coordination.py)

_PAIRED = [
    # (evidence, both lists reordered together: supported, one list reordered: not)
    (
        "Anna and Ben finished first and second.",
        "Ben and Anna finished second and first.",
        "Ben and Anna finished first and second.",
    ),
    (
        "Anna and Ben led sales and marketing.",
        "Ben and Anna led marketing and sales.",
        "Anna and Ben led marketing and sales.",
    ),
    (
        "Men and women need at least 135 and 125 g/l.",
        "Women and men need at least 125 and 135 g/l.",
        "Women and men need at least 135 and 125 g/l.",
    ),
    (
        "Bergen and Oslo host the spring and autumn meetings.",
        "Oslo and Bergen host the autumn and spring meetings.",
        "Oslo and Bergen host the spring and autumn meetings.",
    ),
]


@pytest.mark.parametrize(("evidence", "both", "one"), _PAIRED)
def test_paired_lists_reordered_together_are_supported(evidence: str, both: str, one: str) -> None:
    assert _verdict(both, evidence) == "supported"


@pytest.mark.parametrize(("evidence", "both", "one"), _PAIRED)
def test_paired_lists_reordered_on_one_side_are_not_supported(
    evidence: str, both: str, one: str
) -> None:
    assert _verdict(one, evidence) != "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        # one list, nothing to pair with
        ("Anna and Ben visited the depot.", "Ben and Anna visited the depot."),
        ("The audit covers the payroll system and the ledger.",
         "The audit covers the ledger and the payroll system."),
        # a list and an interval: "between X and Y" is no list
        ("Staff and visitors may park between 8:00 and 18:00.",
         "Visitors and staff may park between 8:00 and 18:00."),
        # two conjuncts swapped, nothing else coordinated
        ("Proposals must be written in English and submitted through the portal.",
         "Proposals must be submitted through the portal and written in English."),
        # alternatives ("or") and lists of things that are no values do not pair
        ("Pupils aged 11 or 12 need the signature of a parent or carer.",
         "Pupils aged 11 or 12 need the signature of a carer or parent."),
        ("Gloves and goggles must be worn in the lab and in the store.",
         "Gloves and goggles must be worn in the store and in the lab."),
        ("Valves and pumps are checked and cleaned.", "Pumps and valves are checked and cleaned."),
        # lists of three and of two items do not pair
        ("Forks, knives and spoons must be washed and dried.",
         "Spoons, knives and forks must be washed and dried."),
        # a comma between the two coordinations ends the phrase of the first
        ("If the gate is locked or jammed, staff must phone the desk and wait.",
         "If the gate is jammed or locked, staff must phone the desk and wait."),
        ("Two pens and one pad are given per adult, and one pen per child.",
         "One pad and two pens are given per adult, and one pen per child."),
        # a prepositional ellipsis without a list in its shared words
        ("The pool is open from 06:00 to 22:00 on weekdays and from 08:00 to 14:00 on Saturdays.",
         "The pool is open from 08:00 to 14:00 on Saturdays and from 06:00 to 22:00 on weekdays."),
    ],
)  # fmt: skip
def test_an_unpaired_list_may_still_be_reordered(evidence: str, claim: str) -> None:
    assert _verdict(claim, evidence) == "supported"


def test_swapped_conjuncts_keeps_a_clause_with_another_list() -> None:
    ev = "Anna and Ben led sales and marketing."
    assert swapped_conjuncts("Anna and Ben led marketing and sales.", ev) == []
    assert swapped_conjuncts("They led marketing and sales.", "They led sales and marketing.") == [
        "They led sales and marketing."
    ]


# --- a contradiction needs a concrete conflicting span (align.py, conflicts.py) ---------


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        # the claim states the unit's "after" itself; its "before" conflicts with nothing
        ("| Event | Waiting time |\n|---|---|\n| After a filling | 24 hours |",
         "After a filling, patients wait one day before eating."),
        ("Visitors sign out after the tour.",
         "After the tour, visitors sign out before leaving."),
        # two prepositional pairs in another order: no role is swapped
        ("Members get a mug after their 5th visit and a towel after their 20th.",
         "Members get a towel after their 20th visit and a mug after their 5th."),
    ],
)  # fmt: skip
def test_no_contradiction_without_a_conflicting_span(evidence: str, claim: str) -> None:
    assert _verdict(claim, evidence) != "contradicted"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("Visitors sign out after the tour.", "Visitors sign out before the tour."),
        ("The fee rose from 5 to 10.", "The fee rose from 10 to 5."),
        ("Trains run from York to Leeds and buses from York to Hull.",
         "Trains run from Leeds to York and buses from York to Hull."),
        # one "of", not repeated: its side may reach across the coordinator
        ("Rates are valid from 1 May 2026 and replace the rates of 1 March 2026.",
         "Rates are valid from 1 March 2026 and replace the rates of 1 May 2026."),
    ],
)  # fmt: skip
def test_concrete_conflicts_stay_contradicted(evidence: str, claim: str) -> None:
    assert _verdict(claim, evidence) == "contradicted"


_TABLE = (
    "| class | minimum age | lessons | price |\n"
    "|---|---|---|---|\n"
    "| Beginner | 8 years | 6 | £90 |\n"
    "| Improver | 11 years | 4 | £75 |"
)


@pytest.mark.parametrize(
    "claim",
    [
        # the row's lesson count (4) is in a column the claim does not name
        "The minimum age for the Improver class is 11.",
        # another row's values conflict with nothing: the claim names the Improver row
        "The Improver class has a minimum age of 11 years.",
    ],
)
def test_a_table_number_conflicts_only_in_the_named_row_and_column(claim: str) -> None:
    assert _verdict(claim, _TABLE) != "contradicted"


@pytest.mark.parametrize(
    "claim",
    [
        "The minimum age for the Improver class is 14 years.",  # the named column
        "The price of the Improver class is £95.",  # the price column
        "The Beginner class has a minimum age of 11 years.",  # another row's value
    ],
)
def test_a_table_number_in_the_named_row_and_column_still_conflicts(claim: str) -> None:
    assert _verdict(claim, _TABLE) == "contradicted"


def test_a_row_named_by_another_cell_conflicts_in_its_first_cell() -> None:
    codes = "| status | code |\n|---|---|\n| 429 | rate_limited |\n| 404 | not_found |"
    assert _verdict("Status 503 has the code rate_limited.", codes) == "contradicted"



# --- a table row restated with a verb of having (table_rows._have_verbs) ----------------

_PLANS = (
    "| plan | meeting-room credits | desks | price per month |\n|---|---|---|---|\n"
    "| Flex | 120 minutes | 1 | £250 |\n| Resident | 480 minutes | 2 | £400 |"
)


@pytest.mark.parametrize(
    "claim",
    [
        "The Flex plan includes 120 minutes of meeting-room credits.",
        "The Flex plan comes with 120 minutes of meeting-room credits.",
        "The Resident plan offers 2 desks.",
        "The Resident plan provides 480 minutes of meeting-room credits.",
    ],
)
def test_a_row_restated_with_a_verb_of_having_is_supported(claim: str) -> None:
    assert _verdict(claim, _PLANS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The Flex plan includes 480 minutes of meeting-room credits.",  # another row's value
        "The Resident plan offers 1 desk.",  # another row's value
        "The Flex plan included 120 minutes of meeting-room credits.",  # a past event
        "The Flex plan does not include 120 minutes of meeting-room credits.",  # negation
        "The Flex plan may include 120 minutes of meeting-room credits.",  # a modal
        "The Flex plan includes 120 minutes of meeting-room credits and 2 desks.",  # a cell
        "The Flex plan comes at 120 minutes of meeting-room credits.",  # no "with"
    ],
)
def test_a_verb_of_having_keeps_the_row_the_value_and_the_polarity(claim: str) -> None:
    assert _verdict(claim, _PLANS) != "supported"
