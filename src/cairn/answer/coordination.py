"""Two clauses joined by "and": the readings of a sentence as clauses (issue 12).

:mod:`cairn.answer.account` accounts a claim of two clauses clause by clause against the
clauses of an evidence sentence read the same way; :func:`clause_readings` gives those
readings: a new subject's clause, a pronoun reference ("... and B approved it"), a
prepositional ellipsis ("... and from 08:00 to 14:00 on Saturdays") or a gapped clause
whose verb is restored ("Sales rose to 5 and costs to 7").
"""

from __future__ import annotations

import functools
import re

from cairn.answer.tokens import _ARTICLES, _PREPOSITIONS

__all__ = ["clause_readings", "semicolon_parts", "subject_readings"]

_AND_RE = re.compile(r",? and ")
_LIST_RE = re.compile(r"\s(?:and|or)\s", re.IGNORECASE)
_CLAUSE_BREAK_RE = re.compile(r";|:(?!\d)")
_PRONOUN_RE = re.compile(r"\b(it|them)\b")
_LAST_NP_RE = re.compile(r"\b(?:the|a|an)\s+[^,;]+$", re.IGNORECASE)
_ELLIPSIS_PREPS = (
    "from", "at", "on", "in", "for", "to", "by", "with", "within", "between", "during", "until"
)  # fmt: skip
#: Words that change the scope of what follows them (a contrast, a negation).
_SCOPE_WORDS = frozenset(["but", "except", "not", "never", "no", "without", "nor"])
_NEW_SUBJECT_RE = re.compile(r"^(?:[A-Z]\S*|the|a|an|this|these|its|their)\s")


_AUX_WORDS = frozenset(
    ["is", "are", "was", "were", "has", "have", "had", "will", "would", "must", "may",
     "might", "can", "could", "should", "shall", "cannot", "does", "do", "did"]
)  # fmt: skip


def _has_verb_slot(text: str, first: str) -> bool:
    """The second part of "A ... and B ..." has a verb of its own: an auxiliary, or the
    first part's verb again ("Lucía Ferrer supervises ..." after "Kwame Asante supervises
    ..."); "the hot kitchen of the canteen" and "Tuesdays from 10:15" have none."""
    words = [w.strip(",;:").lower() for w in text.split()[1:]]
    if any(w in _AUX_WORDS for w in words):
        return True
    before = {w.strip(",;:").lower() for w in first.split()[1:]}
    return any(
        w in before
        and w[:1].isalpha()
        and w not in _PREPOSITIONS
        and w not in _ARTICLES
        and not w.endswith("'s")
        for w in words
    )


#: The first part ends inside "between X": its "and" names the interval's other end.
_BETWEEN_END_RE = re.compile(r"\bbetween\s+(?:[^,;:]|:(?=\d)){1,40}$", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def clause_readings(text: str) -> tuple[tuple[str, tuple[str, str]], ...]:
    """The ways ``text`` reads as two clauses joined by "and" (one reading per "and"):
    ``(kind, [first, second])`` with the second completed from the first (kind
    "ellipsis" or "pronoun", see :func:`account`) or a clause of its own ("clause");
    a second part that is neither a new subject's clause, nor a pronoun reference, nor a
    prepositional ellipsis is no clause ("tyre pressure and lights")."""
    body = text.strip().rstrip(".!?").strip()
    out: list[tuple[str, tuple[str, str]]] = []
    for m in _AND_RE.finditer(body):
        first, second = body[: m.start()].strip(), body[m.end() :].strip()
        if not first or not second or _PRONOUN_RE.search(first):
            continue
        if _CLAUSE_BREAK_RE.search(first) or _CLAUSE_BREAK_RE.search(second):
            continue  # a reading lies within one clause
        if _BETWEEN_END_RE.search(first):
            continue  # "between 9:00 and 17:00" joins the two ends of one interval
        word = second.split(" ", 1)[0]
        if word in _ELLIPSIS_PREPS or _is_amount(word):
            # "... from 06:00 to 22:00 on weekdays and from 08:00 ...": the second part
            # shares the first's words before its first preposition; "... lasts 2 years
            # for parts and 1 year for labour": before its first amount.
            fw = first.split()
            at = next(
                (
                    a
                    for a in range(2, len(fw))
                    if (_is_amount(word) and _is_amount(fw[a]))
                    or (not _is_amount(word) and fw[a] in _ELLIPSIS_PREPS)
                ),
                None,
            )
            if at is None or _SCOPE_WORDS & {w.strip(",;").lower() for w in fw[at:]}:
                # Session 10: "allowed on A, but not in C and in B": the second part may
                # share the "not" after the first preposition; no reading restores it.
                continue
            if _LIST_RE.search(" ".join(fw[:at])):
                # Session 16: "Men and women need 135 and 125 g/l" pairs its two lists
                # by position; the shared words hold a list, so no part is distributed.
                continue
            out.append(("ellipsis", (first, " ".join(fw[:at]) + " " + second)))
            continue
        if len(_PRONOUN_RE.findall(second)) == 1:
            np = _LAST_NP_RE.search(first)
            if np is not None:
                out.append(("pronoun", (first, _PRONOUN_RE.sub(np.group(), second))))
            # Session 18a: also a noun phrase after the sentence's subject ("A member keeps
            # the desk and may leave things on it": "it" is the desk, not "A member ...").
            lead = next((k for k, ch in enumerate(first) if ch.isalnum()), 0)  # after a quote or "**"
            obj = _LAST_NP_RE.search(first, lead + 1)
            if obj is not None and np is not None and obj.start() != np.start():
                out.append(("pronoun", (first, _PRONOUN_RE.sub(obj.group(), second))))
            continue
        clause = (
            _NEW_SUBJECT_RE.match(second) is not None
            and len(second.split()) >= 3
            and _has_verb_slot(second, first)
        ) or (second[:1].islower() and _repeats_verb(first, second))
        if clause:
            out.append(("clause", (first, second)))
        participle = _participle_subject(first, second)
        if participle is not None:
            # "The report was written by A and reviewed by B": "The report was reviewed by B".
            out.append(("participle", (first, f"{participle} {second}")))
            continue
        # A second part without a verb of its own: "... and the landlord for major
        # repairs" ("the landlord pays for major repairs").
        gapped = _gapped(first, second) or _copula_gapped(first, second)
        if gapped is not None:
            out.append(("gap", (first, gapped)))
        shared = _object_gapped(first, second)
        if shared is not None:
            out.append(("gap", (first, shared)))
    return tuple(out)


_NP_START_RE = re.compile(r"^(?:[A-Z0-9]|(?:the|a|an)\s)")


def _verb_like(word: str) -> bool:
    low = word.lower()
    return word.islower() and (
        low in _AUX_WORDS or (len(low) > 3 and low.endswith(("s", "ed")) and not low.endswith("ss"))
    )


def _object_gapped(first: str, second: str) -> str | None:
    """The second part of "S <verb> A for x and B for y" with the first part's subject
    and verb restored ("S <verb> B for y"), or None. The second part opens with a noun
    phrase (a capital, a number or an article) and has, after it, a slot (a preposition)
    that the first part has after its verb and an object; the verb is the first part's
    first finite form (an auxiliary, or a word in "-s"/"-ed") and its group (session 8:
    "Procurement recommends Tidewave Basic for field engineers and Beacon Plus for
    survey staff" read in either order)."""
    if _NP_START_RE.match(second) is None:
        return None
    words, fw = second.split(), first.split()
    slot = next((j for j, w in enumerate(words[:5]) if j and w.lower() in _GAP_SLOTS), None)
    if slot is None or any(w.lower() in _AUX_WORDS for w in words[:slot]):
        return None
    v = next((i for i in range(1, len(fw)) if _verb_like(fw[i])), None)
    if v is None:
        return None
    while v + 1 < len(fw) and _verb_like(fw[v + 1]):
        v += 1
    at = next((a for a in range(v + 2, len(fw)) if fw[a].lower() == words[slot].lower()), None)
    if at is None:
        return None
    return " ".join(fw[: v + 1] + words)


#: Words that open the slot of a gapped second part ("cold food below 5 °C").
_GAP_SLOTS = frozenset(_ELLIPSIS_PREPS) | {"below", "above", "under", "over", "after", "before"}


_COMPARISONS = frozenset(["below", "above", "under", "over"])


def _same_slot(a: str, b: str) -> bool:
    return a == b or (a in _COMPARISONS and b in _COMPARISONS)


def _verb_of(head: list[str]) -> list[str]:
    """The verb group of a clause's words before its first slot: from its first
    auxiliary ("Raw meat is stored" → "is stored"), else its last word ("Sales rose")."""
    aux = next((i for i in range(1, len(head)) if head[i].lower() in _AUX_WORDS), None)
    return head[aux:] if aux is not None else head[-1:]


def _repeats_verb(first: str, second: str) -> bool:
    """A lower-case second part is a clause of its own when it repeats the first
    part's verb ("Members pay €40 per month and guests pay €10 per visit"), not when it
    only shares a noun ("... and hot food above 63 °C")."""
    fw, words = first.split(), [w.lower() for w in second.split()]
    if len(words) < 3:
        return False
    for a in range(2, len(fw)):
        if fw[a].lower() in _GAP_SLOTS or _is_amount(fw[a]):
            verb = [v.lower() for v in _verb_of(fw[:a])]
            return any(v in words[1:] for v in verb if v not in _AUX_WORDS) or (
                all(v in words[1:] for v in verb)
            )
    return False


def _is_amount(word: str) -> bool:
    return word[:1].isdigit() or (word[:1] in "€$£¥" and word[1:2].isdigit())


def semicolon_parts(text: str) -> list[str]:
    """The parts of a sentence that semicolons separate, when there are several: each is
    a clause of its own ("Chair: A; secretary: B; treasurer: C"). A part that opens with
    a word carrying the scope of another part ("otherwise", "but", "except") is left out."""
    out: list[str] = []
    for sent in re.split(r"(?<=[.!?])\s+", text):
        parts = [p.strip(" .") for p in sent.split(";")]
        if len(parts) < 2:
            continue
        out.extend(
            p for p in parts if p and p.split()[0].lower() not in _SCOPE_OPENERS
        )
    return out


#: Words that open a part which depends on the part before it.
_SCOPE_OPENERS = frozenset(
    ["otherwise", "but", "except", "unless", "however", "else", "then", "only", "if", "so"]
)


#: "A is the chair and B the secretary": the copula of the first clause, its subject
#: before it and its complement (an article and a noun phrase) after it.
_COPULA_RE = re.compile(r"^(?P<subj>\S.*?)\s(?P<cop>is|are|was|were)\s(?:the|a|an)\s\S")
_GAP_NP_RE = re.compile(r"^(?P<subj>[A-Z][^,;]*?)\s(?P<comp>(?:the|a|an)\s[^,;]+)$")


def _copula_gapped(first: str, second: str) -> str | None:
    """The second part of "A is the X and B the Y" with the copula restored ("B is the
    Y"), or None. The second part is a capitalised subject and an article's noun phrase,
    with no verb of its own."""
    cop = _COPULA_RE.match(first)
    gap = _GAP_NP_RE.match(second)
    if cop is None or gap is None:
        return None
    if any(w.lower() in _AUX_WORDS for w in second.split()):
        return None
    return f"{gap.group('subj')} {cop.group('cop')} {gap.group('comp')}"


def _gapped(first: str, second: str) -> str | None:
    """The second part of "A <verb> X and B Y" with the first part's verb restored
    ("Sales rose to 5 and costs to 7" → "costs rose to 7"; "Raw meat is stored on the
    bottom shelf and cooked food on the top shelf" → "cooked food is stored on the top
    shelf"), or None. Y opens with a preposition or an amount, and the first part has
    the same slot (that preposition, or an amount) after its verb; the verb is the
    first part's words from its first auxiliary ("is stored"), else its last word
    before the slot ("rose")."""
    words, fw = second.split(), first.split()
    for j, w in enumerate(words[:5]):
        low = w.lower()
        if low in _AUX_WORDS:
            return None
        prep, amount = low in _GAP_SLOTS, _is_amount(w)
        if j == 0 or not (prep or amount):
            continue
        for a in range(2, len(fw)):
            if (prep and _same_slot(fw[a].lower(), low)) or (amount and _is_amount(fw[a])):
                verb = _verb_of(fw[:a])
                if {v.lower() for v in verb} & {x.lower() for x in words[:j]} - {"every"}:
                    return None  # the second part has its own verb: not gapped
                # Words the second part repeats before its slot ("every" in "trucks
                # every 20,000 km") stay in place.
                m = 0
                while (
                    m < len(verb) - 1
                    and m < j - 1
                    and verb[-1 - m].lower() == words[j - 1 - m].lower()
                ):
                    m += 1
                verb = verb[: len(verb) - m]
                return " ".join(words[: j - m] + verb + words[j - m :])
        return None
    return None


_PARTICIPLE_RE = re.compile(r"^[a-z]+(?:ed|en|wn|ne|lt|pt|nt|ught)$")


def _participle_subject(first: str, second: str) -> str | None:
    """The subject and auxiliary a second participle shares with the first part ("The
    report was" for "The report was written by A" and "reviewed by B"), or None (session
    7: the two participle clauses may come in the other order)."""
    head = second.split(" ", 1)[0]
    if not _PARTICIPLE_RE.match(head) or " by " not in f" {second} ":
        return None
    fw = first.split()
    for i in range(1, len(fw) - 1):
        if fw[i].lower() in _AUX_WORDS:
            j = i + 1 if fw[i + 1].lower() != "been" else i + 2
            if j < len(fw) and _PARTICIPLE_RE.match(fw[j]):
                return " ".join(fw[:j])
            return None
    return None


_OTHER_NP_RE = re.compile(r"\b(?:a|an|the|this|that|its|their)\s", re.IGNORECASE)
_SUBJECT_PRONOUN_RE = re.compile(r"(?:;|, and|, but) (it|they|It|They) ")


@functools.lru_cache(maxsize=4096)
def subject_readings(text: str) -> tuple[str, ...]:
    """Clauses of ``text`` that open with a subject pronoun after ";" or ", and" ("...; it
    replaces version 3.1"), with the pronoun read as the sentence's subject: its words
    before its first auxiliary, one to five words ("This SLA"), and only when the first
    clause names no other noun phrase the pronoun could stand for. Session 7: the later
    clause of such a sentence is what a claim about the subject copies."""
    out: list[str] = []
    for sent in re.split(r"(?<=[.!?])\s+", text):
        m = _SUBJECT_PRONOUN_RE.search(sent)
        if m is None:
            continue
        words = sent[: m.start()].split()
        at = next((i for i, w in enumerate(words) if w.lower() in _AUX_WORDS), None)
        if at is None or not 1 <= at <= 5:
            continue
        if _OTHER_NP_RE.search(" ".join(words[at + 1 :])):
            continue  # "The server is connected to a database; it ...": "it" may be either
        subject = " ".join(words[:at])
        rest = sent[m.end() :]
        out.append(f"{subject} {rest}")
    return tuple(out)
