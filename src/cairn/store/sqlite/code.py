"""Code-graph snapshots on SQLite (:class:`~cairn.store.protocol.CodeStore`).

A snapshot is written whole in one transaction: its row, manifest, symbols and edges, the
facts parsed for it, and the pruning of what the retention policy lets go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cairn.code.model import (
    Edge,
    FileEntry,
    FileFacts,
    Snapshot,
    SnapshotWrite,
    Symbol,
    coverage_from_json,
    coverage_to_json,
)
from cairn.store.sqlite.base import Connected, chunks, placeholders, utcnow

_SNAPSHOT = ("SELECT id, root, git_revision, fingerprint, complete, reason, created_at, file_count,"
             " symbol_count, edge_count FROM code_snapshots")


def _snapshot(row: Any, coverage: str | None = None) -> Snapshot:
    return Snapshot(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6], row[7], row[8],
                    row[9], coverage_from_json(coverage) if coverage else ())


class CodeMixin(Connected):
    """:class:`~cairn.store.protocol.CodeStore` on SQLite."""

    def write_code_snapshot(self, snapshot: SnapshotWrite, keep: int) -> Snapshot:
        with self.transaction() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO code_facts(key, content_hash, language, facts) VALUES (?, ?, ?, ?)",
                [(key, digest, language, facts.to_json())
                 for key, (language, digest, facts) in snapshot.new_facts.items()],
            )
            cur = conn.execute(
                "INSERT INTO code_snapshots(root, git_revision, fingerprint, complete, reason, coverage,"
                " file_count, symbol_count, edge_count, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (snapshot.root, snapshot.git_revision, snapshot.fingerprint, int(snapshot.complete),
                 snapshot.reason, coverage_to_json(snapshot.coverage), len(snapshot.files),
                 len(snapshot.symbols), len(set(snapshot.edges)), utcnow()),
            )
            sid = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO code_files VALUES (?,?,?,?,?,?,?,?)",
                [(sid, f.path, f.size, f.mtime_ns, f.content_hash, f.language, f.status, f.reason)
                 for f in snapshot.files],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO code_symbols VALUES (?,?,?,?,?,?,?,?,?)",
                [(sid, s.qualname, s.name, s.kind, s.path, s.start_line, s.end_line, s.signature_hash,
                  s.body_hash) for s in snapshot.symbols],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO code_edges VALUES (?,?,?,?,?,?)",
                [(sid, e.kind, e.source, e.target, e.path, e.line) for e in snapshot.edges],
            )
            if snapshot.copy_from is not None:
                self._copy_rows(sid, snapshot)
                conn.execute(
                    "UPDATE code_snapshots SET symbol_count = (SELECT count(*) FROM code_symbols WHERE"
                    " snapshot_id = ?), edge_count = (SELECT count(*) FROM code_edges WHERE snapshot_id = ?)"
                    " WHERE id = ?", (sid, sid, sid),
                )
            old = [r[0] for r in conn.execute(
                "SELECT id FROM code_snapshots WHERE root = ? ORDER BY id DESC LIMIT -1 OFFSET ?",
                (snapshot.root, max(keep, 1)),
            )]
            if old:
                for part in chunks(old):
                    marks = placeholders(part)
                    for table in ("code_edges", "code_symbols", "code_files"):
                        conn.execute(f"DELETE FROM {table} WHERE snapshot_id IN ({marks})", part)
                    conn.execute(f"DELETE FROM code_snapshots WHERE id IN ({marks})", part)
                conn.execute(
                    "DELETE FROM code_facts WHERE NOT EXISTS"
                    " (SELECT 1 FROM code_files f WHERE f.content_hash = code_facts.content_hash)"
                )
            row = conn.execute(f"{_SNAPSHOT} WHERE id = ?", (sid,)).fetchone()
        return _snapshot(row)

    def _copy_rows(self, sid: int, snapshot: SnapshotWrite) -> None:
        """Copy the unchanged files' rows: one pass over the old snapshot leaving out the
        (few) other paths, or, when most files changed, the listed paths chunk by chunk."""
        paths = {row[0] for row in self.conn.execute(
            "SELECT path FROM code_files WHERE snapshot_id = ?", (snapshot.copy_from,))}
        tables = (("code_symbols", "qualname, name, kind, path, start_line, end_line, signature_hash, body_hash",
                   snapshot.copy_symbols, "INSERT OR IGNORE"),
                  ("code_edges", "kind, source, target, path, line", snapshot.copy_edges, "INSERT OR IGNORE"))
        for table, columns, copied, insert in tables:
            left_out = sorted(paths - set(copied))
            select = f"{insert} INTO {table} SELECT ?, {columns} FROM {table} WHERE snapshot_id = ?"
            if len(left_out) <= 500:
                self.conn.execute(f"{select} AND path NOT IN ({placeholders(left_out)})",
                                  [sid, snapshot.copy_from, *left_out])
                continue
            for part in chunks(list(copied)):
                self.conn.execute(f"{select} AND path IN ({placeholders(part)})", [sid, snapshot.copy_from, *part])

    def code_edges_into(self, snapshot_id: int, targets: Sequence[str]) -> dict[str, list[Edge]]:
        found: dict[str, list[Edge]] = {}
        for part in chunks(list(targets)):
            for row in self.conn.execute(
                "SELECT kind, source, target, path, line FROM code_edges WHERE snapshot_id = ?"
                f" AND target IN ({placeholders(part)}) ORDER BY target, source, kind", [snapshot_id, *part],
            ):
                found.setdefault(row[2], []).append(Edge(*row))
        return found

    def code_importers(self, snapshot_id: int, modules: Sequence[str]) -> set[str]:
        paths: set[str] = set()
        for part in chunks(list(modules)):
            paths.update(row[0] for row in self.conn.execute(
                "SELECT DISTINCT path FROM code_edges WHERE snapshot_id = ? AND kind = 'import'"
                f" AND target IN ({placeholders(part)})", [snapshot_id, *part],
            ))
        return paths

    def code_snapshots(self, root: str | None = None) -> list[Snapshot]:
        if root is None:
            rows = self.conn.execute(f"{_SNAPSHOT} ORDER BY id DESC").fetchall()
        else:
            rows = self.conn.execute(f"{_SNAPSHOT} WHERE root = ? ORDER BY id DESC", (root,)).fetchall()
        return [_snapshot(r) for r in rows]

    def code_snapshot(self, snapshot_id: int) -> Snapshot | None:
        row = self.conn.execute(
            _SNAPSHOT.replace(" FROM", ", coverage FROM") + " WHERE id = ?", (snapshot_id,)
        ).fetchone()
        return None if row is None else _snapshot(row, row[10])

    def code_files(self, snapshot_id: int) -> list[FileEntry]:
        rows = self.conn.execute(
            "SELECT path, size, mtime_ns, content_hash, language, status, reason FROM code_files"
            " WHERE snapshot_id = ? ORDER BY path", (snapshot_id,),
        )
        return [FileEntry(*row) for row in rows]

    def code_file(self, snapshot_id: int, path: str) -> FileEntry | None:
        row = self.conn.execute(
            "SELECT path, size, mtime_ns, content_hash, language, status, reason FROM code_files"
            " WHERE snapshot_id = ? AND path = ?", (snapshot_id, path),
        ).fetchone()
        return None if row is None else FileEntry(*row)

    def code_symbols(self, snapshot_id: int, *, path: str | None = None,
                     qualnames: Sequence[str] | None = None) -> list[Symbol]:
        select = ("SELECT qualname, name, kind, path, start_line, end_line, signature_hash, body_hash"
                  " FROM code_symbols WHERE snapshot_id = ?")
        if qualnames is not None:
            rows: list[Any] = []
            for part in chunks(list(qualnames)):
                rows += self.conn.execute(f"{select} AND qualname IN ({placeholders(part)})",
                                          [snapshot_id, *part]).fetchall()
        elif path is not None:
            rows = self.conn.execute(f"{select} AND path = ?", (snapshot_id, path)).fetchall()
        else:
            rows = self.conn.execute(select, (snapshot_id,)).fetchall()
        symbols = [Symbol(*row) for row in rows]
        symbols.sort(key=lambda s: (s.path, s.start_line, s.qualname))
        return symbols

    def code_edges(self, snapshot_id: int) -> list[Edge]:
        rows = self.conn.execute(
            "SELECT kind, source, target, path, line FROM code_edges WHERE snapshot_id = ?",
            (snapshot_id,),
        )
        return [Edge(*row) for row in rows]

    def code_facts(self, keys: Sequence[str]) -> dict[str, FileFacts]:
        found: dict[str, FileFacts] = {}
        for part in chunks(list(keys)):
            for key, text in self.conn.execute(
                f"SELECT key, facts FROM code_facts WHERE key IN ({placeholders(part)})", part
            ):
                found[key] = FileFacts.from_json(text)
        return found
