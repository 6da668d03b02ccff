"""Hybrid retrieval: fuse BM25 and vector rankings, with optional expansion and reranking.

The fusion core is pure: ranked lists in, fused list out. Optional stages sit behind
two small protocols, :class:`QueryExpander` and :class:`Reranker`, so a generator,
a cross-encoder or an HTTP service can be plugged in the same way as the built-ins.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

from cairn.errors import ModelUnavailable
from cairn.store.records import PassageHit
from cairn.text.cjk import has_cjk
from cairn.text.query import parse_query
from cairn.text.stem import porter_stem
from cairn.text.stopwords import QUERY_STOPWORDS
from cairn.text.tokens import WORD

#: What a complete lexical match does to the fused list (``HybridSettings.complete_matches``).
CompleteRule = Literal["off", "first", "rank", "any"]
#: How each rule shows in the fusion version.
_COMPLETE_TAGS: dict[str, str] = {"off": "", "first": ",complete-first", "rank": ",complete-rank",
                                  "any": ",complete-any"}


@dataclass(frozen=True, slots=True)
class HybridSettings:
    """Every tuning constant of hybrid ``query``, in one place. :attr:`fusion_version`
    (reported as ``meta.fusion`` and stored in capsules) is derived from these values, so
    a changed constant always shows as a changed version."""

    #: k = 10 rather than the customary 60: one setting measured on NFCorpus, Cranfield,
    #: MEDLINE and LoCoMo together (bench/RESULTS.md) keeps every IR gain and lifts LoCoMo
    #: recall@5 by ~5 points, because a top-ranked turn matters more than a deep consensus.
    rrf_k: int = 10
    weights: Mapping[str, float] = field(
        default_factory=lambda: {"bm25": 1.0, "vector": 1.0, "bm25x": 0.5, "graph": 0.3})
    #: Weights once the feedback round has run: the query's own vector list and the
    #: feedback vector list (``vectorx``) share the vector weight, so feedback refines the
    #: vector evidence instead of counting it twice (counting it twice cost LoCoMo ~4
    #: points of recall@5 in bench/RESULTS.md).
    feedback_weights: Mapping[str, float] = field(
        default_factory=lambda: {"bm25": 1.0, "vector": 0.5, "bm25x": 0.5, "graph": 0.3, "vectorx": 0.5})
    #: Pseudo-relevance feedback round (modes default and thorough): the representative
    #: passages of the first fused units feed a BM25 expansion (``bm25x``) and a Rocchio
    #: query vector ``q + beta * mean(their vectors)`` (``vectorx``). Feedback from the
    #: fused list rather than from BM25 alone, and a shifted query vector as a second
    #: vector list, measured on NFCorpus, Cranfield, MEDLINE and LoCoMo together.
    feedback_text_passages: int = 5
    feedback_vector_passages: int = 3
    rocchio_beta: float = 1.0
    #: Expansion words of the feedback round per mode: thorough adds more of them; --fast
    #: takes default's 6 since session 12 (it had 4 from session 6b, when its text half was
    #: a second full-index query and more words cost time; over the candidate pool they do
    #: not, and 4 words cost MEDLINE a rank, bench/RESULTS.md "Retrieval, session 12").
    feedback_terms: Mapping[str, int] = field(default_factory=lambda: {"default": 6, "thorough": 10, "fast": 6})
    #: The text half of the feedback round on CJK: ``all`` (as on any text), ``spaced`` (no
    #: expansion word with CJK letters) or ``off`` (no text half for a query with CJK
    #: letters). The expander takes a run of letters between separators for a word: in
    #: Chinese and Japanese a whole phrase, in Korean a word with its particles attached,
    #: while the index reads CJK text as character bigrams; so the words it adds there are
    #: noise (Korean hybrid MRR@10 0.022 below BM25 with them). ``off`` was chosen on the CJK
    #: set's tuning pages (worst hybrid - BM25 MRR@10 over zh / ja / ko: all -0.036,
    #: spaced -0.004, off 0.000) and reported on its test pages (bench/RESULTS.md,
    #: "Retrieval, session 7").
    feedback_cjk: str = "off"
    #: BM25 is "decisive" when its best document scores this many times the second best.
    strong_signal_ratio: float = 2.0
    #: Weights of ``--fast`` when it runs no feedback round (``fast_feedback`` empty; with
    #: feedback halves it fuses as default mode does): the
    #: lexical : vector balance default mode ends with after its feedback round (bm25 1 +
    #: bm25x 0.5 against vector 0.5 + vectorx 0.5), derived rather than tuned. At 1 : 1 fast
    #: fell 2.6 points of LoCoMo recall@5 and 0.022 MRR@10 below default (bench/RESULTS.md,
    #: "Fast mode, sequence cap and shares").
    fast_weights: Mapping[str, float] = field(
        default_factory=lambda: {"bm25": 1.0, "vector": 2 / 3, "graph": 0.3})
    #: Halves of the feedback round ``--fast`` runs too (``text``: the BM25 expansion, a
    #: second FTS query over passage texts; ``vector``: the Rocchio vector search); with any,
    #: the first round fuses at the default weights. The text half: it costs a few
    #: milliseconds (passage texts of the fused top 5 and one more BM25 query), while the
    #: vector half costs one more matrix product, about as much as the vector search itself;
    #: without it fast was 1.4 points of Cranfield R@10 below default on the tuning split
    #: (Cranfield + LoCoMo conversations 1-2); with it (4 words) every tuning measure is
    #: within a point, the worst LoCoMo R@5 -0.7 (bench/RESULTS.md, "Retrieval, session 6b").
    #: ``text-pool`` (shipped, session 9b): the text half with the expanded query
    #: re-scoring the candidate pool only (exact BM25 with the index's statistics, ~0.3x
    #: the second full-index query's time; "Retrieval, session 9"). Bench-only halves:
    #: ``pool`` (the Rocchio vector ranks the candidate pool only) and ``text-early`` (the
    #: text half from BM25's own top, run while the query is embedded). With the
    #: ``int8-mid`` encoder, named before the fresh held-out test and tested once on it
    #: (tldr-summary, tldr-example, the CJK test pages): every measure within a point of
    #: default, at 0.63x default's p50 (bench/RESULTS.md, "Retrieval, session 9b"). On
    #: NFCorpus's test half it is 0.0106 nDCG@10 below default; adding the ``pool`` vector
    #: half did not close that (-0.0115), the 4 expansion words are the cause (6 words:
    #: -0.002; a diagnostic on the test half, "Retrieval, session 10b").
    #: Since session 12 ``("text-pool", "pool")`` with the exact encoder and 6 words:
    #: default's ranking inputs, both second-round searches over the candidate pool only
    #: (MEDLINE's MRR@10 gap needed all three; "Retrieval, session 12").
    fast_feedback: tuple[str, ...] = ("text-pool", "pool")
    #: The query encoder of ``--fast``: ``int8-mid`` (the int8 kernels of the same model
    #: with its first and last layer in float: 0.71x the exact encoder's time, cosine
    #: 0.9947 to the exact vector at the 5th percentile), ``int8`` (every MatMul in int8:
    #: 0.51x, 0.9922; it cost MEDLINE 0.014 nDCG@10, "Retrieval, session 9") or ``exact``
    #: (shipped in session 12: int8-mid alone moved a MEDLINE query's first relevant
    #: abstract down a rank even with default's stages; with both halves over the pool
    #: --fast stayed at 0.56x default's p50 in the same run, "Retrieval, session 12").
    fast_encoder: str = "exact"
    #: Weights ``--fast`` fuses with once its vector half ran (None: ``feedback_weights``).
    fast_feedback_weights: Mapping[str, float] | None = None
    #: How sure the vector side of ``--fast`` is, read from its own list: when the best
    #: cosine of the query's vector list is below this (None: never), --fast fuses after
    #: its vector half at ``fast_unsure_weights`` instead. A cosine scale of the embedder.
    fast_vector_confidence: float | None = None
    fast_unsure_weights: Mapping[str, float] = field(
        default_factory=lambda: {"bm25": 1.0, "vector": 1 / 3, "bm25x": 0.5, "graph": 0.3, "vectorx": 1 / 3})
    #: Per-query adaptation of the vector-side weights (``vector``, ``vectorx``), see
    #: :func:`adapt_weights`: multiplied by the query's script coverage (the share of its
    #: letters in scripts the embedder was trained on: a Chinese query to the English-only
    #: MiniLM gets 0, so its vector list only orders what BM25 did not find), and by
    #: ``decisive_vector`` when BM25 is decisive (:func:`strong_signal`). 1 (off): a
    #: factor of 0.5 measured within noise everywhere and was not chosen on a split.
    decisive_vector: float = 1.0
    #: Complete lexical matches (issue 17 item 1, sessions 10, 10b and 10c; ``rank`` ships).
    #: The rule fires when BM25's top passage holds every word of the query (stopwords
    #: aside, compared as Porter stems, as the index matches them) and the vector list's
    #: top passage, another document's, does not (:func:`complete_match`): the query reads
    #: as a line of BM25's page while the vectors rank a paraphrase first (tldr's example
    #: lines: "List all ...", "Display the ..." are worded alike across thousands of pages).
    #: ``rank``: every unit among BM25's top ``limit`` whose best passage holds every query
    #: word keeps at least its BM25 rank (:func:`keep_ranks`), the others keep their fused
    #: order around them; ``first``: only BM25's top document moves (to rank 1). ``rank``
    #: was chosen over ``first`` on the tuning split (tldr-example-tune and the tuning
    #: halves of the other sets), no constant. Test sets (session 10b): never below the
    #: previous default on any measure of any set, above it on nDCG@10 / MRR@10 of every
    #: tldr set and LoCoMo MRR@10; a fresh improvement test fixed beforehand (session 10c,
    #: seed 21: nDCG@10 +0.059, R@5 +2.3 points, MRR@10 +0.078 over the previous default,
    #: p50 1.00x). Not enough for the issue's goal: tldr-example R@5 stays below BM25's
    #: (-1.7 points, seed 21 -2.3, the intervals below 0) (bench/RESULTS.md). ``any``
    #: (session 11, ships): as ``rank``, but it fires whenever the vector top passage lacks a
    #: query word, whether BM25's top passage holds every one or not (tldr's remaining R@5
    #: losses had the right page, the only complete match, at BM25 rank 2-4 under an
    #: incomplete top). Chosen on the tuning split (tldr-example-tune R@5 +1.3 points over
    #: ``rank``, no other tuning set moved by more than 0.0002), then tested once under a
    #: rule fixed beforehand on a fresh sample (seed 23) and every other test set: never
    #: below ``rank``, above it on nDCG@10 / MRR@10 of five of seven tldr samples, p50
    #: 1.00x; against BM25 no test set is below the interval any more ("Retrieval, session 11").
    complete_matches: CompleteRule = "any"
    #: Sequence context, for collections declared a sequence (chat turns, journal days):
    #: a document also earns these shares of its neighbours' fused scores. A reply carries
    #: the relevance of the turn it answers ("Three times a week." after "How often do you
    #: run?"). Chosen by leave-one-conversation-out on the five LoCoMo dev conversations
    #: (previous 0.5 in every fold, next 0 in four of five; capped): on the held-out
    #: conversations R@5/R@10/MRR@10 64.4/75.2/0.478 against 59.3/69.4/0.456 without
    #: (bench/RESULTS.md, "Fast mode, sequence cap and shares").
    sequence_previous: float = 0.5
    sequence_next: float = 0.0
    #: Borrowed relevance stops just below the neighbour that lends it (see
    #: :func:`sequence_context`): a reply joins under the turn it answers instead of
    #: overtaking it. Uncapped, the shares cost LoCoMo MRR@10 (hybrid 0.04 below BM25: a
    #: neighbour outranked the first evidence turn); chosen on the LoCoMo tuning
    #: conversations, reported on the others (bench/RESULTS.md).
    sequence_cap: bool = True
    #: Candidates per stage: at least this many, or five times the limit.
    candidates: int = 50
    #: Fused units a configured reranker re-scores.
    rerank_depth: int = 20
    #: ``--graph``: seeds taken from the rankings, links followed per seed, documents added.
    graph_seeds: int = 5
    graph_per_seed: int = 5
    graph_max: int = 20

    @property
    def fusion_version(self) -> str:
        """The formula and its weights, e.g. ``rrf-4:k=10:w(bm25=1,...):prf(...):seq(...)``."""
        weights = ",".join(f"{k}={v:g}" for k, v in self.weights.items())
        feedback = ",".join(f"{k}={v:g}" for k, v in self.feedback_weights.items()
                            if self.weights.get(k) != v)
        fast = ",".join(f"{k}={v:g}" for k, v in self.fast_weights.items())
        fast_prf = f",prf={'+'.join(self.fast_feedback)}" if self.fast_feedback else ""
        if {"text", "text-early", "text-pool"} & set(self.fast_feedback):
            fast_prf += f",terms={self.feedback_terms.get('fast', self.feedback_terms['default'])}"
        if self.fast_feedback and self.fast_feedback_weights is not None:
            fast_prf += ",w(" + ",".join(f"{k}={v:g}" for k, v in self.fast_feedback_weights.items()) + ")"
        if self.fast_feedback and self.fast_vector_confidence is not None:
            fast_prf += (f",unsure<{self.fast_vector_confidence:g}:w("
                         + ",".join(f"{k}={v:.3g}" for k, v in self.fast_unsure_weights.items()) + ")")
        if self.fast_encoder != "int8":
            fast_prf += f",encoder={self.fast_encoder}"
        return (f"rrf-5:k={self.rrf_k}:w({weights}):prf({feedback}):fast({fast}{fast_prf})"
                f":adapt(script,decisive={self.decisive_vector:g}{_COMPLETE_TAGS[self.complete_matches]})"
                f"{'' if self.feedback_cjk == 'all' else f':cjk-prf({self.feedback_cjk})'}"
                f":seq(prev={self.sequence_previous:g},next={self.sequence_next:g}"
                f"{',capped' if self.sequence_cap else ''})")


#: The settings every query uses unless a caller passes others (bench grids do).
DEFAULT_SETTINGS = HybridSettings()
#: Version of the fusion formula; stored with every hybrid result set.
FUSION_VERSION = DEFAULT_SETTINGS.fusion_version


class StageRank(NamedTuple):
    rank: int  # 1-based, among units (documents, or passages when not collapsing)
    score: float


class Fused(NamedTuple):
    """One fused unit: its representative passage and what each stage said about it
    (NamedTuples: built for every candidate of every hybrid query)."""

    hit: PassageHit
    score: float
    stages: dict[str, StageRank]


def fuse(
    rankings: Mapping[str, Sequence[PassageHit]], *, per_document: bool = True,
    k: int = DEFAULT_SETTINGS.rrf_k, weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Reciprocal-rank fusion of ranked passage lists.

    With ``per_document`` each list is first collapsed to documents (a document's rank is
    that of its best passage), and the representative passage of a document is the one
    from the stage that ranked it best (equal ranks: the earlier stage). Equal fused scores
    break by best rank, then stage order, then passage id: a stage of weight 0 adds nothing
    to any score, but the units only it found still follow one another in its order.
    """
    # unit -> [score, best rank, stage order of that rank, representative hit, stages]
    units: dict[object, list[Any]] = {}
    weights = DEFAULT_SETTINGS.weights if weights is None else weights
    for order, (stage, hits) in enumerate(rankings.items()):
        weight = weights.get(stage, 1.0)
        seen: set[object] = set()
        rank = 0
        for hit in hits:
            unit: object = hit.docid if per_document else hit.passage_id
            if unit in seen:
                continue
            seen.add(unit)
            rank += 1
            entry = units.get(unit)
            if entry is None:
                units[unit] = [weight / (k + rank), rank, order, hit, {stage: StageRank(rank, round(hit.score, 6))}]
                continue
            entry[0] += weight / (k + rank)
            if rank < entry[1]:  # equal ranks keep the earlier stage's passage
                entry[1], entry[2], entry[3] = rank, order, hit
            entry[4][stage] = StageRank(rank, round(hit.score, 6))
    ordered = sorted(units.values(), key=lambda e: (-round(e[0], 8), e[1], e[2], e[3].passage_id))
    return [Fused(hit, round(score, 8), stages) for score, _, _, hit, stages in ordered]


def strong_signal(bm25: Sequence[PassageHit], *, ratio: float = DEFAULT_SETTINGS.strong_signal_ratio) -> bool:
    """Whether BM25 alone is decisive: its top document far ahead of the next one."""
    per_doc: list[float] = []
    seen: set[str] = set()
    for hit in bm25:
        if hit.docid not in seen:
            seen.add(hit.docid)
            per_doc.append(hit.score)
        if len(per_doc) == 2:
            break
    if not per_doc or per_doc[0] <= 0:
        return False
    return len(per_doc) == 1 or per_doc[0] >= ratio * max(per_doc[1], 1e-9)


# --- per-query weights -------------------------------------------------------------------

#: Stages whose evidence comes from the embedder (their weight follows its script coverage).
VECTOR_STAGES = frozenset({"vector", "vectorx"})
#: Unicode name prefixes grouped into one script name.
_SCRIPT_ALIASES = {"CJK": "Han", "HIRAGANA": "Kana", "KATAKANA": "Kana", "HALFWIDTH": "Kana", "HANGUL": "Hangul"}


def letter_script(char: str) -> str:
    """The script of one letter, from its Unicode name: ``Latin``, ``Han``, ``Kana``,
    ``Hangul``, ``Cyrillic``, ``Greek``, ``Arabic``, …; ``Other`` when it has no name."""
    name = unicodedata.name(char, "")
    head = name.split(" ", 1)[0]
    if not head:
        return "Other"
    if head == "HALFWIDTH" and "HANGUL" in name:
        return "Hangul"
    return _SCRIPT_ALIASES.get(head, head.title())


def script_coverage(text: str, scripts: frozenset[str] | None) -> tuple[float, list[str]]:
    """The share of ``text``'s letters written in ``scripts`` (None: every script), and
    the scripts outside it, most letters first. A text without letters is covered (1.0)."""
    counts = Counter(letter_script(ch) for ch in text if ch.isalpha())
    total = sum(counts.values())
    if scripts is None or not total:
        return 1.0, []
    covered = sum(n for script, n in counts.items() if script in scripts)
    missing = [script for script, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if script not in scripts]
    return covered / total, missing


class FusionWeights(NamedTuple):
    """The weights one query fuses with, and why they differ from the mode's base weights."""

    weights: dict[str, float]
    vector_factor: float
    reasons: tuple[str, ...]


def adapt_weights(
    base: Mapping[str, float], *, coverage: float = 1.0, decisive: bool = False,
    settings: HybridSettings = DEFAULT_SETTINGS,
) -> FusionWeights:
    """Per-query fusion weights: the vector-side weights of ``base`` scaled by the query's
    script ``coverage`` (share of its letters the embedder knows, 0..1) and, when BM25 is
    ``decisive``, by ``settings.decisive_vector``; every other weight unchanged. Pure and
    deterministic: the same inputs give the same weights."""
    if not 0.0 <= coverage <= 1.0:
        raise ValueError(f"coverage must be within 0..1, not {coverage!r}")
    factor = coverage
    reasons: list[str] = []
    if coverage < 1.0:
        reasons.append(f"embedder covers {coverage:.0%} of the query's letters")
    if decisive and settings.decisive_vector != 1.0:
        factor *= settings.decisive_vector
        reasons.append(f"BM25 decisive (top score >= {settings.strong_signal_ratio:g}x the next)")
    weights = {stage: round(w * factor, 6) if stage in VECTOR_STAGES else w for stage, w in base.items()}
    return FusionWeights(weights, round(factor, 6), tuple(reasons))


def query_stems(query: str) -> frozenset[str]:
    """The Porter stems of a ``query``'s words as its BM25 side searches them (stopwords
    dropped unless nothing else is left; CJK runs, searched by their bigrams, left out)."""
    parsed = parse_query(query, strict=False)
    return frozenset(porter_stem(word.casefold()) for term in parsed.words for word in term.words)


def holds_every_word(stems: frozenset[str], text: str) -> bool:
    """Whether ``text`` has a word of every stem in ``stems`` (False for no stems)."""
    if not stems:
        return False
    missing = set(stems)
    for word in WORD.findall(text):
        missing.discard(porter_stem(word.casefold()))
        if not missing:
            return True
    return False


def complete_match(query: str, bm25_top: str, vector_top: str) -> bool:
    """Whether BM25's top passage (text ``bm25_top``) holds every word of ``query`` and the
    vector list's top passage (``vector_top``) does not: the query reads as a line of
    BM25's page, and the vectors rank a paraphrase above it (see
    ``HybridSettings.complete_matches``). Pure; the caller passes the two texts."""
    stems = query_stems(query)
    return holds_every_word(stems, bm25_top) and not holds_every_word(stems, vector_top)


#: Why a fused list was reordered by ``complete_matches = "first"`` (``meta.fusion_reasons``).
COMPLETE_REASON = "BM25's top passage holds every query word and the vector top does not: its document ranks first"


#: Why a fused list was reordered by ``complete_matches = "any"`` (``meta.fusion_reasons``).
COMPLETE_ANY_REASON = ("the vector top passage lacks a query word and BM25 results hold every one: "
                       "each keeps at least its BM25 rank")


#: Why a fused list was reordered by :func:`keep_ranks` (``meta.fusion_reasons``).
COMPLETE_RANK_REASON = ("BM25's top passage holds every query word and the vector top does not: "
                        "every BM25 result holding every query word keeps at least its BM25 rank")


def keep_ranks(fused: Sequence[Fused], floors: Mapping[Any, int], *, per_document: bool = True) -> list[Fused]:
    """``fused`` (best first) with every unit of ``floors`` (a docid, or a passage id when
    not ``per_document`` -> the 1-based rank it must not fall below, e.g. its BM25 rank)
    at that rank or better; every other unit keeps its fused order around them. A unit
    moved up takes the score of the unit it now precedes (scores stay non-increasing) and
    gains a ``complete`` stage (its new rank, its own fused score before the move). Ranks
    are met earliest first, so distinct floors are always met; a unit absent from
    ``fused`` is ignored. Pure."""
    def unit(item: Fused) -> Any:
        return item.hit.docid if per_document else item.hit.passage_id

    due = sorted((rank, at) for at, item in enumerate(fused) if (rank := floors.get(unit(item))) is not None)
    out: list[Fused] = []
    placed = [False] * len(fused)
    cursor = 0  # the first unit in fused order not placed yet
    for rank, at in due:
        while len(out) < rank - 1 and cursor < len(fused):  # fill in fused order up to its rank
            if not placed[cursor]:
                out.append(fused[cursor])
                placed[cursor] = True
            cursor += 1
        while cursor < len(fused) and placed[cursor]:
            cursor += 1
        if placed[at]:
            continue  # already above its floor
        item = fused[at]
        if cursor < at:  # moved ahead of fused[cursor]: it takes that unit's score
            item = Fused(item.hit, fused[cursor].score,
                         {**item.stages, "complete": StageRank(len(out) + 1, item.score)})
        out.append(item)
        placed[at] = True
    out.extend(item for at, item in enumerate(fused) if not placed[at])
    return out


# --- sequence context --------------------------------------------------------------------

_LAST_NUMBER = re.compile(r"(\d+)(?!.*\d)")


def sibling_paths(path: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Paths the previous and the next document of a sequence could have: the same
    folder and file name with its last number one lower and one higher, spelled plain
    and zero-padded to the same width (``D1-3.md`` -> ``D1-2.md`` / ``D1-4.md``;
    ``2024-05-08.md`` -> ``2024-05-07.md`` / ``2024-05-09.md``). A name without a number
    has no siblings; neither does number 0 below it."""
    folder, slash, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    found = _LAST_NUMBER.search(stem)
    if found is None:
        return (), ()
    digits = found.group(1)
    head, tail = folder + slash + stem[: found.start()], stem[found.end():] + (dot + ext if ext else "")

    def spelled(number: int) -> tuple[str, ...]:
        if number < 0:
            return ()
        return tuple(dict.fromkeys([f"{head}{number}{tail}", f"{head}{number:0{len(digits)}d}{tail}"]))

    value = int(digits)
    return spelled(value - 1), spelled(value + 1)


class Neighbours(NamedTuple):
    previous: str | None  # docid
    next: str | None


def sequence_context(
    fused: Sequence[Fused], neighbours: Mapping[str, Neighbours], entries: Mapping[str, PassageHit],
    *, previous_weight: float = DEFAULT_SETTINGS.sequence_previous,
    next_weight: float = DEFAULT_SETTINGS.sequence_next, capped: bool = DEFAULT_SETTINGS.sequence_cap,
) -> list[Fused]:
    """Fused units (``fused``, best first) with sequence context added: a document with
    neighbours gains ``previous_weight`` of its previous document's fused score and
    ``next_weight`` of its next one's (a document's score is that of its best unit), on
    its best unit, recorded as the ``sequence`` stage (score = what it gained).

    ``neighbours`` maps docids to their neighbours; ``entries`` gives the representative
    hit of a neighbour that is not yet a unit (it joins with the score it gains).

    With ``capped``, borrowed relevance never lifts a document above a neighbour that lent
    it: its score rises at most to just below the best lending neighbour's own score, so
    a reply joins right under the turn it answers instead of overtaking it."""
    scores: dict[str, float] = {}
    for f in fused:
        scores.setdefault(f.hit.docid, f.score)
    gains: dict[str, float] = {}
    for docid, near in neighbours.items():
        before, after = scores.get(near.previous or "", 0.0), scores.get(near.next or "", 0.0)
        gain = previous_weight * before + next_weight * after
        if capped and gain > 0:
            lenders = [s for s, w in ((before, previous_weight), (after, next_weight)) if s > 0 and w > 0]
            ceiling = max(lenders) - 1e-8
            gain = min(gain, ceiling - scores.get(docid, 0.0))
        if gain > 0 and (docid in scores or docid in entries):
            gains[docid] = gain
    order = sorted(gains, key=lambda d: (-gains[d], d))
    ranks = {docid: rank for rank, docid in enumerate(order, 1)}
    out: list[Fused] = []
    for item in fused:
        extra = gains.pop(item.hit.docid, None)  # popped: only a document's best unit gains
        if extra is None:
            out.append(item)
            continue
        stages = {**item.stages, "sequence": StageRank(ranks[item.hit.docid], round(extra, 6))}
        out.append(Fused(item.hit, round(item.score + extra, 8), stages))
    for docid in order:
        if docid in gains:  # not a unit yet: joins with its first passage
            out.append(Fused(entries[docid], round(gains[docid], 8),
                             {"sequence": StageRank(ranks[docid], round(gains[docid], 6))}))
    out.sort(key=lambda f: (-f.score, f.hit.passage_id))
    return out


# --- optional stages -------------------------------------------------------------------


class QueryExpander(Protocol):
    """Proposes extra query text from the query and the first BM25 passages."""

    @property
    def name(self) -> str: ...

    def expand(self, query: str, feedback: Sequence[str]) -> str | None: ...


class Reranker(Protocol):
    """Scores (query, passage) pairs; higher is more relevant."""

    @property
    def name(self) -> str: ...

    def rerank(self, query: str, passages: Sequence[str]) -> list[float]: ...


_WORD = re.compile(r"[^\W\d_]{3,}")


@dataclass(frozen=True, slots=True)
class FeedbackExpander:
    """Pseudo-relevance feedback: the most frequent content words of the top passages
    that the query does not already contain (a deterministic, model-free expander)."""

    terms: int = 6
    name: str = "prf"
    #: Whether a word with CJK letters may be an expansion word (see ``HybridSettings.feedback_cjk``).
    cjk_words: bool = True

    def expand(self, query: str, feedback: Sequence[str]) -> str | None:
        asked = {w.lower() for w in _WORD.findall(query)}
        counts: Counter[str] = Counter()
        for text in feedback:
            # Count each word once per passage: words shared by several top passages win.
            words = {w.lower() for w in _WORD.findall(text)}
            if not self.cjk_words:
                words = {w for w in words if not has_cjk(w)}
            counts.update(words - QUERY_STOPWORDS - asked)
        picked = [w for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n > 1]
        return " ".join(picked[: self.terms]) or None


@dataclass(frozen=True, slots=True)
class HTTPReranker:
    """A rerank endpoint in the llama.cpp / Jina / Cohere style: POST ``{model, query,
    documents}`` → ``{"results": [{"index", "relevance_score"}]}``."""

    url: str
    model: str = ""
    api_key: str | None = None
    timeout: float = 30.0
    name: str = "http-rerank"

    def rerank(self, query: str, passages: Sequence[str]) -> list[float]:
        import urllib.error
        import urllib.request

        body = json.dumps({"model": self.model, "query": query, "documents": list(passages)}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read())
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            raise ModelUnavailable(f"reranker at {self.url} failed: {exc}") from exc
        scores = [math.nan] * len(passages)
        try:
            for item in payload["results"]:
                scores[int(item["index"])] = float(item["relevance_score"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ModelUnavailable(f"reranker at {self.url} answered malformed output: {exc}") from exc
        if any(math.isnan(s) for s in scores):
            raise ModelUnavailable(f"reranker at {self.url} did not score every passage")
        return scores
