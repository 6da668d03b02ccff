"""Read what the graph needs from the store: notes, stored links, typed frontmatter links,
headings and block ids (through :class:`~cairn.store.protocol.LinkStore`; nothing is
cached)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from cairn.graph.frontmatter import frontmatter_links, normalise_key
from cairn.graph.resolve import LinkSpec, Note, block_ids
from cairn.store.protocol import LinkStore

#: Enough text to hold any sensible frontmatter block; larger blocks are read whole.
_HEAD_CHARS = 16384


def load_notes(
    store: LinkStore, collections: Sequence[str] | None, link_keys: Collection[str],
) -> tuple[list[Note], dict[int, dict[str, Any]]]:
    """Active documents of some (or all) collections, and the frontmatter of those that
    carry one of ``link_keys`` (the others need no second look)."""
    wanted = {normalise_key(k) for k in link_keys}
    notes: list[Note] = []
    typed: dict[int, dict[str, Any]] = {}
    for row in store.graph_notes(collections, metadata=bool(wanted)):
        notes.append(Note(row.id, row.docid, row.collection, row.path, row.title, row.aliases))
        meta = row.metadata
        if meta is not None and isinstance(meta, dict) and any(normalise_key(str(k)) in wanted for k in meta):
            typed[row.id] = meta
    return notes, typed


def load_links(
    store: LinkStore, notes: Sequence[Note], typed: dict[int, dict[str, Any]],
    link_keys: Collection[str], *, sources: Collection[int] | None = None,
    like: Sequence[str] | None = None, positions: bool = True,
) -> dict[int, list[LinkSpec]]:
    """Links written in ``notes`` (or only in ``sources``): stored rows plus typed
    frontmatter links, ordered by position.

    ``like`` keeps only links whose target contains one of these lowercase strings (or a
    ``%`` escape): a cheap, necessary pre-filter for backlinks. Without ``positions``,
    frontmatter links get line 0 (see :func:`frontmatter_positions`).
    """
    keys = sorted(n.key for n in notes) if sources is None else sorted(sources)
    out: dict[int, list[LinkSpec]] = {}
    rows: Iterator[Any] = store.link_rows(None if sources is None else keys, like or None)
    allowed: set[int] | None = set(keys) if sources is None else None
    for doc, ln in rows:
        if allowed is not None and doc not in allowed:
            continue
        out.setdefault(doc, []).append(LinkSpec(
            ln.kind, "markdown" if ln.kind == "markdown" else "wiki", ln.target, ln.anchor, ln.alias,
            ln.embed, ln.line, ln.column, ln.raw,
        ))
    wanted = [k for k in keys if k in typed]
    if not wanted:
        return out
    heads = load_text_heads(store, wanted) if positions else {}
    for key in wanted:
        extra = frontmatter_links(typed[key], link_keys, heads.get(key))
        if like:
            extra = [x for x in extra if "%" in x.target or any(s in x.target.lower() for s in like)]
        if extra:
            merged = out.get(key, []) + extra
            merged.sort(key=lambda ln: (ln.line, ln.column))
            out[key] = merged
    return out


def frontmatter_positions(
    store: LinkStore, typed: dict[int, dict[str, Any]], link_keys: Collection[str],
    keys: Collection[int],
) -> dict[tuple[int, int], LinkSpec]:
    """Frontmatter links of some notes with their line, column and raw text, by (note, seq)."""
    wanted = sorted(k for k in keys if k in typed)
    heads = load_text_heads(store, wanted) if wanted else {}
    return {
        (key, spec.seq): spec
        for key in wanted
        for spec in frontmatter_links(typed[key], link_keys, heads.get(key))
    }


def load_text_heads(store: LinkStore, keys: Sequence[int]) -> dict[int, str]:
    """The start of each document's text, long enough to hold its frontmatter block."""
    heads = store.text_prefixes(list(keys), _HEAD_CHARS)
    huge = [key for key, head in heads.items() if len(head) == _HEAD_CHARS]
    if huge:  # a huge frontmatter block: read it all
        heads.update(store.document_texts(huge))
    return heads


def load_headings(store: LinkStore, keys: Collection[int]) -> dict[int, list[tuple[str, int]]]:
    """(text, line) of each heading, per document."""
    return store.heading_rows(keys)


def load_block_ids(store: LinkStore, keys: Collection[int]) -> dict[int, set[str]]:
    """Block ids (``^id`` at a line end) of each document's text."""
    out: dict[int, set[str]] = {key: set() for key in keys}
    for key, text in store.document_texts(sorted(keys)).items():
        out[key] = block_ids(text)
    return out


def load_tagged_documents(store: LinkStore, collection: str | None) -> tuple[int, dict[int, list[str]]]:
    """(active documents, tags of every tagged active document) of one or all collections."""
    return store.tagged_documents(collection)
