"""Code-graph snapshots on SQLite (:class:`~cairn.store.protocol.CodeStore`).

A snapshot is written whole in one transaction: its row, manifest, symbols and edges, the
facts parsed for it, and the pruning of what the retention policy lets go. Symbols and
edges are stored once per distinct file content (content-addressed sets named by the
manifest), so ten snapshots of a project cost little more than one.
"""

from __future__ import annotations

import hashlib
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
from cairn.errors import StoreError
from cairn.store.sqlite.base import Connected, chunks, placeholders, utcnow

_SNAPSHOT = ("SELECT id, root, git_revision, fingerprint, complete, reason, created_at, file_count,"
             " symbol_count, edge_count FROM code_snapshots")


def _snapshot(row: Any, coverage: str | None = None) -> Snapshot:
    return Snapshot(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6], row[7], row[8],
                    row[9], coverage_from_json(coverage) if coverage else ())


def _set_id(rows: Sequence[tuple[Any, ...]]) -> str:
    """The content address of one file's symbol or edge rows."""
    digest = hashlib.blake2b(digest_size=16)
    for row in sorted(rows):
        digest.update("\x1f".join(map(str, row)).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()


def _sets(rows: Sequence[tuple[str, tuple[Any, ...]]]) -> dict[str, tuple[str, list[tuple[Any, ...]]]]:
    """(path, row) pairs grouped by file: path -> (set id, rows)."""
    by_path: dict[str, list[tuple[Any, ...]]] = {}
    for path, row in rows:
        by_path.setdefault(path, []).append(row)
    return {path: (_set_id(group), group) for path, group in by_path.items()}


#: A snapshot's symbols and edges: the sets its manifest names (``f`` is ``code_files``).
_SYMBOLS = ("SELECT s.qualname, s.name, s.kind, s.path, s.start_line, s.end_line, s.signature_hash, s.body_hash"
            " FROM code_files f JOIN code_symbol_sets s ON s.set_id = f.symbol_set WHERE f.snapshot_id = ?")
_EDGES = ("SELECT e.kind, e.source, e.target, e.path, e.line FROM code_files f"
          " JOIN code_edge_sets e ON e.set_id = f.edge_set WHERE f.snapshot_id = ?")
#: The same, driven by the rows' target or qualified name (CROSS JOIN fixes the order: the
#: few rows named first, then whether the snapshot's manifest names their set).
_EDGES_BY_TARGET = ("SELECT e.kind, e.source, e.target, e.path, e.line FROM code_edge_sets e"
                    " CROSS JOIN code_files f ON f.edge_set = e.set_id AND f.snapshot_id = ? WHERE e.target IN ")
_SYMBOLS_BY_NAME = ("SELECT s.qualname, s.name, s.kind, s.path, s.start_line, s.end_line, s.signature_hash,"
                    " s.body_hash FROM code_symbol_sets s CROSS JOIN code_files f ON f.symbol_set = s.set_id"
                    " AND f.snapshot_id = ? WHERE s.qualname IN ")


class CodeMixin(Connected):
    """:class:`~cairn.store.protocol.CodeStore` on SQLite. A snapshot's manifest
    (``code_files``) names, per file, a content-addressed set of symbol rows and one of edge
    rows: an unchanged file's rows are stored once for every snapshot that has them."""

    def write_code_snapshot(self, snapshot: SnapshotWrite, keep: int) -> Snapshot:
        symbol_sets = _sets([(s.path, (s.qualname, s.name, s.kind, s.path, s.start_line, s.end_line,
                                       s.signature_hash, s.body_hash)) for s in snapshot.symbols])
        edge_sets = _sets([(e.path, (e.kind, e.source, e.target, e.path, e.line)) for e in set(snapshot.edges)])
        stray = (symbol_sets.keys() | edge_sets.keys()) - {f.path for f in snapshot.files}
        if stray:  # rows are stored by the manifest's files: others would be lost
            raise StoreError(f"symbols or edges of files not in the snapshot's manifest: {sorted(stray)[:5]}")
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
            for table, sets in (("code_symbol_sets", symbol_sets), ("code_edge_sets", edge_sets)):
                ids = [set_id for set_id, _ in sets.values()]
                known: set[str] = set()
                for part in chunks(ids):
                    known.update(r[0] for r in conn.execute(
                        f"SELECT DISTINCT set_id FROM {table} WHERE set_id IN ({placeholders(part)})", part))
                width = 9 if table == "code_symbol_sets" else 6
                conn.executemany(
                    f"INSERT OR IGNORE INTO {table} VALUES ({placeholders(range(width))})",
                    [(set_id, *row) for set_id, group in sets.values() if set_id not in known for row in group],
                )
            conn.executemany(
                "INSERT INTO code_files(snapshot_id, path, size, mtime_ns, content_hash, language, status, reason,"
                " symbol_set, edge_set) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(sid, f.path, f.size, f.mtime_ns, f.content_hash, f.language, f.status, f.reason,
                  symbol_sets[f.path][0] if f.path in symbol_sets else "",
                  edge_sets[f.path][0] if f.path in edge_sets else "") for f in snapshot.files],
            )
            if snapshot.copy_from is not None:
                self._copy_rows(sid, snapshot)
                conn.execute(
                    f"UPDATE code_snapshots SET symbol_count = (SELECT count(*) FROM ({_SYMBOLS})),"
                    f" edge_count = (SELECT count(*) FROM ({_EDGES})) WHERE id = ?", (sid, sid, sid),
                )
            old = [r[0] for r in conn.execute(
                "SELECT id FROM code_snapshots WHERE root = ? ORDER BY id DESC LIMIT -1 OFFSET ?",
                (snapshot.root, max(keep, 1)),
            )]
            if old:
                self._prune(old)
            row = conn.execute(f"{_SNAPSHOT} WHERE id = ?", (sid,)).fetchone()
        return _snapshot(row)

    def _prune(self, old: list[int]) -> None:
        """Drop snapshots, then the sets and facts no kept snapshot names."""
        conn = self.conn
        for part in chunks(old):
            marks = placeholders(part)
            candidates = conn.execute(
                f"SELECT DISTINCT symbol_set, edge_set FROM code_files WHERE snapshot_id IN ({marks})", part
            ).fetchall()
            conn.execute(f"DELETE FROM code_files WHERE snapshot_id IN ({marks})", part)
            conn.execute(f"DELETE FROM code_snapshots WHERE id IN ({marks})", part)
            for column, table, index in (("symbol_set", "code_symbol_sets", 0), ("edge_set", "code_edge_sets", 1)):
                ids = sorted({row[index] for row in candidates if row[index]})
                for chunk in chunks(ids):
                    conn.execute(
                        f"DELETE FROM {table} WHERE set_id IN ({placeholders(chunk)}) AND NOT EXISTS"
                        f" (SELECT 1 FROM code_files f WHERE f.{column} = {table}.set_id)", chunk,
                    )
        conn.execute(
            "DELETE FROM code_facts WHERE NOT EXISTS"
            " (SELECT 1 FROM code_files f WHERE f.content_hash = code_facts.content_hash)"
        )

    def _copy_rows(self, sid: int, snapshot: SnapshotWrite) -> None:
        """Unchanged files name the sets they had in the snapshot copied from (no rows move)."""
        for column, copied in (("symbol_set", snapshot.copy_symbols), ("edge_set", snapshot.copy_edges)):
            for part in chunks(list(copied)):
                self.conn.execute(
                    f"UPDATE code_files SET {column} = coalesce((SELECT p.{column} FROM code_files p"
                    " WHERE p.snapshot_id = ? AND p.path = code_files.path), '')"
                    f" WHERE snapshot_id = ? AND path IN ({placeholders(part)})",
                    [snapshot.copy_from, sid, *part],
                )

    def code_edges_into(self, snapshot_id: int, targets: Sequence[str]) -> dict[str, list[Edge]]:
        found: dict[str, list[Edge]] = {}
        for part in chunks(list(targets)):
            for row in self.conn.execute(
                f"{_EDGES_BY_TARGET}({placeholders(part)}) ORDER BY e.target, e.source, e.kind",
                [snapshot_id, *part],
            ):
                found.setdefault(row[2], []).append(Edge(*row))
        return found

    def code_importers(self, snapshot_id: int, modules: Sequence[str]) -> set[str]:
        paths: set[str] = set()
        for part in chunks(list(modules)):
            paths.update(row[3] for row in self.conn.execute(
                f"{_EDGES_BY_TARGET}({placeholders(part)}) AND e.kind = 'import'", [snapshot_id, *part],
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
                     qualnames: Sequence[str] | None = None, paths: Sequence[str] | None = None) -> list[Symbol]:
        if qualnames is not None:
            rows: list[Any] = []
            for part in chunks(list(qualnames)):
                rows += self.conn.execute(f"{_SYMBOLS_BY_NAME}({placeholders(part)})",
                                          [snapshot_id, *part]).fetchall()
        elif path is not None:
            rows = self.conn.execute(f"{_SYMBOLS} AND f.path = ?", (snapshot_id, path)).fetchall()
        elif paths is not None:  # one pass over the snapshot's rows for many files
            rows = []
            for part in chunks(list(dict.fromkeys(paths))):
                rows += self.conn.execute(f"{_SYMBOLS} AND f.path IN ({placeholders(part)})",
                                          [snapshot_id, *part]).fetchall()
        else:
            rows = self.conn.execute(_SYMBOLS, (snapshot_id,)).fetchall()
        symbols = [Symbol(*row) for row in rows]
        symbols.sort(key=lambda s: (s.path, s.start_line, s.qualname))
        return symbols

    def code_edges(self, snapshot_id: int) -> list[Edge]:
        return [Edge(*row) for row in self.conn.execute(_EDGES, (snapshot_id,))]

    def code_facts(self, keys: Sequence[str]) -> dict[str, FileFacts]:
        found: dict[str, FileFacts] = {}
        for part in chunks(list(keys)):
            for key, text in self.conn.execute(
                f"SELECT key, facts FROM code_facts WHERE key IN ({placeholders(part)})", part
            ):
                found[key] = FileFacts.from_json(text)
        return found
