"""Regression tests for session 14 (issue 12): coordinated items in another order, and
"label: value" lists read clause by clause.

Each meaning-preserving restatement stands next to a meaning-changing neighbour that must
NOT be supported. The sentences are written for these tests, not taken from the verify
set."""

from __future__ import annotations

import pytest

from cairn.answer import EvidenceSpan
from cairn.answer.coordination import clause_readings, semicolon_parts
from cairn.answer.evidence import _units
from cairn.answer.item_order import item_orders
from cairn.answer.tokens import account_tokens
from cairn.answer.version_names import version_names
from tests.answer.verdicts import verdict as _verdict

# --- coordinated items in the evidence's order (answer/item_order.py) --------------------

_REORDERED = [
    (
        "The library is shut on bank holidays and between 20 December and 3 January.",
        "The library is shut between 20 December and 3 January and on bank holidays.",
    ),
    (
        "Parcels may be sent from any post office by registered mail or through the online portal.",
        "Parcels may be sent through the online portal or from any post office by registered mail.",
    ),
    (
        "Cats stay indoors at night, must be microchipped and must not enter the kitchen.",
        "Cats must be microchipped, must not enter the kitchen and stay indoors at night.",
    ),
    (
        "The audit covers the payroll system, the ledger and the expense tool.",
        "The audit covers the ledger, the expense tool and the payroll system.",
    ),
    (
        "The minibus seats up to 14 pupils and 2 staff.",
        "The minibus seats 2 staff and up to 14 pupils.",
    ),
    (
        "Smoking is forbidden in the stairwell or within 5 metres of the entrance.",
        "Within 5 metres of the entrance, or in the stairwell, smoking is forbidden.",
    ),
]


@pytest.mark.parametrize(("evidence", "claim"), _REORDERED)
def test_coordinated_items_in_another_order_are_supported(evidence: str, claim: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        # the two ends of "between" keep their order
        (
            "The gate is locked between 22:00 and 06:00.",
            "The gate is locked between 06:00 and 22:00.",
        ),
        # values paired with other items
        ("Members pay £4 and guests £9.", "Members pay £9 and guests £4."),
        # an item that is not in the evidence's list
        (
            "The audit covers the payroll system, the ledger and the expense tool.",
            "The audit covers the expense tool, the ledger and the travel tool.",
        ),
        # a list item dropped and another added
        (
            "The minibus seats up to 14 pupils and 2 staff.",
            "The minibus seats 2 staff and up to 16 pupils.",
        ),
        # an agent that may belong to the verb, not to the item
        ("The form was sent to Ana and Raj by Lee.", "The form was sent to Raj by Lee and Ana."),
        # a negation moved onto another item
        (
            "Cats stay indoors at night and must not enter the kitchen.",
            "Cats must not stay indoors at night and enter the kitchen.",
        ),
    ],
)
def test_reordered_neighbours_that_change_the_meaning_are_not_supported(
    evidence: str, claim: str
) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_two_lists_paired_by_position_keep_their_pairing() -> None:
    # An xfail until session 16 (answer/paired_lists.py; more in test_verify_session16.py).
    evidence = "Anna and Ben finished first and second."
    assert _verdict("Ben and Anna finished first and second.", evidence) != "supported"


def test_item_orders_needs_the_evidence_list_to_hold_exactly_the_items() -> None:
    ev = "Entry needs a ticket and a photo ID."
    assert list(item_orders("Entry needs a photo ID and a ticket.", ev)) == [ev]
    assert list(item_orders("Entry needs a photo ID and a pass.", ev)) == []
    assert (
        list(
            item_orders("Open between 9:00 and 17:00 daily.", "Open between 17:00 and 9:00 daily.")
        )
        == []
    )
    assert list(item_orders("A and B respectively.", "B and A respectively.")) == []
    # a pronoun or a condition is read by its place: no reordering (the verdict on this
    # pair is older than session 14: the clause reading of account.py supports it)
    ev = "Restart it if the alarm sounds and check the pump."
    assert list(item_orders("Check the pump and restart it if the alarm sounds.", ev)) == []


# --- "label: value; label: value" read clause by clause ----------------------------------

_ROLES = "Site lead: Rosa Pieters; safety officer: Karim Haddad; planner: June Oduya."


@pytest.mark.parametrize(
    "claim",
    [
        "The safety officer is Karim Haddad and the site lead is Rosa Pieters.",
        "The site lead is Rosa Pieters, and the planner is June Oduya.",
        "Karim Haddad is the safety officer and Rosa Pieters the site lead.",
    ],
)
def test_two_clauses_each_from_one_part_of_a_label_list_are_supported(claim: str) -> None:
    assert _verdict(claim, _ROLES) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The safety officer is Rosa Pieters and the site lead is Karim Haddad.",  # swapped
        "Karim Haddad is the site lead and Rosa Pieters the safety officer.",  # swapped, gapped
        "The safety officer is Karim Haddad and the planner is Karim Haddad.",  # one part twice
        "The safety officer is Karim Haddad and the treasurer is June Oduya.",  # no such label
    ],
)
def test_label_list_clauses_with_other_pairings_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _ROLES) != "supported"


def test_a_part_that_depends_on_the_one_before_is_no_clause_of_its_own() -> None:
    parts = semicolon_parts("Residents park free; otherwise the fee is £3; visitors pay £5.")
    assert parts == ["Residents park free", "visitors pay £5"]
    assert semicolon_parts("One clause only.") == []


def test_a_gapped_copula_clause_gets_its_verb_back() -> None:
    readings = clause_readings("Mia Lund is the treasurer and Omar Said the secretary.")
    assert ("gap", ("Mia Lund is the treasurer", "Omar Said is the secretary")) in readings


# --- a header's frequency adjective gives its amounts a rate (answer/evidence.py) --------

_PLANS = (
    "| plan | monthly fee | setup fee | annual cap |\n"
    "|---|---|---|---|\n"
    "| basic | £12 | £30 | £500 |\n"
    "| premium | £25 | £30 | £900 |\n"
)


@pytest.mark.parametrize(
    "claim",
    [
        "The basic plan is £12 a month.",
        "Premium is £25 per month, with a £30 setup fee.",
        "The premium plan has an annual cap of £900.",
    ],
)
def test_a_frequency_adjective_header_reads_as_a_rate(claim: str) -> None:
    assert _verdict(claim, _PLANS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The basic plan is £30 a month.",  # the setup fee as a monthly amount
        "The basic plan is £12 a year.",  # another rate
        "The premium plan is £12 a month.",  # another row
        "Premium is £30 per month, with a £25 setup fee.",  # the two columns crossed
    ],
)
def test_a_rate_from_another_column_or_row_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _PLANS) != "supported"


# --- a sentence's first "A" before an amount is the article (answer/tokens.py) -----------

_PASSES = "| pass | price | valid for |\n|---|---|---|\n| 10-visit pass | £60 | 3 months |\n"


def test_the_article_before_an_amount_may_be_added() -> None:
    assert _verdict("A 10-visit pass costs £60 and is valid for 3 months.", _PASSES) == "supported"
    assert _verdict("A 10-visit pass costs £60 and is valid for 6 months.", _PASSES) != "supported"
    assert _verdict("A 20-visit pass costs £60.", _PASSES) != "supported"


def test_a_capital_a_before_a_verb_or_a_word_stays_a_label() -> None:
    assert account_tokens("A 4 is the size.")[0].key == "id:a"
    assert account_tokens("A third paper needs a fee.")[0].key == "id:a"
    assert account_tokens("A 20 ml sample is taken.")[0].key == "a"
    assert account_tokens("Rates rose. A 2 GB file copies fast.")[3].key == "a"
    assert account_tokens("Rooms: A 12 desks, B 8 desks.")[2].key == "id:a"


# --- a version named with "of" or as a compound (answer/version_names.py) ---------------

_HEADER = "Club rules revision 3.2, adopted on 5 May 2027; revision 3.1 lapsed on 4 May 2027."


def test_a_version_of_a_document_reads_as_the_compound() -> None:
    claim = "Revision 3.2 of the club rules was adopted on 5 May 2027."
    assert _verdict(claim, _HEADER) == "supported"
    assert list(version_names(claim, _HEADER)) == [
        "Club rules revision 3.2 was adopted on 5 May 2027."
    ]


@pytest.mark.parametrize(
    "claim",
    [
        "Revision 3.1 of the club rules was adopted on 5 May 2027.",  # the other revision
        "Revision 3.2 of the club fees was adopted on 5 May 2027.",  # another document
        "Version 3.2 of the club rules was adopted on 5 May 2027.",  # another version word
    ],
)
def test_another_version_or_document_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _HEADER) != "supported"


def test_a_version_of_a_date_is_no_document() -> None:
    assert list(version_names("Version 4.1 of 9 May 2025 lapsed.", "9 May version 4.1 lapsed.")) == []


# --- the Korean locative 에 after a time word is optional (answer/cjk_forms.py) ----------

_KO = "도서관은 매주 화요일 휴관한다. 반납 후 10분 동안 자료를 소독해야 한다. 주말과 공휴일에는 대출할 수 없다."


@pytest.mark.parametrize(
    "claim",
    [
        "도서관은 매주 화요일에 휴관합니다.",
        "반납 후에는 10분 동안 자료를 소독해야 합니다.",
        "공휴일과 주말에는 대출할 수 없다.",
    ],
)
def test_a_time_word_with_or_without_its_locative_is_supported(claim: str) -> None:
    assert _verdict(claim, _KO) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "도서관은 매주 수요일에 휴관합니다.",  # another weekday
        "반납 전에는 10분 동안 자료를 소독해야 합니다.",  # before, not after
        "평일에는 대출할 수 없다.",  # another kind of day
    ],
)
def test_another_time_with_the_locative_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _KO) != "supported"


# --- a title line without a full stop is a unit of its own (answer/evidence.py) ----------

_TITLED = (
    "Harbour Rowing Club, Pier Road\n"
    "Club rules edition 4, adopted on 2 March 2027; edition 3 lapsed.\n"
    "Boats must be signed out by\n"
    "Coach Meyer before launching.\n"
)


def test_the_line_under_a_title_line_is_read_as_a_sentence() -> None:
    assert _verdict("Edition 4 of the club rules was adopted on 2 March 2027.", _TITLED) == "supported"
    assert _verdict("Edition 3 of the club rules was adopted on 2 March 2027.", _TITLED) != "supported"


def test_a_wrapped_sentence_stays_one_sentence() -> None:
    # "by" ends the line: the next line goes on with the same sentence
    span = EvidenceSpan(evidence_id="E1", text=_TITLED, uri="n.md", start_line=1, end_line=4)
    texts = [u.text for u in _units(span, 0)]
    assert "Harbour Rowing Club, Pier Road" in texts
    assert "Boats must be signed out by\nCoach Meyer before launching." in texts
    assert _verdict("Boats must be signed out by Coach Meyer before launching.", _TITLED) == "supported"
