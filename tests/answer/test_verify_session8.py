"""Regression tests for session 8 (issue 12): English near-verbatim recall by mechanism and
the dropped negation of a table cell. Each equivalence stands next to a changed neighbour
that must not be supported; the sentences are general forms, not the verify_set's."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- a table cell keeps its polarity: a claim that reads a negative cell, by a word of
# its value or by naming its column, must be negated too.

_PLANS = (
    "| Carrier | Coverage | EU roaming | Tethering | Roaming fee |\n"
    "|---|---|---|---|---|\n"
    "| Northwind | 92% | included | yes | £0 per day |\n"
    "| Harbour Telecom | 88% | {roaming} | {tethering} | £2.50 per day |\n"
)


@pytest.mark.parametrize(("roaming", "tethering"), [("not included", "no"), ("No", "–"), ("none", "✗")])
@pytest.mark.parametrize(
    "claim",
    [
        "EU roaming is included with Harbour Telecom.",
        "Harbour Telecom includes EU roaming.",
        "Harbour Telecom has EU roaming.",
        "Harbour Telecom has tethering.",
    ],
)
def test_a_negative_cell_is_not_read_without_its_negation(claim: str, roaming: str, tethering: str) -> None:
    assert _verdict(claim, _PLANS.format(roaming=roaming, tethering=tethering)) != "supported"


@pytest.mark.parametrize(
    ("claim", "roaming", "tethering"),
    [
        ("EU roaming is not included with Harbour Telecom.", "not included", "no"),
        ("Harbour Telecom has no tethering.", "not included", "no"),
        # The positive row is still read, and so is another column of the negative row.
        ("Northwind has EU roaming.", "not included", "no"),
        ("EU roaming is included with Northwind.", "not included", "no"),
        ("The roaming fee of Harbour Telecom is £2.50 per day.", "not included", "no"),
        ("Harbour Telecom has a coverage of 88%.", "not included", "no"),
    ],
)
def test_a_cell_read_with_its_polarity_is_supported(claim: str, roaming: str, tethering: str) -> None:
    assert _verdict(claim, _PLANS.format(roaming=roaming, tethering=tethering)) == "supported"
