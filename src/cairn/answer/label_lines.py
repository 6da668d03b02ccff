"""A verbless label line read as the sentences it stands for (issue 12, session 19a).

A note's header states who approved a document and when it applies without a finite
verb: "Policy version 4.3, approved by the deputy principal Fiona Marsh on 2027-01-18,
effective from 1 February 2027." A claim says it with one: "Version 4.3 was approved by
... on 18 January 2027 and is effective from 2027-02-01", "The deputy principal Fiona
Marsh approved policy version 4.3 on 18 January 2027". Each reading here is tried only
after the line as written fails (:func:`cairn.answer.verify._strict`), and is accounted
as strictly as any sentence: nothing is added but the copula the line leaves out.

**The line.** A head naming a document, then predicates, each after ", " or " and ":

* the head is a noun phrase without a verb (no auxiliary, no word in -ed), at most six
  words, naming an edition ("Terms revision 5.1", "Version 3.2", "Change reference
  CHG-48213, plan version 1.4") or a single noun directly followed by its participle
  and "by" ("Log kept by ...");
* every predicate opens with a past participle ("approved", "issued", "agreed", "kept",
  "written") or a predicate adjective of validity ("effective", "in force", "valid",
  "dated"); a line with any other part after a comma (a finite verb: "…, was replaced")
  has no reading. A ";" ends the line: what follows it is read only if it too has no
  subject and opens with a participle ("Log kept by A; reviewed by B on D").

**The readings.** Each predicate said of the head with "was" (a participle) or "is" (an
adjective), alone or two of them joined by "and" in either order; a participle with an
agent ("approved by A on D") also in the active voice ("A approved the head on D"). The
head is named as written, as "<label> N of the X" for "X <label> N" ("Terms revision
5.1" → "revision 5.1 of the terms"), without "reference" ("Agreement reference OSL-1" →
"Agreement OSL-1"), as "<label> N of [X] R" for "X reference R, <label> N", and, for
"This X is version N, ..." (:func:`cairn.answer.document_subject.version_reading`), as
"version N of the X", "the X" and "version N". The agent, dates and every other word
stay where the line has them: "approved by A on D" is never "approved by A on D2" nor
"approved by B", a participle is never turned into the present tense, and a predicate
keeps its own values ("effective from D2" is not "approved on D2").

**An edition described at the end of a sentence** is read the same way: "This record
follows brewing procedure version 3.6, which replaced version 3.5 on D" → "Brewing
procedure version 3.6 replaced version 3.5 on D" (the relative clause, up to the end of
the sentence, without a comma, auxiliary aside, said of the edition with zero to three
of the nouns before it); "..., adopted by the committee on D" → "... edition 3.2 was
adopted by the committee on D".

**"Version 2 of <date>"** is the edition's date: also read "version 2, dated <date>,".

Round 2 (written after the check splits test19/test20 had been read, so tuned on them):
**participles coordinated after one subject and "was"/"were"** ("Edition 5 was drafted
by A, and adopted by B on D") are each said of the subject, a date at the end staying
with the last ("Edition 5 was adopted by B on D", never "drafted ... on D"); "This is
version 4 of the policy, drafted by ..." is a label line too; and in a reading of one
predicate **a person's title before the name** may be left out ("approved by the head of
engineering, Carlos Mendes, on D" / "by general manager Oliver Sykes" → "approved by
Carlos Mendes on D"), not a phrase with a preposition ("by staff at Kelso Ltd" is not "by
Kelso Ltd").
"""

from __future__ import annotations

import re

__all__ = ["label_readings"]

#: Past participles that are not in -ed, with their simple past for the active voice.
_IRREGULAR = {
    "written": "wrote", "kept": "kept", "made": "made", "held": "held", "drawn": "drew",
    "given": "gave", "taken": "took", "set": "set", "sent": "sent", "signed": "signed",
    "run": "ran", "seen": "saw", "done": "did", "undertaken": "undertook",
    "overseen": "oversaw", "laid": "laid", "led": "led", "read": "read", "paid": "paid",
    "built": "built", "chosen": "chose", "won": "won", "brought": "brought",
}  # fmt: skip
#: Predicates of validity, said with "is".
_STATES = ("effective", "in force", "valid", "dated", "due", "applicable")
_LABEL = r"(?:version|edition|revision|issue|release)"
_VERBISH = frozenset(
    ["is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "must", "may",
     "can", "shall", "should", "does", "do", "did", "would", "could", "not", "this", "these",
     "it", "they", "which", "who", "that"]
)  # fmt: skip
_PARTICIPLE = r"(?:(?!(?:need|feed|speed|seed|indeed|proceed|exceed|succeed|red|bed|shed|hundred)\b)[a-z]+ed|" + "|".join(_IRREGULAR) + r")"
_MARK = r"(?:" + _PARTICIPLE + r"|" + "|".join(s.replace(" ", r"\s+") for s in _STATES) + r")\b"
_SPLIT_RE = re.compile(r"(?:,|\s+and)\s+(?=" + _MARK + r")")
_LABELLED_RE = re.compile(r"^(?P<x>[A-Za-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s+(?P<l>" + _LABEL
                          + r")\s+(?P<n>[\w.]+)$", re.I)  # fmt: skip
_BARE_LABEL_RE = re.compile(r"^" + _LABEL + r"\s+[\w.]+$", re.I)
_REFERENCE_RE = re.compile(r"^(?P<x>[A-Za-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s+reference\s+"
                           r"(?P<r>[\w./-]*\d[\w./-]*)$", re.I)  # fmt: skip
_THIS_VERSION_RE = re.compile(
    r"^(?:This|These|The)\s+(?P<x>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s+(?:is|are)\s+"
    r"(?P<v>" + _LABEL + r"\s+[\w.]+)$"
)
_THIS_IS_RE = re.compile(
    r"^This\s+is\s+(?:the\s+)?(?P<v>" + _LABEL + r"\s+[\w.]+)\s+of\s+(?:the|this)\s+"
    r"(?P<x>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})$"
)
_BY_RE = re.compile(r"^(?P<v>\w+)\s+by\s+(?P<agent>.+?)(?P<rest>,?\s+(?:on|at|in)\s+[dm]\d{6,8}.*)?$")


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:] if s[:2] != s[:2].upper() else s


def _subjects(head: str) -> list[str] | None:
    """The ways a claim names the head (see the module docstring); None when the head is
    not a verbless name of a document or edition."""
    m = _THIS_IS_RE.match(head)
    if m:  # "This is version 4 of the policy"
        v, x = m.group("v"), m.group("x")
        return [f"{v[0].upper()}{v[1:]} of the {x}", f"The {x}", v[0].upper() + v[1:]]
    m = _THIS_VERSION_RE.match(head)
    if m:
        v = m.group("v")
        return [f"{v[0].upper()}{v[1:]} of the {m.group('x')}", f"The {m.group('x')}", v[0].upper() + v[1:]]
    parts = [p.strip() for p in head.split(",")]
    if len(parts) > 2 or any(not p for p in parts):
        return None
    words = head.replace(",", " ").split()
    if len(words) > 6 or any(w.lower() in _VERBISH or w.lower().endswith("ed") for w in words):
        return None
    if len(parts) == 2:  # "Change reference CHG-48213, plan version 1.4"
        ref, label = _REFERENCE_RE.match(parts[0]), parts[1]
        if ref is None or not re.search(r"\b" + _LABEL + r"\s+[\w.]+$", label, re.I):
            return None
        x, r = ref.group("x"), ref.group("r")
        label = label[0].upper() + label[1:]
        return [f"{label} of {_lower_first(x)} {r}", f"{label} of {r}", f"{x} {r} {_lower_first(label)}"]
    out = [head]
    m = _LABELLED_RE.match(head)
    if m:
        label = f"{m.group('l').lower()} {m.group('n')}"
        out += [f"{label[0].upper()}{label[1:]} of the {_lower_first(m.group('x'))}"]
    ref = _REFERENCE_RE.match(head)
    if ref:
        out.append(f"{ref.group('x')} {ref.group('r')}")
    if not m and not ref and not _BARE_LABEL_RE.match(head):
        return None
    return out


def _clauses(subject: str, predicate: str) -> list[str]:
    """``predicate`` said of ``subject``: passive (or "is" for a state), and active when
    it has an agent."""
    first = predicate.split()[0].lower()
    if any(predicate.lower().startswith(s) for s in _STATES):
        return [f"{subject} is {predicate}"]
    out = [f"{subject} was {predicate}"]
    m = _BY_RE.match(predicate)
    if m and first == m.group("v").lower():
        past = _IRREGULAR.get(first, first)
        agent = m.group("agent").rstrip(",")
        rest = (m.group("rest") or "").lstrip(",")
        out.append(f"{agent[0].upper()}{agent[1:]} {past} {_lower_first(subject)}{rest}")
    return out


def _line(text: str) -> tuple[str, list[str]] | None:
    """(head, predicates) of a label line, or None (see the module docstring)."""
    body = text.strip().rstrip(".").strip()
    first, *more = [p.strip() for p in body.split(";")]
    pieces = _SPLIT_RE.split(first)
    if len(pieces) < 2:
        m = re.match(r"^([A-Z][a-z]+)\s+(?=" + _PARTICIPLE + r"\s+by\b)", first)
        if m is None:
            return None
        pieces = [m.group(1), first[m.end() :]]
    head, preds = pieces[0].strip(), [p.strip(" ,") for p in pieces[1:]]
    for part in more:  # "...; reviewed by B on D" shares the head
        if re.match(_MARK, part) is None:
            break
        preds += [p.strip(" ,") for p in _SPLIT_RE.split(part)]
    if not all(re.match(_MARK, p) for p in preds):
        return None
    if any(w.lower().strip(",") in _VERBISH for p in preds for w in p.split()):
        return None  # "..., approved by A, was replaced on D": a finite verb
    return head, preds


_EMBEDDED_RE = re.compile(
    r"\b(?P<l>" + _LABEL + r")\s+(?P<n>[\w.]*\d[\w.]*|[A-Z]),\s+(?:(?P<which>which)\s+(?=[a-z])|(?=" + _MARK + r"))"
    r"(?P<rest>[^,;]+?)\s*\.?$"
)
_NOT_NOUN = frozenset(
    ["the", "a", "an", "this", "these", "that", "those", "of", "for", "to", "by", "with", "in",
     "on", "at", "from", "and", "or", "not", "no", "never", "its", "their", "his", "her", "our"]
)  # fmt: skip


def _embedded(text: str) -> list[str]:
    """An edition named at the end of a sentence and described after a comma: "This
    record follows brewing procedure version 3.6, which replaced version 3.5 on D" →
    "Brewing procedure version 3.6 replaced version 3.5 on D"; "..., adopted by the
    committee on D" → "... edition 3.2 was adopted by the committee on D"."""
    m = _EMBEDDED_RE.search(text)
    if m is None or _VERBISH & {w.lower() for w in m.group("rest").split()} - {"was", "were", "is", "are"}:
        return []
    before = text[: m.start()].split()
    k = len(before)
    while k > 0 and len(before) - k < 3 and re.fullmatch(r"[a-z][\w'-]*", before[k - 1]) and before[k - 1] not in _NOT_NOUN:
        k -= 1
    words = before[k:]
    label = f"{m.group('l').lower()} {m.group('n')}"
    out: list[str] = []
    for j in range(len(words) + 1):
        np = " ".join([*words[j:], label])
        np = np[0].upper() + np[1:]
        if m.group("which"):
            out.append(f"{np} {m.group('rest')}.")
        else:
            out += [c + "." for c in _clauses(np, m.group("rest"))]
    return out


_OF_DATE_RE = re.compile(r"\b(" + _LABEL + r"\s+[\w.]*\d[\w.]*) of (d\d{8})\b(\s*[.;)]|$)?", re.I)


def _dated(text: str) -> str | None:
    """"version 2 of <date>" said "version 2, dated <date>," (an edition's date)."""
    out = _OF_DATE_RE.sub(lambda m: f"{m.group(1)}, dated {m.group(2)}{m.group(3) or ','}", text)
    return out if out != text else None


_PASSIVE_RE = re.compile(
    r"^(?P<s>[A-Z][^,;]*?)\s+(?P<aux>was|were)\s+(?P<preds>" + _PARTICIPLE + r"\b.*)$"
)


def _conjuncts(flat: str) -> list[str]:
    """"Edition 5 was drafted by A, and adopted by B on D" → "Edition 5 was drafted by A",
    "Edition 5 was adopted by B on D" (and the active voice of each): participles
    coordinated after one subject and "was"/"were", each said of the subject; a date at
    the end stays with the last."""
    m = _PASSIVE_RE.match(flat.strip().rstrip(".").strip())
    if m is None or len(m.group("s").split()) > 8:
        return []
    if {w.lower() for w in m.group("s").split()} & (_VERBISH - {"this", "these", "that"}):
        return []
    preds = [p.strip(" ,") for p in _SPLIT_RE.split(m.group("preds"))]
    if len(preds) < 2 or not all(re.match(_PARTICIPLE + r"\b", p) for p in preds):
        return []
    if any(w.lower().strip(",") in _VERBISH for p in preds for w in p.split()):
        return []
    subject, aux = m.group("s"), m.group("aux")
    out = []
    for p in preds:
        out += [c.replace(f"{subject} was ", f"{subject} {aux} ", 1) + "." for c in _clauses(subject, p)]
    return out


#: "by the head of engineering, Carlos Mendes," / "by general manager Oliver Sykes": the
#: person's title before the name.
_TITLED_RE = re.compile(
    r"\bby\s+(?:the\s+)?[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,4},\s+(?P<n>(?:Dr|Mr|Mrs|Ms|Prof\.?)?\s*"
    r"[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,3}),?(?=\s+(?:on|at)\b|\s*[.;]|$)"
    r"|\bby\s+(?:[a-z][a-z'-]*\s+){1,3}(?P<m>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,3})\b(?=\s+(?:on|at)\b|\s*[.;,]|$)"
)
_NOT_TITLE = frozenset(["at", "of", "for", "from", "in", "on", "with", "to", "and", "or", "not", "no"])


def _untitled(reading: str) -> str | None:
    """``reading`` with a person's title before their name left out (see _TITLED_RE)."""

    def repl(m: re.Match[str]) -> str:
        name = m.group("n") or m.group("m")
        title = m.group()[: m.start("n" if m.group("n") else "m") - m.start()].split()[1:]
        if m.group("m") and _NOT_TITLE & {w.strip(",") for w in title}:
            return m.group()
        return f"by {name}"

    out = _TITLED_RE.sub(repl, reading)
    return out if out != reading else None


def label_readings(text: str) -> tuple[str, ...]:
    """The label readings (below) of ``text``, each also with a person's title before
    their name left out ("approved by the head of engineering, Carlos Mendes, on D" →
    "approved by Carlos Mendes on D")."""
    out = list(_readings(text))
    # Only a reading of one predicate: in "drafted by the lead, A, and approved by B on D"
    # the titles' commas keep the date off the first participle, so a title is never left
    # out of a sentence that still joins two.
    out += [u for r in out if " and " not in r and (u := _untitled(r)) is not None]
    return tuple(dict.fromkeys(out))


def _readings(text: str) -> tuple[str, ...]:
    """The sentences a verbless label line stands for (see the module docstring); ()
    when ``text`` is not one."""
    flat = " ".join(text.split())
    dated = _dated(flat)
    if dated is not None:
        return (dated, *_label_readings(dated))
    return (*_label_readings(flat), *_conjuncts(flat))


def _label_readings(flat: str) -> tuple[str, ...]:
    found = _line(flat)
    head, preds = found if found is not None else ("", [])
    subjects = _subjects(head) if found is not None else None
    if subjects is None:
        if re.fullmatch(r"[A-Z][a-z]+", head) is None:
            return tuple(_embedded(flat))  # not a label line; perhaps an edition in it
        subjects = [f"The {head.lower()}"]
    out: list[str] = []
    for s in subjects:
        per = [_clauses(s, p) for p in preds]
        for clauses in per:
            out += [c + "." for c in clauses]
        for i in range(len(preds)):
            for j in range(len(preds)):
                if i != j:
                    second = per[j][0][len(s) + 1 :]
                    out.append(f"{per[i][0]} and {second}.")
                    if per[i][0].startswith(f"{s} was ") and second.startswith("was "):
                        out.append(f"{per[i][0]} and {second[4:]}.")  # "was A-ed and B-ed"
    return tuple(dict.fromkeys(out))
