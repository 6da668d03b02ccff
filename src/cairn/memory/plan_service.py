"""The plan service: ``plan`` (the governor's context plan for a task) and ``resume`` (a
card for the start of a session).

This is the shell around the pure governor (:mod:`cairn.memory.governor`): it gathers
candidates from the memory store (through :class:`~cairn.memory.candidates.MemorySource`),
from the collections (the hybrid pipeline of ``query``) and from git, then hands them to
:func:`~cairn.memory.governor.plan`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cairn.contracts.plan import Plan
from cairn.errors import ModelUnavailable, NotFoundError, ValidationError
from cairn.memory.candidates import (
    GitHead,
    MemorySource,
    git_candidates,
    git_head,
    memory_candidates,
    passage_candidates,
    project_identity,
)
from cairn.memory.governor import MAX_BUDGET, Candidate, GovernorSettings
from cairn.memory.governor import plan as govern
from cairn.memory.recall import Recalled
from cairn.memory.records import Observation
from cairn.memory.scope import Caller
from cairn.retrieval.vector import SharedQueryVector

if TYPE_CHECKING:
    from cairn.models.tokens import TokenCounter
    from cairn.retrieval.service import RetrievalService
    from cairn.store.protocol import Store

#: Passages and memory records read per plan (each source).
PLAN_CANDIDATES = 50
#: Depth of each ranked list of the plan's hybrid run (a plain ``query`` of 10 results
#: reads 50; the pipeline's default for 50 results, 250, made a plan 2.7x a query).
PLAN_DEPTH = 60
#: Records read for a resume card.
RESUME_RECORDS = 30
#: Observation types a resume card shows when verified.
RESUME_TYPES = ("decision", "gotcha")
#: Standing of resume candidates (they are chosen by standing, not by a task): pinned,
#: then verified decisions/gotchas by recency (each older one RESUME_STEP lower), git facts.
RESUME_PINNED, RESUME_TOP, RESUME_STEP, RESUME_GIT = 1.0, 0.9, 0.02, 0.6
RESUME_TASK = "resume this project"


#: Helper threads of the plans of a process (three per plan).
HELPERS = 6

_helpers_lock = threading.Lock()
_helper_pool: list[ThreadPoolExecutor] = []


def _helpers() -> ThreadPoolExecutor:
    """The plans' helper threads (git's head, the task's embedding, memory recall), one
    pool per process, started on the first plan and kept: starting two threads per plan
    cost ≈ 4 ms on a loaded machine. Six workers: two concurrent plans do not wait for
    each other's helpers, and no helper task waits on this pool."""
    with _helpers_lock:
        if not _helper_pool:
            _helper_pool.append(ThreadPoolExecutor(max_workers=HELPERS, thread_name_prefix="cairn-plan"))
        return _helper_pool[0]


class PlanService:
    """Context plans over one index, its memory store and the project's git checkout."""

    def __init__(
        self, retrieval: RetrievalService, memory: Callable[[], MemorySource | None], root: Callable[[], Path],
        user: str | None, settings: GovernorSettings | None = None,
        identify: Callable[[str | None], tuple[str, str | None]] | None = None,
    ) -> None:
        """``identify(project)`` resolves the caller's project identity and user as the
        memory store does (default: ``project`` as given, else this checkout's identity,
        and ``user``)."""
        self._identify = identify
        self._retrieval = retrieval
        self._memory = memory
        self._root = root
        self._user = user
        self.settings = settings or GovernorSettings()

    def _caller(self, project: str | None) -> Caller:
        if self._identify is not None:
            return Caller(*self._identify(project))
        return Caller(project or project_identity(self._root()), self._user)

    def plan(
        self, task: str, *, budget: int = 800, project: str | None = None, explain: bool = False,
        collections: Sequence[str] = (),
    ) -> Plan:
        """The governor's context plan for ``task`` under a token ``budget``: ``abstain``
        (nothing qualifies: hand over nothing), a compact ``card`` or a ``workset``. Every
        candidate in the caller's scope (memory records of ``project``, default: this
        checkout's git remote or root; passages of the collections, by the ``query``
        pipeline; git facts) is listed with its disposition and reason codes. ``explain``
        adds the trace of every governor step. The same task and state give the same
        ``explanation_id`` and byte-identical canonical JSON."""
        task = _check(task, budget)
        caller, pool, counter = self.plan_candidates(task, project=project, collections=collections)
        return govern(task, pool, caller, budget, self.settings, token_counter=counter, explain=explain)

    def plan_candidates(
        self, task: str, *, project: str | None = None, collections: Sequence[str] = (),
    ) -> tuple[Caller, list[Candidate], str]:
        """What :meth:`plan` hands the governor for ``task``: the caller, the candidates
        (memory records, passages by the ``query`` pipeline, git facts) and the token
        counter's name. Benchmarks call this once and the governor per budget."""
        from cairn.models.tokens import budget_token_counter

        counter = budget_token_counter()
        caller = self._caller(project)
        root = self._root()
        side = _helpers()
        head = side.submit(git_head, root)  # git's branch and status while memory is recalled
        try:
            return self._gather(task, caller, counter, root, head.result, collections, side)
        finally:  # nothing of this plan outlives it (the pool is kept, its tasks are not)
            wait([head])

    def _gather(
        self, task: str, caller: Caller, counter: TokenCounter, root: Path,
        head: Callable[[], GitHead | None], collections: Sequence[str], side: ThreadPoolExecutor,
    ) -> tuple[Caller, list[Candidate], str]:
        pool: list[Candidate] = []
        memory = self._memory()
        # Memory is recalled and made candidates on a helper thread while the passages'
        # hybrid run goes on here (SQLite, NumPy, onnxruntime and the tokenizer release the
        # GIL); the pool keeps its order. Both embed the task: once, by whichever asks first.
        shared = SharedQueryVector(task)

        def recall() -> tuple[Sequence[Recalled], list[Candidate]]:
            assert memory is not None
            records = memory.recall(task, project=caller.project, user=caller.user, limit=PLAN_CANDIDATES,
                                    shared=shared)
            # The records' token counts and stems as stored with them, where the source keeps them.
            return records, memory_candidates(records, task, counter, facts=getattr(memory, "text_facts", None))

        try:  # opens the index here, before the helper starts: it is never opened twice at once
            store, filters, _ = self._retrieval.setup(PLAN_CANDIDATES, collections, (), (), None, None)
        except NotFoundError:
            store = None
        embedding = self._embed_early(store, shared, side) if store is not None else None
        recalled = side.submit(recall) if memory is not None else None
        passages: list[Candidate] = []
        try:
            # An index of memory alone has no passages; named collections exist (setup checked).
            if store is not None and (collections or store.list_collections()):
                run = self._retrieval.pipeline(store).run(task, filters, PLAN_CANDIDATES, mode="default",
                                                          graph=False, all_passages=True, depth=PLAN_DEPTH,
                                                          shared=shared)
                passages = passage_candidates(store, run, task, caller, counter, PLAN_CANDIDATES).candidates
        finally:  # the helpers' work ends with this plan, even when the passages' run fails
            helpers: list[Future[Any]] = [f for f in (embedding, recalled) if f is not None]
            wait(helpers)
        bound: list[str] = []
        if recalled is not None:
            records, remembered = recalled.result()
            pool += remembered
            bound = sorted({f for r in records if isinstance(r.qualified.record, Observation)
                            for f in r.qualified.record.files})
        pool += passages
        pool += git_candidates(root, task, caller, counter, bound_files=bound, head=head)
        return caller, pool, counter.name

    def _embed_early(self, store: Store, shared: SharedQueryVector, side: ThreadPoolExecutor) -> Future[Any] | None:
        """Start embedding the task on a helper thread now: both the passages' run and the
        recall wait for this one embedding (≈ 16 ms), and each would ask for it only after
        work of its own (the passages' filter ids, the memory BM25), which now overlaps
        it (onnxruntime releases the GIL). None when the index has no vectors of the
        embedder (both sides then skip their vector stage, as before)."""
        try:
            embedder = self._retrieval.ready_embedder(store)
        except ModelUnavailable:
            return None
        return side.submit(shared.embed, embedder)

    def resume(self, *, project: str | None = None, budget: int = 400, explain: bool = False) -> Plan:
        """A card for the start of a session: pinned records, then the most recent
        verified decisions and gotchas of ``project`` (default: this checkout's), then
        the git facts (branch, uncommitted files, recent commits), through the same
        governor (scope, freshness, conflicts and quality still apply)."""
        from cairn.models.tokens import budget_token_counter

        _check(RESUME_TASK, budget)
        counter = budget_token_counter()
        caller = self._caller(project)
        pool: list[Candidate] = []
        memory = self._memory()
        if memory is not None:
            records = memory.recent(project=caller.project, user=caller.user, limit=RESUME_RECORDS)
            standing: dict[str, float] = {}
            for q in records:
                if q.pinned:
                    standing[q.record.id] = RESUME_PINNED
                elif (isinstance(q.record, Observation) and q.record.type in RESUME_TYPES
                      and q.quality == "verified"):
                    standing[q.record.id] = max(0.0, RESUME_TOP - RESUME_STEP * len(standing))
            chosen = [q for q in records if q.record.id in standing]
            pool += memory_candidates(chosen, RESUME_TASK, counter, relevance=standing)
        pool += git_candidates(self._root(), RESUME_TASK, caller, counter, relevance=RESUME_GIT)
        result = govern(RESUME_TASK, pool, caller, budget, self.settings, token_counter=counter.name)
        return result if explain else result.model_copy(update={"trace": []})


def _check(task: str, budget: int) -> str:
    if not isinstance(task, str) or not task.strip():
        raise ValidationError("task is empty")
    if len(task) > 2000:
        raise ValidationError("task is longer than 2000 characters")
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise ValidationError(f"budget must be an integer between 1 and {MAX_BUDGET}")
    return task.strip()
