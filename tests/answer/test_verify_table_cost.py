""""costs" reads a table row's price cell, not any money cell (issue 12, lead; the known
false support verify20 reported: a dry suit's deposit read as its cost).

Every table and sentence is written for these tests."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict

HIRE = """| Item | Hire price | Deposit |
|---|---|---|
| Dry suit | £35 | £100 |
| Wetsuit | £15 | £50 |"""

COURSES = """| Course | Fee | Refundable deposit | Places |
|---|---|---|---|
| Pottery | €120 | €20 | 12 |
| Life drawing | €95 | €15 | 10 |"""

ONE = """| Plan | Monthly cost | Users |
|---|---|---|
| Team | $49 | 10 |
| Business | $199 | 50 |"""


@pytest.mark.parametrize(
    ("table", "claim"),
    [
        (HIRE, "A dry suit costs £100."),
        (HIRE, "A wetsuit costs £50."),
        (COURSES, "The pottery course costs €20."),
        (COURSES, "Life drawing costs €15."),
    ],
)
def test_costs_does_not_read_another_money_column(table: str, claim: str) -> None:
    assert verdict(claim, table) != "supported"


@pytest.mark.parametrize(
    ("table", "claim"),
    [
        (HIRE, "A dry suit costs £35."),
        (HIRE, "A wetsuit costs £15."),
        (COURSES, "The pottery course costs €120."),
        (ONE, "The Business plan costs $199."),
    ],
)
def test_costs_reads_the_price_column(table: str, claim: str) -> None:
    assert verdict(claim, table) == "supported"


# "the H of <row> is V" / "For <row>, the H is V" equate column H with V: a word of V that
# H's cell lacks and another cell of the row holds is the other column's value (lead,
# session 13; the mutation harness's table-wrong-column variants).
FERRY = """| route | crossing time | first sailing | vehicles allowed |
|---|---|---|---|
| North Sound | 40 minutes | 06:15 | cars and small vans |
| Kell Bay | 25 minutes | 07:30 | foot passengers and bicycles only |"""

LOCKERS = """| locker size | weekly rent | deposit | staff only |
|---|---|---|---|
| large | £6 | £15 | yes |
| small | £3 | £10 | no |"""


@pytest.mark.parametrize(
    ("table", "claim"),
    [
        (FERRY, "The vehicles allowed on Kell Bay are foot passengers and bicycles only."),
        (FERRY, "For North Sound, the vehicles allowed are cars and small vans."),
        (FERRY, "The crossing time of North Sound is 40 minutes."),
        (LOCKERS, "The deposit of a large locker is £15."),
        (LOCKERS, "For the small locker, the deposit is £10."),
    ],
)
def test_a_named_column_keeps_its_own_value(table: str, claim: str) -> None:
    assert verdict(claim, table) == "supported"


@pytest.mark.parametrize(
    ("table", "claim"),
    [
        (FERRY, "The vehicles allowed on Kell Bay are foot passengers and 25 minutes."),
        (FERRY, "For North Sound, the first sailing is cars and small vans."),
        (LOCKERS, "The staff only of the large locker is £15."),
        (LOCKERS, "For the small locker, the staff only is £3."),
    ],
)
def test_a_named_column_is_not_given_another_columns_value(table: str, claim: str) -> None:
    assert verdict(claim, table) != "supported"
