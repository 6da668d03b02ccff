"""A deterministic test vault: 20 hand-written notes exercising every resolution rule, and
200 generated filler notes that link only among themselves (see ``tests/graph/test_graph.py``)."""

from __future__ import annotations

from pathlib import Path

FILLERS = 200

HAND: dict[str, str] = {
    "Home.md": """---
aliases: [Start, Dashboard]
tags: [meta, area/home]
related: "[[Projects/Alpha]]"
up: [[Index]]
---
# Home

See [[Projects/Alpha]] and [[alpha#Goals]] and [[Alpha#Nope]].
Embed: ![[Projects/Beta]] and ![[diagram.png]].
Ambiguous: [[Meeting]] and [[readme]] and [[Dup]].
Alias: [[B-Project]] and [[amazing grace]].
Missing: [[Nowhere]] and [[Projects/Gamma]].
Block: [[Alpha#^alpha-risk]] and [[Alpha#^no-such-block]].
Self: [[#Home]] and [[#Missing heading]].
Markdown: [deep](Areas/Sub/Deep%20Note.md) and [web](https://example.com/x#y).
#inline/tag
""",
    "Index.md": """# Index

- [[Home]]
- [[Projects/Beta|the beta project]]
- [[projects/alpha]]
""",
    "Projects/Alpha.md": """---
aliases: [A1]
tags: [project, project/active]
depends_on:
  - "[[Beta]]"
  - Graphs
see_also: [[Compilers]]
---
# Alpha

## Goals

Ship it. Back to [[Home]].

## Risks & Issues

Something risky. ^alpha-risk

See [sibling](Beta.md) and [up](../Index.md) and [readme](../Readme.md#Intro).
Folder-relative wiki: [[./Beta#Plan]] and [[../Areas/Health]].
Path suffix: [[Sub/Deep Note]].
""",
    "Projects/Beta.md": """---
aliases: [B-Project]
parent: "[[Alpha]]"
---
# Beta

## Plan

Details in [risks](Alpha.md#risks--issues) and [goals](./Alpha.md#Goals) and [bad](Alpha.md#no-heading).
Also [[Meeting]] here.
""",
    "Projects/Meeting.md": "# Meeting (projects)\n\nNo links.\n",
    "Areas/Meeting.md": "# Meeting (areas)\n\nBack to [[Home|home page]].\n",
    "Archive/2023/Meeting.md": "# Old meeting\n\n[[Meeting]] again.\n",
    "Areas/Health.md": """---
tags: [area/health, Area/Health/Sleep]
---
# Health

[[readme]] and [[Dup]] and [Home](../Home.md) and [missing](../Nope.md) and [outside](../../outside.md).
""",
    "Areas/Sub/Deep Note.md": """# Deep Note

Up: [[Health]]. Embedded image ![alt](../../attachments/pic%201.png). Doc link [[Guide.md]].
""",
    "Docs/Guide.md": """# Guide

Read [[readme]] first, then [[Readme#Intro]] and [[Docs/Readme]].
""",
    "Docs/Readme.md": "# Docs readme\n\nNothing.\n",
    "Readme.md": "# Readme\n\n## Intro\n\nWelcome. See [[Index]].\n",
    "X/Dup.md": "# Dup X\n",
    "Y/Dup.md": "# Dup Y\n\n[[dup]]\n",
    "People/Ada Lovelace.md": """---
aliases: [Ada]
related:
  - "[[Grace Hopper]]"
  - "[[Nobody Known]]"
---
# Ada Lovelace

Worked with [[Ada]]? No: see [[People/Grace Hopper|Grace]].
""",
    "People/Grace Hopper.md": """---
aliases: [Amazing Grace]
tags: [person]
up: Index
---
# Grace Hopper

Compilers: [[Compilers]].
""",
    "Topics/Compilers.md": """---
aliases: [amazing grace]
---
# Compilers

Graph theory: [[Graphs#Trees]].
""",
    "Topics/Graphs.md": """# Graphs

## Trees

A tree. [[Topics/Graphs#Cycles]] ![[Compilers#Compilers]]
""",
    "Daily/2024-01-01.md": """---
related: [Home, "[[Index]]", "[link](../Readme.md)", "https://example.org"]
---
# 2024-01-01

Code: `[[NotALink]]` and
```
[[AlsoNotALink]]
```
Real: [[Projects/Alpha#Goals|alpha goals]].
""",
    "Orphan.md": "# Orphan\n\nNo links at all.\n",
}


def filler_name(i: int) -> str:
    return f"f{i % FILLERS:03d}"


def filler_text(i: int) -> str:
    """Filler ``i`` links to the next filler, to ``7i mod 200`` under a heading that exists
    only when ``i % 3 != 2``, and (every tenth) to a note that does not exist."""
    lines = [
        f"# Filler {i}",
        "",
        f"Next: [[{filler_name(i + 1)}]]. Jump: [[filler/{filler_name(i * 7)}#Section {i % 3}]].",
        "",
        "## Section 0",
        "",
        f"Tagged #filler/group{i % 5}.",
        "",
        "## Section 1",
        "",
    ]
    if i % 10 == 0:
        lines.append(f"Ghost: [[ghost-{i}]].")
    return "\n".join(lines) + "\n"


def write_vault(root: Path) -> Path:
    for rel, text in HAND.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "filler").mkdir(parents=True, exist_ok=True)
    for i in range(FILLERS):
        (root / "filler" / f"{filler_name(i)}.md").write_text(filler_text(i), encoding="utf-8")
    return root
