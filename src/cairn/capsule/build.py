"""Building a Context Capsule: facets of the goal, evidence selection under a budget, and
assembly into canonical, self-identifying JSON.

Pure functions over plain data: the Workspace fetches candidate passages and passes
them in, with callbacks for what needs the index (why a facet found nothing).

Selection is greedy and deterministic. At each step the best remaining candidate is the
best-ranked one that mentions a facet no selected passage covers yet; when none does, the
best-ranked one. A candidate is then omitted, with a reason, when it repeats a selected
passage's text (``duplicate``), overlaps a selected span of its document (``overlap``),
would push its document over its share of the token budget (``document_cap``; a
document's first passage is exempt), or does not fit the tokens or bytes left
(``budget_tokens`` / ``budget_bytes``).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from cairn.capsule.canonical import (
    ID_LENGTH,
    canonical_json,
    capsule_digest,
    evidence_id,
    signed_payload,
)
from cairn.capsule.signing import CapsuleKey
from cairn.contracts.capsule import (
    Capsule,
    CapsuleScope,
    EvidenceItem,
    FacetCoverage,
    Fingerprints,
    GapReason,
    IndexState,
    Omission,
    OmissionReason,
    RetrievalSettings,
)
from cairn.errors import ValidationError
from cairn.refs import document_uri
from cairn.store.records import PassageHit
from cairn.text.cjk import cjk_bigrams, has_cjk
from cairn.text.stem import inflection_stem
from cairn.text.stopwords import QUERY_STOPWORDS
from cairn.text.tokens import words

__all__ = [
    "Candidate", "Facet", "Selection", "assemble_capsule", "build_capsule", "facets_mentioned",
    "fit_passage", "goal_facets", "select_evidence",
]

#: At most this many facets are tracked; a pasted paragraph as a goal keeps its first ones.
MAX_FACETS = 12
#: Words that carry no topic in a request ("explain how to ..."), beyond the stopwords.
_REQUEST_WORDS = frozenset((
    "also", "describe", "details", "difference", "does", "explain", "find", "get", "give",
    "know", "like", "list", "make", "need", "often", "please", "show", "summarise", "summarize", "tell",
    "use", "used", "uses", "using", "want", "way", "ways", "vs", "versus",
))
_PHRASE = re.compile(r'"([^"]+)"')
@dataclass(frozen=True, slots=True)
class Facet:
    """One aspect of the goal that evidence should cover: a quoted phrase or a key term."""

    text: str
    kind: Literal["phrase", "term"]

    def matches(self, text: str, stems: frozenset[str]) -> bool:
        """Whether ``text`` (with its word ``stems``) mentions this facet."""
        if self.kind == "phrase" or has_cjk(self.text):
            return self.text in " ".join(text.lower().split())
        return inflection_stem(self.text) in stems


def goal_facets(goal: str) -> list[Facet]:
    """Split a goal into facets: its quoted phrases, then its key terms (words that are
    not stopwords or request words, at least 3 characters or containing a digit), in
    order of appearance, without repeats, at most :data:`MAX_FACETS`."""
    facets: list[Facet] = []
    seen: set[str] = set()
    for phrase in _PHRASE.findall(goal):
        text = " ".join(phrase.lower().split())
        if text and text not in seen:
            seen.add(text)
            facets.append(Facet(text, "phrase"))
    rest = _PHRASE.sub(" ", goal)
    stems_seen: set[str] = set()
    for word in words(rest):
        if word in QUERY_STOPWORDS or word in _REQUEST_WORDS:
            continue
        if len(word) < 3 and not any(ch.isdigit() for ch in word) and not has_cjk(word):
            continue
        stem = inflection_stem(word)
        if word in seen or stem in stems_seen:
            continue
        seen.add(word)
        stems_seen.add(stem)
        facets.append(Facet(word, "term"))
    return facets[:MAX_FACETS]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A retrieved passage with everything evidence needs, in retrieval rank order: the
    passage span as retrieval found it (the one internal span type), its exact text and
    hashes, its token cost and its fused score."""

    hit: PassageHit
    text: str
    source_hash: str
    text_hash: str
    passage_hash: str
    tokens: int
    score: float

    @property
    def uri(self) -> str:
        return document_uri(self.hit.collection, self.hit.path)

    @property
    def docid(self) -> str:
        return self.hit.docid

    @property
    def start_line(self) -> int:
        return self.hit.start_line

    @property
    def end_line(self) -> int:
        return self.hit.end_line


def _goal_terms(goal: str) -> frozenset[str]:
    """The goal's words (not stopwords) and the bigrams of its CJK runs."""
    terms = {w for w in words(goal) if w not in QUERY_STOPWORDS and not has_cjk(w)}
    return frozenset(terms | set(cjk_bigrams(goal).split()))


def _line_score(line: str, terms: frozenset[str]) -> int:
    folded = line.lower()
    return sum(term in folded for term in terms)


def fit_passage(
    cand: Candidate, goal: str, limit: int, count: Callable[[str], int],
) -> Candidate | None:
    """The part of a CJK passage too large for the whole budget that can stand as evidence:
    the window of its whole lines around the line that best matches ``goal`` (its words
    and CJK bigrams; a table row with the rows above it, header included), grown one line at a time towards the better-matching neighbour
    while it costs at most ``limit`` tokens. ``None`` when no line matches, the passage
    is one line, or not even the best line fits.

    Why: the chunker sizes passages by a characters/4 estimate, which undercounts CJK
    text about threefold (a Han or Hangul character is a token), so a whole CJK note can
    be one passage larger than a capsule's budget; omitted whole, it left the capsule
    without the note at all. The window keeps exact line spans, so the item verifies
    against its document like any other (its ``passage_hash`` is of its own text)."""
    lines = cand.text.split("\n")
    if cand.end_line - cand.start_line + 1 != len(lines) or len(lines) < 2:
        return None
    terms = _goal_terms(goal)
    scores = [_line_score(line, terms) for line in lines]
    best = max(range(len(lines)), key=lambda i: (scores[i], -i))
    if not scores[best] or count(lines[best]) > limit:
        return None
    lo = hi = best
    # A table row is read with its header: take the rows above it first, when they fit.
    top = best
    while top > 0 and lines[top - 1].lstrip().startswith("|"):
        top -= 1
    if lines[best].lstrip().startswith("|") and count("\n".join(lines[top : best + 1])) <= limit:
        lo = top
    while True:
        options = [i for i in (lo - 1, hi + 1) if 0 <= i < len(lines)]
        if not options:
            break
        step = max(options, key=lambda i: (scores[i], i))
        nlo, nhi = min(lo, step), max(hi, step)
        if count("\n".join(lines[nlo : nhi + 1])) > limit:
            break
        lo, hi = nlo, nhi
    while not lines[lo].strip():
        lo += 1
    while not lines[hi].strip():
        hi -= 1
    text = "\n".join(lines[lo : hi + 1])
    start = cand.start_line + lo
    return replace(
        cand, hit=cand.hit._replace(start_line=start, end_line=start + hi - lo), text=text,
        passage_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(), tokens=count(text),
    )


@dataclass(frozen=True, slots=True)
class Selection:
    """Selected candidates (in selection order) and omitted ones with their reason."""

    selected: tuple[Candidate, ...]
    omitted: tuple[tuple[Candidate, OmissionReason], ...]


def facets_mentioned(text: str, facets: Sequence[Facet]) -> frozenset[int]:
    """Indexes of the ``facets`` that ``text`` mentions (what an evidence item's ``facets``
    and the coverage record; verify recomputes them with this same function)."""
    stems = frozenset(inflection_stem(w) for w in words(text))
    return frozenset(i for i, f in enumerate(facets) if f.matches(text, stems))


def _facet_hits(candidates: Sequence[Candidate], facets: Sequence[Facet]) -> list[frozenset[int]]:
    return [facets_mentioned(cand.text, facets) for cand in candidates]


def select_evidence(
    candidates: Sequence[Candidate], facets: Sequence[Facet], *, budget_tokens: int | None,
    max_document_share: float, fits_bytes: Callable[[Sequence[Candidate]], bool] | None = None,
) -> Selection:
    """Choose evidence from ranked ``candidates`` (see the module docstring)."""
    hits = _facet_hits(candidates, facets)
    remaining = list(range(len(candidates)))
    covered: set[int] = set()
    selected: list[int] = []
    omitted: list[tuple[int, OmissionReason]] = []
    used = 0
    per_doc: Counter[str] = Counter()
    doc_cap = None if budget_tokens is None else max(1, int(budget_tokens * max_document_share))
    while remaining:
        pick = next((i for i in remaining if hits[i] - covered), remaining[0])
        remaining.remove(pick)
        cand = candidates[pick]
        reason: OmissionReason | None = None
        if any(candidates[s].passage_hash == cand.passage_hash for s in selected):
            reason = "duplicate"
        elif any(candidates[s].docid == cand.docid and candidates[s].start_line <= cand.end_line
                 and cand.start_line <= candidates[s].end_line for s in selected):
            reason = "overlap"
        elif doc_cap is not None and per_doc[cand.docid] and per_doc[cand.docid] + cand.tokens > doc_cap:
            reason = "document_cap"
        elif budget_tokens is not None and used + cand.tokens > budget_tokens:
            reason = "budget_tokens"
        elif fits_bytes is not None and not fits_bytes([candidates[s] for s in [*selected, pick]]):
            reason = "budget_bytes"
        if reason is not None:
            omitted.append((pick, reason))
            continue
        selected.append(pick)
        covered |= hits[pick]
        used += cand.tokens
        per_doc[cand.docid] += cand.tokens
    return Selection(
        selected=tuple(candidates[i] for i in selected),
        omitted=tuple((candidates[i], r) for i, r in omitted),
    )


@dataclass(frozen=True, slots=True)
class CapsuleRequest:
    """Everything about a capsule that does not depend on which evidence is selected."""

    goal: str
    scope: CapsuleScope
    retrieval: RetrievalSettings
    fingerprints: Fingerprints
    index: IndexState
    budget_tokens: int | None
    budget_bytes: int | None
    #: Signs the capsule (None: an unsigned capsule).
    signer: CapsuleKey | None = None


#: Why a facet that no candidate mentions found nothing (answered from the index).
GapProbe = Callable[[Facet], GapReason]


def assemble_capsule(
    request: CapsuleRequest, facets: Sequence[Facet], selection: Selection, gap_probe: GapProbe,
) -> Capsule:
    """The capsule for a selection: evidence items, coverage with gaps, omission counts,
    budget, ``capsule_id`` and (with a signer) ``signature``. ``budget.bytes_used`` is the
    exact length of the returned capsule's canonical JSON, signature included."""
    selected_hits = _facet_hits(selection.selected, facets)
    omitted_hits = _facet_hits([c for c, _ in selection.omitted], facets)
    evidence = []
    for n, (cand, hit) in enumerate(zip(selection.selected, selected_hits, strict=True), 1):
        evidence.append(EvidenceItem(
            id=evidence_id(cand.uri, cand.docid, cand.start_line, cand.end_line, cand.text_hash,
                           cand.passage_hash),
            ref=f"E{n}", uri=cand.uri, docid=cand.docid, collection=cand.hit.collection, path=cand.hit.path,
            title=cand.hit.title, start_line=cand.start_line, end_line=cand.end_line,
            heading=list(cand.hit.heading_path), text=cand.text, source_hash=cand.source_hash,
            text_hash=cand.text_hash, passage_hash=cand.passage_hash, tokens=cand.tokens,
            score=round(cand.score, 6), facets=[facets[i].text for i in sorted(hit)],
        ))
    coverage = []
    for i, facet in enumerate(facets):
        refs = [item.ref for item, hit in zip(evidence, selected_hits, strict=True) if i in hit]
        gap: GapReason | None = None
        if not refs:
            reasons = {r for (_, r), hit in zip(selection.omitted, omitted_hits, strict=True) if i in hit}
            if "document_cap" in reasons:
                gap = "document_cap"
            elif reasons:
                gap = "budget_exhausted"
            else:
                gap = gap_probe(facet)
        coverage.append(FacetCoverage(facet=facet.text, kind=facet.kind, covered=bool(refs),
                                      evidence=refs, gap_reason=gap))
    counts = Counter(r for _, r in selection.omitted)
    omissions = [Omission(reason=r, count=counts[r]) for r in sorted(counts)]
    budget: dict[str, int | None] = {
        "tokens_requested": request.budget_tokens,
        "tokens_used": sum(item.tokens for item in evidence),
        "bytes_requested": request.budget_bytes,
        "bytes_used": 0,
    }
    draft: dict[str, Any] = {
        "schema_version": "cairn.capsule/1",
        "capsule_id": "0" * ID_LENGTH,
        "goal": request.goal,
        "scope": request.scope.model_dump(mode="json"),
        "retrieval": request.retrieval.model_dump(mode="json"),
        "fingerprints": request.fingerprints.model_dump(mode="json"),
        "index": request.index.model_dump(mode="json"),
        "budget": budget,
        "evidence": [item.model_dump(mode="json") for item in evidence],
        "coverage": [c.model_dump(mode="json") for c in coverage],
        "omissions": [o.model_dump(mode="json") for o in omissions],
        "signature": None,
    }
    if request.signer is not None:
        # A placeholder of the signature's exact size while bytes_used is measured.
        draft["signature"] = request.signer.sign(b"").model_dump(mode="json")
    # bytes_used is part of what it measures: iterate to the fixed point (the length of
    # its own digits changes at most a couple of times).
    size = 0
    for _ in range(10):
        budget["bytes_used"] = size
        measured = len(canonical_json(draft))
        if measured == size:
            break
        size = measured
    draft["capsule_id"] = capsule_digest(draft)
    if request.signer is not None:
        draft["signature"] = request.signer.sign(signed_payload(draft)).model_dump(mode="json")
    return Capsule.model_validate(draft)


def build_capsule(
    request: CapsuleRequest, candidates: Sequence[Candidate], gap_probe: GapProbe,
) -> Capsule:
    """Select evidence for ``request`` from ranked ``candidates`` and assemble the capsule.

    Raises :class:`ValidationError` when ``budget_bytes`` is smaller than the capsule
    with no evidence at all."""
    facets = goal_facets(request.goal)

    def no_gap_probe(_: Facet) -> GapReason:
        return "no_match"

    fits = None
    if request.budget_bytes is not None:
        limit = request.budget_bytes

        def fits(chosen: Sequence[Candidate]) -> bool:
            trial = assemble_capsule(request, facets, Selection(tuple(chosen), ()), no_gap_probe)
            # Room for the omission counts and gap reasons added at the end.
            return trial.budget.bytes_used + 160 + 24 * len(facets) <= limit

    selection = select_evidence(
        candidates, facets, budget_tokens=request.budget_tokens,
        max_document_share=request.retrieval.max_document_share, fits_bytes=fits,
    )
    capsule = assemble_capsule(request, facets, selection, gap_probe)
    # The estimate above is conservative; if a capsule still ends up too large, drop the
    # last-selected evidence until it fits.
    while request.budget_bytes is not None and capsule.budget.bytes_used > request.budget_bytes:
        if not selection.selected:
            raise ValidationError(
                f"--budget-bytes {request.budget_bytes} is too small: this capsule needs "
                f"{capsule.budget.bytes_used} bytes without any evidence"
            )
        selection = Selection(selection.selected[:-1],
                              (*selection.omitted, (selection.selected[-1], "budget_bytes")))
        capsule = assemble_capsule(request, facets, selection, gap_probe)
    return capsule
