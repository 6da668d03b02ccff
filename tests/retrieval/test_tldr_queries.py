"""The tldr known-item sets (issue 17's fresh held-out test) are rebuilt identically by
anyone, and every query obeys the eligibility rule: enough words, no command name, a line
that occurs once in the corpus."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from bench.tldr_queries import (
    ARCHIVE,
    SAMPLES,
    build,
    example_lines,
    normalise,
    read_pages,
    sample,
    summary_line,
)

PAGES = {
    "common/tar.md": "# tar\n\n> Archiving utility for many files at once.\n> More information: <https://x>.\n\n"
                     "- [c]reate an archive and write it to a [f]ile:\n\n`tar cf {{target.tar}}`\n\n"
                     "- List the contents of a tar file verbosely:\n\n`tar tvf {{source.tar}}`\n",
    "linux/ip.md": "# ip\n\n> Show and manipulate routing and network devices.\n\n"
                   "- Show the {{interface}} addresses in a compact list:\n\n`ip a`\n\n- Short one:\n\n`ip`\n",
    "osx/ip.md": "# ip\n\n> Show and manipulate routing and network devices.\n\n"
                 "- Show every route of the main table:\n\n`ip r`\n",
    "common/git-commit.md": "# git commit\n\n> Use git commit to record files in the repository.\n\n"
                            "- Commit staged files with a given message:\n\n`git commit`\n"
                            "- Use git commit in another way entirely:\n\n`git commit -a`\n",
    "common/short.md": "# short\n\n> Too short.\n\n- Archiving utility for many files at once:\n\n`short`\n",
}


def test_lines_are_read_as_tldr_writes_them() -> None:
    assert summary_line(PAGES["common/tar.md"]) == "Archiving utility for many files at once"
    assert example_lines(PAGES["common/tar.md"])[0] == "create an archive and write it to a file"
    assert example_lines(PAGES["linux/ip.md"])[0] == "Show the interface addresses in a compact list"


def test_the_eligibility_rule() -> None:
    summaries = {q.page: q.text for q in build(PAGES, "summary")}
    # ip's summary is on two pages, short's has 2 words, git-commit's names "git commit"
    assert summaries == {"common/tar": "Archiving utility for many files at once"}
    examples = build(PAGES, "example")
    assert len({q.page for q in examples}) == len(examples)  # at most one per page
    by_page = {q.page: q.text for q in examples}
    assert "common/git-commit" in by_page and by_page["common/git-commit"].startswith("Commit staged")
    assert by_page["linux/ip"] == "Show the interface addresses in a compact list"
    assert "common/short" not in by_page or by_page["common/short"] == "Archiving utility for many files at once"


def test_the_sets_are_deterministic() -> None:
    assert build(PAGES, "example") == build(dict(reversed(PAGES.items())), "example")
    assert build(PAGES, "summary", seed=17) == build(PAGES, "summary", seed=17)


def test_excluded_pages_are_not_sampled() -> None:
    every = {q.page for q in build(PAGES, "example")}
    left = build(PAGES, "example", exclude={"linux/ip"})
    assert {q.page for q in left} == every - {"linux/ip"}
    assert {q.page for q in build(PAGES, "summary", exclude={"common/tar"})} == set()


@pytest.mark.skipif(not Path(ARCHIVE).is_file(), reason="tldr archive not in ../shared")
def test_the_further_example_samples_take_other_pages() -> None:
    pages = read_pages()
    samples = {name: sample(pages, name) for name in SAMPLES}
    assert samples["example"] == build(pages, "example")  # session 9b's set, unchanged
    seen: set[str] = set()
    for name, items in samples.items():
        taken = {q.page for q in items}
        assert len(items) == len(taken) == 300 and not taken & seen, name
        seen |= taken


@pytest.mark.skipif(not Path(ARCHIVE).is_file(), reason="tldr archive not in ../shared")
def test_the_real_sets_obey_the_rule() -> None:
    pages = read_pages()
    assert len(pages) == 7425
    for kind in ("summary", "example"):
        items = build(pages, kind)
        assert items == build(pages, kind) and len(items) == 300
        assert len({q.page for q in items}) == 300
        lines = ([s for p in pages.values() if (s := summary_line(p)) is not None] if kind == "summary"
                 else [line for p in pages.values() for line in example_lines(p)])
        counts = Counter(normalise(line) for line in lines)
        for q in items:
            command = q.page.rsplit("/", 1)[-1].lower()
            text = normalise(q.text)
            assert len(q.text.split()) >= 4 and counts[text] == 1
            assert command not in text and command.replace("-", " ") not in text
            assert f"{q.page}.md" in pages
