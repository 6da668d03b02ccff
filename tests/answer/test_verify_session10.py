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


# --- two prepositional phrases before ", but"/", except" in the other order; "the
# outside deck" holds no relation word ("outside" after an article is an adjective).


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Bikes are allowed in the lobby and on the outside terrace, but not in the lift.", "Bikes are allowed on the outside terrace and in the lobby, but not in the lift."),
        ("Bikes are allowed in the lobby and on the roof, except in the lift.", "Bikes are allowed on the roof and in the lobby, except in the lift."),
    ],
)
def test_two_phrases_before_a_contrast_in_the_other_order(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The heads crossed.
        ("Bikes are allowed in the outside terrace and on the lobby, but not in the lift.", "Bikes are allowed on the outside terrace and in the lobby, but not in the lift."),
        # The contrast's phrase swapped with a conjunct.
        ("Bikes are allowed in the lift and on the outside terrace, but not in the lobby.", "Bikes are allowed on the outside terrace and in the lobby, but not in the lift."),
        # The second phrase moved under the "not".
        ("Bikes are allowed on the outside terrace, but not in the lift and in the lobby.", "Bikes are allowed on the outside terrace and in the lobby, but not in the lift."),
        ("Bikes are allowed on the roof, but not in the lift and in the lobby.", "Bikes are allowed on the roof and in the lobby, but not in the lift."),
    ],
)
def test_crossed_phrases_or_a_phrase_moved_into_the_contrast_are_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a table row read with the rate its label or column header names: "standing charge
# (per year) | £46.80" = "£46.80 a year"; never from another row or column, nor per
# another unit.

_CHARGES = (
    "| charge | water supply | sewerage |\n"
    "|---|---|---|\n"
    "| standing charge (per year) | £38.20 | £46.80 |\n"
    "| volume charge (per m³) | £1.742 | £1.915 |\n"
    "| surface water (per year) | – | £42.00 |\n"
)
_ASSESSED = (
    "| household | assessed charge (water and sewerage, per year) |\n"
    "|---|---|\n"
    "| single occupier | £312.00 |\n"
    "| 2 occupiers | £448.00 |\n"
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The sewerage standing charge is £46.80 a year.", _CHARGES),
        ("The sewerage standing charge is £46.80.", _CHARGES),
        ("The standing charge for sewerage is £46.80 per year.", _CHARGES),
        ("The water supply volume charge is £1.742 per m³.", _CHARGES),
        ("The sewerage volume charge is £1.915 per 1,000 litres.", _CHARGES),
        ("The assessed charge for 2 occupiers is £448.00 a year.", _ASSESSED),
        ("The assessed charge for a single occupier is £312.00 a year.", _ASSESSED),
    ],
)
def test_a_row_label_or_header_rate_applies_to_its_amounts(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The water supply standing charge is £46.80 a year.", _CHARGES),  # another column
        ("The sewerage surface water charge is £46.80 a year.", _CHARGES),  # another row
        ("The sewerage volume charge is £46.80 a year.", _CHARGES),
        ("The sewerage standing charge is £46.80 a month.", _CHARGES),  # another period
        ("The sewerage volume charge is £1.915 per litre.", _CHARGES),
        ("The assessed charge for 2 occupiers is £312.00 a year.", _ASSESSED),
        ("The assessed charge for 2 occupiers is £448.00 a month.", _ASSESSED),
    ],
)
def test_a_rate_cell_from_another_row_column_or_period_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- "runs for" / "takes" a duration in months or years reads a duration cell as "lasts"
# does; never another row's cell nor the months read as weeks.

_GRANTS = (
    "| grant type | maximum grant | duration |\n"
    "|---|---|---|\n"
    "| pilot grant | €90,000 | 12 to 18 months |\n"
    "| research grant | €500,000 | 24 to 36 months |\n"
)


@pytest.mark.parametrize(
    "claim",
    [
        "A pilot grant runs for 1 to 1.5 years.",
        "A pilot grant runs for 12 to 18 months.",
        "A research grant runs for 2 to 3 years.",
    ],
)
def test_a_duration_verb_reads_a_duration_cell_in_months_or_years(claim: str) -> None:
    assert _verdict(claim, _GRANTS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "A pilot grant runs for 2 to 3 years.",  # the next row's
        "A research grant runs for 1 to 1.5 years.",
        "A pilot grant runs for 12 to 18 weeks.",  # another unit
        "A pilot grant runs for 1 to 2 years.",
    ],
)
def test_another_rows_duration_or_unit_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _GRANTS) != "supported"


# The article reading is tried only after the literal words: "single" as a kind of ticket
# or room still reads as written, and one kind's price is never the other's.

_FARES = "| ticket | adult | child |\n|---|---|---|\n| single | £4.80 | £2.40 |\n| return | £8.00 | £4.00 |\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "supported"),
    [
        ("A single ticket costs £4.80 for an adult.", _FARES, True),
        ("An adult single ticket costs £4.80.", _FARES, True),
        ("A single ticket costs £8.00 for an adult.", _FARES, False),
        ("A single room costs £60 a night.", "A single room costs £60 a night. A double room costs £80 a night.", True),
        ("A single room costs £80 a night.", "A single room costs £60 a night. A double room costs £80 a night.", False),
        ("A single room costs £80.", "A single room costs £60 and a double room costs £80.", False),
    ],
)
def test_single_as_a_kind_reads_as_written(claim: str, evidence: str, supported: bool) -> None:
    assert (_verdict(claim, evidence) == "supported") is supported
