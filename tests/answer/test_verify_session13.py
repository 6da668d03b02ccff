"""Regression tests for session 13 (issue 12): table cells restated as sentences.

Each table reading stands next to a wrong-row or wrong-column neighbour that must NOT be
supported: a claim that names a column must state that column's cell
(:mod:`cairn.answer.table_columns`), and a claim word that is another form of a header or
heading word ("inspected" for "Inspection") is accounted only where the claim gives that
column's value (:mod:`cairn.answer.table_headers`). The tables are general forms, not the
verify_set's."""

from __future__ import annotations

import pytest

from cairn.answer.table_headers import derived_from
from cairn.answer.tokens import account_tokens
from tests.answer.verdicts import verdict as _verdict

_PLOTS = (
    "# Garden rules\n\n"
    "## Rents\n\n"
    "| plot | area | annual rent | deposit |\n"
    "|---|---|---|---|\n"
    "| small plot | 40 m² | £25 | £20 |\n"
    "| large plot | 160 m² | £70 | £60 |\n"
)


@pytest.mark.parametrize(
    "claim",
    ["The area of the small plot is 40 m².", "For the large plot, the deposit is £60."],
)
def test_a_named_column_read_from_its_own_cell_is_supported(claim: str) -> None:
    assert _verdict(claim, _PLOTS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The area of the small plot is £25.",  # the rent, said of the area column
        "For the large plot, the deposit is £70.",  # the rent, said of the deposit
        "The deposit of the small plot is £25.",
    ],
)
def test_a_value_of_another_column_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _PLOTS) != "supported"


@pytest.mark.parametrize(
    "claim", ["The area of the small plot is 160 m².", "For the large plot, the deposit is £20."]
)
def test_a_value_of_another_row_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _PLOTS) != "supported"


_SERVICE = (
    "# Depot equipment\n\n"
    "## Checks\n\n"
    "| equipment | inspection | replacement |\n"
    "|---|---|---|\n"
    "| Hose reel | every 6 months | every 10 years |\n"
    "| Alarm panel | every 3 months | every 15 years |\n"
)


def test_a_verb_made_of_the_header_reads_that_column() -> None:
    assert _verdict("The hose reel is inspected every 6 months.", _SERVICE) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The hose reel is inspected every 10 years.",  # the replacement column's value
        "The hose reel is inspected every 3 months.",  # the alarm panel's row
        "The alarm panel is inspected every 15 years.",
    ],
)
def test_a_verb_made_of_the_header_keeps_its_column_and_row(claim: str) -> None:
    assert _verdict(claim, _SERVICE) != "supported"


_ORDER_COLUMNS = (
    "# Service levels\n\n"
    "| priority | basic response | premium response |\n"
    "|---|---|---|\n"
    "| P2 | 2 business days | 4 hours |\n"
)


def test_a_header_word_inside_another_columns_value_names_nothing() -> None:
    # "business" of "2 business days" does not name the "basic response" column... and
    # the premium column's value is read from its own cell.
    assert _verdict("The premium response of P2 is 4 hours.", _ORDER_COLUMNS) == "supported"
    assert _verdict("The premium response of P2 is 2 business days.", _ORDER_COLUMNS) != "supported"


_TIMETABLE = (
    "# Coast line\n\n"
    "## Departures\n\n"
    "| train | Northbay arr. | Southcliff arr. |\n"
    "|---|---|---|\n"
    "| CL 12 | 09:10 | 09:45 |\n"
    "| CL 14 | 10:10 | 10:45 |\n"
)


def test_an_abbreviated_header_reads_as_its_verb() -> None:
    assert _verdict("CL 12 arrives at Southcliff at 09:45.", _TIMETABLE) == "supported"


@pytest.mark.parametrize(
    "claim", ["CL 12 arrives at Southcliff at 09:10.", "CL 12 arrives at Southcliff at 10:45."]
)
def test_an_abbreviated_header_keeps_its_column_and_row(claim: str) -> None:
    assert _verdict(claim, _TIMETABLE) != "supported"


def test_derived_forms_share_their_word_only() -> None:
    (inspected,), (inspection,), (insured,), (insurance,) = (
        account_tokens(w) for w in ("inspected", "Inspection", "insured", "insurance")
    )
    (location,), (located,), (lower,), (low,) = (
        account_tokens(w) for w in ("location", "locked", "lower", "low")
    )
    assert derived_from(inspected, inspection) and derived_from(insured, insurance)
    assert not derived_from(located, location)
    assert not derived_from(lower, low)
