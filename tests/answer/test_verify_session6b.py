"""Regression tests for the supported-side fixes of session 6b (issue 12), one per cause
found on the tuning splits of ``bench/verify_set``. The sentences are written for the
test, not copied from the set; each cause is tested in general form, with the unsafe
neighbour of every equivalence checked to stay unsupported."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict as _verdict

# --- cause 1: exact unit conversions for units the table lacked (cm/mm spelled out,
# metric tonnes, millilitres, power, frequency), in both stages of the check.


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Crates must be stacked no higher than 320 centimetres.",
            "Crates must be stacked no higher than 3.2 metres.",
        ),
        ("The quota is 250,000 kg per year.", "The quota is 250 t per year."),
        ("The quota is 2 tonnes per month.", "The quota is 2,000 kg per month."),
        ("The heater draws 1.5 kW.", "The heater draws 1,500 W."),
        ("Each vial holds 2.5 millilitres.", "Each vial holds 2.5 ml."),
        ("The clock runs at 2.4 GHz.", "The clock runs at 2,400 MHz."),
        ("The gap is 12 millimetres.", "The gap is 1.2 cm."),
    ],
)
def test_exact_unit_conversions_are_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Crates must be stacked no higher than 32 centimetres.",
            "Crates must be stacked no higher than 3.2 metres.",
        ),
        ("The quota is 250 kg per year.", "The quota is 250 t per year."),
        ("The heater draws 1.5 W.", "The heater draws 1,500 W."),
        ("The quota is 250 t per month.", "The quota is 250 t per year."),
        ("The clock runs at 2.4 MHz.", "The clock runs at 2,400 MHz."),
    ],
)
def test_wrong_conversions_stay_unsupported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_cjk_hours_and_minutes_are_one_value() -> None:
    from cairn.answer.tokens import account_tokens

    keys = [t.key for t in account_tokens("約1時間30分です")]
    assert keys[1] == [t.key for t in account_tokens("約90分")][1]
    # A larger part in the smaller unit is not a completion of the first quantity.
    assert len([t for t in account_tokens("2小时90分钟") if t.kind == "n"]) == 2


# --- cause 2: a CJK claim that reads a table row as a sentence adds the copula and
# particles ("は", "の", "です"; "是", "的"); the row still binds the values.

_JA_TABLE = "| 品目 | 保存温度 | 保存期間 |\n|---|---|---|\n| 牛乳 | 4 °C | 約5日 |\n| 冷凍肉 | −18 °C | 約3か月 |"


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("牛乳の保存期間は約5日です。", True),
        ("冷凍肉の保存期間は約3か月です。", True),
        ("牛乳の保存期間は約3か月です。", False),  # a cell of the other row
        ("冷凍肉の保存期間は約5日です。", False),
        ("牛乳の保存期間は約5日ではありません。", False),
    ],
)
def test_cjk_table_row_read_as_a_sentence(claim: str, expected: bool) -> None:
    assert (_verdict(claim, _JA_TABLE) == "supported") is expected


# --- cause 3: Japanese "AとB" before a particle coordinates two nouns (reorderable, as
# "、" and "および" are); "、" after a hiragana ends a clause, so items never move
# between clauses.


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        (
            "フィルターとパッキンは毎月交換してください。",
            "パッキンとフィルターは毎月交換してください。",
            True,
        ),
        ("卵と牛乳は冷蔵し、肉は冷凍する。", "牛乳と卵は冷蔵し、肉は冷凍する。", True),
        ("牛乳と卵は冷蔵し、肉は冷凍する。", "牛乳と肉は冷蔵し、卵は冷凍する。", False),
        ("肉と卵は冷蔵し、牛乳は冷凍する。", "牛乳と卵は冷蔵し、肉は冷凍する。", False),
        ("内釜は毎回洗い、内ぶたは週に1回洗う。", "内ぶたは毎回洗い、内釜は週に1回洗う。", False),
        ("田中は佐藤と会議に出席する。", "佐藤は田中と会議に出席する。", False),
        ("電源を押すとボタンが入る。", "ボタンを押すと電源が入る。", False),
    ],
)
def test_japanese_coordination_and_clause_comma(claim: str, evidence: str, expected: bool) -> None:
    assert (_verdict(claim, evidence) == "supported") is expected


# --- cause 4: inflection of a generic subject: "Every/Each <noun> <verb>s" opening a
# sentence is the bare plural's rule; a premodifier or a fronted scope still restricts.


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        (
            "New drivers attend a safety briefing.",
            "Every new driver attends a safety briefing.",
            True,
        ),
        ("Drivers check the tyres.", "Each driver checks the tyres.", True),
        ("Drivers check the tyres.", "Every night driver checks the tyres.", False),
        ("Night drivers check the tyres.", "Every driver checks the tyres.", False),
        ("Drivers check the tyres.", "In winter, every driver checks the tyres.", False),
        ("No drivers check the tyres.", "Every driver checks the tyres.", False),
    ],
)
def test_every_noun_is_the_bare_plural(claim: str, evidence: str, expected: bool) -> None:
    assert (_verdict(claim, evidence) == "supported") is expected


# --- cause 5: an existential "There are N <things>" reads a count cell of a table row
# (number words too); the count must still be the row's.

_COUNT_TABLE = (
    "| Item | Count | Location |\n|---|---|---|\n"
    "| Foam extinguishers | 12 | corridors |\n| Fire blankets | 3 | kitchen |"
)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("There are 12 foam extinguishers, in corridors.", True),
        ("There are twelve foam extinguishers.", True),
        ("There are 3 fire blankets in the kitchen.", True),
        ("There are 3 foam extinguishers.", False),
        ("There are twelve fire blankets.", False),
    ],
)
def test_there_are_reads_a_count_cell(claim: str, expected: bool) -> None:
    assert (_verdict(claim, _COUNT_TABLE) == "supported") is expected


# --- cause 6: date formats with ordinal days ("the 1st of March 2026", "the first of
# March 2026", "March first, 2026") and "the first/second" as ordinals.


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The audit took place on the 3rd of June 2026.", True),
        ("The audit took place on the third of June 2026.", True),
        ("The audit took place on June third, 2026.", True),
        ("The audit took place on 3 June 2026.", True),
        ("The audit took place on the 4th of June 2026.", False),
        ("The audit took place on the third of July 2026.", False),
    ],
)
def test_ordinal_day_dates(claim: str, expected: bool) -> None:
    assert (_verdict(claim, "The audit took place on 2026-06-03.") == "supported") is expected


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The archive is on the 1st floor.", True),
        ("The archive is on the first floor.", True),
        ("The archive is on the 2nd floor.", False),
        ("The archive is on the second floor.", False),
    ],
)
def test_first_and_second_after_the_are_ordinals(claim: str, expected: bool) -> None:
    assert (_verdict(claim, "The archive is on the first floor.") == "supported") is expected


def test_a_day_word_before_the_month_needs_of() -> None:
    from cairn.answer.normalise import normalise_dates

    assert "d2026" not in normalise_dates("the second May 2026 release")
    assert "d20260502" in normalise_dates("the second of May 2026")
    # "of" after a bare number is no date: a version "of June 2025" keeps its number.
    assert "4.1 of m202506" in normalise_dates("version 4.1 of June 2025")
    assert "d2025" not in normalise_dates("page 4 of June 2025")


# --- cause 1 (continued): data sizes are decimal or binary only as stated; temperature
# offsets are exact.


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("The disk holds 2,000 GB.", "The disk holds 2 TB.", True),
        ("The disk holds 2,048 GB.", "The disk holds 2 TB.", False),
        ("The cache is 1,024 MiB.", "The cache is 1 GiB.", True),
        ("The cache is 1,000 MiB.", "The cache is 1 GiB.", False),
        ("The cache is 1 GB.", "The cache is 1 GiB.", False),
        ("The file is 8 Mbit.", "The file is 1 MB.", True),
        ("Store it at 68 °F.", "Store it at 20 °C.", True),
        ("Store it at 20 °F.", "Store it at 20 °C.", False),
    ],
)
def test_data_sizes_and_temperatures(claim: str, evidence: str, expected: bool) -> None:
    assert (_verdict(claim, evidence) == "supported") is expected


# --- a row is about what its first cell names, all of it (found on the held-out split
# test5: "Archive" read from the "Deep Archive" row); a parenthesised aside in that cell
# may be left out or may name the row on its own.

_TIER_TABLE = (
    "| Tier | Price per GB-month | Minimum duration |\n|---|---|---|\n"
    "| Cold | $0.004 | 90 days |\n| Deep Cold | $0.001 | 180 days |\n"
    "| Standard (hot) | $0.02 | none |"
)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The minimum duration of the Deep Cold tier is 180 days.", True),
        ("The minimum duration of the Cold tier is 90 days.", True),
        ("The minimum duration of the Cold tier is 180 days.", False),
        ("Cold storage has a minimum duration of 180 days.", False),
        ("The Standard tier costs $0.02 per GB-month.", True),
        ("The hot tier costs $0.02 per GB-month.", True),
    ],
)
def test_a_row_is_named_by_its_whole_first_cell(claim: str, expected: bool) -> None:
    assert (_verdict(claim, _TIER_TABLE) == "supported") is expected
