"""The composition root: one index, its store, its models and one service per capability.

:class:`Workspace` is the only place that reads configuration and environment (through
:func:`open_workspace`). It builds the store lazily, shares a :class:`ModelHub`, wires
the services, and exposes their methods as the SDK: each SDK method *is* the service
method (same signature and docstring), named after the CLI command. Every method returns
a :mod:`cairn.contracts` object; the CLI's ``--json`` output is its
``model_dump(mode="json")``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from cairn.answer.service import AnswerService
from cairn.capsule.saved import SavedCapsuleService
from cairn.capsule.service import CapsuleService
from cairn.code.service import CodeService
from cairn.config import Paths, Settings, check_index_name, load_settings, resolve_paths
from cairn.delta.journal import retention_from_config
from cairn.delta.service import DeltaService
from cairn.errors import NotFoundError
from cairn.graph.frontmatter import DEFAULT_LINK_KEYS
from cairn.graph.service import GraphService
from cairn.ingest.service import IndexService
from cairn.ingest.status import StatusService
from cairn.memory.candidates import MemorySource
from cairn.memory.impact import MemoryImpact
from cairn.memory.plan_service import PlanService
from cairn.memory.plan_source import StoredMemory
from cairn.memory.project import ProjectInfo, project_of
from cairn.memory.recall import HybridRecall
from cairn.memory.service import MemoryService
from cairn.models.hub import ModelHub
from cairn.refs import document_uri
from cairn.retrieval.pipeline import QueryMode
from cairn.retrieval.service import RetrievalService
from cairn.runtime.service import RuntimeStatusService  # the resident runtime (issue 16)
from cairn.store import Store, open_store

if TYPE_CHECKING:
    from cairn.runtime.daemon import Runtime, RuntimeSettings
    from cairn.runtime.events import EventBus

__all__ = ["QueryMode", "Workspace", "document_uri", "open_workspace"]

#: Seconds between two heartbeats of the resident runtime (issue 16).
RUNTIME_HEARTBEAT_S = 5.0

S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")


class _Delegate(Generic[S, P, R]):
    """An SDK method that is a service's method: ``ws.search`` is
    ``ws._retrieval.search``, with its signature and docstring."""

    def __init__(self, service: str, method: Callable[Concatenate[S, P], R]) -> None:
        self._service = service
        self._method = method
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Callable[Concatenate[S, P], R]: ...
    @overload
    def __get__(self, obj: Workspace, owner: type | None = None) -> Callable[P, R]: ...
    def __get__(self, obj: Workspace | None, owner: type | None = None) -> Any:
        if obj is None:
            return self._method
        bound: Callable[P, R] = getattr(getattr(obj, self._service), self._method.__name__)
        return bound


class Workspace:
    """One index: its collections, documents and every operation on them."""

    def __init__(
        self, paths: Paths, settings: Settings, index_name: str, *, models: ModelHub | None = None,
        user: str | None = None,
    ) -> None:
        """``models`` shares one set of loaded models between Workspaces (server threads,
        the resident runtime); by default this Workspace has its own. ``user`` owns the
        personal memory this Workspace writes and sees."""
        self.paths = paths
        self.settings = settings
        self.index_name = check_index_name(index_name)
        self._store: Store | None = None
        self._owns_models = models is None
        self.models = models if models is not None else ModelHub(settings, paths.data_dir / "models")
        # agent memory (issue 14): the user from $CAIRN_USER (read by open_workspace), the
        # project from the folder the caller works in.
        self.user = user
        self._memory = MemoryService(self._open_store, user, _project_here)
        section = settings.raw.get("graph", {})
        link_keys = section.get("link_keys", DEFAULT_LINK_KEYS) if isinstance(section, dict) else None
        graph = GraphService(self._open_store, link_keys, document_uri)
        self._graph = graph
        # knowledge delta (issue 16): the journal's retention is applied after every index run
        self._delta = DeltaService(
            self._open_store, retention_from_config(settings.raw.get("journal")),
            lambda docid, **kw: graph.graph_neighbors(docid, **kw),
            # memory bound to a document (or to one linking to it) is part of its impact
            extensions=[MemoryImpact(self._open_store, self._memory.caller)],
        )
        self._indexing = IndexService(self._open_store, settings.index, self.models,
                                      under_lock=self._delta.prune, after_run=self._memory.note_index_run,
                                      after_embed=lambda: self._recall.memory_embed())
        self._status = StatusService(self._open_store, self.index_name, self.index_path, paths.data_dir,
                                     str(settings.embed.get("backend")), self.models)
        self._retrieval = RetrievalService(
            self._open_store, self.models,
            lambda seeds, per_seed, total: graph.graph_expand(seeds, per_seed=per_seed, max_total=total),
        )
        self._capsules = CapsuleService(self._open_store, self.index_name, self._retrieval,
                                        self._indexing.limits, paths.data_dir / "keys" / "capsule.key")
        self._answers = AnswerService(self._open_store, self._capsules, self.models)
        # The resident runtime (issue 16): its state; `status` shows it too.
        self._runtime = RuntimeStatusService(self._open_store, RUNTIME_HEARTBEAT_S)
        self._status.runtime_status = self._runtime.runtime_status
        self._saved = SavedCapsuleService(self._open_store, self._capsules)  # knowledge delta (issue 16)
        self._code = CodeService(self._open_store, self._memory.note_code_refresh)  # code graph; requalifies memory
        # Memory: the evidence governor's plans (issue 14). Plans read the memory store (hybrid
        # recall) through a replaceable source, and resolve project and user as memory does.
        self._recall = HybridRecall(self._open_store, self._memory, self.models.embedder)  # BM25 + vectors
        stored = StoredMemory(self._memory, self._recall)
        self.memory_source: MemorySource | None = stored
        self._plans = PlanService(self._retrieval, lambda: self.memory_source, Path.cwd,
                                  os.environ.get("CAIRN_USER") or os.environ.get("USER"), identify=stored.caller)

    # --- lifecycle ---------------------------------------------------------------------

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Release the index file (and the models, when this Workspace owns them)."""
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._owns_models:
            self.models.close()

    @property
    def index_path(self) -> Path:
        return self.paths.index_file(self.index_name)

    def _open_store(self, create: bool) -> Store:
        if self._store is None:
            if not create and not self.index_path.exists():
                raise NotFoundError(
                    f"index {self.index_name!r} does not exist yet; "
                    "add a collection with: cairn collection add PATH"
                )
            self._store = open_store(self.index_path, create=True)
        return self._store

    # --- the SDK: one line per operation -------------------------------------------------

    # collections and indexing
    add_collection = _Delegate("_indexing", IndexService.add_collection)
    configure_collection = _Delegate("_indexing", IndexService.configure_collection)
    list_collections = _Delegate("_indexing", IndexService.list_collections)
    remove_collection = _Delegate("_indexing", IndexService.remove_collection)
    index = _Delegate("_indexing", IndexService.index)
    update = index
    embed = _Delegate("_indexing", IndexService.embed)
    capture = _Delegate("_indexing", IndexService.capture)
    status = _Delegate("_status", StatusService.status)
    doctor = _Delegate("_status", StatusService.doctor)

    # retrieval
    search = _Delegate("_retrieval", RetrievalService.search)
    vsearch = _Delegate("_retrieval", RetrievalService.vsearch)
    query = _Delegate("_retrieval", RetrievalService.query)
    similar = _Delegate("_retrieval", RetrievalService.similar)
    query_diagnose = _Delegate("_retrieval", RetrievalService.query_diagnose)
    get = _Delegate("_retrieval", RetrievalService.get)
    multi_get = _Delegate("_retrieval", RetrievalService.multi_get)
    ls = _Delegate("_retrieval", RetrievalService.ls)

    # the link graph and tags
    links = _Delegate("_graph", GraphService.links)
    backlinks = _Delegate("_graph", GraphService.backlinks)
    graph = _Delegate("_graph", GraphService.graph)
    graph_path = _Delegate("_graph", GraphService.graph_path)
    graph_neighbors = _Delegate("_graph", GraphService.graph_neighbors)
    graph_expand = _Delegate("_graph", GraphService.graph_expand)
    tags = _Delegate("_graph", GraphService.tags)

    # evidence: capsules and answers
    context_build = _Delegate("_capsules", CapsuleService.context_build)
    context_verify = _Delegate("_capsules", CapsuleService.context_verify)
    ask = _Delegate("_answers", AnswerService.ask)
    ask_verified = _Delegate("_answers", AnswerService.ask_verified)
    check_draft = _Delegate("_answers", AnswerService.check_draft)

    # agent memory (issue 14)
    memory_add = _Delegate("_memory", MemoryService.memory_add)
    memory_search = _Delegate("_memory", MemoryService.memory_search)
    memory_show = _Delegate("_memory", MemoryService.memory_show)
    memory_pin = _Delegate("_memory", MemoryService.memory_pin)
    memory_correct = _Delegate("_memory", MemoryService.memory_correct)
    memory_resolve = _Delegate("_memory", MemoryService.memory_resolve)
    memory_signal = _Delegate("_memory", MemoryService.memory_signal)
    memory_history = _Delegate("_memory", MemoryService.memory_history)
    memory_archive = _Delegate("_memory", MemoryService.memory_archive)
    memory_restore = _Delegate("_memory", MemoryService.memory_restore)
    memory_export = _Delegate("_memory", MemoryService.memory_export)
    memory_import = _Delegate("_memory", MemoryService.memory_import)
    memory_qualified = _Delegate("_memory", MemoryService.qualified)
    memory_caller = _Delegate("_memory", MemoryService.caller)
    # the resident runtime (issue 16)
    runtime_status = _Delegate("_runtime", RuntimeStatusService.runtime_status)
    runtime_events = _Delegate("_runtime", RuntimeStatusService.runtime_events)

    def runtime(
        self, *, settings: RuntimeSettings | None = None, bus: EventBus | None = None,
        reverify: Callable[[Sequence[str]], Sequence[Any]] | None = None,
        cursor: Callable[[int], str] | None = None,
    ) -> Runtime:
        """The resident runtime of this index (``cairn daemon``): it watches the
        collections and runs index, embed and ``reverify`` jobs through THIS Workspace from
        its worker thread, so give it a Workspace of its own. ``reverify(docids)`` re-checks
        saved capsules citing changed documents; ``cursor(journal_seq)`` names a journal
        position in ``index.changed`` events. Start it with ``start()`` (or
        ``run_forever()``), end it with ``stop()``."""
        from cairn.runtime.daemon import Runtime, RuntimePorts, RuntimeSettings, require_watchfiles

        require_watchfiles()

        ports = RuntimePorts(
            index=lambda name, paths, progress: self.index(name, paths=paths, progress=progress),
            embed=lambda name, progress: self.embed(name, progress=progress),
            has_vectors=lambda: bool(self._open_store(True).vector_counts()),
            # Saved capsules citing changed documents are reverified after each index job,
            # and index.changed events name the journal cursor (knowledge delta, issue 16).
            reverify=reverify or (lambda docids: self.reverify_changed(docids).receipts),
            cursor=cursor or self._delta.cursor_at,
        )
        state = open_store(self.index_path, create=True)
        chosen = settings or RuntimeSettings(heartbeat_s=RUNTIME_HEARTBEAT_S)
        return Runtime(state, ports, chosen, bus=bus,
                       lock_path=self.index_path.with_name(self.index_path.name + ".runtime.lock"))
    # knowledge delta (issue 16): the change journal, structural diff, impact, saved capsules
    changes = _Delegate("_delta", DeltaService.changes)
    diff = _Delegate("_delta", DeltaService.diff)
    impact = _Delegate("_delta", DeltaService.impact)
    context_save = _Delegate("_saved", SavedCapsuleService.context_save)
    context_list = _Delegate("_saved", SavedCapsuleService.context_list)
    context_reverify = _Delegate("_saved", SavedCapsuleService.context_reverify)
    context_receipts = _Delegate("_saved", SavedCapsuleService.context_receipts)
    reverify_changed = _Delegate("_saved", SavedCapsuleService.reverify_changed)
    # the code graph (issue 15)
    code_refresh = _Delegate("_code", CodeService.code_refresh)
    code_snapshots = _Delegate("_code", CodeService.code_snapshots)
    code_diff = _Delegate("_code", CodeService.code_diff)
    code_impact = _Delegate("_code", CodeService.code_impact)
    code_symbols = _Delegate("_code", CodeService.code_symbols)
    code_show = _Delegate("_code", CodeService.code_show)
    # memory: the evidence governor (issue 14)
    plan = _Delegate("_plans", PlanService.plan)
    resume = _Delegate("_plans", PlanService.resume)


def open_workspace(home: str | Path | None = None, index: str = "default", *,
                   env: Mapping[str, str] | None = None, models: ModelHub | None = None) -> Workspace:
    """Composition root: resolve paths from ``home``/``$CAIRN_HOME``, read config, wire the
    services. ``models`` shares an existing :class:`ModelHub` (see :class:`Workspace`)."""
    environ = os.environ if env is None else env
    paths = resolve_paths(home, environ)
    settings = load_settings(paths.config_file)
    if environ.get("CAIRN_TOKEN"):  # the environment overrides [serve] token
        settings = dataclasses.replace(settings, serve_token=environ["CAIRN_TOKEN"])
    return Workspace(paths, settings, index, models=models, user=_user(environ))


def _user(environ: Mapping[str, str]) -> str | None:
    """Who owns personal memory: ``$CAIRN_USER``, else the OS user name."""
    if environ.get("CAIRN_USER"):
        return environ["CAIRN_USER"]
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return None


def _project_here(folder: str | Path | None) -> ProjectInfo:
    """The project of ``folder`` (None: the current folder)."""
    return project_of(Path.cwd() if folder is None else folder)
