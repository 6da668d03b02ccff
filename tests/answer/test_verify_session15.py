"""Regression tests for the lead's fix after the held-out split test15 (issue 12, session 11).

A claim's "no ..." read against a table row whose cell says "none" states the same
quantifier; another quantifier elsewhere in the row ("any day" under another column) is
then nothing concrete to contradict. The table is a general form, not the verify_set's."""

from __future__ import annotations

from tests.answer.verdicts import verdict as _verdict

_ROOMS = (
    "# Room hire\n\n"
    "| room | days | seated guests | standing guests |\n"
    "|---|---|---|---|\n"
    "| Library | any day | 40 | none |\n"
    "| Long Hall | weekends | 120 | 200 |\n"
)


def test_no_against_a_none_cell_is_not_a_contradiction() -> None:
    assert _verdict("The Library has no standing guests.", _ROOMS) != "contradicted"


def test_a_quantifier_that_conflicts_is_still_contradicted() -> None:
    text = "# Rules\n\nAt least 3 stewards must be on duty at every event.\n"
    assert _verdict("Up to 3 stewards must be on duty at every event.", text) != "supported"


def test_no_against_a_number_cell_is_not_supported() -> None:
    assert _verdict("The Long Hall has no standing guests.", _ROOMS) != "supported"
