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
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from cairn.answer.service import AnswerService
from cairn.capsule.service import CapsuleService
from cairn.config import Paths, Settings, check_index_name, load_settings, resolve_paths
from cairn.errors import NotFoundError
from cairn.graph.frontmatter import DEFAULT_LINK_KEYS
from cairn.graph.service import GraphService
from cairn.ingest.service import IndexService
from cairn.ingest.status import StatusService
from cairn.memory.candidates import MemorySource
from cairn.memory.plan_service import PlanService
from cairn.models.hub import ModelHub
from cairn.refs import document_uri
from cairn.retrieval.pipeline import QueryMode
from cairn.retrieval.service import RetrievalService
from cairn.store import Store, open_store

__all__ = ["QueryMode", "Workspace", "document_uri", "open_workspace"]

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
    ) -> None:
        """``models`` shares one set of loaded models between Workspaces (server threads,
        the resident runtime); by default this Workspace has its own."""
        self.paths = paths
        self.settings = settings
        self.index_name = check_index_name(index_name)
        self._store: Store | None = None
        self._owns_models = models is None
        self.models = models if models is not None else ModelHub(settings, paths.data_dir / "models")
        section = settings.raw.get("graph", {})
        link_keys = section.get("link_keys", DEFAULT_LINK_KEYS) if isinstance(section, dict) else None
        graph = GraphService(self._open_store, link_keys, document_uri)
        self._graph = graph
        self._indexing = IndexService(self._open_store, settings.index, self.models)
        self._status = StatusService(self._open_store, self.index_name, self.index_path, paths.data_dir,
                                     str(settings.embed.get("backend")), self.models)
        self._retrieval = RetrievalService(
            self._open_store, self.models,
            lambda seeds, per_seed, total: graph.graph_expand(seeds, per_seed=per_seed, max_total=total),
        )
        self._capsules = CapsuleService(self._open_store, self.index_name, self._retrieval,
                                        self._indexing.limits, paths.data_dir / "keys" / "capsule.key")
        self._answers = AnswerService(self._open_store, self._capsules, self.models)
        # Memory: the evidence governor's plans (issue 14). The memory store is connected at
        # merge (``memory_source``); until then plans read passages and git facts only.
        self._plans = PlanService(self._retrieval, lambda: self.memory_source, Path.cwd,
                                  os.environ.get("CAIRN_USER") or os.environ.get("USER"))
        self.memory_source: MemorySource | None = None

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
    return Workspace(paths, settings, index, models=models)
