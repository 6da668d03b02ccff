"""Regression tests for the verifier fixes of session 6 (issue 12), one per cause found
on the tuning splits of ``bench/verify_set``. The sentences are written for the test,
not copied from the set: each cause is tested in general form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn.answer import EvidenceSpan, split_claims, verify_claims


def _verdict(claim: str, evidence: str) -> str:
    span = EvidenceSpan(evidence_id="E1", text=evidence, uri="n.md", start_line=1, end_line=1)
    (v,) = verify_claims(split_claims(claim), [span])
    return v.verdict


# --- cause 1: a claim phrase whose words come from two coordinated parts (false supports)

_SWAPPED = [
    (
        "Senior staff use the red boards and junior staff use the blue boards.",
        "Junior staff use the red boards and senior staff use the blue boards.",
    ),
    (
        "Staff use red boards for raw meat and blue boards for fish.",
        "Staff use red boards for fish and blue boards for raw meat.",
    ),
    (
        "Day staff check the freezer, night staff check the fridge.",
        "Night staff check the freezer, day staff check the fridge.",
    ),
    (
        "Full-time staff get 25 days and part-time staff get 15 days.",
        "Full-time staff get 15 days and part-time staff get 25 days.",
    ),
    ("Small orders ship by air.", "Large orders ship by air and small orders ship by sea."),
    (
        "The kitchen is cleaned weekly and the store daily.",
        "The kitchen is cleaned daily and the store weekly.",
    ),
    (
        "Night staff check the fridge.",
        "Day staff check the fridge and night staff check the freezer.",
    ),
]


@pytest.mark.parametrize(("claim", "evidence"), _SWAPPED)
def test_words_from_two_coordinated_parts_are_never_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Senior staff use the blue boards and junior staff use the red boards.",
            "Junior staff use the red boards and senior staff use the blue boards.",
        ),
        ("Production and staging use Postgres.", "Staging and production use Postgres."),
        (
            "Part-time staff get 15 days.",
            "Full-time staff get 25 days and part-time staff get 15 days.",
        ),
        (
            "Webhooks are sent for the events b.shipped, b.cancelled and b.created.",
            "Webhooks are sent for the events b.created, b.shipped and b.cancelled.",
        ),
        (
            "Backups may run between 22:00 and 05:00 local time only.",
            "Backups may run only between 22:00 and 05:00 local time.",
        ),
    ],
)
def test_reordered_coordinated_parts_keep_their_pairing(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


# --- cause 2: a gapped second clause ("A rose to 5 and B to 7"): its verb is restored


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        ("Costs rose to 7 and sales to 5.", "Sales rose to 5 and costs to 7.", "supported"),
        ("Costs rose to 7.", "Sales rose to 5 and costs to 7.", "supported"),
        ("Costs rose to 5.", "Sales rose to 5 and costs to 7.", None),
        ("Costs rose to 5 and sales to 7.", "Sales rose to 5 and costs to 7.", None),
        (
            "Cooked food is kept on the top shelf and raw fish on the bottom shelf.",
            "Raw fish is kept on the bottom shelf and cooked food on the top shelf.",
            "supported",
        ),
        (
            "Cooked food is kept on the bottom shelf.",
            "Raw fish is kept on the bottom shelf and cooked food on the top shelf.",
            None,
        ),
        ("Children take 10 mg.", "Adults take 5 mg and children 10 mg.", "supported"),
        ("Children take 5 mg.", "Adults take 5 mg and children 10 mg.", None),
        (
            "Trucks are serviced every 20,000 km and vans every 30,000 km.",
            "Vans are serviced every 30,000 km and trucks every 20,000 km.",
            "supported",
        ),
        (
            "Trucks are serviced every 30,000 km and vans every 20,000 km.",
            "Vans are serviced every 30,000 km and trucks every 20,000 km.",
            None,
        ),
        ("Children may take 10 mg.", "Adults must take 5 mg and children 10 mg.", None),
    ],
)
def test_gapped_second_clause(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


def test_a_dropped_if_condition_is_never_supported() -> None:
    assert (
        _verdict("Adults took 5 mg.", "Adults took 5 mg if they weighed over 30 kg.") != "supported"
    )
    assert (
        _verdict(
            "Children take 10 mg.", "Adults take 5 mg and children 10 mg if they weigh over 30 kg."
        )
        != "supported"
    )


# --- cause 3: reordered coordinated prepositional items sharing a trailing phrase


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "Fridges are checked at 15:00 and at 07:00 by the shift cook.",
            "Fridges are checked at 07:00 and at 15:00 by the shift cook.",
            "supported",
        ),
        (
            "Invoices are sent on Monday and on Friday to the client.",
            "Invoices are sent on Friday and on Monday to the client.",
            "supported",
        ),
        (
            "Fridges are checked at 07:00 by the head chef and at 15:00 by the shift cook.",
            "Fridges are checked at 07:00 by the shift cook and at 15:00 by the head chef.",
            None,
        ),
        (
            "Freezers are checked at 15:00 and at 07:00 by the shift cook.",
            "Fridges are checked at 07:00 and freezers at 15:00 by the shift cook.",
            None,
        ),
    ],
)
def test_reordered_prepositional_items_share_their_frame(
    claim: str, evidence: str, verdict: str | None
) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- cause 4: rates per unit of time are one exact value


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "The limit is 1 to 2 requests per second.",
            "The limit is 60 to 120 requests per minute.",
            "supported",
        ),
        ("Trucks may drive at 10 m/s.", "Trucks may drive at 36 km/h.", "supported"),
        ("Trucks may drive at 36 km per hour.", "Trucks may drive at 36 km/h.", "supported"),
        ("Rent is £7,000 per month.", "Rent is £84,000 a year.", "supported"),
        (
            "The pump moves 2 litres per second.",
            "The pump moves 120 litres per minute.",
            "supported",
        ),
        (
            "The limit is 1 to 2 requests per minute.",
            "The limit is 60 to 120 requests per minute.",
            None,
        ),
        (
            "The limit is 60 to 120 requests per second.",
            "The limit is 60 to 120 requests per minute.",
            None,
        ),
        ("The limit is 60 to 120 requests.", "The limit is 60 to 120 requests per minute.", None),
        ("Trucks may drive at 10 km/h.", "Trucks may drive at 36 km/h.", None),
        ("Rent is £7,000 per year.", "Rent is £84,000 a year.", None),
        ("Rent is £84,000.", "Rent is £84,000 a year.", None),
        # Days and months have no exact ratio.
        ("The allowance is €1,350 per month.", "The allowance is €45 per day.", None),
    ],
)
def test_rates_per_unit_of_time(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


def test_a_rate_header_applies_to_its_cells() -> None:
    table = (
        "| Plan | Price per month | Requests per minute |\n|---|---|---|\n| Basic | $49 | 3,000 |"
    )
    span = EvidenceSpan(evidence_id="E1", text=table, uri="n.md", start_line=1, end_line=3)
    claims = split_claims("The Basic plan costs $49 per month. The Basic plan costs $49 per year.")
    month, year = (v.verdict for v in verify_claims(claims, [span]))
    assert month == "supported"
    assert year != "supported"


# --- cause 5: Korean native numerals before a counter


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        ("정원 점검은 매월 2번 실시한다.", "정원 점검은 매월 두 번 실시한다.", "supported"),
        ("회원은 손님 세 명을 데려올 수 있다.", "회원은 손님 3명을 데려올 수 있다.", "supported"),
        ("세대당 자전거는 한 대로 한다.", "세대당 자전거는 1대로 한다.", "supported"),
        ("세대당 자전거는 두 대로 한다.", "세대당 자전거는 1대로 한다.", None),
        ("정원 점검은 매월 세 번 실시한다.", "정원 점검은 매월 두 번 실시한다.", None),
    ],
)
def test_korean_native_numerals(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


def test_korean_words_that_look_like_numerals_stay_words() -> None:
    from cairn.answer.normalise import _cjk_numerals

    for text in ("세대당 1대", "신고한 후 배출한다", "매월 셋째 주"):
        assert _cjk_numerals(text) == text


# --- cause 6: scale words after a number ("£1 million" = £1,000,000)


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "The limit rose from £1 million to £2 million.",
            "The limit rose from £1,000,000 to £2,000,000.",
            "supported",
        ),
        ("The app has 1.5 million users.", "The app has 1,500,000 users.", "supported"),
        (
            "The limit rose from £1 million to £3 million.",
            "The limit rose from £1,000,000 to £2,000,000.",
            None,
        ),
        ("The app has 1.5 thousand users.", "The app has 1,500,000 users.", None),
    ],
)
def test_scale_words(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- cause 7: dates of labels and headings ("Period of cover: 1 April 2026 to ...",
# "## 5.0.0 — 2025-11-20" above "the v3 endpoints were removed")


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "The period of cover is 2026-04-01 to 2027-03-31.",
            "Period of cover: 1 April 2026 to 31 March 2027.",
            "supported",
        ),
        (
            "Last audited on March 3, 2026 by Ana Ruiz.",
            "Last audited: 2026-03-03 by Ana Ruiz.",
            "supported",
        ),
        (
            "The period of cover is 2027-03-31 to 2026-04-01.",
            "Period of cover: 1 April 2026 to 31 March 2027.",
            None,
        ),
        (
            "Last audited on March 3, 2026 by Ana Lopez.",
            "Last audited: 2026-03-03 by Ana Ruiz.",
            None,
        ),
    ],
)
def test_label_dates(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


_CHANGELOG = (
    "# Changelog\n\n## 5.0.0 — 2025-11-20\n\n- The v3 endpoints were removed.\n"
    "- The v4 endpoints will be removed in 6.0.\n- Exports may take 2 hours."
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("The v3 endpoints were removed on November 20, 2025.", "supported"),
        ("The v3 endpoints were removed on November 21, 2025.", None),
        ("The v4 endpoints will be removed on November 20, 2025.", None),
        ("The v4 endpoints were removed on November 20, 2025.", None),
        ("Exports may take 2 hours on November 20, 2025.", None),
    ],
)
def test_a_heading_dates_the_events_under_it(claim: str, verdict: str | None) -> None:
    span = EvidenceSpan(evidence_id="E1", text=_CHANGELOG, uri="n.md", start_line=1, end_line=7)
    (v,) = verify_claims(split_claims(claim), [span])
    if verdict is None:
        assert v.verdict != "supported"
    else:
        assert v.verdict == verdict


# --- cause 8: a dropped phrase that narrows the claim (scope): an alternative ("or"),
# a noun's complement ("of ..."), and for a standing fact or rule a trailing
# prepositional phrase of scope; a past event may drop its details


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "The report is sent to the manager.",
            "The report is sent to the manager or the director.",
            None,
        ),
        (
            "The report is sent to the director.",
            "The report is sent to the manager or the director.",
            None,
        ),
        (
            "The alarm sounds after 5 minutes.",
            "The alarm sounds after 5 minutes of inactivity.",
            None,
        ),
        ("Managers approve expenses.", "Managers approve expenses under €500.", None),
        ("Lunch is free for staff.", "Lunch is free for staff on Fridays.", None),
        ("Staff may work from home.", "Staff may work from home on Fridays.", None),
        ("The report is sent weekly.", "The report is sent weekly during the audit.", None),
        ("The bug was fixed by Ana.", "The bug was fixed by Ana in release 4.2.", "supported"),
        ("Ana fixed the bug.", "Ana fixed the bug in release 4.2.", "supported"),
        (
            "Staff may work from home on Fridays.",
            "Staff may work from home on Fridays.",
            "supported",
        ),
    ],
)
def test_a_dropped_scope_narrows_the_claim(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- cause 9: a word between two names keeps them on its sides (subject and object)


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "Acme signed the contract that Birch drafted.",
            "Birch signed the contract that Acme drafted.",
            None,
        ),
        (
            "The server in Oslo backs up the server in Riga.",
            "The server in Riga backs up the server in Oslo.",
            None,
        ),
        (
            "The server in Riga backs up the server in Oslo.",
            "The server in Riga backs up the server in Oslo.",
            "supported",
        ),
        (
            "The plan was reviewed by Ana Ruiz and written by Tom Hale.",
            "The plan was written by Tom Hale and reviewed by Ana Ruiz.",
            "supported",
        ),
        (
            "Each tenant may keep up to 2 bicycles.",
            "Each tenant may keep up to 2 bicycles.",
            "supported",
        ),
        (
            "Patients were treated for an average period of four months.",
            "The patients were treated with drug A (brand B) for an average period of four months.",
            "supported",
        ),
    ],
)
def test_names_keep_their_sides_of_a_verb(claim: str, evidence: str, verdict: str | None) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- cause 10: a copula added before an active verb turns it into a passive


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        ("The vendor was paid €500.", "The vendor paid €500.", None),
        ("The committee was approved by the board.", "The committee approved the board.", None),
        ("The lease was signed on 2025-07-01.", "Lease signed on 1 July 2025.", "supported"),
        ("The decision was recorded on 2026-03-09.", "Decision recorded: 2026-03-09.", "supported"),
    ],
)
def test_an_added_copula_does_not_make_a_passive(
    claim: str, evidence: str, verdict: str | None
) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- cause 11: a lower-case second subject with its own verb is a clause; a gapped
# second part may open with another comparison word ("above" after "below")


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "Members pay €40 per month and guests pay €10 per visit.",
            "Guests pay €10 per visit and members pay €40 per month.",
            "supported",
        ),
        (
            "Members pay €10 per visit and guests pay €40 per month.",
            "Guests pay €10 per visit and members pay €40 per month.",
            None,
        ),
        (
            "Cold food is kept below 5 °C and hot food above 63 °C.",
            "Hot food is kept above 63 °C and cold food below 5 °C.",
            "supported",
        ),
        (
            "Cold food is kept above 63 °C and hot food below 5 °C.",
            "Hot food is kept above 63 °C and cold food below 5 °C.",
            None,
        ),
        (
            "Cold food is kept above 5 °C.",
            "Hot food is kept above 63 °C and cold food below 5 °C.",
            None,
        ),
        (
            "Storm damage to gates and fences is excluded.",
            "Storm damage to fences and gates is excluded.",
            "supported",
        ),
    ],
)
def test_lower_case_clauses_and_comparison_slots(
    claim: str, evidence: str, verdict: str | None
) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- the session's probe pairs (tuning material, tests/fixtures/verify/README.md)

_PROBES = Path(__file__).resolve().parents[1] / "fixtures" / "verify" / "session6_probes.jsonl"


def test_session6_probes() -> None:
    rows = [json.loads(line) for line in _PROBES.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 60
    false_supports = [
        r["id"]
        for r in rows
        if r["label"] == "unsupported" and _verdict(r["claim"], r["evidence"]) == "supported"
    ]
    missed = [
        r["id"]
        for r in rows
        if r["label"] == "supported" and _verdict(r["claim"], r["evidence"]) != "supported"
    ]
    assert false_supports == []
    assert missed == []


# --- cause 12: coordinated items led by an amount ("2 years for parts and 1 year for
# labour") and gapped clauses whose second subject shares a noun with the first


@pytest.mark.parametrize(
    ("claim", "evidence", "verdict"),
    [
        (
            "The warranty lasts 1 year for labour and 2 years for parts.",
            "The warranty lasts 2 years for parts and 1 year for labour.",
            "supported",
        ),
        (
            "The warranty lasts 2 years for labour and 1 year for parts.",
            "The warranty lasts 2 years for parts and 1 year for labour.",
            None,
        ),
        (
            "The fee is €40 for adults and €20 for children.",
            "The fee is €20 for children and €40 for adults.",
            "supported",
        ),
        (
            "The fee is €20 for adults and €40 for children.",
            "The fee is €20 for children and €40 for adults.",
            None,
        ),
        (
            "The landlord pays for major repairs.",
            "The tenant pays for minor repairs and the landlord for major repairs.",
            "supported",
        ),
        (
            "The tenant pays for major repairs.",
            "The tenant pays for minor repairs and the landlord for major repairs.",
            None,
        ),
    ],
)
def test_amount_led_items_and_gaps_after_a_shared_noun(
    claim: str, evidence: str, verdict: str | None
) -> None:
    got = _verdict(claim, evidence)
    if verdict is None:
        assert got != "supported"
    else:
        assert got == verdict


# --- cause 13: another subject in a statement of another modality is no conflict


def test_another_subject_with_a_modal_is_not_a_contradiction() -> None:
    evidence = "Extracted DNA may be stored at 2–8 °C for up to 7 days."
    assert _verdict("Proteinase K is stored at 2–8 °C.", evidence) == "insufficient"
    assert (
        _verdict("Tom Hale approved the budget.", "Ana Ruiz approved the budget.") == "contradicted"
    )
