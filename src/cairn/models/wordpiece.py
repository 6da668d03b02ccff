"""BERT WordPiece token counts of plain ASCII words in Python, for the budget token counter
(:mod:`cairn.models.tokens`).

A plan counts the tokens of some 460 words it has not seen before; through ``tokenizers``
each costs ≈ 21 µs on this loaded 2-core machine, this ≈ 5 µs (72,185 distinct words of the
tldr pages: the same counts, ``tests/models/test_wordpiece.py``). Only words of printable
ASCII (``!`` to ``~``) are counted here, where BERT's pipeline is simple and exact to
restate: the normalizer only lower-cases them (no control, CJK or accented characters);
the pre-tokenizer splits them into runs of letters and digits and single punctuation
characters (every other printable ASCII character is punctuation to it); WordPiece then
takes the longest vocabulary entry at each position (``##`` before a continuation), and
a piece it cannot cover, or one longer than its character limit, is one unknown token.
Every other word goes to the tokenizer, and so does a word holding one of its added
tokens (``[CLS]``, ``[UNK]``, ...), which it matches before normalizing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

#: Runs of letters and digits of a lower-cased ASCII word (BertPreTokenizer makes each
#: other character a piece of its own, one token: its vocabulary entry or the unknown one).
_RUNS = re.compile(r"[a-z0-9]+")


#: Runs whose WordPiece counts a counter keeps (emptied when full).
CACHED_RUNS = 100_000


class _RunCounts(dict[str, int]):
    """Run -> its piece count, computed on first use: the words a plan has not seen before
    are mostly punctuated (``{{path/to/file}}``, ``--force``), made of runs seen before."""

    def __init__(self, count: Callable[[str], int]) -> None:
        super().__init__()
        self._count = count

    def __missing__(self, run: str) -> int:
        if len(self) >= CACHED_RUNS:
            self.clear()
        n = self[run] = self._count(run)
        return n


def ascii_word_counter(path: Path) -> Callable[[str], int | None] | None:
    """A function giving the token count of one word (no whitespace) by the tokenizer of
    ``tokenizer.json`` at ``path`` (its own vocabulary), or None for a word it leaves
    to the tokenizer (not printable ASCII, or holding an added token); None unless that
    tokenizer is BERT's uncased WordPiece pipeline (the only one restated here)."""
    try:
        spec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    model, normalizer, pre = spec.get("model") or {}, spec.get("normalizer") or {}, spec.get("pre_tokenizer") or {}
    if (model.get("type") != "WordPiece" or normalizer.get("type") != "BertNormalizer"
            or normalizer.get("lowercase") is not True or normalizer.get("clean_text") is not True
            or pre.get("type") != "BertPreTokenizer" or not isinstance(model.get("max_input_chars_per_word"), int)
            or not isinstance(model.get("continuing_subword_prefix"), str) or not isinstance(model.get("vocab"), dict)):
        return None
    vocab: Mapping[str, int] = model["vocab"]
    limit: int = model["max_input_chars_per_word"]
    prefix: str = model["continuing_subword_prefix"]
    added = [str(t["content"]).lower() for t in spec.get("added_tokens") or [] if t.get("content")]
    starts = frozenset(token[0] for token in added)  # a cheap test before looking for them

    def piece_count(piece: str) -> int:
        if piece in vocab:
            return 1
        if len(piece) > limit:
            return 1  # one unknown token
        count, start, end = 0, 0, len(piece)
        while start < end:
            stop = end
            while stop > start:  # the longest entry at ``start``
                if (piece[start:stop] if start == 0 else prefix + piece[start:stop]) in vocab:
                    break
                stop -= 1
            else:
                return 1  # no entry covers ``start``: the whole piece is one unknown token
            count += 1
            start = stop
        return count

    runs = _RunCounts(piece_count)

    def word_count(word: str) -> int | None:
        if not (word.isascii() and word.isprintable()) or " " in word:
            return None
        low = word.lower()
        if not starts.isdisjoint(low) and any(token in low for token in added):
            return None
        if low.isalnum():
            return 1 if low in vocab else piece_count(low)
        found = _RUNS.findall(low)
        return len(low) - sum(map(len, found)) + sum(map(runs.__getitem__, found))

    return word_count


def is_plain_ascii(word: str) -> bool:
    """Whether ``word`` is printable ASCII without spaces (what :func:`ascii_word_counter`
    counts)."""
    return word.isascii() and word.isprintable() and " " not in word
