"""Regression tests for session 11 (issue 12): classes of near-verbatim restatement from
test11's English misses: base words in "-eed" ("need"), the present perfect of a simple
past, a second conjunct's subject pronoun, a range of small numbers in words. Each
equivalence stands next to a changed neighbour that must not be supported; the sentences
are general forms, not the verify_set's."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- "need", "exceed", "proceed": the stem keeps a base word's "eed" (it was "nee").


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Sealed units do not need a vent.", "Sealed units do not need a vent."),
        ("Late orders need an extra fee of £5.", "Late orders needs an extra fee of £5."),
        ("Batches exceeding 40 kg need a second lifter.", "Batches exceeding 40 kg needs a second lifter."),
        ("The audit proceeds after the vote.", "The audit proceeded after the vote."),
    ],
)
def test_base_words_in_eed_match_their_inflections(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Sealed units need a vent.", "Sealed units do not need a vent."),
        ("Late orders need an extra fee of £5.", "Late orders need an extra fee of £7."),
        ("Batches exceeding 40 kg need a second lifter.", "Batches exceeding 40 kg need no second lifter."),
        ("The audit proceeds after the vote.", "The audit proceeded before the vote."),
    ],
)
def test_base_words_in_eed_still_check_the_rest(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- the present perfect of a simple past; a second conjunct's subject pronoun.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The fitter has replaced the valve and has tested it.", "The fitter replaced the valve and tested it."),
        ("The clerk has logged every parcel.", "The clerk logged every parcel."),
        ("The pump was serviced and it worked at 3 bar.", "The pump was serviced and worked at 3 bar."),
        ("The buyers have signed the lease and they paid the deposit.", "The buyers signed the lease and paid the deposit."),
    ],
)
def test_perfect_and_pronoun_restate_a_simple_past(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The fitter has not replaced the valve and has tested it.", "The fitter replaced the valve and tested it."),
        ("The fitter will have replaced the valve and tested it.", "The fitter replaced the valve and tested it."),
        ("The fitter has replaced the valve and has tested it.", "The fitter should replace the valve and test it."),
        # "has" only for an active simple past: not for a passive or a perfect of its own.
        ("The clerk has logged every parcel.", "Every parcel was logged by the clerk on Monday; the clerk had logged none."),
        ("The pump was serviced and it never worked at 3 bar.", "The pump was serviced and worked at 3 bar."),
        ("The pump was serviced and it has not worked at 3 bar.", "The pump was serviced and worked at 3 bar."),
        ("The pump was serviced and it worked at 4 bar.", "The pump was serviced and worked at 3 bar."),
    ],
)
def test_perfect_and_pronoun_keep_what_they_qualify(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a range of small numbers in words: "two to three weeks" = "2 to 3 weeks".


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The effect can last two to three weeks after the last dose.", "The effect can last 2 to 3 weeks after the last dose."),
        ("Delivery takes three to five days.", "Delivery takes 3–5 days."),
    ],
)
def test_a_worded_range_is_its_digits(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The effect can last two to four weeks after the last dose.", "The effect can last 2 to 3 weeks after the last dose."),
        ("The effect can last one to three weeks after the last dose.", "The effect can last 2 to 3 weeks after the last dose."),
        ("The effect can last three to two weeks after the last dose.", "The effect can last 2 to 3 weeks after the last dose."),
        ("Delivery takes three to five weeks.", "Delivery takes 3–5 days."),
    ],
)
def test_a_worded_range_keeps_its_ends_and_unit(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"
