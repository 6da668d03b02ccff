"""Known-item queries built from the English tldr-pages (issue 17's fresh held-out sets).

Two sets over the same 7,425 pages (``../shared/corpora/tldr/tldr-pages-en.tar.gz``), one
relevant page per query, built deterministically so that anyone rebuilds the same queries:

* ``summary``: a page's first ``> `` line, its trailing period dropped;
* ``example``: one example description of a page (``- ...:``, without the ``- `` and the
  final ``:``; tldr's ``[c]reate`` markers and ``{{...}}`` placeholders kept as plain text
  without their brackets), at most one per page.

A line is **eligible** when it has at least :data:`MIN_WORDS` words, does not contain the
page's command name (the file stem, case-insensitive, also with ``-`` read as a space: a
query naming the command is a lookup, not a description), and its normalised text
(lowercase, whitespace collapsed) occurs exactly once in the corpus among lines of its kind
(first summary lines, or example descriptions), so the one relevant page is the only right
answer. :data:`COUNT` queries are sampled with ``random.Random(SEED)``: summaries from the
eligible pages sorted by path; examples by sampling pages (those with an eligible line,
sorted by path) and then one eligible line of each sampled page with the same generator.

Further samples (:data:`SAMPLES`, issue 17's tuning sample and its further test samples) use another
seed and leave out the pages of the samples before them, so no page is in two samples.
"""

from __future__ import annotations

import random
import re
import tarfile
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "tldr" / "tldr-pages-en.tar.gz"
MIN_WORDS = 4
COUNT = 300
SEED = 17
#: name -> (seed, the samples whose pages it leaves out): the example samples.
SAMPLES: dict[str, tuple[int, tuple[str, ...]]] = {
    "example": (SEED, ()), "example-tune": (18, ("example",)), "example-test2": (19, ("example", "example-tune")),
    "example-test3": (20, ("example", "example-tune", "example-test2")),
    "example-test4": (21, ("example", "example-tune", "example-test2", "example-test3")),
    "example-test5": (22, ("example", "example-tune", "example-test2", "example-test3", "example-test4")),
    "example-test6": (23, ("example", "example-tune", "example-test2", "example-test3", "example-test4",
                           "example-test5")),
    "example-test7": (24, ("example", "example-tune", "example-test2", "example-test3", "example-test4",
                           "example-test5", "example-test6"))}
Kind = Literal["summary", "example"]

_MARKER = re.compile(r"\[([^\[\]\s]+)\]")  # tldr's mnemonic markers: [c]reate, Lis[t]
_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")


@dataclass(frozen=True, slots=True)
class KnownItem:
    """One query and the page that answers it (``common/tar``: the path without ``.md``)."""

    qid: str
    text: str
    page: str


def read_pages(archive: Path = ARCHIVE) -> dict[str, str]:
    """Page path below ``pages/`` (``common/tar.md``) -> Markdown text, every page of the archive."""
    pages: dict[str, str] = {}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            name = member.name.removeprefix("./")
            if member.isfile() and name.startswith("pages/") and name.endswith(".md"):
                handle = tar.extractfile(member)
                if handle is not None:
                    pages[name.removeprefix("pages/")] = handle.read().decode("utf-8")
    return pages


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def summary_line(page: str) -> str | None:
    """The first ``> `` line, without the ``> `` and a trailing period."""
    for line in page.splitlines():
        if line.startswith("> "):
            return line[2:].strip().removesuffix(".").strip()
    return None


def example_lines(page: str) -> list[str]:
    """Every example description (``- ...:``) as plain text, in page order."""
    out = []
    for line in page.splitlines():
        if line.startswith("- "):
            text = line[2:].strip().removesuffix(":").strip()
            text = _PLACEHOLDER.sub(r"\1", _MARKER.sub(r"\1", text))
            out.append(" ".join(text.split()))
    return out


def command_of(path: str) -> str:
    """``common/git-commit.md`` -> ``git-commit``."""
    return path.rsplit("/", 1)[-1].removesuffix(".md")


def eligible(text: str, path: str, counts: Mapping[str, int]) -> bool:
    """At least MIN_WORDS words, no command name, unique in the corpus (see the module)."""
    lowered = normalise(text)
    command = command_of(path).lower()
    return (len(text.split()) >= MIN_WORDS and command not in lowered
            and command.replace("-", " ") not in lowered and counts.get(lowered, 0) == 1)


def _counts(lines: Iterable[str]) -> Counter[str]:
    return Counter(normalise(line) for line in lines)


def build(pages: Mapping[str, str], kind: Kind, count: int = COUNT, seed: int = SEED,
          exclude: Collection[str] = ()) -> list[KnownItem]:
    """The ``kind`` set over ``pages`` (path -> text), in sampled order; the pages in
    ``exclude`` (``common/tar``: page ids as :class:`KnownItem` names them) are not sampled.
    Eligibility is judged over every page, excluded or not."""
    rng = random.Random(seed)
    paths = sorted(pages)
    left_out = {f"{page}.md" for page in exclude}
    if kind == "summary":
        summaries = {p: s for p in paths if (s := summary_line(pages[p])) is not None}
        counts = _counts(summaries.values())
        chosen = [p for p in paths if p in summaries and p not in left_out and eligible(summaries[p], p, counts)]
        picked = rng.sample(chosen, min(count, len(chosen)))
        return [KnownItem(p.removesuffix(".md"), summaries[p], p.removesuffix(".md")) for p in picked]
    examples = {p: example_lines(pages[p]) for p in paths}
    counts = _counts(line for lines in examples.values() for line in lines)
    usable = {p: [line for line in examples[p] if eligible(line, p, counts)] for p in paths}
    with_lines = [p for p in paths if usable[p] and p not in left_out]
    picked = rng.sample(with_lines, min(count, len(with_lines)))
    return [KnownItem(p.removesuffix(".md"), rng.choice(usable[p]), p.removesuffix(".md")) for p in picked]


def sample(pages: Mapping[str, str], name: str,
           _built: dict[str, list[KnownItem]] | None = None) -> list[KnownItem]:
    """The example sample ``name`` of :data:`SAMPLES`: drawn with its seed from the pages
    that none of the samples it names took (each of those built once per call)."""
    built = {} if _built is None else _built
    if name not in built:
        seed, before = SAMPLES[name]
        exclude = {item.page for other in before for item in sample(pages, other, built)}
        built[name] = build(pages, "example", seed=seed, exclude=exclude)
    return built[name]
