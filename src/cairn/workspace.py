"""The composition root and service layer every face calls.

:class:`Workspace` is the only place that reads configuration and environment. Its
methods are named after the CLI commands and return :mod:`cairn.contracts` objects;
the CLI's ``--json`` output is ``model_dump(mode="json")`` of what they return.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sqlite3
import sys
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from urllib.parse import quote, unquote

from cairn import contracts as c
from cairn.config import (
    DEFAULT_INCLUDE,
    Paths,
    Settings,
    check_index_name,
    load_settings,
    resolve_paths,
)
from cairn.errors import CairnError, NotFoundError, ValidationError
from cairn.ingest.chunker import estimate_tokens
from cairn.ingest.pipeline import Indexer, IngestLimits, Progress
from cairn.retrieval.bm25 import bm25_search
from cairn.store.records import CollectionRecord, DocumentRecord, SearchFilter
from cairn.store.sqlite import SQLiteStore

COLLECTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DOCID = re.compile(r"^#?([0-9a-f]{6,64})$")
URI_SCHEME = "cairn://"
MAX_LIMIT = 1000
TOKEN_COUNTER = "estimate:ceil(chars/4)"


def document_uri(collection: str, path: str) -> str:
    """``cairn://<collection>/<percent-escaped path>``."""
    return f"{URI_SCHEME}{collection}/{quote(path, safe='/')}"


class Workspace:
    """One index: its collections, documents and every operation on them."""

    def __init__(self, paths: Paths, settings: Settings, index_name: str) -> None:
        self.paths = paths
        self.settings = settings
        self.index_name = check_index_name(index_name)
        self._store: SQLiteStore | None = None

    # --- lifecycle ---------------------------------------------------------------

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Release the index file."""
        if self._store is not None:
            self._store.close()
            self._store = None

    @property
    def index_path(self) -> Path:
        return self.paths.index_file(self.index_name)

    def _open_store(self, *, create: bool) -> SQLiteStore:
        if self._store is None:
            if not create and not self.index_path.exists():
                raise NotFoundError(
                    f"index {self.index_name!r} does not exist yet; "
                    "add a collection with: cairn collection add PATH"
                )
            self._store = SQLiteStore(self.index_path, create=True)
        return self._store

    # --- collections ---------------------------------------------------------------

    def add_collection(
        self, path: str | Path, *, name: str | None = None, include: Sequence[str] = (),
        exclude: Sequence[str] = (), context: str | None = None,
    ) -> c.Collection:
        """Register a folder as a collection. Extra ``include`` globs add to the defaults
        (Markdown and plain text), e.g. ``**/*.py`` to index code."""
        root = Path(path).expanduser()
        if not root.is_dir():
            raise ValidationError(f"not a folder: {path}")
        root = root.resolve()
        name = name if name is not None else re.sub(r"[^A-Za-z0-9_.-]+", "-", root.name).strip("-.") or "notes"
        if not COLLECTION_NAME.match(name):
            raise ValidationError(
                f"invalid collection name {name!r}: use letters, digits, '.', '_' or '-' (max 64)"
            )
        for glob in (*include, *exclude):
            if not glob.strip() or "\x00" in glob:
                raise ValidationError(f"invalid glob {glob!r}")
        store = self._open_store(create=True)
        store.acquire_writer()
        try:
            includes = list(dict.fromkeys([*DEFAULT_INCLUDE, *include]))
            record = store.add_collection(name, str(root), includes, list(exclude), context)
        finally:
            store.release_writer()
        return self._collection(record, {})

    def list_collections(self) -> c.CollectionList:
        """All collections of this index with document and passage counts."""
        if not self.index_path.exists():
            return c.CollectionList(collections=[])
        store = self._open_store(create=False)
        counts = store.collection_counts()
        return c.CollectionList(collections=[self._collection(r, counts) for r in store.list_collections()])

    def remove_collection(self, name: str) -> c.CollectionRemoved:
        """Forget a collection and everything indexed from it (its files are not touched)."""
        store = self._open_store(create=False)
        store.acquire_writer()
        try:
            removed = store.remove_collection(name)
        finally:
            store.release_writer()
        return c.CollectionRemoved(name=name, documents_removed=removed)

    # --- indexing ---------------------------------------------------------------------

    def index(self, collection: str | None = None, *, progress: Progress | None = None) -> c.IndexSummary:
        """Bring the index up to date with the files of one or all collections."""
        store = self._open_store(create=True)
        records = [store.get_collection(collection)] if collection else store.list_collections()
        if not records:
            raise ValidationError("no collections yet; add one with: cairn collection add PATH")
        for record in records:
            if not Path(record.root).is_dir():
                # Never mistake an unmounted or moved folder for a deletion of every file.
                raise ValidationError(
                    f"collection {record.name!r}: folder {record.root} is missing; nothing indexed"
                )
        store.acquire_writer()
        try:
            limits = IngestLimits(
                max_file_bytes=self.settings.index.max_file_bytes,
                chunk_max_tokens=self.settings.index.chunk_max_tokens,
                chunk_min_tokens=self.settings.index.chunk_min_tokens,
                batch_files=self.settings.index.batch_files,
            )
            run_id, counts, elapsed = Indexer(store, limits, estimate_tokens).run(records, progress)
        finally:
            store.release_writer()
        return c.IndexSummary(
            run_id=run_id,
            collections=[r.name for r in records],
            counts=c.IndexCounts(
                added=counts.added, updated=counts.updated, unchanged=counts.unchanged,
                renamed=counts.renamed, removed=counts.removed, reactivated=counts.reactivated,
                failed=counts.failed, parsed=counts.parsed,
            ),
            passages_written=counts.passages,
            elapsed_ms=elapsed,
            errors=[
                c.FileError(collection=col, path=p, code=code, message=msg, seen_at="")
                for col, p, code, msg in counts.errors
            ],
        )

    update = index

    # --- search -----------------------------------------------------------------------

    def search(
        self, query: str, *, limit: int = 10, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None,
    ) -> c.SearchResponse:
        """BM25 search over passages; plain words, ``"phrases"`` and ``-negation``."""
        if not 1 <= limit <= MAX_LIMIT:
            raise ValidationError(f"limit must be between 1 and {MAX_LIMIT}")
        store = self._open_store(create=False)
        for name in collections:
            store.get_collection(name)
        filters = SearchFilter(
            collections=tuple(collections),
            tags_any=tuple(_clean_tags(tags_any)),
            tags_all=tuple(_clean_tags(tags_all)),
            since=_parse_date(since, "since", end=False),
            until=_parse_date(until, "until", end=True),
        )
        hits = bm25_search(store, query, filters, limit)
        results = [
            c.SearchResult(
                uri=document_uri(h.collection, h.path), docid=h.docid, title=h.title,
                collection=h.collection, score=round(h.score, 6), start_line=h.start_line,
                end_line=h.end_line, snippet=h.snippet, headings=list(h.heading_path),
                stages=["bm25"],
            )
            for h in hits
        ]
        return c.SearchResponse(
            results=results,
            meta=c.SearchMeta(
                query=query, mode="bm25", limit=limit, count=len(results),
                filters=c.SearchFilters(
                    collections=list(collections), tags_any=list(filters.tags_any),
                    tags_all=list(filters.tags_all), since=since, until=until,
                ),
                capabilities={"bm25": True, "cjk": True},
            ),
        )

    # --- exact retrieval -------------------------------------------------------------

    def get(self, ref: str, *, from_line: int | None = None, lines: int | None = None) -> c.DocumentSlice:
        """Exact lines of a document by ``cairn://`` URI, docid, or ``collection/path``."""
        store = self._open_store(create=False)
        record, text = self._resolve(store, ref)
        all_lines = text.split("\n")
        if text.endswith("\n"):
            all_lines.pop()
        total = len(all_lines)
        start = 1 if from_line is None else from_line
        if start < 1:
            raise ValidationError("--from must be 1 or more")
        if lines is not None and lines < 1:
            raise ValidationError("--lines must be 1 or more")
        if total and start > total:
            raise ValidationError(f"line {start} is past the end of {ref} ({total} lines)")
        end = total if lines is None else min(total, start + lines - 1)
        return c.DocumentSlice(
            uri=document_uri(record.collection, record.path), docid=record.docid, title=record.title,
            collection=record.collection, path=record.path, start_line=start if total else 0,
            end_line=end, total_lines=total, text="\n".join(all_lines[start - 1 : end]),
            source_hash=record.source_hash, text_hash=record.text_hash,
        )

    def multi_get(self, refs: Sequence[str], *, max_lines: int | None = None) -> c.MultiGetResponse:
        """Several documents at once; a reference that fails carries its own error."""
        if not refs:
            raise ValidationError("give at least one reference")
        items: list[c.MultiGetItem] = []
        for ref in refs:
            try:
                items.append(c.MultiGetItem(ref=ref, document=self.get(ref, lines=max_lines)))
            except (NotFoundError, ValidationError) as exc:
                items.append(c.MultiGetItem(ref=ref, error=c.ErrorDetail(code=exc.code, message=exc.message)))
        return c.MultiGetResponse(items=items)

    def ls(self, prefix: str | None = None, *, limit: int = 10000) -> c.Listing:
        """Active documents, optionally of one collection or under a URI/path prefix."""
        store = self._open_store(create=False)
        collection: str | None = None
        path_prefix: str | None = None
        if prefix:
            body = prefix[len(URI_SCHEME):] if prefix.startswith(URI_SCHEME) else prefix
            collection, _, rest = body.partition("/")
            store.get_collection(collection)
            path_prefix = unquote(rest) or None
        docs = store.list_documents(collection, path_prefix, limit)
        return c.Listing(prefix=prefix, documents=[self._entry(d) for d in docs])

    # --- status -----------------------------------------------------------------------

    def status(self) -> c.Status:
        """Collections, counts, index size, last run, per-file errors and capabilities."""
        exists = self.index_path.exists()
        store = self._open_store(create=False) if exists else None
        capabilities = _capabilities()
        if store is None:
            return c.Status(
                index=self.index_name, index_path=str(self.index_path), index_bytes=0,
                schema_version=0, collections=[], documents=0, inactive_documents=0, passages=0,
                last_run=None, errors=[], capabilities=capabilities, token_counter=TOKEN_COUNTER,
            )
        counts = store.counts()
        per_collection = store.collection_counts()
        last = store.last_run()
        last_run = None
        if last is not None:
            run_id, started, finished, status, counts_json = last
            last_run = c.RunInfo(
                run_id=run_id, started_at=started, finished_at=finished,
                status="completed" if status == "completed" else "interrupted" if finished is None and not store_lock_held(store) else "running",
                counts=c.IndexCounts(**json.loads(counts_json)) if counts_json else None,
            )
        return c.Status(
            index=self.index_name, index_path=str(self.index_path), index_bytes=store.size_bytes(),
            schema_version=store.schema_version,
            collections=[self._collection(r, per_collection) for r in store.list_collections()],
            documents=counts["documents"], inactive_documents=counts["inactive_documents"],
            passages=counts["passages"], last_run=last_run,
            errors=[
                c.FileError(collection=col, path=p, code=code, message=msg, seen_at=at)
                for col, p, code, msg, at in store.file_errors()
            ],
            capabilities=capabilities, token_counter=TOKEN_COUNTER,
        )

    def doctor(self) -> c.DoctorReport:
        """Check the installation, the index file and the collections' folders."""
        checks: list[c.DoctorCheck] = []

        def add(name: str, ok: bool, detail: str, *, warn: bool = False) -> None:
            checks.append(c.DoctorCheck(name=name, status="ok" if ok else "warn" if warn else "fail", detail=detail))

        add("python", sys.version_info >= (3, 11), sys.version.split()[0])
        try:
            probe = sqlite3.connect(":memory:")
            probe.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
            probe.close()
            add("sqlite_fts5", True, f"SQLite {sqlite3.sqlite_version} with FTS5")
        except sqlite3.Error as exc:
            add("sqlite_fts5", False, f"SQLite {sqlite3.sqlite_version}: FTS5 unavailable ({exc})")
        home = self.paths.data_dir
        writable = os.access(home if home.exists() else home.parent, os.W_OK)
        add("data_dir", writable, f"{home} {'writable' if writable else 'not writable'}")
        if self.index_path.exists():
            try:
                store = self._open_store(create=False)
                result = store.quick_check()
                add("index_integrity", result == "ok", f"{self.index_path}: {result}")
                for record in store.list_collections():
                    ok = Path(record.root).is_dir() and os.access(record.root, os.R_OK)
                    add(f"collection:{record.name}", ok, record.root + ("" if ok else " is missing or unreadable"))
            except CairnError as exc:
                add("index_integrity", False, exc.message)
        else:
            add("index", True, f"index {self.index_name!r} not created yet", warn=True)
        embed = importlib.util.find_spec("onnxruntime") is not None
        add("embedding_model", embed, "onnxruntime installed" if embed else
            "not installed (vector search unavailable): pip install 'cairn[embed]'", warn=True)
        return c.DoctorReport(ok=all(ch.status != "fail" for ch in checks), checks=checks)

    # --- helpers ---------------------------------------------------------------------

    def _resolve(self, store: SQLiteStore, ref: str) -> tuple[DocumentRecord, str]:
        ref = ref.strip()
        if not ref:
            raise ValidationError("empty reference")
        found = None
        match = DOCID.match(ref)
        if match and "/" not in ref:
            found = store.find_document(docid=match.group(1))
        else:
            body = ref[len(URI_SCHEME):] if ref.startswith(URI_SCHEME) else ref
            collection, sep, path = body.partition("/")
            if not sep or not path:
                raise ValidationError(
                    f"bad reference {ref!r}: use cairn://collection/path, collection/path or a docid"
                )
            found = store.find_document(collection=collection, path=unquote(path) if ref.startswith(URI_SCHEME) else path)
        if found is None:
            raise NotFoundError(f"no document {ref!r}")
        record, text = found
        if not record.active or text is None:
            raise NotFoundError(f"document {ref!r} was deleted from its collection")
        return record, text

    def _collection(self, record: CollectionRecord, counts: Mapping[int, tuple[int, int]]) -> c.Collection:
        docs, passages = counts.get(record.id, (0, 0))
        return c.Collection(
            name=record.name, root=record.root, include=list(record.include),
            exclude=list(record.exclude), context=record.context, created_at=record.created_at,
            documents=docs, passages=passages, last_indexed_at=record.last_indexed_at,
        )

    @staticmethod
    def _entry(doc: DocumentRecord) -> c.DocumentEntry:
        return c.DocumentEntry(
            uri=document_uri(doc.collection, doc.path), docid=doc.docid, title=doc.title,
            collection=doc.collection, path=doc.path, kind=doc.kind, lines=doc.line_count,
            size=doc.size, passages=doc.passages, tags=list(doc.tags), indexed_at=doc.indexed_at,
        )


def store_lock_held(store: SQLiteStore) -> bool:
    """Whether some process currently holds the index's writer lock."""
    import fcntl

    try:
        fd = os.open(str(store.path) + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _capabilities() -> dict[str, bool]:
    return {
        "bm25": True,
        "cjk": True,
        "vectors": False,
        "embedder_installed": importlib.util.find_spec("onnxruntime") is not None,
    }


def _clean_tags(tags: Sequence[str]) -> list[str]:
    cleaned = []
    for tag in tags:
        for part in tag.split(","):
            part = part.strip().lstrip("#").lower()
            if part:
                cleaned.append(part)
    return cleaned


def _parse_date(value: str | None, name: str, *, end: bool) -> str | None:
    """Validate a --since/--until value; a bare date as --until covers that whole day."""
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            date.fromisoformat(text)
            return text + ("~" if end else "")
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"--{name} must be a date like 2024-05-31 or an ISO datetime, not {value!r}") from None
    return parsed.isoformat().replace("+00:00", "Z")


def open_workspace(home: str | Path | None = None, index: str = "default", *,
                   env: Mapping[str, str] | None = None) -> Workspace:
    """Composition root: resolve paths from ``home``/``$CAIRN_HOME``, read config, wire the store."""
    paths = resolve_paths(home, os.environ if env is None else env)
    settings = load_settings(paths.config_file)
    return Workspace(paths, settings, index)
