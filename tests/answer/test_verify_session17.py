"""Regression tests for session 17 (issue 12): dates and number words restated.

Each meaning-preserving restatement stands next to meaning-changing neighbours that must
NOT be supported. The sentences are written for these tests, not taken from the verify
set."""

from __future__ import annotations

import pytest

from cairn.answer.spoken import spoken_quantities
from tests.answer.verdicts import verdict as _verdict

# --- two consecutive days joined by "and" = the range of the two (answer/day_pairs.py,
# normalise.range_first_days)

_RANGE = "The trade fair is held in Hall 3 on 11–12 June 2027."


def test_consecutive_days_with_and_are_the_range() -> None:
    assert _verdict("The trade fair is held in Hall 3 on 2027-06-11 and 2027-06-12.", _RANGE) == "supported"
    assert _verdict("The trade fair is held in Hall 3 on 11 June 2027 and 12 June 2027.", _RANGE) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The trade fair is held in Hall 3 on 2027-06-11 and 2027-06-13.",  # another day
        "The trade fair is held in Hall 3 on 2027-06-10 and 2027-06-11.",  # shifted
        "The trade fair is held in Hall 3 on 2027-07-11 and 2027-07-12.",  # another month
        "The trade fair is held in Hall 3 on 2026-06-11 and 2026-06-12.",  # another year
    ],
)
def test_other_days_are_not_the_range(claim: str) -> None:
    assert _verdict(claim, _RANGE) != "supported"


def test_days_further_apart_keep_their_and() -> None:
    # "9 and 11 June" is not "9–11 June" (which holds the 10th too).
    assert _verdict("The trade fair is held on 2027-06-09 and 2027-06-11.", "The trade fair is held on 9–11 June 2027.") != "supported"


# --- noon as a clock time (answer/spoken.py)

_NOON = "The depot sends the weekly return to head office by 12:00 on Friday 5 March 2027."


@pytest.mark.parametrize("word", ["noon", "12 noon", "midday"])
def test_noon_is_twelve_o_clock(word: str) -> None:
    claim = f"The depot sends the weekly return to head office by {word} on Friday 5 March 2027."
    assert _verdict(claim, _NOON) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The depot sends the weekly return to head office by midnight on Friday 5 March 2027.",
        "The depot sends the weekly return to head office by noon on Friday 12 March 2027.",
        "The depot sends the weekly return to head office by noon on Friday 5 March 2026.",
        "The depot sends the weekly return to head office by noon on Thursday 5 March 2027.",
    ],
)
def test_noon_neighbours_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _NOON) != "supported"


def test_noon_against_another_time() -> None:
    ev = "The depot sends the weekly return to head office by 12:30 on Friday."
    assert _verdict("The depot sends the weekly return to head office by noon on Friday.", ev) != "supported"


def test_noon_as_a_modifier_is_left_alone() -> None:
    assert spoken_quantities("the noon meal") == "the noon meal"


# --- a half or quarter of a whole as a percentage (answer/spoken.py)

_SHARE = "At least 75% of each bed must be planted with native species."


@pytest.mark.parametrize("share", ["three-quarters of", "three quarters of"])
def test_three_quarters_of_is_75_percent(share: str) -> None:
    assert _verdict(f"At least {share} each bed must be planted with native species.", _SHARE) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "At least a quarter of each bed must be planted with native species.",
        "About three-quarters of each bed must be planted with native species.",
        "At most three-quarters of each bed must be planted with native species.",
    ],
)
def test_share_neighbours_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _SHARE) != "supported"


def test_half_is_left_as_written() -> None:
    # "half the rent" and "half rent" (an article dropped) read alike; no 50% rule.
    assert _verdict("Tenants pay half rent.", "Tenants pay half the rent.") == "supported"
    assert spoken_quantities("half the repair cost") == "half the repair cost"


def test_three_quarters_of_without_a_determiner() -> None:
    assert spoken_quantities("three quarters of plot") == "75% of plot"


def test_a_quarter_of_an_hour_stays_a_duration() -> None:
    assert spoken_quantities("a quarter of an hour") == "15 minutes"


# --- Korean native numerals of the teens and twenties, and the counter 부 (normalise.py)

_KO = "근로계약서는 3부를 작성하고 주 14시간 이상 근무한다."


def test_korean_native_teens_and_copies() -> None:
    assert _verdict("근로계약서는 세 부를 작성하고 주 열네 시간 이상 근무한다.", _KO) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "근로계약서는 두 부를 작성하고 주 열네 시간 이상 근무한다.",  # another count
        "근로계약서는 세 부를 작성하고 주 열두 시간 이상 근무한다.",  # another number
        "근로계약서는 세 부를 작성하고 주 스물네 시간 이상 근무한다.",
    ],
)
def test_korean_native_neighbours_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _KO) != "supported"


# --- a Chinese/Japanese/Korean clock range with minutes says its half of the day once
# (answer/clock_ranges.py)

_ZH_CLOCK = "图书馆阅览室的开放时间为每天14:30—15:45。"


def test_half_of_day_holds_for_the_second_minute_time() -> None:
    assert _verdict("图书馆阅览室的开放时间为每天下午2:30至3:45。", _ZH_CLOCK) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "图书馆阅览室的开放时间为每天上午2:30至3:45。",  # the other half of the day
        "图书馆阅览室的开放时间为每天下午2:30至4:45。",  # another end
        "图书馆阅览室的开放时间为每天下午3:30至3:45。",  # another start
    ],
)
def test_half_of_day_minute_neighbours_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _ZH_CLOCK) != "supported"


# --- the year of a CJK range's end taken from its start (normalise.py)

_JA_RANGE = "申込期間は2027年9月1日から10月15日までとする。"


def test_yearless_range_end_takes_the_start_year() -> None:
    assert _verdict("申込期間は2027/9/1から2027/10/15までとする。", _JA_RANGE) == "supported"
    assert _verdict("申込期間は2027-09-01から2027-10-15までとする。", _JA_RANGE) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "申込期間は2027/9/1から2028/10/15までとする。",  # another year
        "申込期間は2027/9/1から2027/11/15までとする。",  # another month
        "申込期間は2027/9/1から2027/10/16までとする。",  # another day
    ],
)
def test_yearless_range_end_neighbours_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _JA_RANGE) != "supported"


def test_range_into_the_next_year_is_not_filled() -> None:
    # "2027年12月1日から3月31日" ends in 2028, not in 2027: left as written.
    ev = "申込期間は2027年12月1日から3月31日までとする。"
    assert _verdict("申込期間は2027/12/1から2027/3/31までとする。", ev) != "supported"
