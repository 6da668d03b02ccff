"""Write the module map of docs/design.md from the code: every package and module of
``src/cairn`` with the first line of its docstring, so the map cannot drift.

    python scripts/gen_module_map.py           # rewrite the map in docs/design.md
    python scripts/gen_module_map.py --check   # exit 1 if the map is out of date
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "cairn"
DESIGN = ROOT / "docs" / "design.md"
START, END = "<!-- module-map:start -->", "<!-- module-map:end -->"


def summary(path: Path) -> str:
    """The first sentence-line of a module's docstring (``""`` when it has none)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    return " ".join(first.split())


def module_map() -> str:
    """The map as Markdown: one row per module, in package order."""
    lines = ["| module | what it is |", "| --- | --- |"]
    for path in sorted(SRC.rglob("*.py"), key=lambda p: p.relative_to(SRC).parts):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(SRC.parent)
        name = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        lines.append(f"| `{name}` | {summary(path).replace('|', '/')} |")
    return "\n".join(lines)


def render(text: str) -> str:
    """``text`` with the part between the markers replaced by the current map."""
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{module_map()}\n{END}{tail}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail if docs/design.md is out of date")
    args = parser.parse_args()
    text = DESIGN.read_text(encoding="utf-8")
    if START not in text or END not in text:
        print(f"{DESIGN}: markers {START} / {END} missing", file=sys.stderr)
        return 1
    new = render(text)
    if args.check:
        if new != text:
            print("docs/design.md module map is out of date: run python scripts/gen_module_map.py", file=sys.stderr)
            return 1
        return 0
    DESIGN.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
