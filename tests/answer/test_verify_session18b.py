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
    # "once a day" is left as written too: a dose before it would be read as a rate.
    assert frequency_intervals("Take 2 tablets one time a day.") == "Take 2 tablets one time a day."


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


# --- a none cell read as "no <column>" (answer/table_none.py)

_COURSES = """| course | minimum age | practice sessions | field trips | fee |
|---|---|---|---|---|
| Intro Map Reading | 10 years | 1 | 0 | £40 |
| Night Navigation | 16 years | 0 | 3 | £85 |
| Winter Skills | 18 years | 2 | 2 | £120 |"""


@pytest.mark.parametrize(
    "claim",
    [
        "Night Navigation has no practice sessions.",
        "Night Navigation has no practice sessions and 3 field trips.",
        "Intro Map Reading has 1 practice session and no field trips.",
        "Night Navigation, with no practice sessions, costs £85.",
    ],
)
def test_no_column_reads_a_zero_cell(claim: str) -> None:
    assert _verdict(claim, _COURSES) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Night Navigation has 3 practice sessions and no field trips.",  # "no" on the other column
        "Night Navigation has no field trips.",  # another column's cell is 3
        "Winter Skills has no practice sessions.",  # another row
        "Intro Map Reading has no practice sessions.",  # its cell is 1
        "Night Navigation has no fee.",  # a column that is not none
        "Night Navigation has practice sessions.",  # the none cell read without its "no"
        "Night Navigation has no £85 fee and practice sessions.",
    ],
)
def test_no_column_keeps_its_row_and_column(claim: str) -> None:
    assert _verdict(claim, _COURSES) != "supported"


_PENALTIES = """| Offence | Fine | Ban |
|---|---|---|
| Late return | £15 | none |
| Lost card | £30 | 1 month |"""


def test_no_column_reads_a_none_cell() -> None:
    assert _verdict("Late return is fined £15, with no ban.", _PENALTIES) == "supported"
    assert _verdict("Lost card is fined £30, with no ban.", _PENALTIES) != "supported"
    assert _verdict("Late return is fined £15, with a ban.", _PENALTIES) != "supported"
    assert _verdict("Late return is fined no £15, with ban.", _PENALTIES) != "supported"
    assert _verdict("Late return is fined £30, with no ban.", _PENALTIES) != "supported"


def test_not_applicable_is_no_none() -> None:
    table = "| Unit | Model | Firmware |\n|---|---|---|\n| Pump P1 | Flowmax 20 | n/a |"
    assert _verdict("Pump P1 is a Flowmax 20 with no firmware.", table) != "supported"


# --- a plural weekday for an undated weekday cell (answer/table_days.py)

_PACKAGES = """| package | days | guests | price |
|---|---|---|---|
| Garden Party | Sunday | 60 | £2,400 |
| Weekend Long | Friday or Saturday | 90 | £3,900 |
| Midweek | Monday to Thursday | 60 | £1,800 |"""


def test_plural_weekday_reads_the_weekday_cell() -> None:
    assert _verdict("The Garden Party package is for Sundays and costs £2,400.", _PACKAGES) == "supported"
    assert _verdict("On Sundays the Garden Party package takes 60 guests.", _PACKAGES) != "supported"  # "takes"


@pytest.mark.parametrize(
    "claim",
    [
        "The Garden Party package is for Saturdays and costs £2,400.",  # another day
        "The Weekend Long package is for Sundays and costs £3,900.",  # another row's day
        "The Garden Party package is for Sundays and costs £3,900.",  # another row's price
        "The Midweek package is for Fridays and costs £1,800.",
    ],
)
def test_other_weekdays_are_not_read(claim: str) -> None:
    assert _verdict(claim, _PACKAGES) != "supported"


def test_a_dated_weekday_is_one_day() -> None:
    sheet = "| Day | Date | Scene |\n|---|---|---|\n| 3 | Tuesday 4 May 2027 | Scene 12 on the pier |"
    assert _verdict("On Tuesday 4 May 2027 scene 12 is on the pier.", sheet) == "supported"
    assert _verdict("On Tuesdays scene 12 is on the pier.", sheet) != "supported"


def test_prose_keeps_the_plural() -> None:
    assert _verdict("The market opens on Saturdays.", "The market opens on Saturday 6 June.") != "supported"


# --- "is given" in a row of what is given (answer/table_rows.py)

_DOSES = """| Medicine | Dose | Interval | Duration |
|---|---|---|---|
| Amoxicillin 250 mg tablets | 2 tablets | every 8 hours | 5 days |
| Meloxicam 1.5 mg/ml | 0.5 ml | every 24 hours | 14 days |"""


def test_given_reads_a_dosing_row() -> None:
    claim = "Amoxicillin 250 mg tablets are given as 2 tablets every 8 hours for 5 days."
    assert _verdict(claim, _DOSES) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Amoxicillin 250 mg tablets are given as 2 tablets every 24 hours for 5 days.",  # another row
        "Amoxicillin 250 mg tablets are given as 0.5 ml every 8 hours for 5 days.",
        "Amoxicillin 250 mg tablets are given as 2 tablets every 8 hours for 14 days.",
        "Amoxicillin 250 mg tablets are not given as 2 tablets every 8 hours for 5 days.",
        "Amoxicillin 250 mg tablets are given as 5 tablets every 8 hours for 2 days.",  # cells swapped
    ],
)
def test_given_keeps_the_row(claim: str) -> None:
    assert _verdict(claim, _DOSES) != "supported"


# --- "or" between two amounts per period; "runs from"/"runs every" (answer/table_rows.py)

_HIRE = """| item | per day | per week | deposit |
|---|---|---|---|
| kayak | £30 | £150 | £200 |
| paddle board | £20 | £90 | £100 |"""


def test_or_between_two_rates_of_the_row() -> None:
    assert _verdict("A kayak costs £30 a day or £150 a week.", _HIRE) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "A kayak costs £150 a day or £30 a week.",  # the periods swapped
        "A kayak costs £30 a day or £90 a week.",  # another row's weekly price
        "A kayak costs £30 a day or £200 a week.",  # the deposit as a weekly price
        "A kayak costs £30 a day or £200.",  # the deposit
        "A paddle board costs £30 a day or £150 a week.",  # another row
    ],
)
def test_or_between_rates_keeps_rows_and_columns(claim: str) -> None:
    assert _verdict(claim, _HIRE) != "supported"


_BANDS = """| Band | Hours | Rate |
|---|---|---|
| Night | 00:00 to 06:00 | 11.5 p/kWh |
| Evening | 17:00 to 20:00 | 31.0 p/kWh |"""


def test_runs_from_reads_a_span_of_hours() -> None:
    assert _verdict("The evening band runs from 17:00 to 20:00.", _BANDS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The evening band runs from 00:00 to 06:00.",  # another row's hours
        "The night band runs from 17:00 to 20:00.",
        "The evening band runs from 20:00 to 17:00.",  # ends swapped
        "The evening band runs from 17:00 to 21:00.",
    ],
)
def test_runs_from_keeps_the_row(claim: str) -> None:
    assert _verdict(claim, _BANDS) != "supported"


_ROUTES = """| route | weekday frequency | Sunday frequency |
|---|---|---|
| 4 Harbour loop | every 15 minutes | every 30 minutes |
| 9 Hill circular | every 40 minutes | no service |"""


def test_runs_every_reads_a_frequency_cell() -> None:
    assert _verdict("The 4 Harbour loop runs every 15 minutes on weekdays.", _ROUTES) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The 4 Harbour loop runs every 30 minutes on weekdays.",  # the Sunday cell
        "The 4 Harbour loop is every 30 minutes on weekdays.",  # the Sunday cell (held before)
        "The 4 Harbour loop runs every 40 minutes on weekdays.",  # another row
        "The 9 Hill circular runs every 40 minutes on Sundays.",  # no Sunday service
    ],
)
def test_runs_every_keeps_row_and_column(claim: str) -> None:
    assert _verdict(claim, _ROUTES) != "supported"
