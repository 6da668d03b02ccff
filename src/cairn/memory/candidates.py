"""Candidates for the governor: memory records, collection passages and git facts.

Each builder turns one source into :class:`~cairn.memory.governor.Candidate` objects with
real token counts (the capsule token counter, :func:`cairn.models.tokens.budget_token_counter`:
the MiniLM WordPiece tokenizer, or its declared estimate) of the full and the compact text.

Relevance, in [0, 1], is made comparable across sources by measuring the same things on
every source, never by dividing by a source's best score (which would make the top item
of any source look relevant, and the governor could never abstain):

* ``coverage``: the share of the task's content words (lower-cased unicode61 words, query
  stopwords dropped, light-stemmed, deduplicated) that occur in the candidate's text.
* passages: the hybrid run's fused order is kept (it is the tuned judge of which passage
  is more relevant: BM25, vectors, feedback, sequence neighbours), and scaled by how well
  the run matched at all. A passage's *match* is ``0.5 * coverage + 0.5 * max(0, cosine)``
  (``cosine``: its score in the ``vector`` stage, the MiniLM cosine of task and passage;
  0 when that stage did not rank it; without vectors, coverage alone). Its relevance is
  ``best / (1 + (rank - 1) / RANK_SCALE)`` where ``best`` is the highest match among the
  run's first units and ``rank`` its 1-based fused rank: strictly decreasing with rank
  (the governor packs in fused order), and all low when nothing matched well (abstain).
* memory records recalled for a task (:mod:`cairn.memory.recall`: BM25 and vectors fused,
  feedback round and session context, as ``query`` ranks passages): the same rule over
  their fused order, with each record's own cosine (coverage alone without vectors).
* git facts, and memory records given without a ranking: coverage (title, narrative,
  facts, files, concepts; a claim's subject, predicate and object; a commit's subject and
  files).

An observation's text opens with its title as a heading line; its type goes in the item's
title (``[decision] ...``), not in the text's tokens. The compact form of a text is its
first ``COMPACT_WORDS`` words (:mod:`cairn.memory.facts`) (the title first for memory records), with an ellipsis when
cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from cairn.gitcli import git_text
from cairn.memory.facts import (
    FactsByHash,
    TextFactsIndex,
    counts_of,
    known_facts,
    passage_forms,
    record_forms,
    stems_of,
    text_stems,
)
from cairn.memory.governor import Candidate
from cairn.memory.recall import Recalled
from cairn.memory.records import Claim, EvidenceRef, Observation, Qualified
from cairn.memory.scope import Caller
from cairn.text.stem import light_stem
from cairn.text.stopwords import QUERY_STOPWORDS
from cairn.text.tokens import words

if TYPE_CHECKING:
    from cairn.models.tokens import TokenCounter
    from cairn.retrieval.pipeline import HybridRun
    from cairn.retrieval.vector import SharedQueryVector
    from cairn.store.protocol import Store

#: Seconds a git call may take before its facts are left out.
GIT_TIMEOUT = 2.0
#: Recent commits read for git facts.
GIT_COMMITS = 5
#: Weight of the cosine in a passage's match (the rest is coverage).
COSINE_WEIGHT = 0.5
#: Fused rank at which a passage's relevance is half the run's best match, plus one.
RANK_SCALE = 10.0


class MemorySource(Protocol):
    """The few reads the plan service needs from the memory store (the memory service
    implements them; tests and benchmarks can give a list)."""

    def recall(self, task: str, *, project: str, user: str | None, limit: int,
               shared: SharedQueryVector | None = None) -> Sequence[Recalled]:
        """Active records of ``project`` (and team records) that may bear on ``task``, best
        first, with their derived quality and freshness and their cosine to ``task`` (None
        without vectors); scope is judged again by the governor. ``shared``: the task's
        embedding, as the plan's passage run computes it too."""
        ...

    def recent(self, *, project: str, user: str | None, limit: int) -> Sequence[Qualified]:
        """The most recently updated active records of ``project``, pinned ones first."""
        ...


# --- relevance ---------------------------------------------------------------------------


def task_terms(task: str) -> frozenset[str]:
    """The task's content words, light-stemmed (what ``coverage`` looks for)."""
    return frozenset(light_stem(w) for w in words(task) if w not in QUERY_STOPWORDS)


def coverage(terms: frozenset[str], text: str) -> float:
    """Share of ``terms`` found among the light-stemmed words of ``text`` (0 without terms)."""
    return covered(terms, text_stems(text)) if terms else 0.0


def covered(terms: frozenset[str], stems: frozenset[str]) -> float:
    """Share of ``terms`` among a text's ``stems`` (:func:`~cairn.memory.facts.text_stems`)."""
    if not terms:
        return 0.0
    return len(stems & terms) / len(terms)


def _counted(counter: TokenCounter, texts: Sequence[str]) -> list[int]:
    return counter.count(list(texts)) if texts else []


# --- memory records ------------------------------------------------------------------------


def _evidence_names(refs: Sequence[EvidenceRef]) -> tuple[str, ...]:
    names = []
    for ref in refs:
        span = f":{ref.start}-{ref.end}" if ref.start is not None and ref.end is not None else ""
        names.append(f"{ref.kind}:{ref.target}{span}")
    return tuple(names)


def memory_candidates(
    records: Sequence[Qualified | Recalled], task: str, counter: TokenCounter, *,
    relevance: dict[str, float] | None = None, facts: Callable[[Sequence[str]], FactsByHash] | None = None,
) -> list[Candidate]:
    """Candidates from memory records (archived ones are skipped). Records recalled for
    the task (:class:`~cairn.memory.recall.Recalled`, best first) are scored as passages
    are: the best match among them (coverage, and the cosine when vectors ran) discounted
    by rank. ``relevance`` overrides the score by record id (``resume`` ranks by
    standing, not by a task). ``facts``: the stored token counts and stems of texts by
    hash (:mod:`cairn.memory.facts`), read instead of computed where the counter matches."""
    terms = task_terms(task)
    recalled = [r if isinstance(r, Recalled) else Recalled(r) for r in records]
    live = [r for r in recalled if r.qualified.record.status == "active"]
    triples = [record_forms(r.qualified.record) for r in live]
    texts = [(title, text) for title, text, _ in triples]
    compacts = [short for _, _, short in triples]
    every = [t for _, t in texts] + compacts
    known = known_facts(facts, counter.name, every)
    counts = counts_of(counter, every, known)
    stems = stems_of([t for _, t in texts], known[:len(texts)])
    matches = [_match(covered(terms, s), r.cosine) for r, s in zip(live, stems, strict=True)]
    ranked = all(isinstance(r, Recalled) for r in records)
    scores = ranked_relevance(matches) if ranked else matches
    out = []
    for i, (r, (title, text)) in enumerate(zip(live, texts, strict=True)):
        q, rec = r.qualified, r.qualified.record
        if isinstance(rec, Claim):
            observed, superseded, conflict_key = rec.created_at, rec.superseded_by is not None, rec.conflict_key
        else:
            observed, superseded, conflict_key = rec.observed_at or rec.updated_at, False, None
        full, short = counts[i], counts[len(live) + i]
        out.append(Candidate(
            key=rec.id, kind="claim" if isinstance(rec, Claim) else "observation", title=f"[{_label(q)}] {title}",
            text=text, compact=compacts[i] if short < full else text, tokens=full, compact_tokens=min(short, full),
            relevance=round(min(1.0, (relevance or {}).get(rec.id, scores[i])), 6),
            project=rec.project, visibility=rec.visibility, owner=rec.owner, source=rec.source,
            provenance=_evidence_names(rec.evidence), evidence=len(rec.evidence), freshness=q.freshness,
            freshness_reasons=q.stale_reasons,
            conflict="superseded" if superseded else "none", conflict_key=conflict_key,
            quality=q.quality, pinned=q.pinned, observed_at=observed, fetch=f"cairn memory show {rec.id}",
        ))
    return out


def _match(cover: float, cosine: float | None) -> float:
    """How well one item matches the task: coverage, blended with the cosine when known."""
    if cosine is None:
        return cover
    return COSINE_WEIGHT * cover + (1 - COSINE_WEIGHT) * min(1.0, max(0.0, cosine))


def ranked_relevance(matches: Sequence[float]) -> list[float]:
    """Relevance of ranked items (best first) from their matches: the best match,
    discounted by rank (``best / (1 + (rank - 1) / RANK_SCALE)``), so the order of the
    ranking is kept and everything is low when nothing matched well."""
    best = max(matches, default=0.0)
    return [best / (1 + i / RANK_SCALE) for i in range(len(matches))]


def _label(q: Qualified) -> str:
    return q.record.type if isinstance(q.record, Observation) else "claim"


# --- collection passages -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PassagePool:
    candidates: list[Candidate]
    hints: list[str]


def passage_candidates(
    store: Store, run: HybridRun, task: str, caller: Caller, counter: TokenCounter, limit: int,
) -> PassagePool:
    """Candidates from the first ``limit`` fused units of a hybrid run (the ``query``
    pipeline): each passage with its docid, line span and passage hash as evidence."""
    from cairn.refs import document_uri

    head = [f for f in run.fused[:limit] if f.hit.collection]
    ids = [f.hit.passage_id for f in head]
    texts = store.passage_texts(ids)
    hashes = store.passage_hashes(ids) if ids else {}
    usable = [f for f in head if f.hit.passage_id in texts and f.hit.passage_id in hashes]
    pairs = [passage_forms(texts[f.hit.passage_id]) for f in usable]
    bodies = [body for body, _ in pairs]
    compacts = [short for _, short in pairs]
    # A body short enough to be its own compact form is counted once.
    cut = [i for i, (body, short) in enumerate(pairs) if short != body]
    every = bodies + [compacts[i] for i in cut]
    known = known_facts(store.text_facts if isinstance(store, TextFactsIndex) else None, counter.name, every)
    counted = counts_of(counter, every, known)
    full_counts = counted[:len(bodies)]
    short_counts = dict(zip(cut, counted[len(bodies):], strict=True))
    counts = full_counts + [short_counts.get(i, n) for i, n in enumerate(full_counts)]
    terms = task_terms(task)
    matches = []
    body_stems = stems_of(bodies, known[:len(bodies)])
    for f, stems in zip(usable, body_stems, strict=True):
        vector = f.stages.get("vector")
        # The stems of "title\nbody" are the title's and the body's: words never span a line break.
        cover = covered(terms, text_stems(f"{f.hit.title}") | stems)
        matches.append(_match(cover, (vector.score if vector is not None else 0.0) if run.vectors else None))
    scores = ranked_relevance(matches)
    out = []
    for i, f in enumerate(usable):
        hit = f.hit
        rel = scores[i]
        uri = document_uri(hit.collection, hit.path)
        full, short = counts[i], counts[len(usable) + i]
        out.append(Candidate(
            key=f"passage:{hit.docid}:{hit.start_line}-{hit.end_line}", kind="passage",
            title=hit.title or hit.path, text=bodies[i], compact=compacts[i] if short < full else bodies[i],
            tokens=full, compact_tokens=min(short, full), relevance=round(rel, 6), project=caller.project,
            visibility="project", owner=None, source="index",
            provenance=(f"passage:{hit.docid}:{hit.start_line}-{hit.end_line}#{hashes[hit.passage_id][0][:12]}",),
            evidence=1, freshness="fresh", fetch=f"cairn get {uri}:{hit.start_line}-{hit.end_line}",
        ))
    return PassagePool(out, list(run.hints))


# --- git facts -------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> str | None:
    return git_text(root, *args, timeout=GIT_TIMEOUT)


def project_identity(root: Path) -> str:
    """A project's identity, by the one rule memory records are written with
    (:func:`cairn.memory.project.project_of`): the normalised ``origin`` remote
    (``host/owner/name``), else the resolved root path."""
    from cairn.memory.project import project_of

    return project_of(root).identity


@dataclass(frozen=True, slots=True)
class GitHead:
    """The branch of a checkout and its uncommitted files."""

    branch: str
    dirty: tuple[str, ...]


def git_head(root: Path) -> GitHead | None:
    """The branch and uncommitted files of the repository at ``root``; None outside a
    repository or when git is missing or slow. Independent of the task: a plan reads it
    while it recalls memory (:meth:`~cairn.memory.plan_service.PlanService.plan_candidates`)."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if top is None:
        return None
    branch = (_git(root, "rev-parse", "--abbrev-ref", "HEAD") or "").strip() or "(no branch)"
    dirty = tuple(line[3:] for line in (_git(root, "status", "--porcelain") or "").splitlines() if len(line) > 3)
    return GitHead(branch, dirty)


def git_candidates(
    root: Path, task: str, caller: Caller, counter: TokenCounter, *, bound_files: Sequence[str] = (),
    relevance: float | None = None, head: Callable[[], GitHead | None] | None = None,
) -> list[Candidate]:
    """Git facts of the repository at ``root``: the branch with its uncommitted files, and
    recent commits (touching ``bound_files`` when given). None outside a repository or
    when git is missing or slow. ``relevance`` overrides coverage (``resume``); ``head``
    gives :func:`git_head` of ``root`` when already asked for (default: read now)."""
    state_of = git_head(root) if head is None else head()
    if state_of is None:
        return []
    branch, dirty = state_of.branch, state_of.dirty
    facts: list[tuple[str, str, str, tuple[str, ...]]] = []
    state = f"On branch {branch}; " + (f"{len(dirty)} uncommitted file(s): {', '.join(sorted(dirty)[:20])}"
                                       if dirty else "working tree clean")
    facts.append(("git:branch", f"branch {branch}", state, ()))
    # One call: each commit starts with a \x1e record mark, then its files (--name-only).
    log = _git(root, "log", f"-n{GIT_COMMITS}", "--name-only", "--format=%x1e%H%x1f%cs%x1f%s", "--",
               *bound_files) or ""
    for record in log.split("\x1e")[1:]:
        first, _, rest = record.partition("\n")
        parts = first.split("\x1f")
        if len(parts) != 3:
            continue
        sha, day, subject = parts
        files = rest.split()
        text = f"commit {sha[:10]} ({day}): {subject}" + (f"\nFiles: {', '.join(files[:20])}" if files else "")
        facts.append((f"git:commit:{sha[:12]}", subject, text, (f"commit:{sha}",)))
    terms = task_terms(task)
    counts = _counted(counter, [text for _, _, text, _ in facts])
    return [
        Candidate(
            key=key, kind="git", title=title, text=text, compact=text, tokens=n, compact_tokens=n,
            relevance=round(relevance if relevance is not None else coverage(terms, text), 6),
            project=caller.project, visibility="project", source="git", provenance=prov, evidence=len(prov),
            freshness="fresh", fetch=f"git show {key.rsplit(':', 1)[-1]}" if prov else "git status",
        )
        for (key, title, text, prov), n in zip(facts, counts, strict=True)
    ]
