"""Regression tests for session 7b (issue 12): the causes of split test7's misses and
its one false support, each in general form (not the test7 sentences) next to the
neighbour that must keep its verdict."""

from __future__ import annotations

import pytest

from cairn.answer.tokens import account_tokens
from tests.answer.verdicts import verdict as _verdict

# --- false support: a coordinated list of the claim gathered across a semicolon (its
# last item belongs to another clause, with another verb).


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The grant covers travel, meals and lodging.",
            "The grant covers travel and meals; lodging and visas are paid by the host.",
        ),
        (
            "The pool is open to members or guests.",
            "The pool is open to members; guests or visitors must book the sauna.",
        ),
    ],
)
def test_a_list_is_not_gathered_across_a_semicolon(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The items within one clause may still be listed or reordered.
        (
            "The grant covers meals and travel.",
            "The grant covers travel and meals; lodging and visas are paid by the host.",
        ),
        # Neighbours from two clauses that are no list stay allowed.
        ("The DNS TTL is 60 seconds.", "Switch DNS; the TTL is 60 seconds."),
    ],
)
def test_a_list_within_one_clause_is_still_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


# --- supported claims that were marked contradicted: equivalent statements, no
# conflicting span.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # A change's two ends in the other order, each with its own preposition.
        ("The quota was raised to 12 GB from 8 GB.", "The quota was raised from 8 GB to 12 GB."),
        (
            "The API was moved to version 4.2 from version 3.9 in May.",
            "The API was moved from version 3.9 to version 4.2 in May.",
        ),
        ("The fee fell to €9.50 from €12.00.", "The fee fell from €12.00 to €9.50."),
        # The two sides of a size in either order.
        ("The tiles are 300 mm by 600 mm.", "The tiles are 600 mm by 300 mm."),
        # A Korean count of years is a duration (24개월 = 2년).
        ("보증 기간은 구입일로부터 24개월이다.", "보증 기간은 구입일로부터 2년이다."),
        # A clock time with its half of the day is the 24-hour time.
        (
            "정기 점검은 매주 금요일 15:30에 시작한다.",
            "정기 점검은 매주 금요일 오후 3시 30분에 시작한다.",
        ),
        ("例会在每周一09:00召开。", "例会在每周一上午9点召开。"),
    ],
)
def test_an_equivalent_statement_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The values trade prepositions: a real swap.
        ("The quota was raised to 8 GB from 12 GB.", "The quota was raised from 8 GB to 12 GB."),
        # A changed side of the size.
        ("The tiles are 300 mm by 500 mm.", "The tiles are 600 mm by 300 mm."),
        # "by" that is not between two lengths keeps its roles.
        ("Dana Roe was replaced by Ali Chen.", "Ali Chen was replaced by Dana Roe."),
        # A different duration or half of the day.
        ("보증 기간은 구입일로부터 36개월이다.", "보증 기간은 구입일로부터 2년이다."),
        (
            "정기 점검은 매주 금요일 03:30에 시작한다.",
            "정기 점검은 매주 금요일 오후 3시 30분에 시작한다.",
        ),
    ],
)
def test_a_changed_value_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_a_calendar_year_is_no_duration() -> None:
    keys = [t.key for t in account_tokens("이 규정은 2027년부터 시행한다.")]
    assert not any(k.startswith("q:") for k in keys)
    assert any(k.startswith("q:months:") for k in (t.key for t in account_tokens("3년 동안")))


# --- near-verbatim misses by cause: quantities said in words (a fraction of an hour,
# "twice", "5.30 pm"), MWh, Korean counts of weeks and times.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Backups run every half hour.", "Backups run every 30 minutes."),
        ("The call must end within half an hour.", "The call must end within 30 minutes."),
        ("The dough rests for a quarter of an hour.", "The dough rests for 15 minutes."),
        ("The drive takes three quarters of an hour.", "The drive takes 45 minutes."),
        ("The test lasts 2 and a half hours.", "The test lasts 2.5 hours."),
        ("The filter is rinsed twice a week.", "The filter is rinsed two times a week."),
        ("The desk is staffed until 6.30 pm.", "The desk is staffed until 18:30."),
        ("The plant produces 3.5 GWh a year.", "The plant produces 3,500 MWh a year."),
        ("보고서는 1주일 동안 보관한다.", "보고서는 7일 동안 보관한다."),
        ("계약은 1회에 한하여 7일 연장할 수 있다.", "계약은 한 번에 한하여 1주 연장할 수 있다."),
        ("소방 점검은 매년 2회 실시한다.", "소방 점검은 매년 두 번 실시한다."),
    ],
)
def test_a_quantity_said_in_words_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Backups run every half hour.", "Backups run every 20 minutes."),
        ("The dough rests for a quarter of an hour.", "The dough rests for 25 minutes."),
        ("The filter is rinsed twice a week.", "The filter is rinsed three times a week."),
        ("The desk is staffed until 6.30 pm.", "The desk is staffed until 06:30."),
        ("The plant produces 3.5 MWh a year.", "The plant produces 3,500 kWh a month."),
        ("보고서는 2주일 동안 보관한다.", "보고서는 7일 동안 보관한다."),
        ("소방 점검은 매년 3회 실시한다.", "소방 점검은 매년 두 번 실시한다."),
        # "once" as the conjunction is no count.
        (
            "Access is granted one time the form is signed.",
            "Access is granted once the form is signed.",
        ),
    ],
)
def test_a_changed_spoken_quantity_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- CJK coordination: Chinese 和 is the enumeration comma; Korean "or" between nouns
# or between two 하-verbs may be reordered.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("春节和国庆期间暂停受理。", "春节、国庆期间暂停受理。"),
        ("国庆和春节期间暂停受理。", "春节、国庆期间暂停受理。"),
        ("회의실에서 음식이나 음료를 섭취할 수 없다.", "회의실에서 음료나 음식을 섭취할 수 없다."),
        ("변경하거나 삭제한 기록은 복구할 수 없다.", "삭제하거나 변경한 기록은 복구할 수 없다."),
    ],
)
def test_cjk_coordinated_items_may_be_reordered(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("春节和元旦期间暂停受理。", "春节、国庆期间暂停受理。"),
        ("회의실에서 음식이나 담배를 섭취할 수 없다.", "회의실에서 음료나 음식을 섭취할 수 없다."),
        ("변경하거나 복사한 기록은 복구할 수 없다.", "삭제하거나 변경한 기록은 복구할 수 없다."),
    ],
)
def test_a_changed_cjk_item_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- dates and generic subjects: "effective from DATE" = "effective DATE"; one generic
# member of what "All" states.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The tariff is effective from 2027-04-01.", "The tariff is effective 1 April 2027."),
        (
            "The handbook is effective from 1 May 2026.",
            "The handbook is edition 3, effective 2026-05-01; it replaces edition 2.",
        ),
        (
            "A visitor badge is returned at the desk.",
            "All visitor badges are returned at the desk.",
        ),
        ("An invoice is paid within 30 days.", "Every invoice is paid within 30 days."),
    ],
)
def test_an_equivalent_date_or_generic_subject_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The tariff is effective from 2027-04-02.", "The tariff is effective 1 April 2027."),
        ("The tariff is effective until 2027-04-01.", "The tariff is effective 1 April 2027."),
        (
            "All visitor badges are returned at the desk.",
            "A visitor badge is returned at the desk.",
        ),
        (
            "A visitor badge is returned at the gate.",
            "All visitor badges are returned at the desk.",
        ),
        (
            "A visitor badge is returned at the desk.",
            "Not all visitor badges are returned at the desk.",
        ),
    ],
)
def test_a_changed_date_or_widened_subject_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
