"""Keep ``bench/RESULTS.md`` as one section per benchmark, each replaced on rerun.

A section starts at a ``## <title>`` line and runs to the next ``## `` line. Sections of
other benchmarks are left as they are.
"""

from __future__ import annotations

import os
import platform
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
HEADER = (
    "# cairn benchmark results\n\n"
    "Written by the scripts in `bench/`; each section is replaced when its script is rerun.\n"
)


def machine_note() -> str:
    """One line describing where the numbers were measured."""
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores (shared, noisy), "
        f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}"
    )


def stamp() -> str:
    """The current UTC time, to the minute."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def update_section(title: str, body: str, path: Path = RESULTS) -> None:
    """Replace (or append) the ``## title`` section of the results file with ``body``."""
    text = path.read_text(encoding="utf-8") if path.exists() else HEADER
    lines = text.splitlines()
    heading = f"## {title}"
    start = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    new = [heading, "", *body.strip("\n").splitlines(), ""]
    if start is None:
        while lines and not lines[-1].strip():
            lines.pop()
        lines += ["", *new]
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        lines[start:end] = new
    path.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
