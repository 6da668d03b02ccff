"""What the link graph reads: active notes, stored links, document texts, headings and
tags. Plain SQL over the tables the indexer writes; nothing is cached."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from cairn.store.records import LinkRow, NoteRow
from cairn.store.sqlite.base import Connected, chunks, placeholders


class LinksMixin(Connected):
    """:class:`~cairn.store.protocol.LinkStore` on SQLite."""

    def graph_notes(self, collections: Sequence[str] | None, *, metadata: bool) -> list[NoteRow]:
        """Active documents of some (or all) collections; with ``metadata``, their parsed
        frontmatter (None for a document without)."""
        sql = (
            "SELECT d.id, d.docid, c.name, d.path, d.title, d.aliases, d.metadata FROM documents d"
            " JOIN collections c ON c.id = d.collection_id WHERE d.active = 1"
        )
        params: list[Any] = []
        if collections is not None:
            sql += f" AND c.name IN ({placeholders(collections)})"
            params += list(collections)
        return [
            NoteRow(key, docid, col, path, title,
                    tuple(json.loads(aliases)) if aliases != "[]" else (),
                    json.loads(meta) if metadata and meta != "{}" else None)
            for key, docid, col, path, title, aliases, meta in self.conn.execute(sql, params)
        ]

    def link_rows(
        self, document_ids: Sequence[int] | None, target_contains: Sequence[str] | None = None,
    ) -> Iterator[tuple[int, LinkRow]]:
        """(document id, link) of the links written in ``document_ids`` (None: in every
        document, active or not), ordered by document id and position.

        ``target_contains`` keeps only links whose target contains one of these lowercase
        strings, or a ``%`` (a percent-escaped target may hide any of them).
        """
        base = "SELECT document_id, kind, target, anchor, alias, embed, line, col, raw FROM links"
        params: list[Any] = []
        where = ""
        if target_contains:
            where = ("(instr(target, '%') > 0 OR "
                     + " OR ".join(["instr(lower(target), ?) > 0"] * len(target_contains)) + ")")
            params = list(target_contains)
        if document_ids is None:
            sql = base + (f" WHERE {where}" if where else "") + " ORDER BY document_id, seq"
            rows: Iterator[Any] = self.conn.execute(sql, params)
        else:
            rows = (
                row
                for part in chunks(document_ids)
                for row in self.conn.execute(
                    base + f" WHERE document_id IN ({placeholders(part)})"
                    + (f" AND {where}" if where else "") + " ORDER BY document_id, seq",
                    [*part, *params],
                )
            )
        for doc, kind, target, anchor, alias, embed, line, col, raw in rows:
            yield doc, LinkRow(kind, target, anchor, alias, bool(embed), line, col, raw)

    def text_prefixes(self, document_ids: Sequence[int], chars: int) -> dict[int, str]:
        """The first ``chars`` characters of each document's text."""
        heads: dict[int, str] = {}
        for part in chunks(document_ids):
            for key, head in self.conn.execute(
                "SELECT document_id, substr(text, 1, ?) FROM document_text"
                f" WHERE document_id IN ({placeholders(part)})",
                [chars, *part],
            ):
                heads[key] = head
        return heads

    def document_texts(self, document_ids: Sequence[int]) -> dict[int, str]:
        """The whole text of each (active) document."""
        texts: dict[int, str] = {}
        for part in chunks(document_ids):
            for key, text in self.conn.execute(
                f"SELECT document_id, text FROM document_text WHERE document_id IN ({placeholders(part)})", part
            ):
                texts[key] = text
        return texts

    def heading_rows(self, document_ids: Collection[int]) -> dict[int, list[tuple[str, int]]]:
        """(text, line) of each heading, in order, for every one of ``document_ids``."""
        out: dict[int, list[tuple[str, int]]] = {key: [] for key in document_ids}
        for part in chunks(sorted(document_ids)):
            for key, text, line in self.conn.execute(
                f"SELECT document_id, text, line FROM headings WHERE document_id IN ({placeholders(part)})"
                " ORDER BY document_id, seq",
                part,
            ):
                out[key].append((text, line))
        return out

    def tagged_documents(self, collection: str | None) -> tuple[int, dict[int, list[str]]]:
        """(active documents, tags of every tagged active document) of one or all collections."""
        where = " AND c.name = ?" if collection is not None else ""
        params = [collection] if collection is not None else []
        docs = self.conn.execute(
            "SELECT count(*) FROM documents d JOIN collections c ON c.id = d.collection_id"
            f" WHERE d.active = 1{where}", params,
        ).fetchone()[0]
        out: dict[int, list[str]] = {}
        for doc, tag in self.conn.execute(
            "SELECT t.document_id, t.tag FROM document_tags t JOIN documents d ON d.id = t.document_id"
            f" JOIN collections c ON c.id = d.collection_id WHERE d.active = 1{where}", params,
        ):
            out.setdefault(doc, []).append(tag)
        return int(docs), out
