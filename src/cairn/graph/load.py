"""Read what the graph needs from the store: notes, stored links, typed frontmatter links,
headings and block ids. Plain SQL over the tables the indexer writes; nothing is cached."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from cairn.graph.frontmatter import frontmatter_links, normalise_key
from cairn.graph.resolve import LinkSpec, Note, block_ids
from cairn.store.sqlite import SQLiteStore

#: Enough text to hold any sensible frontmatter block; larger blocks are read whole.
_HEAD_CHARS = 16384
_CHUNK = 500


def _chunks(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    for i in range(0, len(ids), _CHUNK):
        yield ids[i : i + _CHUNK]


def load_notes(
    store: SQLiteStore, collections: Sequence[str] | None, link_keys: Collection[str],
) -> tuple[list[Note], dict[int, dict[str, Any]]]:
    """Active documents of some (or all) collections, and the frontmatter of those that
    carry one of ``link_keys`` (the others need no second look)."""
    sql = (
        "SELECT d.id, d.docid, c.name, d.path, d.title, d.aliases, d.metadata FROM documents d"
        " JOIN collections c ON c.id = d.collection_id WHERE d.active = 1"
    )
    params: list[Any] = []
    if collections is not None:
        sql += f" AND c.name IN ({','.join('?' * len(collections))})"
        params += list(collections)
    wanted = {normalise_key(k) for k in link_keys}
    notes: list[Note] = []
    typed: dict[int, dict[str, Any]] = {}
    for key, docid, col, path, title, aliases, metadata in store.conn.execute(sql, params):
        notes.append(Note(key, docid, col, path, title, tuple(json.loads(aliases)) if aliases != "[]" else ()))
        if wanted and metadata != "{}":
            meta = json.loads(metadata)
            if isinstance(meta, dict) and any(normalise_key(str(k)) in wanted for k in meta):
                typed[key] = meta
    return notes, typed


def load_links(
    store: SQLiteStore, notes: Sequence[Note], typed: dict[int, dict[str, Any]],
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
    base = "SELECT document_id, kind, target, anchor, alias, embed, line, col, raw FROM links"
    params: list[Any] = []
    where = ""
    if like:
        where = "(instr(target, '%') > 0 OR " + " OR ".join(["instr(lower(target), ?) > 0"] * len(like)) + ")"
        params = list(like)
    if sources is None:
        sql = base + (f" WHERE {where}" if where else "") + " ORDER BY document_id, seq"
        rows: Iterator[Any] = store.conn.execute(sql, params)
        allowed: set[int] | None = set(keys)
    else:
        rows = (
            row
            for part in _chunks(keys)
            for row in store.conn.execute(
                base + f" WHERE document_id IN ({','.join('?' * len(part))})"
                + (f" AND {where}" if where else "") + " ORDER BY document_id, seq",
                [*part, *params],
            )
        )
        allowed = None
    for doc, kind, target, anchor, alias, embed, line, col, raw in rows:
        if allowed is not None and doc not in allowed:
            continue
        out.setdefault(doc, []).append(LinkSpec(
            kind, "markdown" if kind == "markdown" else "wiki", target, anchor, alias,
            bool(embed), line, col, raw,
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
    store: SQLiteStore, typed: dict[int, dict[str, Any]], link_keys: Collection[str],
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


def load_text_heads(store: SQLiteStore, keys: Sequence[int]) -> dict[int, str]:
    """The start of each document's text, long enough to hold its frontmatter block."""
    heads: dict[int, str] = {}
    for part in _chunks(list(keys)):
        marks = ",".join("?" * len(part))
        for key, head in store.conn.execute(
            f"SELECT document_id, substr(text, 1, {_HEAD_CHARS}) FROM document_text"
            f" WHERE document_id IN ({marks})",
            list(part),
        ):
            heads[key] = head
    for key, head in list(heads.items()):
        if len(head) == _HEAD_CHARS:  # a huge frontmatter block: read it all
            row = store.conn.execute(
                "SELECT text FROM document_text WHERE document_id = ?", (key,)
            ).fetchone()
            heads[key] = row[0]
    return heads


def load_headings(store: SQLiteStore, keys: Collection[int]) -> dict[int, list[tuple[str, int]]]:
    """(text, line) of each heading, per document."""
    out: dict[int, list[tuple[str, int]]] = {key: [] for key in keys}
    for part in _chunks(sorted(keys)):
        marks = ",".join("?" * len(part))
        for key, text, line in store.conn.execute(
            f"SELECT document_id, text, line FROM headings WHERE document_id IN ({marks})"
            " ORDER BY document_id, seq",
            list(part),
        ):
            out[key].append((text, line))
    return out


def load_block_ids(store: SQLiteStore, keys: Collection[int]) -> dict[int, set[str]]:
    """Block ids (``^id`` at a line end) of each document's text."""
    out: dict[int, set[str]] = {key: set() for key in keys}
    for part in _chunks(sorted(keys)):
        marks = ",".join("?" * len(part))
        for key, text in store.conn.execute(
            f"SELECT document_id, text FROM document_text WHERE document_id IN ({marks})", list(part)
        ):
            out[key] = block_ids(text)
    return out


def load_tagged_documents(store: SQLiteStore, collection: str | None) -> tuple[int, dict[int, list[str]]]:
    """(active documents, tags of every tagged active document) of one or all collections."""
    where = " AND c.name = ?" if collection is not None else ""
    params = [collection] if collection is not None else []
    docs = store.conn.execute(
        "SELECT count(*) FROM documents d JOIN collections c ON c.id = d.collection_id"
        f" WHERE d.active = 1{where}", params,
    ).fetchone()[0]
    out: dict[int, list[str]] = {}
    for doc, tag in store.conn.execute(
        "SELECT t.document_id, t.tag FROM document_tags t JOIN documents d ON d.id = t.document_id"
        f" JOIN collections c ON c.id = d.collection_id WHERE d.active = 1{where}", params,
    ):
        out.setdefault(doc, []).append(tag)
    return int(docs), out
