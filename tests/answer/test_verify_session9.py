"""Regression tests for session 9 (issue 12): identifiers matched inside the aligned unit,
two coordinated phrases in the other order, a period after "every" in months or years,
frequency adverbs, and the unit of a range said once. Each equivalence stands next to a
changed neighbour that must not be supported; the sentences are general forms, not the
verify_set's."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- an identifier is matched inside the aligned unit, never from the heading or another
# sentence: "revision C" is not "revision B" under a title that says "Block C".

_TITLED = (
    "# Work plan WP-12: roof repair, {where}\n\n"
    "Work plan WP-12 is revision B, issued on 3 May 2027; revision A is superseded.\n"
)


@pytest.mark.parametrize("where", ["Block C", "Zone C", "Annex C", "Building C"])
def test_an_identifier_in_the_heading_is_not_the_unit_value(where: str) -> None:
    assert (
        _verdict(
            "Work plan WP-12 is revision C, issued on 3 May 2027.", _TITLED.format(where=where)
        )
        != "supported"
    )


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The pump in zone 4 is inspected weekly.",
            "# Pumps\n\nThe pump in zone 3 is inspected weekly. Zone 4 is closed.",
        ),
        (
            "Room B2 is booked for the audit.",
            "# Floor plan, room B3\n\nRoom B1 is booked for the audit.",
        ),
        (
            "The contract is version 3 of the template.",
            "# Version 3\n\nThe contract is version 2 of the template.",
        ),
    ],
)
def test_an_identifier_from_elsewhere_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "Work plan WP-12 is revision B, issued on 3 May 2027.",
        # The heading names the subject with its own label: "Block C" travels together.
        "The Block C work plan is revision B.",
    ],
)
def test_an_identifier_in_its_unit_or_with_its_heading_label_is_supported(claim: str) -> None:
    evidence = "# Work plan, Block C\n\nThe work plan is revision B.\n"
    if "WP-12" in claim:
        evidence = _TITLED.format(where="Block C")
    assert _verdict(claim, evidence) == "supported"


# --- two coordinated phrases in the other order: verb phrases and prepositional phrases.

_PHRASE_PAIRS = [
    (
        "The budget was drafted by analyst Mara Linde and approved by director Tomas Berg.",
        "The budget was approved by director Tomas Berg and drafted by analyst Mara Linde.",
        "The budget was drafted by director Tomas Berg and approved by analyst Mara Linde.",
    ),
    (
        "Fire blankets are kept at the main kitchen and next to the staff room.",
        "Fire blankets are kept next to the staff room and at the main kitchen.",
        "Fire blankets are kept at the staff room and next to the main kitchen.",
    ),
    (
        "Applications must be written in French and submitted through the city portal.",
        "Applications must be submitted through the city portal and written in French.",
        "Applications must be submitted in French and written through the city portal.",
    ),
    (
        "The report was prepared by the safety officer, Dr. Ana Ruiz, and signed by the site manager.",
        "The report was signed by the site manager and prepared by the safety officer, Dr. Ana Ruiz.",
        "The report was signed by the safety officer, Dr. Ana Ruiz, and prepared by the site manager.",
    ),
]


@pytest.mark.parametrize(("evidence", "claim", "_crossed"), _PHRASE_PAIRS)
def test_coordinated_phrases_in_the_other_order_are_supported(
    evidence: str, claim: str, _crossed: str
) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(("evidence", "_claim", "crossed"), _PHRASE_PAIRS)
def test_coordinated_phrases_with_crossed_parts_are_not_supported(
    evidence: str, _claim: str, crossed: str
) -> None:
    assert _verdict(crossed, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # An order stated by the evidence or added by the claim is kept.
        (
            "The tank is drained and then refilled with clean water.",
            "The tank is refilled with clean water and then drained.",
        ),
        (
            "The tank is refilled with clean water and then drained.",
            "The tank is drained and refilled with clean water.",
        ),
        # "respectively" pairs two lists by position.
        (
            "Tickets cost 8 euros and 5 euros for children and adults respectively.",
            "Tickets cost 5 euros and 8 euros for children and adults respectively.",
        ),
        # Parts of two clauses are no conjuncts; nor are conjuncts with other relations.
        ("Alice paid Carol and Bob paid Dave.", "Alice paid Bob and Carol paid Dave."),
        (
            "The parcel was sent to Carol and Bob by Alice.",
            "The parcel was sent to Bob by Alice and Carol.",
        ),
        (
            "The parcel was sent to Carol by Alice and Bob.",
            "The parcel was sent to Bob and Carol by Alice.",
        ),
        # A pronoun would change its antecedent.
        (
            "Inspect the filter and replace it if the valve leaks.",
            "Replace it if the valve leaks and inspect the filter.",
        ),
    ],
)
def test_ordered_or_paired_conjuncts_are_not_swapped(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a period after "every" in months or years, and frequency adverbs.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Members must renew their licence every year.",
            "Members must renew their licence every 12 months.",
        ),
        (
            "Members must renew their licence every 12 months.",
            "Members must renew their licence every year.",
        ),
        (
            "Members must renew their licence annually.",
            "Members must renew their licence every 12 months.",
        ),
        (
            "Members must renew their licence every 2 years.",
            "Members must renew their licence every 24 months.",
        ),
        ("The boiler is serviced every month.", "The boiler is serviced monthly."),
        ("The floor is cleaned daily.", "The floor is cleaned every 24 hours."),
    ],
)
def test_an_exact_period_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Members must renew their licence every month.",
            "Members must renew their licence every 12 months.",
        ),
        (
            "Members must renew their licence monthly.",
            "Members must renew their licence every 12 months.",
        ),
        (
            "Members must renew their licence every year.",
            "Members must renew their licence every 6 months.",
        ),
        ("The floor is cleaned weekly.", "The floor is cleaned every 24 hours."),
        ("The floor is cleaned twice weekly.", "The floor is cleaned every week."),
    ],
)
def test_another_period_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- the unit of a range said once applies to both ends.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("A pilot grant runs for 1 to 1.5 years.", "A pilot grant runs for 12 to 18 months."),
        ("A pilot grant runs for 12 to 18 months.", "A pilot grant runs for 1 to 1.5 years."),
        ("The daily dose is 0.5 to 1 g.", "The daily dose is 500 to 1,000 mg."),
        (
            "The setting takes between 1 and 2 hours.",
            "The setting takes between 60 and 120 minutes.",
        ),
        # A compound number word is one number, no range.
        ("The line is open twenty-four hours a day.", "The line is open 24 hours a day."),
        # An end in words is the same end.
        ("Children aged six to 12 years take 5 mg.", "Children aged 6 to 12 years take 5 mg."),
        (
            "The test is read 2 to 4 days after it.",
            "The test is read forty-eight to 96 hours after it.",
        ),
    ],
)
def test_a_range_with_its_unit_said_once_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("A pilot grant runs for 1 to 2 years.", "A pilot grant runs for 12 to 18 months."),
        ("A pilot grant runs for 12 to 1.5 years.", "A pilot grant runs for 12 to 18 months."),
        ("The daily dose is 0.5 to 1 mg.", "The daily dose is 500 to 1,000 mg."),
        ("Children aged seven to 12 years take 5 mg.", "Children aged 6 to 12 years take 5 mg."),
        ("The line is open twenty-five hours a day.", "The line is open 24 hours a day."),
        ("The test is read 48 to 4 days after it.", "The test is read 48 to 96 hours after it."),
        # A number of an identifier before "to" is no range end.
        ("A test lift of AHU-1 to 0.3 m is planned.", "A test lift of AHU-1 to 3 m is planned."),
    ],
)
def test_a_range_with_other_ends_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a floating "each" after the auxiliary: "Proposals are each reviewed" = "Each proposal
# is reviewed".


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Proposals are each reviewed by three external reviewers.",
            "Each proposal is reviewed by three external reviewers.",
        ),
        (
            "Engineers must each complete the safety course.",
            "Every engineer must complete the safety course.",
        ),
    ],
)
def test_each_after_the_auxiliary_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Proposals are each reviewed by three external reviewers.",
            "One proposal is reviewed by three external reviewers.",
        ),
        (
            "Proposals were each reviewed by three external reviewers.",
            "Each proposal is reviewed by three external reviewers.",
        ),
        (
            "Engineers may each complete the safety course.",
            "Every engineer must complete the safety course.",
        ),
        (
            "Proposals are each reviewed by two external reviewers.",
            "Each proposal is reviewed by three external reviewers.",
        ),
    ],
)
def test_each_after_another_auxiliary_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


# --- a capital "A" label is no article: "revision A" is not "revision B" with "a" dropped.

_POINTS = (
    "| Area | Floor | Assembly point |\n|---|---|---|\n"
    "| Warehouse | ground | A (north car park) |\n| Office block | first | B (front lawn) |\n"
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Lift plan LP-07 is revision A, issued on 12 April 2027.",
            "Lift plan LP-07 is revision B, issued on 12 April 2027.",
        ),
        ("Plan A is approved.", "Plan B is approved."),
        ("Revision A is superseded.", "Revision B is superseded."),
        ("The assembly point for the office block is A, in the north car park.", _POINTS),
    ],
)
def test_a_label_a_is_not_an_article(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Plan A is approved.", "Plan A is approved."),
        ("A plan is approved.", "The plan is approved."),
        ("The assembly point for the warehouse is A, in the north car park.", _POINTS),
    ],
)
def test_a_label_a_or_the_article_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"
