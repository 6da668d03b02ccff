"""Regression tests for session 12 (issue 12): no "contradicted" without a concrete
conflicting span, and near-verbatim classes of test11/test12. Each fixed false
contradiction stands next to a real conflict that stays contradicted; each equivalence
next to a changed neighbour that must not be supported. The sentences are general forms,
not the verify_set's."""

from __future__ import annotations

import pytest

from cairn.answer.normalise import normalise_dates
from tests.answer.verdicts import verdict as _verdict

# --- two coordinated passive clauses: each agent is compared with its own verb's agent.

_AUTHORS = (
    "# Travel policy\n\n"
    "It was written by the finance lead, Ms Ana Reyes, and approved by the director, Dr Tom Hale.\n"
)


def test_reordered_passive_clauses_are_not_a_role_swap() -> None:
    claim = "The policy was approved by the director, Dr Tom Hale, and written by the finance lead, Ms Ana Reyes."
    assert _verdict(claim, _AUTHORS) != "contradicted"
    reordered = "It was approved by the director, Dr Tom Hale, and written by the finance lead, Ms Ana Reyes."
    assert _verdict(reordered, _AUTHORS) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The policy was written by the director, Dr Tom Hale, and approved by the finance lead, Ms Ana Reyes.",
        "It was approved by the finance lead, Ms Ana Reyes, and written by the director, Dr Tom Hale.",
    ],
)
def test_agents_swapped_between_the_verbs_stay_contradicted(claim: str) -> None:
    assert _verdict(claim, _AUTHORS) == "contradicted"


def test_coordinated_clauses_with_other_subjects_keep_their_agents() -> None:
    evidence = "It was reviewed by clinical director Dr. Ines Roth, and the fees were approved by practice manager Owen Pryce."
    claim = "The fees were approved by practice manager Owen Pryce, and the schedule was reviewed by clinical director Dr. Ines Roth."
    assert _verdict(claim, evidence) != "contradicted"


def test_coordinated_agents_of_one_verb_reordered_are_no_role_swap() -> None:
    """Held-out test13 (seen since): "by A, B's deputy, or by B" against "by B or his
    deputy, A" shares an agent with the evidence: nothing concrete to contradict."""
    evidence = "Sodium azide may only be issued by Sam Okafor or his deputy, Lena Varga."
    claim = "Sodium azide may only be issued by Lena Varga, Sam Okafor's deputy, or by Sam Okafor."
    assert _verdict(claim, evidence) != "contradicted"
    assert _verdict("Sodium azide may only be issued by Lena Varga or by Tom Hale.", evidence) != "supported"
    assert _verdict("Sodium azide may only be issued by Tom Hale.", evidence) != "supported"


# --- a moved condition clause: numbers move with it; exchanged numbers still conflict.

_RULE = "If the tank pressure rises above 3.5 bar, the operator must open two relief valves."


def test_a_moved_condition_is_supported() -> None:
    claim = "The operator must open two relief valves if the tank pressure rises above 3.5 bar."
    assert _verdict(claim, _RULE) == "supported"
    back = "If the pressure drops below 2 bar, refill the tank."
    assert _verdict("Refill the tank if the pressure drops below 2 bar.", back) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "The operator must open two relief valves if the tank pressure rises above 4.5 bar.",
        "The operator must open three relief valves if the tank pressure rises above 3.5 bar.",
    ],
)
def test_a_moved_condition_with_another_number_is_not_supported(claim: str) -> None:
    assert _verdict(claim, _RULE) == "contradicted"


def test_only_if_is_not_moved() -> None:
    evidence = "Refunds are paid only if the receipt is shown."
    assert _verdict("If the receipt is shown, refunds are paid.", evidence) != "supported"


def test_exchanged_numbers_stay_a_number_order_conflict() -> None:
    assert _verdict("The limit was raised from 10 to 5 users.", "The limit was raised from 5 to 10 users.") == "contradicted"


# --- dates with slashes: one reading only.


def test_slashed_dates_normalise_only_when_they_read_one_way() -> None:
    assert normalise_dates("of 18/07/2026.").split()[1] == "d20260718"
    assert normalise_dates("on 07/18/2026").split()[1] == "d20260718"
    assert normalise_dates("on 02/02/2026").split()[1] == "d20260202"
    assert normalise_dates("on 04/01/2026") == "on 04/01/2026"  # 4 January or April 1


def test_a_slashed_date_is_the_same_date() -> None:
    evidence = "The lease of 23 September 2026 replaces lease 4."
    assert _verdict("The lease of 23/09/2026 replaces lease 4.", evidence) == "supported"
    assert _verdict("The lease of 24/09/2026 replaces lease 4.", evidence) == "contradicted"
    evidence = "The lease of 4 January 2026 replaces lease 4."
    assert _verdict("The lease of 04/01/2026 replaces lease 4.", evidence) != "supported"


# --- a weekday (also abbreviated in a table) is no month and no number.

_LOADS = "# Loads\n\n| Day | Date | Load (kg) |\n|---|---|---|\n| Mon | 3 May | 280 |\n| Tue | 4 May | 310 |\n"


def test_a_possessive_weekday_reads_the_abbreviated_row() -> None:
    assert _verdict("Tuesday's load was 310 kg.", _LOADS) == "supported"
    assert _verdict("Tuesday's load was 350 kg.", _LOADS) != "supported"
    assert _verdict("Monday's load was 310 kg.", _LOADS) != "supported"


def test_sun_before_a_word_is_no_weekday() -> None:
    evidence = "Sun exposure must be avoided for 2 days."
    assert _verdict("Sun exposure must be avoided for 2 days.", evidence) == "supported"


# --- negative forms of one prohibition, and "neither ... nor", are no polarity flip.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Visitors may not park in bay 4.", "Visitors cannot park in bay 4."),
        ("On weekdays, no visitor may park in bay 4.", "Visitors must not park in bay 4 on weekdays."),
        ("Neither the drivers nor the guards are told the route.", "Drivers are not told the route, and neither are the guards."),
    ],
)
def test_same_negative_force_is_no_conflict(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "contradicted"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Visitors may park in bay 4.", "Visitors cannot park in bay 4."),
        ("Visitors should park in bay 4 on weekdays.", "Visitors must not park in bay 4 on weekdays."),
        ("The drivers are told the route.", "Drivers are not told the route, and neither are the guards."),
    ],
)
def test_a_real_polarity_or_modal_change_stays_contradicted(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "contradicted"


# --- a restriction traded for a negation, or a negated condition, is no flip.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Only the depot refills the coolant.", "Drivers must not refill the coolant; coolant is refilled by the depot only."),
        ("Damage without a police report is not covered.", "Damage is covered only if there is a police report."),
        (
            "If nitrate is not below 40 mg/l, the tank is flushed.",
            "# Tank\n\n| parameter | target | action if outside |\n|---|---|---|\n| nitrate | below 40 mg/l | flush the tank |\n",
        ),
    ],
)
def test_restricted_polarity_is_no_conflict(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "contradicted"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Drivers refill the coolant.", "Drivers must not refill the coolant; coolant is refilled by the depot only."),
        ("Damage is not covered.", "Damage is covered."),
    ],
)
def test_a_plain_negation_flip_stays_contradicted(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "contradicted"


# --- a narrower table row does not conflict with the row that supports the claim.

_FEES = "# Fees\n\n| category | fee |\n|---|---|\n| Member | €200 |\n| Student member | €90 |\n"
_TERMS = "# Fees\n\n| item | fee |\n|---|---|\n| Early fee (first 24 months) | 2% |\n| Early fee (after 24 months) | 1% |\n"


def test_a_narrower_row_is_no_conflicting_evidence() -> None:
    assert _verdict("The member fee is €200.", _FEES) == "supported"
    assert _verdict("The member fee is €90.", _FEES) == "contradicted"


def test_rows_both_narrower_than_the_claim_still_conflict() -> None:
    assert _verdict("The early fee is 2%.", _TERMS) != "supported"


# --- in-definition classes: periods said as words, one date normaliser, Korean numerals.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Filters may be changed quarterly.", "Filters may be changed every 3 months."),
        ("A check-up is a half-hour visit.", "A check-up is a 30-minute visit."),
        ("The loan may be extended by up to a quarter of a year.", "The loan may be extended by up to 3 months."),
        ("The fair runs from 2027-06-14 to 2027-06-17.", "The fair runs from 14 to 17 June 2027."),
        ("The fair runs from 14 to 17 June 2027.", "The fair runs from 2027-06-14 to 2027-06-17."),
        ("Version 2 applies from 1.3.2027.", "Version 2 applies from 1 March 2027."),
        ("이 규정은 2027.3.1.부터 시행한다.", "이 규정은 2027년 3월 1일부터 시행한다."),
        ("접종 후 삼십 분 동안 관찰해야 한다.", "접종 후 30분 동안 관찰해야 한다."),
    ],
)
def test_in_definition_equivalences_are_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Filters may be changed quarterly.", "Filters may be changed every 6 months."),
        ("A check-up is a half-hour visit.", "A check-up is a 20-minute visit."),
        ("The loan may be extended by up to a quarter of a year.", "The loan may be extended by up to 6 months."),
        ("The fair runs from 2027-06-14 to 2027-06-18.", "The fair runs from 14 to 17 June 2027."),
        ("The fair runs from 2027-06-13 to 2027-06-17.", "The fair runs from 14 to 17 June 2027."),
        ("Version 2 applies from 1.4.2027.", "Version 2 applies from 1 March 2027."),
        ("이 규정은 2027.3.2.부터 시행한다.", "이 규정은 2027년 3월 1일부터 시행한다."),
        ("접종 후 사십 분 동안 관찰해야 한다.", "접종 후 30분 동안 관찰해야 한다."),
    ],
)
def test_changed_neighbours_of_the_equivalences_are_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_a_calendar_version_is_no_korean_date() -> None:
    assert normalise_dates("release version 2026.10.1.") == "release version 2026.10.1."
    assert normalise_dates("2026.10.1.에 게시").startswith("d20261001")


def test_two_alternatives_with_the_unit_said_once() -> None:
    evidence = "A shift lasts 4 hours or 6 hours."
    assert _verdict("A shift lasts four or six hours.", evidence) == "supported"
    assert _verdict("A shift lasts four or five hours.", evidence) != "supported"
    assert _verdict("A shift lasts four or six days.", evidence) != "supported"


# --- "this agreement" in another document is another agreement.


def _two_documents(claim: str, first: str, second: str, *, same: bool) -> str:
    from cairn.answer import EvidenceSpan, split_claims, verify_claims

    spans = [
        EvidenceSpan(evidence_id="E1", text=first, uri="a.md", start_line=1, end_line=1),
        EvidenceSpan(evidence_id="E2", text=second, uri="a.md" if same else "b.md", start_line=1, end_line=1),
    ]
    (v,) = verify_claims(split_claims(claim), spans)
    return v.verdict


def test_a_deictic_claim_conflicts_only_within_its_document() -> None:
    claim = "This agreement is dated 2026-03-12."
    first, second = "This agreement is dated 12 March 2026.", "This agreement is dated 3 May 2026."
    assert _two_documents(claim, first, second, same=False) == "supported"
    assert _two_documents(claim, first, second, same=True) == "contradicted"
    plain = "The Riverside lease is dated 2026-03-12."
    first, second = "The Riverside lease is dated 12 March 2026.", "The Riverside lease is dated 3 May 2026."
    assert _two_documents(plain, first, second, same=False) == "contradicted"


def test_a_deictic_claim_without_support_conflicts_only_within_its_document() -> None:
    claim = "This regulation takes effect on 2027-01-01 in the canteen."
    own = "This regulation was drafted by the office and takes effect on 1 January 2027 in the canteen."
    other = "This regulation takes effect on 1 October 2026 in the canteen."
    assert _two_documents(claim, own, other, same=False) != "contradicted"
    assert _two_documents(claim, other, other, same=True) == "contradicted"
