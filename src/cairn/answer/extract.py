"""Extractive answers: the evidence sentences that answer a question, quoted with citations.

A pure, deterministic core with no model. The question's type (who / when / where / how
many / how much / how long / yes-no / what ...) says what kind of answer to look for
(a person, a date or time, a place, a number with a unit); every sentence of the
capsule's evidence is scored by the question words it holds and by whether it holds an
answer of the expected kind. The answer is made of the best sentences, each quoted
verbatim (whitespace folded to single spaces) and followed by its evidence ref, like
``Backups run nightly at 02:00 UTC. [E1]``, so every claim is supported by construction.
When no sentence answers, the result is an abstention with a reason.

Two more rules keep it honest:

- every proper name of the question (``Caroline`` in "What did Caroline paint?") must
  appear in the quoted sentence, its lead-in line, or the title or heading path of its
  evidence item, so a question about the wrong person is not answered from someone
  else's words (a reply that merely addresses Caroline does not say what she did);
- evidence that reads like an instruction to a model ("ignore previous instructions")
  is never quoted, and the whole item holding it is left out (prompt injection).

A line that ends with a colon (``Caroline, 8 May 2023:``, ``Backups:``) introduces the
line after it, so it is quoted with that line: it often carries the who and the when.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cairn.contracts.capsule import EvidenceItem
from cairn.text.numbers import AMBIGUOUS_MONTHS, MONTHS, UNITS
from cairn.text.sentences import sentence_ranges
from cairn.text.stem import light_stem
from cairn.text.stopwords import QUERY_STOPWORDS

__all__ = [
    "INSTRUCTION_RE",
    "ExtractedSentence",
    "Extraction",
    "QuestionProfile",
    "QuestionType",
    "extract_answer",
    "instruction_like",
    "profile_question",
]

QuestionType = Literal[
    "who", "when", "where", "how_many", "how_much", "how_long", "yes_no", "which", "why",
    "how", "what",
]
Expected = Literal["person", "date", "place", "number", "duration"]

#: What each question type expects the answer sentence to hold (None: nothing specific).
_EXPECTS: dict[str, Expected | None] = {
    "who": "person", "when": "date", "where": "place", "how_many": "number",
    "how_much": "number", "how_long": "duration", "yes_no": None, "which": None, "why": None,
    "how": None, "what": None,
}  # fmt: skip

# Tuned on LoCoMo dev conversations conv-26 and conv-30 (the tuning split of
# bench/eval_answers.py); reported on the other three and on bench/verify_set.
#: Share of the question's content words a sentence (with its lead-in) must hold.
MIN_OVERLAP = 0.5
#: A second sentence is added only if it scores at least this share of the best one.
SECOND_SENTENCE = 0.85
#: At most this many sentences in an answer.
MAX_SENTENCES = 2
#: Weight of the expected answer kind in a sentence's score.
TYPE_BONUS = 0.5
#: Weight of a question word found elsewhere in the sentence's evidence item (context:
#: "They are kept for 35 days." after "Nightly snapshots run at 02:00.").
CONTEXT_WEIGHT = 0.5

#: Text that reads like an instruction to a model rather than a statement of fact.
INSTRUCTION_RE = re.compile(
    r"""(?:\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|prompts?|rules|guidelines|everything\ (?:above|else)|(?:the\ )?(?:above|previous|prior)\ (?:text|instructions?|messages?|rules))\b
      | \bsystem\ prompt\b | \bnew\ instructions?\b | \bprompt\ injection\b
      | \byou\ (?:are|must|should)\ (?:now\ )?(?:an?\ |the\ )?(?:ai|assistant|model|language\ model|verifier|chatbot)\b
      | \bas\ an?\ (?:ai|assistant|llm|language\ model)\b
      | \b(?:respond|answer|reply|say|output|print|tell\ the\ user)\b.{0,30}\b(?:that|with|only)\b.{0,80}\b(?:supported|verified|instead)\b
      | \bdo\ not\ (?:verify|check|cite|question)\b
      | (?:^|\n)\s*(?:assistant|system)\s*:
      | </?(?:system|instructions?|evidence)>
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def instruction_like(text: str) -> bool:
    """True when ``text`` holds a passage that reads like an instruction to a model."""
    return INSTRUCTION_RE.search(text) is not None


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_NAME_RE = re.compile(r"\b[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?\b")
_QUESTION_WORDS = _wordset(
    "what when where who whom whose which why how is are was were do does did can could "
    "will would should has have had"
)
_YES_NO_START = _wordset(
    "is are was were do does did can could will would should has have had am"
)
_NUMBER_WORDS = _wordset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred thousand million billion dozen once twice several few"
)
_RELATIVE_DATES = _wordset(
    "yesterday today tomorrow tonight weekend week month year ago last next since "
    "morning evening night daily nightly weekly monthly yearly annually quarterly noon "
    "midnight spring summer autumn fall winter"
)
_DATE_RE = re.compile(
    r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|"
    r"\d{1,2}\s*[ap]\.?m\.?|(?:19|20)\d{2}|Q[1-4])\b",
    re.IGNORECASE,
)
_NUMBER_RE = re.compile(r"\d")
_PLACE_PREP_RE = re.compile(r"\b(?:in|at|to|from|near|on)\s+(?:the\s+)?[A-Z][\w-]+")
_PLACE_WORDS = _wordset(
    "room office building city country street floor site campus park beach school "
    "house home shop store restaurant hospital museum cafe library center centre "
    "station airport lake mountain region branch"
)
_NOT_NAMES = _wordset(
    "I The A An It This That These Those What When Where Who Whom Whose Which Why How Is "
    "Are Was Were Do Does Did Can Could Will Would Should Has Have Had Am If In On At For "
    "From To Of And Or But Not No Yes My Our Your Their His Her Its We They You He She "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March "
    "April May June July August September October November December Please Also Note "
    "Then There Here After Before During"
)
_BULLET_RE = re.compile(r"^\s*(?:[-*+•>]|\d{1,3}[.)]|#{1,6})\s+")


#: Question types by their first matching pattern (order matters: "how many" before "how").
_QUESTION_TYPES: tuple[tuple[re.Pattern[str], QuestionType], ...] = (
    (re.compile(r"\bhow\s+(?:many|often)\b"), "how_many"),
    (re.compile(r"\bhow\s+much\b"), "how_much"),
    (re.compile(r"\bhow\s+long\b"), "how_long"),
    (re.compile(r"\b(?:when|what\s+(?:date|time|day|year|month)|which\s+(?:date|day|year|month))\b"), "when"),
    (re.compile(r"\b(?:who|whom|whose)\b"), "who"),
    (re.compile(r"\bwhere\b"), "where"),
    (re.compile(r"\bwhy\b"), "why"),
    (re.compile(r"\bwhich\b"), "which"),
    (re.compile(r"\bhow\b"), "how"),
)


def _stems(text: str) -> list[str]:
    return [light_stem(w) for w in (m.lower() for m in _WORD_RE.findall(text))
            if w not in QUERY_STOPWORDS and w not in _QUESTION_WORDS]


@dataclass(frozen=True, slots=True)
class QuestionProfile:
    """What a question asks: its type, the kind of answer expected, its content word
    stems and the proper names it mentions."""

    qtype: QuestionType
    expects: Expected | None
    stems: frozenset[str]
    names: tuple[str, ...]


def profile_question(question: str) -> QuestionProfile:
    """The type, expected answer kind, content stems and proper names of ``question``."""
    q = " ".join(question.split())
    low = q.lower()
    first = (_WORD_RE.findall(low) or [""])[0]
    qtype: QuestionType = next((kind for pattern, kind in _QUESTION_TYPES if pattern.search(low)),
                               "yes_no" if first in _YES_NO_START else "what")
    names: list[str] = []
    for m in _NAME_RE.finditer(q):
        word = m.group()
        if word in _NOT_NAMES or (m.start() == 0 and word.lower() in QUERY_STOPWORDS):
            continue
        if word not in names:
            names.append(word)
    stems = frozenset(_stems(q))
    # Names are checked on their own (see extract_answer); a sentence must share some
    # other word with the question ("Thanks, Caroline!" does not answer about Caroline).
    name_stems = frozenset(_stems(" ".join(names)))
    if stems - name_stems:
        stems -= name_stems
    if qtype in ("how_many", "how_much", "how_long"):  # "how long": "long" names the type
        stems -= {"many", "much", "long", "often"}
    return QuestionProfile(qtype, _EXPECTS[qtype], stems, tuple(names))


def has_kind(text: str, kind: Expected | None, *, exclude: Sequence[str] = ()) -> bool:
    """Whether ``text`` holds an answer of the expected ``kind`` (a person: a name that
    is not one of ``exclude`` and does not just open the sentence)."""
    match kind:
        case None:
            return True
        case "date":
            if _DATE_RE.search(text):
                return True
            for w in _WORD_RE.findall(text):
                lw = w.lower()
                if lw in MONTHS and (lw not in AMBIGUOUS_MONTHS or w[0].isupper()):
                    return True
                if lw in _RELATIVE_DATES:
                    return True
            return False
        case "number" | "duration":
            low_words = [w.lower() for w in _WORD_RE.findall(text)]
            number = bool(_NUMBER_RE.search(text)) or any(w in _NUMBER_WORDS for w in low_words)
            if kind == "number":
                return number
            return number and any(w in UNITS or w.rstrip("s") in UNITS for w in low_words)
        case "person":
            return any(m.group() not in _NOT_NAMES and m.group() not in exclude and m.start() > 0
                       for m in _NAME_RE.finditer(text))
        case "place":
            if _PLACE_PREP_RE.search(text):
                return True
            return any(light_stem(w.lower()) in _PLACE_WORDS or w.lower() in _PLACE_WORDS
                       for w in _WORD_RE.findall(text))


@dataclass(frozen=True, slots=True)
class ExtractedSentence:
    """One quoted sentence: its evidence ref, line span, text, the colon lead-in line it
    is quoted with (if any) and its score."""

    ref: str
    start_line: int
    end_line: int
    text: str
    score: float
    lead: str | None = None

    def quote(self) -> str:
        """The sentence as an answer quotes it: ``text [E1]``; a lead-in goes on a line
        of its own before it (``Caroline, 8 May 2023: [E1]``), each with its citation."""
        body = f"{_end(self.text)} [{self.ref}]"
        return f"{self.lead} [{self.ref}]\n{body}" if self.lead else body


@dataclass(frozen=True, slots=True)
class Extraction:
    """The extractive answer (``answer`` None when it abstains, with ``reason``)."""

    question: QuestionProfile
    answer: str | None
    sentences: tuple[ExtractedSentence, ...]
    #: ``answered``, ``no_evidence``, ``no_question_words``, ``names_not_in_evidence``,
    #: ``no_matching_sentence`` or ``no_answer_of_type``.
    reason: str
    detail: str
    #: Refs of evidence items left out because they hold instruction-like text.
    suspicious: tuple[str, ...] = ()


def _fold(text: str) -> str:
    return " ".join(text.split())


_HEADING_RE = re.compile(r"^\s*#{1,6}\s")


def _candidates(item: EvidenceItem) -> list[tuple[int, int, str | None, str]]:
    """``(start_line, end_line, lead-in, sentence)`` of each sentence of ``item`` that can
    answer: headings and questions are skipped, bullets dropped; a line ending with a
    colon is the lead-in of the sentences of the line after it."""
    lines = item.text.split("\n")
    out: list[tuple[int, int, str | None, str]] = []
    lead: tuple[int, str] | None = None
    for i, raw in enumerate(lines):
        line_no = item.start_line + i
        if _HEADING_RE.match(raw):
            lead = None
            continue
        body = _BULLET_RE.sub("", raw, count=1).strip()
        if not body:
            continue
        if body.endswith(":") and len(body) <= 120:
            lead = (line_no, body)
            continue
        for s, e in sentence_ranges(body):
            sentence = _fold(body[s:e])
            if not any(ch.isalnum() for ch in sentence) or sentence.endswith("?"):
                continue
            if lead is not None:
                out.append((lead[0], line_no, lead[1], sentence))
            else:
                out.append((line_no, line_no, None, sentence))
        lead = None
    return out


def extract_answer(question: str, evidence: Sequence[EvidenceItem]) -> Extraction:
    """The evidence sentences that answer ``question``, quoted with ``[E<n>]`` citations,
    or an abstention with a reason. Deterministic: same inputs, same answer."""
    profile = profile_question(question)

    def abstain(reason: str, detail: str, suspicious: Sequence[str] = ()) -> Extraction:
        return Extraction(profile, None, (), reason, detail, tuple(suspicious))

    if not evidence:
        return abstain("no_evidence", "no evidence in scope for this question")
    if not profile.stems:
        return abstain("no_question_words", "the question has no content words to look for")
    suspicious = [item.ref for item in evidence if instruction_like(item.text)]
    usable = [item for item in evidence if item.ref not in suspicious]
    if profile.names:
        usable_named = [item for item in usable
                        if _mentions(" ".join([item.title, *item.heading, item.text]), profile.names)]
        if not usable_named:
            return abstain("names_not_in_evidence",
                           f"no evidence item mentions {', '.join(profile.names)}", suspicious)
        usable = usable_named
    total = len(profile.stems)
    scored: list[tuple[float, int, ExtractedSentence, bool]] = []
    order = 0
    best_overlap = 0.0
    for item in usable:
        context = profile.stems & set(_stems(item.text + " " + " ".join(item.heading)))
        frame = " ".join([item.title, *item.heading])
        for start, end, lead, text in _candidates(item):
            if profile.names and not _mentions(f"{frame} {lead or ''} {text}", profile.names):
                continue
            own = profile.stems & set(_stems(text))
            if not own:
                continue
            overlap = (len(own) + CONTEXT_WEIGHT * len(context - own)) / total
            best_overlap = max(best_overlap, overlap)
            typed = has_kind(text, profile.expects, exclude=profile.names)
            score = overlap + (TYPE_BONUS if typed and profile.expects else 0.0)
            scored.append((score, order, ExtractedSentence(item.ref, start, end, text, round(score, 4), lead),
                           typed and overlap >= MIN_OVERLAP))
            order += 1
    good = [row for row in scored if row[3]]
    if not good:
        if best_overlap < MIN_OVERLAP:
            return abstain("no_matching_sentence",
                           f"no evidence sentence holds {MIN_OVERLAP:.0%} of the question's words "
                           f"(best {best_overlap:.0%})", suspicious)
        return abstain("no_answer_of_type",
                       f"no evidence sentence that matches the question holds a {profile.expects}",
                       suspicious)
    good.sort(key=lambda row: (-row[0], row[1]))
    chosen = [good[0][2]]
    for score, _, sentence, _ in good[1:]:
        if len(chosen) >= MAX_SENTENCES or score < SECOND_SENTENCE * good[0][0]:
            break
        if all(sentence.text != c.text for c in chosen):
            chosen.append(sentence)
    answer = "\n".join(c.quote() for c in chosen)
    return Extraction(profile, answer, tuple(chosen), "answered",
                      f"{len(chosen)} evidence sentence(s) quoted", tuple(suspicious))


def _mentions(text: str, names: Sequence[str]) -> bool:
    return all(re.search(rf"\b{re.escape(n)}\b", text) for n in names)


def _end(sentence: str) -> str:
    """A quoted sentence ends with a full stop so its citation attaches to it."""
    return sentence if sentence[-1:] in ".!?" else sentence + "."
