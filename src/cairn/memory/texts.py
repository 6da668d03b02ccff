"""A memory record's text as a plan hands it over and as it is embedded, and that text's
content address (the key of its vector in the index's vector table).

The store keeps each record's address in a column (``memory_records.embed_hash``,
migration 12), written with the record, so recall finds every visible record's vector
without decoding the record. A change to :func:`record_text` changes the addresses: it
needs a migration that recomputes the column.
"""

from __future__ import annotations

import hashlib

from cairn.memory.records import Claim, Observation


def record_text(record: Observation | Claim) -> tuple[str, str]:
    """A record's title and full text as handed to an agent (and embedded). An
    observation's text opens with its title as a heading line; its type is shown in the
    plan item's title, not spent in the text's tokens."""
    if isinstance(record, Observation):
        heading = record.title if record.title.endswith((".", ":", "!", "?")) else f"{record.title}:"
        lines = [heading, record.narrative.strip()]
        if record.facts:
            lines += [f"- {fact}" for fact in record.facts]
        if record.files:
            lines.append("Files: " + ", ".join(record.files))
        if record.concepts:
            lines.append("Concepts: " + ", ".join(record.concepts))
        return record.title, "\n".join(line for line in lines if line)
    title = f"{record.subject} {record.predicate} {record.object}"
    return title, f"[claim] {title}"


def embed_text(record: Observation | Claim) -> str:
    """The text a record is embedded by: the text a plan hands over (:func:`record_text`)."""
    return record_text(record)[1]


def text_hash(text: str) -> str:
    """The content address of a text in the vector table (as a passage's ``passage_hash``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def embed_hash(record: Observation | Claim) -> str:
    """The content address of a record's :func:`embed_text`."""
    return text_hash(embed_text(record))
