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
