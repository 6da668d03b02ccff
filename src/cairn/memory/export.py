"""Memory as plain Markdown: one section per record, readable and diffable (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from cairn.contracts.memory import MemoryItem


def _line(label: str, value: object) -> str:
    return f"- **{label}:** {value}"


def export_markdown(project: str | None, items: Sequence[MemoryItem]) -> str:
    """One document: a heading per record, its fields, facts, evidence and derived state."""
    out = [f"# cairn memory: {project or 'all projects'}", "", f"{len(items)} record(s).", ""]
    for item in items:
        if item.kind == "observation":
            out += [f"## {item.title} `{item.id}`", "", item.narrative or "", ""]
            out.append(_line("type", item.type))
            if item.topic_key:
                out.append(_line("topic", f"{item.topic_key} (revision {item.revision})"))
            for label, values in (("facts", item.facts), ("files", item.files), ("symbols", item.symbols),
                                  ("concepts", item.concepts)):
                if values:
                    out.append(_line(label, "; ".join(values)))
            if item.observed_at:
                out.append(_line("observed", item.observed_at))
        else:
            out += [f"## {item.subject} — {item.predicate} — {item.object} `{item.id}`", ""]
            out.append(_line("review", item.review))
            if item.supersedes:
                out.append(_line("supersedes", item.supersedes))
            if item.superseded_by:
                out.append(_line("superseded by", item.superseded_by))
            if item.contested_with:
                out.append(_line("contested with", ", ".join(item.contested_with)))
        out.append(_line("state", f"{item.status}, {item.quality}, {item.freshness}"
                                  + (", pinned" if item.pinned else "")))
        out.append(_line("scope", f"{item.visibility} · {item.project}"
                                  + (f" · {item.owner}" if item.owner else "")))
        out.append(_line("source", f"{item.source}, {item.created_at} → {item.updated_at}"))
        for ev in item.evidence:
            span = f":{ev.start}-{ev.end}" if ev.start is not None else ""
            out.append(f"  - {ev.relation} {ev.kind}:{ev.target}{span}" + (f" ({ev.hash[:12]})" if ev.hash else ""))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
