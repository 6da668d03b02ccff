"""Sentence and clause boundaries."""

from __future__ import annotations

from cairn.text.sentences import clause_ranges, mask_code, sentence_ranges


def pieces(text: str, ranges: list[tuple[int, int]]) -> list[str]:
    return [text[a:b] for a, b in ranges]


def test_sentences_skip_abbreviations_numbers_and_code() -> None:
    text = "Dr. Smith et al. found 2.5 mg e.g. here. Run `a. b` now! Is it? Yes; but not always"
    assert pieces(text, sentence_ranges(text)) == [
        "Dr. Smith et al. found 2.5 mg e.g. here.",
        "Run `a. b` now!",
        "Is it?",
        "Yes; but not always",
    ]


def test_sentences_of_a_slice_keep_offsets() -> None:
    text = "Skip. One here. Two there."
    ranges = sentence_ranges(text, 6)
    assert pieces(text, ranges) == ["One here.", "Two there."]
    assert ranges[0][0] == 6


def test_soft_abbreviation_ends_a_sentence_before_a_capital() -> None:
    text = "Take 5 mg. Then rest. Give 5 mg. daily"
    assert pieces(text, sentence_ranges(text)) == ["Take 5 mg.", "Then rest.", "Give 5 mg. daily"]


def test_clauses() -> None:
    text = "It rose, but it fell; then -- it stayed whereas others moved"
    assert pieces(text, clause_ranges(text, 0, len(text))) == [
        "It rose", "but it fell", "then", "-- it stayed", "whereas others moved",
    ]  # fmt: skip


def test_mask_code_keeps_length() -> None:
    text = "a `x.y; z` b"
    masked = mask_code(text)
    assert len(masked) == len(text) and "." not in masked and masked.startswith("a `")
