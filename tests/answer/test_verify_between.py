"""The two ends of "between X and Y" keep their order (issue 12, session 9; test12's
false support: "switched on between sunrise and sunset" from "between sunset and
sunrise")."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict

LIGHTS = "Front and rear lights must be switched on between sunset and sunrise."
SHOP = "The shop is open between 17:00 and 9:00."


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Front and rear lights must be switched on between sunrise and sunset.", LIGHTS),
        ("Lights must be switched on between sunrise and sunset.", LIGHTS),
        ("The shop is open between 9:00 and 17:00.", SHOP),
        ("The dose is between 10 and 5 mg.", "The dose is between 5 and 10 mg."),
    ],
)
def test_reversed_ends_are_not_supported(claim: str, evidence: str) -> None:
    assert verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (LIGHTS, LIGHTS),
        ("Rear and front lights must be switched on between sunset and sunrise.", LIGHTS),
        ("The shop is open between 17:00 and 9:00.", SHOP),
        (
            "Quiet hours apply to all guests and are between 22:00 and 07:00.",
            "Quiet hours are between 22:00 and 07:00 and apply to all guests.",
        ),
    ],
)
def test_ends_in_the_evidence_order_stay_supported(claim: str, evidence: str) -> None:
    assert verdict(claim, evidence) == "supported"
