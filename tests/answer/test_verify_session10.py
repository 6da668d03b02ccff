"""Regression tests for session 10 (issue 12): an article that counts one, pence with a
decimal part, a counted amount after "per". Each equivalence stands next to a changed
neighbour that must not be supported; the sentences are general forms, not the
verify_set's."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- an article that counts one: "a"/"an" before a unit after a word that leads a length,
# "a single" before a noun; never the "a" of a rate ("once a year", "£40 a year").


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Alerts are sent at least an hour before the window.", "Alerts are sent at least 1 hour before the window."),
        ("Alerts are sent at least 1 hour before the window.", "Alerts are sent at least an hour before the window."),
        ("If the fridge stays warm for more than a day, tell the manager.", "If the fridge stays warm for more than 24 hours, tell the manager."),
        ("The samples are kept for a year.", "The samples are kept for 12 months."),
        ("The crates travel in a single van with 2 drivers.", "The crates travel in 1 van with 2 drivers."),
        ("Refunds are paid within a week.", "Refunds are paid within 7 days."),
    ],
)
def test_an_article_that_counts_one_is_one(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Alerts are sent at least 2 hours before the window.", "Alerts are sent at least an hour before the window."),
        ("Alerts are sent at least an hour before the window.", "Alerts are sent at least 2 hours before the window."),
        ("Alerts are sent at least a day before the window.", "Alerts are sent at least 1 hour before the window."),
        ("If the fridge stays warm for more than a day, tell the manager.", "If the fridge stays warm for more than 12 hours, tell the manager."),
        ("The crates travel in a single van with 2 drivers.", "The crates travel in 2 vans with 2 drivers."),
        ("Refunds are paid within a week.", "Refunds are paid within 7 working days."),
        # The "a" of a rate is "per", never one.
        ("Meters are read once in 1 year.", "Meters are read once a month."),
        ("The fee is £40 for 1 year.", "The fee is £40 a month."),
        ("Take 2 tablets in 1 week.", "Take 2 tablets a day."),
    ],
)
def test_a_changed_count_or_unit_or_a_rate_is_not_one(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- pence with a decimal part, as tariffs state unit rates: "165.5p" = "£1.655".


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The unit rate rises from 165.5p to 174.2p per kWh.", "The unit rate rises from £1.655 to £1.742 per kWh."),
        ("The unit rate is £0.125 per kWh.", "The unit rate is 12.5p per kWh."),
        ("The stamp costs 85p.", "The stamp costs £0.85."),
    ],
)
def test_pence_with_a_decimal_part_are_pounds(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The unit rate is 16.55p per kWh.", "The unit rate is £1.655 per kWh."),
        ("The unit rate is 1655p per kWh.", "The unit rate is £1.655 per kWh."),
        ("The unit rate is 1.655p per kWh.", "The unit rate is £1.655 per kWh."),
        ("The unit rate is 165.5 cents per kWh.", "The unit rate is £1.655 per kWh."),
        # A video resolution is no amount of money.
        ("The stream is £7.20.", "The stream is 720p."),
    ],
)
def test_pence_at_another_scale_or_currency_are_not_pounds(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a counted amount after "per": "per 1,000 litres" = "per m³".


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The volume charge is £1.915 per 1,000 litres.", "The volume charge is £1.915 per m³."),
        ("The volume charge is £1.915 per m³.", "The volume charge is £1.915 per 1,000 litres."),
        ("The bar contains sugar at 5 g per 100 g.", "The bar contains sugar at 50 g per kg."),
    ],
)
def test_a_counted_amount_after_per_is_its_unit(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The volume charge is £1.915 per 100 litres.", "The volume charge is £1.915 per m³."),
        ("The volume charge is £1.915 per litre.", "The volume charge is £1.915 per 1,000 litres."),
        ("The bar contains sugar at 5 g per 10 g.", "The bar contains sugar at 5 g per 100 g."),
    ],
)
def test_another_amount_after_per_is_not_the_same(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
