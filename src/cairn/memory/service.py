"""The memory service: the SDK's ``memory_*`` methods over the memory store.

Every write is redacted first (:mod:`cairn.memory.secrets`), validated completely, then
written in ONE store transaction with its history row(s) and signal(s): bad input writes
nothing. Reads apply the scope rule (:func:`cairn.memory.scope.visible`) before anything
else: a record the caller may not see is ``not_found``. Quality and freshness are derived
on every read (:mod:`cairn.memory.quality`, :mod:`cairn.memory.freshness`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from cairn.contracts.memory import (
    MemoryExport,
    MemoryHistory,
    MemoryHistoryRow,
    MemoryHit,
    MemoryItem,
    MemorySearchResult,
    MemorySignalRow,
    MemoryWriteResult,
)
from cairn.errors import NotFoundError, ValidationError
from cairn.memory.codec import MemoryRecord
from cairn.memory.evidence import bind_refs, check_relative, documents_lines
from cairn.memory.export import export_markdown
from cairn.memory.freshness import assess, file_hash
from cairn.memory.items import memory_item
from cairn.memory.project import ProjectInfo
from cairn.memory.quality import pinned, quality_of
from cairn.memory.records import (
    OBSERVATION_TYPES,
    SIGNAL_KINDS,
    SOURCES,
    VISIBILITIES,
    Claim,
    EvidenceRef,
    Observation,
    Qualified,
    Source,
    Visibility,
)
from cairn.memory.requalify import (
    bind_symbols,
    code_refresh_signals,
    index_run_signals,
    symbol_checker,
)
from cairn.memory.scope import Caller, visible
from cairn.memory.secrets import redact
from cairn.store.protocol import StoreOpener
from cairn.text.query import parse_query

if TYPE_CHECKING:
    from cairn.code.diff import ChangedCode

#: Largest narrative, in UTF-8 bytes: a memory is a note, not a document (capture those).
MAX_NARRATIVE_BYTES = 16 * 1024
MAX_TITLE = 300
MAX_ITEMS = 50  # facts, files, symbols, concepts each
MAX_ITEM = 1000  # characters of one fact, file, symbol or concept
MAX_NOTE = 2000

#: Finds the project a folder belongs to (:func:`cairn.memory.project.project_of`).
ProjectOf = Callable[[str | Path | None], ProjectInfo]


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


class MemoryService:
    """Observations and claims that agents store, with their signals and history."""

    def __init__(self, open_store: StoreOpener, user: str | None, project_of: ProjectOf) -> None:
        self._open_store = open_store
        self._user = user
        self._project_of = project_of

    # --- who asks ----------------------------------------------------------------------

    def _project(self, project: str | None) -> ProjectInfo:
        """``project``: None (the current folder's), a folder, or an identity as such."""
        if project is None:
            return self._project_of(None)
        if len(project) > 2048 or "\x00" in project:
            raise ValidationError("project: too long or not text")
        here = self._project_of(None)
        if project == here.identity:
            return here
        if project.startswith(("/", "~", ".")) and Path(project).expanduser().is_dir():
            return self._project_of(project)
        return ProjectInfo(project, None)  # another project, by identity: no folder to check files in

    def caller(self, project: str | None = None) -> Caller:
        """Who asks: the project (default: the current folder's) and the user."""
        return Caller(self._project(project).identity, self._user)

    # --- writes ------------------------------------------------------------------------

    def memory_add(
        self, title: str | None = None, narrative: str = "", *, type: str = "how-it-works",
        facts: Sequence[str] = (), files: Sequence[str] = (), symbols: Sequence[str] = (),
        concepts: Sequence[str] = (), topic_key: str | None = None, source: str = "agent",
        visibility: str | None = None, evidence: Sequence[str | EvidenceRef | dict[str, Any]] = (),
        observed_at: str | None = None, subject: str | None = None, predicate: str | None = None,
        object: str | None = None, supersedes: str | None = None, project: str | None = None,
    ) -> MemoryWriteResult:
        """Store an observation (``title``, ``narrative``, ``type``, facts, bound files and
        symbols, concepts, evidence) or, with ``subject``/``predicate``/``object``, a claim.

        An observation with the ``topic_key`` of an existing one of the project is a new
        revision of it (history kept). A claim whose subject and predicate match an active
        claim with another object marks both contested (``memory_resolve`` settles it);
        ``supersedes`` replaces an older claim at once (kept, not deleted). Secrets are
        redacted before anything is written; bound files that exist get a file evidence
        ref with their content hash. ``visibility`` defaults to ``project`` (a revision
        keeps its record's)."""
        if source not in SOURCES:
            raise ValidationError(f"source: one of {', '.join(SOURCES)}")
        if visibility is not None and visibility not in VISIBILITIES:
            raise ValidationError(f"visibility: one of {', '.join(VISIBILITIES)}")
        info = self._project(project)
        store = self._open_store(True)
        if subject is not None or predicate is not None or object is not None:
            return self._add_claim(store, info, subject, predicate, object, evidence, source,
                                   visibility or "project", supersedes)
        record, action, redactions = self._observation(
            store, info, title=title, narrative=narrative, type=type, facts=facts, files=files, symbols=symbols,
            concepts=concepts, topic_key=topic_key, source=source, visibility=visibility, evidence=evidence,
            observed_at=observed_at)
        store.memory_write([(record, action)], actor=self._user)
        unbound = len(record.symbols) - sum(e.kind == "symbol" for e in record.evidence)
        hints = [f"{unbound} bound symbol(s) not in a code snapshot of this project: kept by name, not checked "
                 "(run `cairn code refresh`; name a symbol as `cairn code symbols` lists it, or PATH::NAME)"
                 ] if unbound > 0 else []
        return MemoryWriteResult(action=action, item=self._item(store, record, info), redactions=redactions,
                                 hints=hints)

    def memory_import(self, observations: Sequence[dict[str, Any]], *, project: str | None = None) -> int:
        """Store many observations in ONE transaction (a bulk import: a conversation log, a
        benchmark's store). Each mapping holds :meth:`memory_add`'s observation arguments
        (``title``, ``narrative``, ``type``, ...); the whole batch is validated first and
        written all or nothing. Returns how many were written."""
        info = self._project(project)
        store = self._open_store(True)
        writes: list[tuple[MemoryRecord, str]] = []
        keys: set[str] = set()
        allowed = {"title", "narrative", "type", "facts", "files", "symbols", "concepts", "topic_key", "source",
                   "visibility", "evidence", "observed_at"}
        taken: set[str] = set()
        for n, fields in enumerate(observations):
            unknown = set(fields) - allowed
            if unknown:
                raise ValidationError(f"observation {n}: unknown fields {sorted(unknown)}")
            record, action, _ = self._observation(store, info, taken=taken, **fields)
            if record.topic_key is not None:
                if record.topic_key in keys:
                    raise ValidationError(f"observation {n}: topic_key {record.topic_key!r} twice in one import")
                keys.add(record.topic_key)
            taken.add(record.id)
            writes.append((record, action))
        store.memory_write(writes, actor=self._user)
        return len(writes)

    def _observation(
        self, store: Any, info: ProjectInfo, *, title: str | None = None, narrative: str = "",
        type: str = "how-it-works", facts: Sequence[str] = (), files: Sequence[str] = (),
        symbols: Sequence[str] = (), concepts: Sequence[str] = (), topic_key: str | None = None,
        source: str = "agent", visibility: str | None = None,
        evidence: Sequence[str | EvidenceRef | dict[str, Any]] = (), observed_at: str | None = None,
        taken: set[str] | None = None,
    ) -> tuple[Observation, str, int]:
        """A checked, redacted observation to write (new, or a revision of its topic) and
        the number of secrets redacted; ``taken``: ids already used in this batch."""
        if source not in SOURCES:
            raise ValidationError(f"source: one of {', '.join(SOURCES)}")
        if visibility is not None and visibility not in VISIBILITIES:
            raise ValidationError(f"visibility: one of {', '.join(VISIBILITIES)}")
        if type not in OBSERVATION_TYPES:
            raise ValidationError(f"unknown observation type {type!r}: one of {', '.join(OBSERVATION_TYPES)}")
        redactions = 0
        texts, n = self._clean_texts({"title": title or "", "narrative": narrative})
        redactions += n
        lists, n = self._clean_lists({"facts": facts, "files": files, "symbols": symbols, "concepts": concepts})
        redactions += n
        if not texts["title"].strip():
            raise ValidationError("title: required (a claim needs subject, predicate and object)")
        bound = [check_relative(f) for f in lists["files"]]
        refs = bind_refs(store, evidence, info.root)
        root = info.root
        refs += tuple(r for r in bind_refs(None, [f"file:{f}" for f in bound
                                                   if root is not None and file_hash(root / f) is not None], root)
                      if r not in refs)
        symbol_names, symbol_refs = bind_symbols(store, root, lists["symbols"])
        refs += tuple(r for r in symbol_refs if r not in refs)
        key = _norm(topic_key) if topic_key else None
        if key is not None and len(key) > MAX_TITLE:
            raise ValidationError(f"topic_key: at most {MAX_TITLE} characters")
        now = _now()
        fields = dict(
            type=type, title=texts["title"].strip(), narrative=texts["narrative"], facts=tuple(lists["facts"]),
            files=tuple(bound), symbols=symbol_names, concepts=tuple(lists["concepts"]),
            source=cast(Source, source), evidence=refs,
            observed_at=_check_date(observed_at),
        )
        # The topic's record this caller may see: another user's personal record with the
        # same key is neither revised nor revealed.
        caller = Caller(info.identity, self._user)
        previous = next((o for o in (store.memory_topic(info.identity, key) if key is not None else [])
                         if visible(o, caller)), None)
        if previous is not None:  # a revision keeps its visibility unless one is given
            fields["visibility"] = cast(Visibility, visibility or previous.visibility)
            record: Observation = dataclasses.replace(
                previous, **fields, revision=previous.revision + 1, status="active", updated_at=now)
            action = "revised"
        else:
            digest = "\0".join([info.identity, self._user or "", type, fields["title"], texts["narrative"], key or ""])  # type: ignore[list-item]
            fields["visibility"] = cast(Visibility, visibility or "project")
            record = Observation(
                id=self._fresh_id(store, "obs_", digest, taken), topic_key=key, revision=1, project=info.identity,
                owner=self._user, status="active", created_at=now, updated_at=now, **fields,  # type: ignore[arg-type]
            )
            action = "created"
        return record, action, redactions

    def _add_claim(
        self, store: Any, info: ProjectInfo, subject: str | None, predicate: str | None, obj: str | None,
        evidence: Sequence[str | EvidenceRef | dict[str, Any]], source: str, visibility: str,
        supersedes: str | None,
    ) -> MemoryWriteResult:
        texts, redactions = self._clean_texts({"subject": subject or "", "predicate": predicate or "",
                                               "object": obj or ""}, limit=MAX_ITEM)
        if not all(texts[k].strip() for k in ("subject", "predicate", "object")):
            raise ValidationError("a claim needs subject, predicate and object")
        refs = bind_refs(store, evidence, info.root)
        caller = Caller(info.identity, self._user)
        conflict_key = f"{_norm(texts['subject'])}|{_norm(texts['predicate'])}"
        claim_key = f"{conflict_key}|{_norm(texts['object'])}"
        competing = [c for c in store.memory_competing(info.identity, conflict_key)
                     if c.status == "active" and c.superseded_by is None and visible(c, caller)]
        same = next((c for c in competing if c.claim_key == claim_key), None)
        if same is not None and supersedes is None:
            return MemoryWriteResult(action="unchanged", item=self._item(store, same, info),
                                     redactions=redactions, hints=[f"the claim exists already: {same.id}"])
        old = None
        if supersedes is not None:
            old = store.memory_records([supersedes]).get(supersedes)
            if not isinstance(old, Claim) or not visible(old, caller):
                raise NotFoundError(f"no claim {supersedes!r}")
        now = _now()
        claim = Claim(
            id=self._fresh_id(store, "clm_", "\0".join([info.identity, self._user or "", claim_key])),
            subject=texts["subject"].strip(), predicate=texts["predicate"].strip(), object=texts["object"].strip(),
            claim_key=claim_key, conflict_key=conflict_key, evidence=refs, review="unreviewed",
            supersedes=old.id if old else None, superseded_by=None, source=cast(Source, source),
            visibility=cast(Visibility, visibility), project=info.identity, owner=self._user,
            status="active", created_at=now, updated_at=now,
        )
        writes: list[tuple[MemoryRecord, str]] = [(claim, "created")]
        affected: list[str] = []
        if old is not None:
            writes.append((dataclasses.replace(old, superseded_by=claim.id, updated_at=now), "superseded"))
            affected.append(old.id)
        rivals = [c for c in competing if old is None or c.id != old.id]
        if rivals:  # contested: both sides get a history row; resolve confirms the conflict
            writes += [(c, "contested") for c in rivals]
            affected += [c.id for c in rivals]
        store.memory_write(writes, actor=self._user)
        hints = ([f"contested with {', '.join(c.id for c in rivals)}: settle it with memory resolve "
                  f"(target {conflict_key!r}, keep the claim that stands)"] if rivals else [])
        return MemoryWriteResult(action="created", item=self._item(store, claim, info), redactions=redactions,
                                 affected=affected, hints=hints)

    def memory_correct(
        self, id: str, text: str | None = None, *, title: str | None = None, facts: Sequence[str] | None = None,
        concepts: Sequence[str] | None = None, note: str | None = None, project: str | None = None,
    ) -> MemoryWriteResult:
        """Correct a record: an observation gets a new revision (``text`` is its new
        narrative), a claim a new object (``text``); ``facts``/``concepts`` replace the
        record's (empty keeps them). Appends a user-correction signal."""
        info = self._project(project)
        store, record = self._visible(id, info)
        changes: dict[str, Any] = {}
        redactions = 0
        if isinstance(record, Observation):
            texts, redactions = self._clean_texts({k: v for k, v in (("narrative", text), ("title", title))
                                                   if v is not None})
            changes.update(texts)
            lists, n = self._clean_lists({k: v for k, v in (("facts", facts), ("concepts", concepts)) if v})
            redactions += n
            changes.update({k: tuple(v) for k, v in lists.items()})
            if "title" in changes and not changes["title"].strip():
                raise ValidationError("title: cannot be empty")
            if changes:
                changes["revision"] = record.revision + 1
        elif text is not None:
            texts, redactions = self._clean_texts({"object": text}, limit=MAX_ITEM)
            if not texts["object"].strip():
                raise ValidationError("text: the claim's new object cannot be empty")
            changes = {"object": texts["object"].strip(),
                       "claim_key": f"{record.conflict_key}|{_norm(texts['object'])}"}
        if not changes:
            raise ValidationError("nothing to correct: give text (or title, facts, concepts)")
        note_text, n = self._clean_note(note)
        corrected = dataclasses.replace(record, **changes, updated_at=_now())
        store.memory_write([(corrected, "corrected")], [(record.id, "user-correction", note_text)], actor=self._user)
        return MemoryWriteResult(action="corrected", item=self._item(store, corrected, info),
                                 redactions=redactions + n)

    def memory_pin(self, id: str, note: str | None = None, *, project: str | None = None) -> MemoryWriteResult:
        """Pin a record (a user-pin signal: it counts as verified, and a governor keeps it)."""
        return self._transition(id, "pinned", "user-pin", note, project)

    def memory_signal(self, id: str, kind: str, note: str | None = None, *,
                      project: str | None = None) -> MemoryWriteResult:
        """Append an outcome signal (test-pass, test-fail, verified-reuse, manual-review,
        ...) about a record; its quality is recomputed from the signals."""
        if kind not in SIGNAL_KINDS:
            raise ValidationError(f"unknown signal kind {kind!r}: one of {', '.join(SIGNAL_KINDS)}")
        return self._transition(id, None, kind, note, project)

    def memory_archive(self, id: str, note: str | None = None, *, project: str | None = None) -> MemoryWriteResult:
        """Archive a record: out of search and plans, kept with its history (``restore``)."""
        return self._transition(id, "archived", None, note, project, status="archived")

    def memory_restore(self, id: str, *, project: str | None = None) -> MemoryWriteResult:
        """Bring an archived record back."""
        return self._transition(id, "restored", None, None, project, status="active")

    def _transition(self, id: str, action: str | None, signal: str | None, note: str | None,
                    project: str | None, *, status: str | None = None) -> MemoryWriteResult:
        info = self._project(project)
        store, record = self._visible(id, info)
        note_text, redactions = self._clean_note(note)
        writes: list[tuple[MemoryRecord, str]] = []
        if action is not None:
            if status is not None:
                if record.status == status:
                    return MemoryWriteResult(action="unchanged", item=self._item(store, record, info))
                record = dataclasses.replace(record, status=status, updated_at=_now())  # type: ignore[arg-type]
            writes.append((record, action))
        signals = [(record.id, signal, note_text)] if signal else []
        store.memory_write(writes, signals, actor=self._user)
        return MemoryWriteResult(action=action or "signal", item=self._item(store, record, info),
                                 redactions=redactions)

    def memory_resolve(self, target: str, keep: str, *, note: str | None = None,
                       project: str | None = None) -> MemoryWriteResult:
        """Settle a contested claim: ``target`` is a conflict key (``subject|predicate``)
        or a claim id, ``keep`` the claim that stands. Each other active claim of that
        conflict key is superseded by it (kept, with a conflict-confirmed signal); the kept
        claim is marked accepted (a manual-review signal)."""
        info = self._project(project)
        store, kept = self._visible(keep, info)
        if not isinstance(kept, Claim):
            raise ValidationError(f"{keep} is not a claim")
        if target.startswith("clm_"):
            _, other = self._visible(target, info)
            if not isinstance(other, Claim):
                raise ValidationError(f"{target} is not a claim")
            conflict_key = other.conflict_key
        else:
            conflict_key = "|".join(_norm(part) for part in target.split("|"))
        if kept.conflict_key != conflict_key:
            raise ValidationError(f"{keep} is not a claim about {conflict_key!r}")
        if kept.superseded_by is not None or kept.status != "active":
            raise ValidationError(f"{keep} is superseded or archived; restore or choose another")
        caller = Caller(info.identity, self._user)
        losers = [c for c in store.memory_competing(kept.project, conflict_key)
                  if c.id != kept.id and c.status == "active" and c.superseded_by is None and visible(c, caller)]
        note_text, _ = self._clean_note(note)
        now = _now()
        winner = dataclasses.replace(kept, review="accepted", updated_at=now,
                                     supersedes=losers[-1].id if losers else kept.supersedes)
        writes: list[tuple[MemoryRecord, str]] = [(winner, "resolved")]
        writes += [(dataclasses.replace(c, superseded_by=kept.id, review="rejected", updated_at=now), "superseded")
                   for c in losers]
        signals = [(c.id, "conflict-confirmed", note_text) for c in losers] + [(kept.id, "manual-review", note_text)]
        store.memory_write(writes, signals, actor=self._user)
        return MemoryWriteResult(action="resolved", item=self._item(store, winner, info),
                                 affected=[c.id for c in losers])

    # --- reads -------------------------------------------------------------------------

    def memory_search(self, text: str, *, project: str | None = None, limit: int = 10,
                      include_archived: bool = False) -> MemorySearchResult:
        """BM25 over memory (title, narrative, facts, concepts; claims by their words),
        only what the caller may see: their project's records (personal ones only their
        own) and team records. ``include_archived`` adds archived and superseded ones."""
        if not 1 <= limit <= 1000:
            raise ValidationError("limit: 1 to 1000")
        info = self._project(project)
        caller = Caller(info.identity, self._user)
        store = self._open_store(True)
        hits = self._ranked(store, text, caller, limit, include_archived)
        results = [MemoryHit(score=round(score, 6), item=item)
                   for (_, score), item in zip(hits, self._items(store, [r for r, _ in hits], info), strict=True)]
        return MemorySearchResult(query=text, project=info.identity, results=results)

    def _ranked(self, store: Any, text: str, caller: Caller, limit: int,
                include_archived: bool) -> list[tuple[MemoryRecord, float]]:
        """The ``limit`` best records by BM25 that ``caller`` may see (superseded claims
        only with ``include_archived``), best first."""
        parsed = parse_query(text, strict=False)
        fetch = limit * 4
        while True:
            scored = store.memory_search(parsed, [caller.project], fetch, include_archived=include_archived)
            hits: list[tuple[MemoryRecord, float]] = []
            # Records are read (and their JSON parsed) a page of ``limit`` at a time, only
            # until ``limit`` of them pass: most searches need the first page only.
            for start in range(0, len(scored), limit):
                page = scored[start:start + limit]
                records = store.memory_records([rid for rid, _ in page])
                hits += [(records[rid], score) for rid, score in page
                         if visible(records[rid], caller)
                         and (include_archived or not (isinstance(records[rid], Claim)
                                                       and cast(Claim, records[rid]).superseded_by))]
                if len(hits) >= limit:
                    return hits[:limit]
            if len(scored) < fetch:
                return hits
            fetch *= 4

    def recall(self, text: str, caller: Caller, limit: int = 50) -> list[tuple[Qualified, float]]:
        """For the governor: the ``limit`` active records ``caller`` may see that best
        match ``text`` (BM25), each qualified, with its score, best first."""
        store = self._open_store(True)
        hits = self._ranked(store, text, caller, limit, False)
        return list(zip(self.qualified([r for r, _ in hits], caller), [s for _, s in hits], strict=True))

    def visible_records(self, caller: Caller, *, include_archived: bool = False,
                        limit: int = 10_000) -> list[Qualified]:
        """For the governor: every record ``caller`` may see (active only by default),
        oldest first, qualified."""
        store = self._open_store(True)
        records = [r for r in store.memory_list([caller.project], include_archived=include_archived, limit=limit)
                   if visible(r, caller)]
        return self.qualified(records, caller)

    def memory_show(self, id: str, *, project: str | None = None) -> MemoryItem:
        """One record with its quality, freshness, pin and conflict state."""
        info = self._project(project)
        store, record = self._visible(id, info)
        return self._item(store, record, info)

    def memory_history(self, id: str, *, project: str | None = None) -> MemoryHistory:
        """Every transition of a record (created, revised, ..., with the record before and
        after) and every signal about it, oldest first."""
        info = self._project(project)
        store, record = self._visible(id, info)
        signals = store.memory_signals([record.id]).get(record.id, [])
        return MemoryHistory(
            id=record.id, quality=quality_of(signals),
            entries=[MemoryHistoryRow(seq=h.seq, action=h.action, at=h.at, actor=h.actor,
                                      before=json.loads(h.before) if h.before else None,
                                      after=json.loads(h.after) if h.after else None)
                     for h in store.memory_history(record.id)],
            signals=[MemorySignalRow(seq=s.seq, kind=s.kind, note=s.note, at=s.at, actor=s.actor) for s in signals],
        )

    def memory_export(self, path: str | None = None, *, project: str | None = None,
                      include_archived: bool = True) -> MemoryExport:
        """Memory the caller may see as one plain Markdown document (``path``: written
        there too, atomically; it must not exist yet)."""
        info = self._project(project)
        caller = Caller(info.identity, self._user)
        store = self._open_store(True)
        records = [r for r in store.memory_list([info.identity], include_archived=include_archived)
                   if visible(r, caller)]
        items = self._items(store, records, info)
        markdown = export_markdown(info.identity, items)
        written = None
        if path is not None:
            target = Path(path).expanduser()
            if target.exists():
                raise ValidationError(f"{path} exists already; choose a new file")
            tmp = target.with_name(target.name + ".tmp")
            try:
                tmp.write_text(markdown, encoding="utf-8")
                tmp.replace(target)
            except OSError as exc:
                raise ValidationError(f"cannot write {path}: {exc}") from None
            written = str(target.resolve())
        return MemoryExport(project=info.identity, records=len(items), markdown=markdown, path=written)

    def qualified(self, records: Sequence[MemoryRecord], caller: Caller,
                  root: Path | None = None, *, store: Any = None) -> list[Qualified]:
        """The records with their derived quality, freshness, pin and conflict state (what
        the governor reads). File refs are checked under ``root`` (default: the current
        project's root when ``caller`` works there); ``store``: the index to read (default:
        the service's)."""
        store = self._open_store(True) if store is None else store
        if root is None:
            here = self._project_of(None)
            root = here.root if here.identity == caller.project else None
        signals = store.memory_signals([r.id for r in records])
        lines = documents_lines(store, {e.target for r in records for e in r.evidence if e.kind == "passage"})

        def lines_of(docid: str) -> Sequence[str] | None:
            return lines[docid] if docid in lines else documents_lines(store, [docid])[docid]

        def hash_of(path: str) -> str | None:
            if root is None:
                raise LookupError(path)
            return file_hash(root / path)

        symbol_of = symbol_checker(store, root, [e for r in records for e in r.evidence if e.kind == "symbol"])
        out = []
        for record in records:
            own = signals.get(record.id, [])
            freshness, reasons = assess(record.evidence if record.project == caller.project or root is None
                                        else tuple(e for e in record.evidence if e.kind not in ("file", "symbol")),
                                        lines_of, hash_of, symbol_of)
            contested = self._contested(store, record, caller)
            out.append(Qualified(record=record, quality=quality_of(own), freshness=freshness,
                                 stale_reasons=reasons, pinned=pinned(own), contested_with=contested))
        return out

    # --- the indexer's producer --------------------------------------------------------

    def note_index_run(self, run_id: int) -> int:
        """After an index run: a source-changed signal for every record whose evidence
        cites a document the run changed (:func:`cairn.memory.requalify.index_run_signals`).
        Returns how many signals were appended."""
        store = self._open_store(True)
        signals = index_run_signals(store, self._project_of, run_id)
        if signals:
            store.memory_write([], signals, actor="indexer")
        return len(signals)

    def note_code_refresh(self, root: str, old: int, new: int, changed: ChangedCode) -> int:
        """After a code refresh of ``root`` (snapshot ``old`` -> ``new``): a source-changed
        signal for every record bound to a file or symbol that changed, naming what and the
        two snapshots (:func:`cairn.memory.requalify.code_refresh_signals`); appended once
        per record and snapshot pair. Returns how many were appended."""
        store = self._open_store(True)
        signals = code_refresh_signals(store, self._project_of, root, old, new, changed)
        if signals:
            store.memory_write([], signals, actor="code-refresh")
        return len(signals)

    # --- helpers -----------------------------------------------------------------------

    def _visible(self, id: str, info: ProjectInfo) -> tuple[Any, MemoryRecord]:
        store = self._open_store(True)
        record = store.memory_records([id]).get(id)
        if record is None or not visible(record, Caller(info.identity, self._user)):
            raise NotFoundError(f"no memory record {id!r} visible here")
        return store, record

    def _contested(self, store: Any, record: MemoryRecord, caller: Caller) -> tuple[str, ...]:
        if not isinstance(record, Claim) or record.superseded_by or record.status != "active":
            return ()
        return tuple(c.id for c in store.memory_competing(record.project, record.conflict_key)
                     if c.id != record.id and c.status == "active" and c.superseded_by is None
                     and c.claim_key != record.claim_key and visible(c, caller))

    def _item(self, store: Any, record: MemoryRecord, info: ProjectInfo) -> MemoryItem:
        return self._items(store, [record], info)[0]

    def _items(self, store: Any, records: Sequence[MemoryRecord], info: ProjectInfo) -> list[MemoryItem]:
        caller = Caller(info.identity, self._user)
        counts = store.memory_signals([r.id for r in records])
        return [memory_item(q, len(counts.get(q.record.id, [])))
                for q in self.qualified(records, caller, info.root)]

    def _fresh_id(self, store: Any, prefix: str, digest: str, taken: set[str] | None = None) -> str:
        """A content-derived id (the same write gives the same id in a fresh index); a
        counter separates equal contents."""
        for n in range(1000):
            rid = prefix + hashlib.sha256(f"{digest}\0{n}".encode()).hexdigest()[:12]
            if (taken is None or rid not in taken) and rid not in store.memory_records([rid]):
                return rid
        raise ValidationError("too many identical records")  # pragma: no cover

    def _clean_texts(self, texts: dict[str, str], limit: int | None = None) -> tuple[dict[str, str], int]:
        out: dict[str, str] = {}
        total = 0
        for key, value in texts.items():
            if key == "narrative" and len(value.encode()) > MAX_NARRATIVE_BYTES:
                raise ValidationError(f"narrative: {len(value.encode())} bytes, over the {MAX_NARRATIVE_BYTES}-byte "
                                      "limit (store long text as a document: cairn capture)")
            cap = limit or (MAX_TITLE if key == "title" else None)
            if cap is not None and len(value) > cap:
                raise ValidationError(f"{key}: at most {cap} characters")
            if "\x00" in value:
                raise ValidationError(f"{key}: contains a NUL character")
            out[key], n = redact(value)
            total += n
        return out, total

    def _clean_lists(self, lists: dict[str, Sequence[str]]) -> tuple[dict[str, list[str]], int]:
        out: dict[str, list[str]] = {}
        total = 0
        for key, values in lists.items():
            if isinstance(values, str):
                values = [values]
            if len(values) > MAX_ITEMS:
                raise ValidationError(f"{key}: at most {MAX_ITEMS} items")
            cleaned = []
            for value in values:
                if len(value) > MAX_ITEM or "\x00" in value:
                    raise ValidationError(f"{key}: each at most {MAX_ITEM} characters, no NUL")
                text, n = redact(value.strip())
                total += n
                if text:
                    cleaned.append(text)
            out[key] = list(dict.fromkeys(cleaned))
        return out, total

    def _clean_note(self, note: str | None) -> tuple[str | None, int]:
        if note is None:
            return None, 0
        if len(note) > MAX_NOTE:
            raise ValidationError(f"note: at most {MAX_NOTE} characters")
        return redact(note)


def _check_date(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"observed_at: not an ISO date: {value!r}") from None
    return value

