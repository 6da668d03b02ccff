"""What a plan reads of each text it may hand over, stored when the text is written.

A plan counts the tokens of every candidate's text and of its compact form (the budget's
token counter), and looks for the task's words among the light stems of the text's words
(``coverage``). For a memory record or a passage these depend on the text alone, so they
are computed once, when the record is written or the passage indexed (and, for stores
written before, by migration 13), and kept in the index's ``text_facts`` table under the
sha256 of the exact text (:func:`~cairn.memory.texts.text_hash`) with the counter's name.
A plan uses a stored count only when the counter's name matches its own, and computes
whatever is not stored: plans are the same either way, only cheaper with the table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from cairn.memory.texts import record_text, text_hash
from cairn.text.stem import light_stem
from cairn.text.tokens import words

if TYPE_CHECKING:
    from cairn.memory.codec import MemoryRecord
    from cairn.models.tokens import TokenCounter

#: Words kept in a compact form.
COMPACT_WORDS = 24
#: Texts whose word stems :func:`text_stems` keeps (≈ 5 KB each).
TEXT_STEMS_CACHED = 4096


@dataclass(frozen=True, slots=True)
class TextFacts:
    """A text's token count by the counter named ``counter``, and its word stems
    (:func:`text_stems`) as one space-separated, sorted string."""

    counter: str
    tokens: int
    stems: str

    def stem_set(self) -> frozenset[str]:
        """The stems as a set (what :func:`text_stems` gives for the same text)."""
        return frozenset(self.stems.split(" ")) if self.stems else frozenset()


#: Text hash -> its stored facts (what :meth:`TextFactsIndex.text_facts` returns).
FactsByHash = Mapping[str, TextFacts]


@runtime_checkable
class TextFactsIndex(Protocol):
    """A backend that keeps :class:`TextFacts` by text hash (the SQLite store does)."""

    def text_facts(self, hashes: Sequence[str]) -> dict[str, TextFacts]:
        """The stored facts of the texts with these hashes (unknown ones left out)."""
        ...


def compact_text(text: str, title: str | None = None, limit: int = COMPACT_WORDS) -> str:
    """The first ``limit`` words (after the title, when given), cut with an ellipsis."""
    pieces = text.split()
    short = text.strip() if len(pieces) <= limit else " ".join(pieces[:limit]) + " …"
    return f"{title}: {short}" if title else short


@functools.lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    return light_stem(word)


@functools.lru_cache(maxsize=TEXT_STEMS_CACHED)
def text_stems(text: str) -> frozenset[str]:
    """The light stems of ``text``'s words (kept for the texts seen last: a passage or a
    record comes up again for another task)."""
    return frozenset(map(_stem, set(words(text))))


def record_forms(record: MemoryRecord) -> tuple[str, str, str]:
    """A record's title, its full text as a plan hands it over, and its compact form."""
    title, text = record_text(record)
    return title, text, compact_text(text.split("\n", 1)[1] if "\n" in text else "", title)


def passage_forms(body: str) -> tuple[str, str]:
    """A passage's text as a plan hands it over (stripped), and its compact form."""
    text = body.strip()
    return text, compact_text(text)


def facts_rows(texts: Iterable[str], counter: TokenCounter) -> list[tuple[str, str, int, str]]:
    """(hash, counter name, tokens, stems) of each distinct text, for the ``text_facts``
    table. A text one of whose stems is empty or holds a space (none does: words are
    runs of letters and digits) is left out, so every stored stems string reads back exact."""
    distinct = list(dict.fromkeys(texts))
    counts = counter.count(distinct) if distinct else []
    rows = []
    for text, tokens in zip(distinct, counts, strict=True):
        stems = text_stems(text)
        if any(not s or " " in s for s in stems):
            continue
        rows.append((text_hash(text), counter.name, tokens, " ".join(sorted(stems))))
    return rows


def known_facts(read: Callable[[Sequence[str]], FactsByHash] | None, counter: str,
                texts: Sequence[str]) -> list[TextFacts | None]:
    """The stored facts of each text whose count is by ``counter`` (None: compute it);
    ``read`` gives the stored facts of text hashes (None: nothing is stored)."""
    if read is None or not texts:
        return [None] * len(texts)
    hashes = [text_hash(t) for t in texts]
    facts = read(list(dict.fromkeys(hashes)))
    out: list[TextFacts | None] = []
    for digest in hashes:
        found = facts.get(digest)
        out.append(found if found is not None and found.counter == counter else None)
    return out


def counts_of(counter: TokenCounter, texts: Sequence[str], known: Sequence[TextFacts | None]) -> list[int]:
    """Each text's token count: stored when known, else by ``counter`` (the same number)."""
    todo = [t for t, k in zip(texts, known, strict=True) if k is None]
    fresh = iter(counter.count(todo) if todo else [])
    return [k.tokens if k is not None else next(fresh) for k in known]


def stems_of(texts: Sequence[str], known: Sequence[TextFacts | None]) -> list[frozenset[str]]:
    """Each text's :func:`text_stems`: read from the stored facts when known."""
    return [k.stem_set() if k is not None else text_stems(t) for t, k in zip(texts, known, strict=True)]
