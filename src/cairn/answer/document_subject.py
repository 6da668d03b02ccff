"""The document a note's sentences are about, named the way a claim names it (issue 12).

Two readings of an evidence sentence, each tried only after the sentence as written
(session 18a).

**A sentence-initial "It"/"They" read as the document the sentence before names.**

Notes open with a sentence about themselves and go on with a pronoun: "This tariff sheet
is version 4.3 ... . It was prepared by Colette Amari and approved by Dmitri Olsen." A
claim about the document names it ("The tariff sheet was approved by Dmitri Olsen and
prepared by Colette Amari"), and once the pronoun is read as the document the claim is an
ordinary reordering of its evidence. Session 18a.

The pronoun is resolved only where the document is the previous sentence's subject, as
a demonstrative that names the text itself: "This X" / "These X" (one to three lowercase
words, then a verb: an auxiliary, or for "This" a verb in -s), directly before the
pronoun's sentence in the same span (nothing but white space between them; a heading or
a table ends the chain). "It" needs "This", "They" needs "These". A pronoun after a
sentence that itself opens with a resolved pronoun takes the same document ("It replaces
the round 8 terms sheet. It was drafted by ..."): the subject carries on, as in the
session 7 rule for "...; it replaces 3.1" inside one sentence
(:func:`cairn.answer.coordination.subject_readings`). Anything else keeps its pronoun and
is read as written (the text as written is always tried first).

**"This X is version N, <participle> ..." read as "Version N of the X was <participle>
..."**: "This itinerary is version 4, written by Nadia Brennan and approved by Oliver
Sykes" states who wrote and approved version 4 of the itinerary, which is how a claim
says it. Only for "This"/"These"/"The" and one to three lowercase words, "is"/"are", a label of
an edition (version, edition, revision, issue, release) with its name, a comma, then a
past participle ("written", "approved"); the label and its name are kept word for word.

**A dated lead "9 March 2027 — X" / "25 April 2027, 17:00 — X" / "06:30 — X" read as "On
9 March 2027, X" / "On 25 April 2027 at 17:00, X" / "At 06:30, X"**: a log or programme
line dates its sentence with a dash, which a claim says with a preposition ("On 12 March
2027 the temperature was raised ..."), in front or at the end ("... on 2027-03-12"). The
date and the time keep their own line: a claim that moves them to another line's
sentence is not accounted. A programme line whose event has no verb ("25 April 2027,
17:00 — Prize giving.") is also read with "is": "Prize giving is at 17:00 on 25 April
2027" (session 19a).
"""

from __future__ import annotations

import re

__all__ = ["dated_lead_readings", "document_antecedent", "resolved_pronoun", "version_reading"]

_AUX = frozenset(
    ["is", "are", "was", "were", "has", "have", "had", "will", "must", "may", "can", "shall",
     "should", "does", "do"]
)  # fmt: skip
_DEMONSTRATIVE_RE = re.compile(r"^\s*(This|These)\s+([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3})")
_PRONOUN_RE = re.compile(r"^\s*(It|They)\s+(?=[a-z])")


def _demonstrative_subject(sentence: str) -> tuple[str, str] | None:
    """("This"/"These", the noun phrase) when ``sentence`` opens with a demonstrative
    subject followed by its verb ("This terms sheet applies" → ("This", "terms sheet"))."""
    m = _DEMONSTRATIVE_RE.match(sentence)
    if m is None:
        return None
    det, words = m.group(1), m.group(2).split()
    for k in range(1, min(3, len(words) - 1) + 1):
        verb = words[k]
        if verb in _AUX or (det == "This" and verb.endswith("s") and len(verb) > 3):
            return det, " ".join(words[:k])
    return None


def document_antecedent(previous: str, previous_antecedent: str, sentence: str) -> str:
    """The noun phrase (with "the") a sentence-initial pronoun of ``sentence`` stands for,
    given the sentence right before it and that sentence's own antecedent; "" when the
    pronoun is not resolved (see the module docstring)."""
    m = _PRONOUN_RE.match(sentence)
    if m is None:
        return ""
    pronoun = m.group(1)
    subject = _demonstrative_subject(previous)
    if subject is not None:
        det, np = subject
        return f"the {np}" if (det == "This") == (pronoun == "It") else ""
    chained = _PRONOUN_RE.match(previous)
    if chained is not None and chained.group(1) == pronoun:
        return previous_antecedent
    return ""


def resolved_pronoun(text: str, antecedent: str) -> str | None:
    """``text`` with its sentence-initial pronoun replaced by ``antecedent``; None when
    there is nothing to replace."""
    if not antecedent:
        return None
    out = _PRONOUN_RE.sub(antecedent + " ", text, count=1)
    return out if out != text else None


_VERSION_RE = re.compile(
    r"^\s*(?:This|These|The)\s+([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})\s+(?:is|are)\s+"
    r"(version|edition|revision|issue|release)\s+([\w.]+),\s+(?=[a-z]+(?:ed|en)\b)"
)


def version_reading(text: str) -> str | None:
    """``text`` read as "Version N of the X was ..." (see the module docstring); None when
    it does not open with "This X is version N, <participle>"."""
    m = _VERSION_RE.match(text)
    if m is None:
        return None
    return f"{m.group(2).capitalize()} {m.group(3)} of the {m.group(1)} was {text[m.end():]}"


#: After :func:`cairn.answer.normalise.normalise_dates` a full date reads "d20270309".
_DATED_LEAD_RE = re.compile(
    r"^\s*(?:(d\d{8})\s*(?:,\s*(\d{1,2}:\d{2}))?|(\d{1,2}:\d{2}))\s*[—–]\s+(?=\S)"
)


def dated_lead_readings(text: str) -> tuple[str, ...]:
    """``text`` with its leading "DATE[, TIME] —" / "TIME —" said with "On"/"At", in front
    and at the end of the sentence (see the module docstring); () when it has no such lead."""
    m = _DATED_LEAD_RE.match(text)
    if m is None:
        return ()
    date, time, alone = m.group(1), m.group(2), m.group(3)
    lead = f"On {date} at {time}" if date and time else f"On {date}" if date else f"At {alone}"
    rest = text[m.end() :]
    first = rest.split(" ", 1)[0]
    if first in ("The", "A", "An"):
        rest = first.lower() + rest[len(first) :]
    body = rest.rstrip()
    stop = body[-1] if body[-1:] in ".!" else ""
    end = f"{body[: len(body) - len(stop)]} {lead[0].lower()}{lead[1:]}{stop}"
    return (f"{lead}, {rest}", end[0].upper() + end[1:], *_event_readings(date, time or alone, body.rstrip(".!")))


_NOT_EVENT = frozenset(
    ["is", "are", "was", "were", "be", "has", "have", "had", "will", "must", "may", "can",
     "shall", "should", "does", "do", "did", "not", "no", "it", "they", "which", "who"]
)  # fmt: skip


def _event_readings(date: str | None, time: str | None, event: str) -> tuple[str, ...]:
    """A programme line's event without a verb ("25 April 2027, 17:00 — Prize giving.")
    said with "is": "Prize giving is at 17:00 on 25 April 2027", "The first warning signal
    is on 24 April 2027 at 10:30". () when the event has a verb or a negation."""
    words = event.split()
    if not words or len(words) > 10 or any(
        w.lower().strip(",") in _NOT_EVENT or w.lower().endswith("ed") for w in words
    ):
        return ()
    at = [f"at {time}"] if time else []
    on = [f"on {date}"] if date else []
    subjects = [event, f"The {event[0].lower()}{event[1:]}"] if event[:1].isupper() else [event]
    return tuple(
        f"{s} is {' '.join(order)}." for s in subjects for order in dict.fromkeys([(*at, *on), (*on, *at)])
    )
