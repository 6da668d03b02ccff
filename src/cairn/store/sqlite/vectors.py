"""Vectors: float32 blobs keyed by passage hash and model fingerprint."""

from __future__ import annotations

from collections.abc import Sequence

from cairn.store.sqlite.base import Connected, chunks, placeholders, utcnow

#: Hashes asked for at once above which :meth:`VectorsMixin.vectors_for` may first read
#: which hashes have a vector (recall asks for every memory record's).
MANY_HASHES = 2_000


class VectorsMixin(Connected):
    """:class:`~cairn.store.protocol.VectorIndex` on SQLite."""

    def pending_passages(
        self, fingerprint: str, collection_ids: Sequence[int] | None, limit: int
    ) -> list[tuple[str, str]]:
        """Distinct (passage_hash, text) of active passages with no vector for ``fingerprint``."""
        where, params = "", []
        if collection_ids is not None:
            where = f" AND d.collection_id IN ({','.join('?' * len(collection_ids))})"
            params = list(collection_ids)
        rows = self.conn.execute(
            "SELECT p.passage_hash, min(p.id) FROM passages p JOIN documents d ON d.id = p.document_id"
            " WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.passage_hash = p.passage_hash"
            f" AND v.fingerprint = ?){where} GROUP BY p.passage_hash ORDER BY min(p.id) LIMIT ?",
            (fingerprint, *params, limit),
        ).fetchall()
        texts = self.passage_texts([pid for _, pid in rows])
        return [(passage_hash, texts[pid]) for passage_hash, pid in rows]

    def count_pending(self, fingerprint: str, collection_ids: Sequence[int] | None = None) -> int:
        where, params = "", []
        if collection_ids is not None:
            where = f" AND d.collection_id IN ({','.join('?' * len(collection_ids))})"
            params = list(collection_ids)
        return int(self.conn.execute(
            "SELECT count(DISTINCT p.passage_hash) FROM passages p JOIN documents d ON d.id = p.document_id"
            " WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.passage_hash = p.passage_hash"
            f" AND v.fingerprint = ?){where}",
            (fingerprint, *params),
        ).fetchone()[0])

    def write_vectors(self, fingerprint: str, rows: Sequence[tuple[str, bytes, int, int]]) -> None:
        """Store (passage_hash, float32 blob, dims, exact token count) rows in one transaction,
        and record the exact token counts on the passages."""
        now = utcnow()
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO vectors(passage_hash, fingerprint, dims, vector, token_count,"
                " embedded_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(h, fingerprint, dims, blob, tokens, now) for h, blob, dims, tokens in rows],
            )
            self.conn.executemany(
                "UPDATE passages SET token_count = ? WHERE passage_hash = ?",
                [(tokens, h) for h, _, _, tokens in rows],
            )

    def vector_rows(self, fingerprint: str) -> tuple[list[int], list[str], list[bytes]]:
        """(passage ids, their docids, vector blobs) of every passage that has a vector for
        ``fingerprint``."""
        ids: list[int] = []
        docids: list[str] = []
        blobs: list[bytes] = []
        for pid, docid, blob in self.conn.execute(
            "SELECT p.id, d.docid, v.vector FROM passages p JOIN documents d ON d.id = p.document_id"
            " JOIN vectors v ON v.passage_hash = p.passage_hash AND v.fingerprint = ? ORDER BY p.id",
            (fingerprint,),
        ):
            ids.append(pid)
            docids.append(docid)
            blobs.append(blob)
        return ids, docids, blobs


    def vectors_for(self, fingerprint: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """The vector blobs of these text hashes for ``fingerprint`` (hashes with none are
        absent): memory records are embedded by their text hash into the same table."""
        found: dict[str, bytes] = {}
        wanted = list(dict.fromkeys(hashes))
        if len(wanted) > MANY_HASHES:
            # Many hashes (every memory record's, for recall): when the model has not many
            # more vectors, its hashes alone (one scan of its index) say which to fetch.
            held = int(self.conn.execute("SELECT count(*) FROM vectors WHERE fingerprint = ?",
                                         (fingerprint,)).fetchone()[0])
            if held <= 4 * len(wanted):
                present = {row[0] for row in self.conn.execute(
                    "SELECT passage_hash FROM vectors WHERE fingerprint = ?", (fingerprint,))}
                wanted = [h for h in wanted if h in present]
        for part in chunks(wanted):
            found.update(self.conn.execute(
                f"SELECT passage_hash, vector FROM vectors WHERE fingerprint = ? AND passage_hash IN"
                f" ({placeholders(part)})", (fingerprint, *part)).fetchall())
        return found

    def has_vectors(self, fingerprint: str) -> bool:
        return self.conn.execute(
            "SELECT 1 FROM vectors WHERE fingerprint = ? LIMIT 1", (fingerprint,)
        ).fetchone() is not None

    def vector_counts(self) -> dict[str, int]:
        """Vectors per model fingerprint."""
        return dict(self.conn.execute("SELECT fingerprint, count(*) FROM vectors GROUP BY fingerprint").fetchall())

    def data_version(self) -> tuple[int, int, int]:
        """Changes whenever passages or vectors change (cache key for in-memory vector matrices).

        Counting the vectors reads their whole fingerprint index (≈ 3 ms at 58,000 vectors,
        every ``query`` and twice a ``plan``), so the answer is kept while nothing can have
        changed it: no other connection committed (``PRAGMA data_version``, which changes
        when one has) and this one changed no row (``total_changes``)."""
        stamp = (int(self.conn.execute("PRAGMA data_version").fetchone()[0]), self.conn.total_changes)
        kept: tuple[tuple[int, int], tuple[int, int, int]] | None = getattr(self, "_data_version_kept", None)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        row = self.conn.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM passages), (SELECT count(*) FROM passages),"
            " (SELECT count(*) FROM vectors INDEXED BY vectors_fingerprint)"
        ).fetchone()
        version = (int(row[0]), int(row[1]), int(row[2]))
        self._data_version_kept = (stamp, version)
        return version

