"""The collections and indexing service: collections, ``index``, ``embed`` and
``capture`` (the one write into a user's folder)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cairn import contracts as c
from cairn.config import DEFAULT_INCLUDE, IndexSettings
from cairn.errors import BusyError, ConflictError, NotFoundError, ValidationError
from cairn.refs import document_uri
from cairn.retrieval.hybrid import DEFAULT_SETTINGS
from cairn.store.protocol import Store, StoreOpener
from cairn.store.records import CollectionRecord

if TYPE_CHECKING:
    from cairn.contracts.capture import CaptureResult
    from cairn.ingest.pipeline import Progress
    from cairn.ingest.prepare import IngestLimits
    from cairn.models.hub import ModelHub

COLLECTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")



class IndexService:
    """Collections of one index and bringing the index up to date with their files."""

    def __init__(self, open_store: StoreOpener, settings: IndexSettings, models: ModelHub, *,
                 under_lock: Callable[[Store], object] | None = None,
                 after_run: Callable[[int], object] | None = None,
                 after_embed: Callable[[], int] | None = None) -> None:
        """``under_lock(store)`` is called after each index run with the writer lock still
        held (the change journal's retention, issue 16); ``after_run(run_id)`` after each
        completed run, the lock released (agent memory's source-changed signals, issue 14);
        ``after_embed()`` after embedding every collection, returning how many more texts
        it embedded (agent memory's records, issue 14)."""
        self._open_store = open_store
        self._settings = settings
        self._models = models
        self._under_lock = under_lock
        self._after_run = after_run
        self._after_embed = after_embed

    # --- collections -------------------------------------------------------------------

    def add_collection(
        self, path: str | Path, *, name: str | None = None, include: Sequence[str] = (),
        exclude: Sequence[str] = (), context: str | None = None, sequence: bool = False,
    ) -> c.Collection:
        """Register a folder as a collection. Extra ``include`` globs add to the defaults
        (Markdown and plain text), e.g. ``**/*.py`` to index code. ``sequence`` declares
        that numbered sibling files follow one another (chat turns ``D1-3.md``,
        ``D1-4.md``; journal days): ``query`` then lets each document share the relevance
        of its neighbours."""
        try:
            root = Path(path).expanduser()
            if not root.is_dir():
                raise ValidationError(f"not a folder: {path}")
            root = root.resolve()
        except (OSError, ValueError) as exc:  # e.g. a name over 255 bytes, or a NUL byte
            raise ValidationError(f"not a usable folder: {path!s:.200}: {exc}") from exc
        name = name if name is not None else re.sub(r"[^A-Za-z0-9_.-]+", "-", root.name).strip("-.") or "notes"
        if not COLLECTION_NAME.match(name):
            raise ValidationError(
                f"invalid collection name {name!r}: use letters, digits, '.', '_' or '-' (max 64)"
            )
        for glob in (*include, *exclude):
            if not glob.strip() or "\x00" in glob:
                raise ValidationError(f"invalid glob {glob!r}")
        store = self._open_store(True)
        store.acquire_writer()
        try:
            includes = list(dict.fromkeys([*DEFAULT_INCLUDE, *include]))
            record = store.add_collection(name, str(root), includes, list(exclude), context, sequence=sequence)
        finally:
            store.release_writer()
        return collection_contract(record, {})

    def configure_collection(
        self, name: str, *, sequence: bool | None = None, context: str | None = None,
    ) -> c.Collection:
        """Change a collection's settings without re-indexing: ``sequence`` (see
        :meth:`add_collection`) and ``context`` (guidance text; ``""`` clears it).
        ``None`` leaves a setting unchanged."""
        if sequence is None and context is None:
            raise ValidationError("nothing to change: give sequence or context")
        store = self._open_store(False)
        store.acquire_writer()
        try:
            record = store.configure_collection(name, sequence=sequence, context=context)
        finally:
            store.release_writer()
        return collection_contract(record, store.collection_counts())

    def list_collections(self) -> c.CollectionList:
        """All collections of this index with document and passage counts."""
        try:
            store = self._open_store(False)
        except NotFoundError:  # no index yet: no collections
            return c.CollectionList(collections=[])
        counts = store.collection_counts()
        return c.CollectionList(collections=[collection_contract(r, counts) for r in store.list_collections()])

    def remove_collection(self, name: str) -> c.CollectionRemoved:
        """Forget a collection and everything indexed from it (its files are not touched)."""
        store = self._open_store(False)
        store.acquire_writer()
        try:
            removed = store.remove_collection(name)
        finally:
            store.release_writer()
        return c.CollectionRemoved(name=name, documents_removed=removed)

    # --- indexing ----------------------------------------------------------------------

    def index(
        self, collection: str | None = None, *, progress: Progress | None = None,
        paths: Sequence[str] | None = None, retry_failed: bool = False,
    ) -> c.IndexSummary:
        """Bring the index up to date with the files of one or all collections.

        ``paths`` (relative to the collection's folder; needs ``collection``) reconciles
        only those files or folders: what a file watcher saw change.

        A file that failed (a corrupt or too slow .docx) is not read again until its size,
        mtime or bytes change; it still counts as ``failed`` and its error is listed.
        ``retry_failed`` reads and converts every failed file again."""
        from cairn.ingest.chunker import estimate_tokens
        from cairn.ingest.pipeline import Indexer

        if paths is not None and collection is None:
            raise ValidationError("paths need a collection")
        store = self._open_store(True)
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
            run_id, counts, elapsed = Indexer(store, self.limits(), estimate_tokens).run(
                records, progress, paths, retry_failed=retry_failed
            )
            if self._under_lock is not None:
                self._under_lock(store)
        finally:
            store.release_writer()
        if self._after_run is not None:
            self._after_run(run_id)
        return c.IndexSummary(
            run_id=run_id,
            collections=[r.name for r in records],
            counts=c.IndexCounts(**counts.tallies()),
            passages_written=counts.passages,
            elapsed_ms=elapsed,
            errors=[
                c.FileError(collection=col, path=p, code=code, message=msg, seen_at="")
                for col, p, code, msg in counts.errors
            ],
        )

    def limits(self) -> IngestLimits:
        """The ingest limits of the configuration (``[index]``)."""
        from cairn.ingest.prepare import IngestLimits

        return IngestLimits(
            max_file_bytes=self._settings.max_file_bytes,
            chunk_max_tokens=self._settings.chunk_max_tokens,
            chunk_min_tokens=self._settings.chunk_min_tokens,
            batch_files=self._settings.batch_files,
        )

    def embed(
        self, collection: str | None = None, *, progress: Progress | None = None, batch: int = 64,
    ) -> c.EmbedSummary:
        """Embed passages that have no vector for the configured model, in resumable batches
        (without ``collection``, memory records too: ``memory_embedded``).

        A passage whose exact text already has a vector (anywhere in the index) is never
        embedded again. Exact token counts from the model's tokenizer are recorded too."""
        import time

        if batch < 1:
            raise ValidationError("batch must be 1 or more")
        store = self._open_store(True)
        cids = [store.get_collection(collection).id] if collection else None
        embedder = self._models.embedder()
        fingerprint = embedder.fingerprint
        started = time.perf_counter()
        store.acquire_writer()
        try:
            before = store.count_pending(fingerprint, cids)
            done = batches = tokens = 0
            if progress is not None:
                progress(0, before)
            while True:
                rows = store.pending_passages(fingerprint, cids, batch)
                if not rows:
                    break
                texts = [text for _, text in rows]
                vectors = embedder.embed(texts, kind="passage")
                counts = embedder.count_tokens(texts)
                store.write_vectors(fingerprint, [
                    (h, vectors[i].astype("<f4").tobytes(), int(vectors.shape[1]), counts[i])
                    for i, (h, _) in enumerate(rows)
                ])
                done += len(rows)
                batches += 1
                tokens += sum(counts)
                if progress is not None:
                    progress(done, max(before, done))
            after = store.count_pending(fingerprint, cids)
        finally:
            store.release_writer()
        memory = self._after_embed() if self._after_embed is not None and collection is None else 0
        prepare = getattr(embedder, "prepare_fast_query", None)
        encoder = DEFAULT_SETTINGS.fast_encoder
        if prepare is not None and encoder != "exact":
            prepare(encoder)  # derive the --fast query model now, not on the first `query --fast`
        return c.EmbedSummary(
            embedder=fingerprint, embedded=done, pending_before=before, pending_after=after,
            batches=batches, elapsed_ms=int((time.perf_counter() - started) * 1000), tokens=tokens,
            memory_embedded=memory,
        )

    # --- capture -----------------------------------------------------------------------

    def capture(self, collection: str, title: str, text: str, *, path: str | None = None) -> CaptureResult:
        """Write a new Markdown note into ``collection``'s folder, then index that collection.

        ``path`` (relative to the collection's root, ``.md`` added when it has no suffix)
        defaults to a slug of ``title``, numbered when taken. The file is written to a
        temporary name and hard-linked into place, so it appears whole or not at all, and an
        existing file is never replaced. Paths that leave the root (``..``, absolute,
        percent-encoded, through a symlink) or that indexing would skip are refused."""
        import hashlib

        import yaml

        from cairn.contracts.capture import CaptureResult
        from cairn.ingest.capture import capture_path, create_new_file

        store = self._open_store(False)
        record = store.get_collection(collection)
        title = title.strip()
        if not title or len(title) > 300 or any(ch in title for ch in "\r\n\x00"):
            raise ValidationError("title must be one line of 1 to 300 characters")
        if "\x00" in text:
            raise ValidationError("text must not contain NUL characters")
        header = yaml.safe_dump({"title": title}, allow_unicode=True, sort_keys=False)
        body = f"---\n{header}---\n\n{text.strip()}\n".encode()
        if len(body) > self._settings.max_file_bytes:
            raise ValidationError(f"note is larger than index.max_file_bytes ({self._settings.max_file_bytes})")
        root = Path(record.root)
        if not root.is_dir():
            raise ValidationError(f"collection {collection!r}: folder {record.root} is missing")
        if path is not None:
            candidates = [capture_path(path)]
        else:
            slug = re.sub(r"[^\w-]+", "-", title.lower(), flags=re.UNICODE).strip("-_")[:80] or "note"
            candidates = [f"{slug}.md"] + [f"{slug}-{n}.md" for n in range(2, 100)]
        written = create_new_file(root, candidates, body)
        if written is None:
            raise ConflictError(f"{candidates[0]} already exists in collection {collection!r}; never overwritten")
        hints: list[str] = []
        summary: c.IndexSummary | None = None
        docid: str | None = None
        try:
            summary = self.index(collection)
            found = store.find_document(collection=collection, path=written)
            if found is not None and found[0].active:
                docid = found[0].docid
            else:
                hints.append("written but not indexed: the collection's include/exclude globs skip this path")
        except BusyError as exc:
            hints.append(f"written but not indexed yet: {exc.message}; run: cairn index")
        return CaptureResult(
            uri=document_uri(collection, written), docid=docid, collection=collection, path=written,
            title=title, bytes=len(body), source_hash=hashlib.sha256(body).hexdigest(),
            index=summary, hints=hints,
        )


def collection_contract(record: CollectionRecord, counts: Mapping[int, tuple[int, int]]) -> c.Collection:
    """The public shape of a collection, with its document and passage counts."""
    docs, passages = counts.get(record.id, (0, 0))
    return c.Collection(
        name=record.name, root=record.root, include=list(record.include),
        exclude=list(record.exclude), context=record.context, sequence=record.sequence,
        created_at=record.created_at, documents=docs, passages=passages,
        last_indexed_at=record.last_indexed_at,
    )
