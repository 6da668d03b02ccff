"""Areas and amounts per area, and dates that contain one another (issue 12; found on the
held-out split test22's first look as false contradictions, lead).

Every sentence is written for these tests. "20 g/m²" = "20 grams per square metre" =
"0.02 kg/m²"; another amount, another area unit, or the area dropped is never supported.
A date is contradicted only by another date that does not contain it."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict

RATE = "After heavy frost the salt is spread at 15 grams per square metre on every route."
PLOT = "Each allotment plot measures 250 square metres and the annual rent is £45."


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (RATE, "After heavy frost the salt is spread at 15 g/m² on every route."),
        (RATE, "After heavy frost the salt is spread at 15 g per m2 on every route."),
        (RATE, "After heavy frost the salt is spread at 0.015 kg/m² on every route."),
        ("After heavy frost the salt is spread at 15 g/m² on every route.",
         "After heavy frost the salt is spread at 15 grams per square metre on every route."),
        (PLOT, "Each allotment plot measures 250 m² and the annual rent is £45."),
        (PLOT, "Each allotment plot measures 250 sq m and the annual rent is £45."),
        (PLOT, "Each allotment plot measures 0.025 hectares and the annual rent is £45."),
    ],
)
def test_areas_written_another_way_are_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (RATE, "After heavy frost the salt is spread at 15 g on every route."),
        (RATE, "After heavy frost the salt is spread at 15 kg/m² on every route."),
        (RATE, "After heavy frost the salt is spread at 15 g/cm² on every route."),
        (RATE, "After heavy frost the salt is spread at 15 grams per square foot on every route."),
        (RATE, "After heavy frost the salt is spread at 25 g/m² on every route."),
        ("After heavy frost the salt is spread at 15 g/m² on every route.",
         "After heavy frost the salt is spread at 15 grams on every route."),
        (PLOT, "Each allotment plot measures 250 metres and the annual rent is £45."),
        (PLOT, "Each allotment plot measures 250 square feet and the annual rent is £45."),
        (PLOT, "Each allotment plot measures 2.5 hectares and the annual rent is £45."),
    ],
)
def test_another_amount_area_or_a_dropped_area_is_not_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) != "supported"


def test_a_rate_per_square_metre_is_not_contradicted_by_its_own_spelling() -> None:
    assert verdict("After heavy frost the salt is spread at 15 g/m² on every route.", RATE) == "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("The old permit stays valid until the end of June 2027.",
         "The old permit stays valid until 30 June 2027."),
        ("## 2028 schedule\nFrom May the depot trials electric gritters.",
         "From May 2028 the depot trials electric gritters."),
        ("2028年的工作安排\n5月起，车间开始试用新的包装线。", "2028年5月起，车间开始试用新的包装线。"),
    ],
)
def test_a_date_inside_the_evidence_period_or_without_its_year_is_not_contradicted(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) != "contradicted"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("The old permit stays valid until the end of June 2027.",
         "The old permit stays valid until 30 July 2027."),
        ("The site inspection is on 12 March 2027.", "The site inspection is on 13 March 2027."),
        ("The site inspection is on 12 March 2027.", "The site inspection is on 12 April 2027."),
    ],
)
def test_another_date_is_still_contradicted(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) == "contradicted"


def test_reordered_clauses_with_a_repeated_preposition_are_no_role_swap() -> None:
    evidence = "The red team trains every Monday at 17:00 and the blue team every Wednesday at 18:15."
    reordered = "The blue team trains every Wednesday at 18:15 and the red team every Monday at 17:00."
    swapped = "The red team trains every Monday at 18:15 and the blue team every Wednesday at 17:00."
    assert verdict(reordered, evidence) != "contradicted"
    assert verdict(swapped, evidence) != "supported"
