"""Collections: named folders with their globs, guidance text and settings."""

from __future__ import annotations

from collections.abc import Sequence

from cairn.errors import ConflictError, NotFoundError
from cairn.store.records import CollectionRecord, dumps_json
from cairn.store.sqlite.base import Connected, collection_row, utcnow


class CollectionsMixin(Connected):
    """:class:`~cairn.store.protocol.CollectionStore` on SQLite."""

    def add_collection(
        self, name: str, root: str, include: Sequence[str], exclude: Sequence[str], context: str | None,
        *, sequence: bool = False,
    ) -> CollectionRecord:
        with self.transaction():
            if self.conn.execute("SELECT 1 FROM collections WHERE name = ?", (name,)).fetchone():
                raise ConflictError(f"collection {name!r} already exists")
            self.conn.execute(
                "INSERT INTO collections(name, root, include_globs, exclude_globs, context, created_at, sequence)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, root, dumps_json(list(include)), dumps_json(list(exclude)), context, utcnow(), int(sequence)),
            )
        return self.get_collection(name)

    def configure_collection(
        self, name: str, *, sequence: bool | None = None, context: str | None = None,
    ) -> CollectionRecord:
        """Change a collection's settings; ``None`` leaves a setting as it is."""
        collection = self.get_collection(name)
        with self.transaction():
            if sequence is not None:
                self.conn.execute("UPDATE collections SET sequence = ? WHERE id = ?", (int(sequence), collection.id))
            if context is not None:
                self.conn.execute("UPDATE collections SET context = ? WHERE id = ?", (context or None, collection.id))
        return self.get_collection(name)

    def remove_collection(self, name: str) -> int:
        """Delete a collection and everything derived from it; returns documents removed."""
        collection = self.get_collection(name)
        with self.transaction():
            count = self.conn.execute(
                "SELECT count(*) FROM documents WHERE collection_id = ?", (collection.id,)
            ).fetchone()[0]
            self.delete_passages_where("d.collection_id = ?", (collection.id,))
            # Journalled as deletions (run 0: no index run), so a reader of the journal
            # sees the documents go.
            self.conn.execute(
                "INSERT INTO changes(run_id, kind, docid, collection, old_path, old_source_hash,"
                " old_text_hash, at) SELECT 0, 'delete', docid, ?, path, source_hash, text_hash, ?"
                " FROM documents WHERE collection_id = ? AND active = 1 ORDER BY path",
                (collection.name, utcnow(), collection.id),
            )
            self.conn.execute("DELETE FROM documents WHERE collection_id = ?", (collection.id,))
            self.conn.execute("DELETE FROM collections WHERE id = ?", (collection.id,))
        return int(count)

    def list_collections(self) -> list[CollectionRecord]:
        rows = self.conn.execute(
            "SELECT id, name, root, include_globs, exclude_globs, context, created_at, last_indexed_at, sequence"
            " FROM collections ORDER BY name"
        ).fetchall()
        return [collection_row(row) for row in rows]

    def get_collection(self, name: str) -> CollectionRecord:
        row = self.conn.execute(
            "SELECT id, name, root, include_globs, exclude_globs, context, created_at, last_indexed_at, sequence"
            " FROM collections WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no collection named {name!r}")
        return collection_row(row)

    def collection_counts(self) -> dict[int, tuple[int, int]]:
        """Active documents and passages per collection id."""
        counts: dict[int, tuple[int, int]] = {}
        for cid, docs in self.conn.execute(
            "SELECT collection_id, count(*) FROM documents WHERE active = 1 GROUP BY collection_id"
        ):
            counts[cid] = (docs, 0)
        for cid, passages in self.conn.execute(
            "SELECT d.collection_id, count(*) FROM passages p JOIN documents d ON d.id = p.document_id"
            " GROUP BY d.collection_id"
        ):
            counts[cid] = (counts.get(cid, (0, 0))[0], passages)
        return counts


    def has_sequence_collections(self) -> bool:
        return self.conn.execute("SELECT 1 FROM collections WHERE sequence = 1 LIMIT 1").fetchone() is not None

