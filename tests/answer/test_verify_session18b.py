"""Regression tests for session 18b (issue 12): English unit equivalences and table rows.

Each meaning-preserving restatement stands next to meaning-changing neighbours that must
NOT be supported. The sentences are written for these tests, not taken from the verify
set."""

from __future__ import annotations

import pytest

from cairn.answer.frequencies import frequency_intervals
from tests.answer.verdicts import verdict as _verdict

# --- declared units: hectolitres, megawatts, peak watts (answer/normalise.py)

_TANK = "The fermenting vessel holds 35 hectolitres of wort."


@pytest.mark.parametrize("amount", ["3,500 litres", "3,500 l", "3.5 m³", "35 hl"])
def test_hectolitres_convert_exactly(amount: str) -> None:
    assert _verdict(f"The fermenting vessel holds {amount} of wort.", _TANK) == "supported"


@pytest.mark.parametrize(
    "amount",
    ["350 litres", "35 litres", "3,500 ml", "3,500 kg", "about 3,500 litres", "35 dl"],
)
def test_other_volumes_are_not_hectolitres(amount: str) -> None:
    assert _verdict(f"The fermenting vessel holds {amount} of wort.", _TANK) != "supported"


_TURBINE = "Each turbine on the ridge is rated at 2,500 kW."


def test_megawatts_convert_exactly() -> None:
    assert _verdict("Each turbine on the ridge is rated at 2.5 MW.", _TURBINE) == "supported"
    assert _verdict("Each turbine on the ridge is rated at 2.5 megawatts.", _TURBINE) == "supported"


@pytest.mark.parametrize("amount", ["25 MW", "2.5 MWh", "2.5 GW", "2.5 kW", "2,500 W"])
def test_other_powers_are_not_the_rating(amount: str) -> None:
    assert _verdict(f"Each turbine on the ridge is rated at {amount}.", _TURBINE) != "supported"


_ARRAY = "The carport array is 7.2 kWp, facing due south."


def test_peak_watts_convert_within_their_dimension() -> None:
    assert _verdict("The carport array is 7,200 Wp, facing due south.", _ARRAY) == "supported"


@pytest.mark.parametrize("amount", ["7.2 kW", "7,200 W", "72 kWp", "7.2 MWp"])
def test_peak_power_is_not_power_nor_another_peak(amount: str) -> None:
    # A peak rating is not a continuous power: "kWp" never reads as "kW".
    assert _verdict(f"The carport array is {amount}, facing due south.", _ARRAY) != "supported"


# --- a count of times per period as an interval (answer/frequencies.py)

_SERVICE = "The lifts are serviced every 6 months by Apex Elevators."


@pytest.mark.parametrize("freq", ["twice a year", "two times a year", "2 times per year", "twice yearly"])
def test_twice_a_year_is_every_six_months(freq: str) -> None:
    assert _verdict(f"The lifts are serviced {freq} by Apex Elevators.", _SERVICE) == "supported"


@pytest.mark.parametrize(
    "freq",
    [
        "three times a year",  # every 4 months
        "once a year",
        "twice a month",
        "at least twice a year",  # a minimum, not an interval
        "about twice a year",
    ],
)
def test_other_counts_are_not_every_six_months(freq: str) -> None:
    assert _verdict(f"The lifts are serviced {freq} by Apex Elevators.", _SERVICE) != "supported"


_CHECK = "Smoke alarms are tested every 7 days and batteries are replaced every 12 months."


def test_once_a_period_is_every_period() -> None:
    claim = "Smoke alarms are tested once a week and batteries are replaced once a year."
    assert _verdict(claim, _CHECK) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Smoke alarms are tested twice a week and batteries are replaced once a year.",
        "Smoke alarms are tested once a month and batteries are replaced once a year.",
        "Smoke alarms are tested once a week and batteries are replaced twice a year.",
    ],
)
def test_other_frequencies_are_not_the_intervals(claim: str) -> None:
    assert _verdict(claim, _CHECK) != "supported"


def test_a_count_per_day_above_one_is_no_interval() -> None:
    # "three times a day" (with meals) is not "every 8 hours".
    assert frequency_intervals("Take it three times a day.") == "Take it three times a day."
    assert _verdict("Take one capsule three times a day.", "Take one capsule every 8 hours.") != "supported"
    assert _verdict("Take one capsule every 8 hours.", "Take one capsule three times a day.") != "supported"
    assert _verdict("Water the seedlings once a day.", "Water the seedlings every day.") == "supported"


def test_counts_that_do_not_divide_stay() -> None:
    assert frequency_intervals("two times a week") == "two times a week"
    assert frequency_intervals("five times a year") == "five times a year"
    assert frequency_intervals("four times a year") == "every 3 months"
    assert frequency_intervals("two times an hour") == "every 30 minutes"


# --- "an hour and a half", "two and a half hours" (answer/spoken.py)

_DRIVE = "The coach reaches the coast 90 minutes after leaving the depot."


@pytest.mark.parametrize("span", ["an hour and a half", "one hour and a half", "1.5 hours"])
def test_an_hour_and_a_half_is_ninety_minutes(span: str) -> None:
    assert _verdict(f"The coach reaches the coast {span} after leaving the depot.", _DRIVE) == "supported"


@pytest.mark.parametrize("span", ["an hour", "two and a half hours", "a day and a half", "half an hour"])
def test_other_spans_are_not_ninety_minutes(span: str) -> None:
    assert _verdict(f"The coach reaches the coast {span} after leaving the depot.", _DRIVE) != "supported"


def test_number_words_with_a_half() -> None:
    ev = "The workshop lasts 210 minutes."
    assert _verdict("The workshop lasts three and a half hours.", ev) == "supported"
    assert _verdict("The workshop lasts two and a half hours.", ev) != "supported"
    assert _verdict("The workshop lasts three hours.", ev) != "supported"
