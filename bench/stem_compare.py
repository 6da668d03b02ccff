"""Compare cairn's stemmers with the Porter stemmer of the FTS5 index, on a word list.

    .venv/bin/python -m bench.stem_compare                     # tldr corpus + examples/
    .venv/bin/python -m bench.stem_compare --tldr PATH.tar.gz --examples PATH --show 20

The words are every unicode61 token (lower-cased, diacritics removed, as the index sees
them) of the tldr pages and the example notes. Printed:

* ``porter_stem`` (Snowball ``porter``) against SQLite's own FTS5 ``porter`` tokenizer,
  word by word: any difference means Python and BM25 disagree on a stem;
* ``light_stem`` (claims) and ``inflection_stem`` (capsule facets) against Porter, as
  groupings: two words "conflate" when they get the same stem. Counted are the word
  pairs one stemmer conflates and the other does not, with examples;
* the snippet term finder (a word prefix, ``retrieval/bm25.py``) against Porter: for
  each word as a query, the words it finds that Porter would not match, and the Porter
  matches it misses.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import re
import sqlite3
import tarfile
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from cairn.text.stem import inflection_stem, light_stem, porter_stem  # noqa: E402

TLDR = Path("/work/shared/corpora/tldr/tldr-pages-en.tar.gz")


def corpus_texts(tldr: Path, examples: Path) -> Iterable[str]:
    if tldr.is_file():
        with tarfile.open(tldr) as tar:
            for member in tar:
                if member.isfile() and member.name.endswith(".md"):
                    handle = tar.extractfile(member)
                    if handle is not None:
                        yield handle.read().decode("utf-8", "replace")
    for path in sorted(examples.rglob("*")):
        if path.is_file():
            yield path.read_text("utf-8", "replace")


def fts5_stems(texts: Iterable[str]) -> dict[str, str]:
    """Every token of ``texts`` as unicode61 makes it, mapped to FTS5's porter stem."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE raw USING fts5(x, tokenize='unicode61 remove_diacritics 2')")
    conn.executemany("INSERT INTO raw(x) VALUES (?)", ((t,) for t in texts))
    conn.execute("CREATE VIRTUAL TABLE raw_vocab USING fts5vocab(raw, 'row')")
    words = [w for (w,) in conn.execute("SELECT term FROM raw_vocab ORDER BY term")]
    conn.execute(
        "CREATE VIRTUAL TABLE st USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.executemany("INSERT INTO st(rowid, x) VALUES (?, ?)", enumerate(words, start=1))
    conn.execute("CREATE VIRTUAL TABLE st_vocab USING fts5vocab(st, 'instance')")
    stems = {words[doc - 1]: term for term, doc in conn.execute("SELECT term, doc FROM st_vocab")}
    return stems


def conflation_pairs(words: list[str], stem: Callable[[str], str]) -> set[tuple[str, str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for w in words:
        groups[stem(w)].append(w)
    return {pair for g in groups.values() for pair in itertools.combinations(sorted(g), 2)}


def prefix_finder_diff(
    words: list[str], porter: dict[str, str]
) -> tuple[int, int, int, int, list[str]]:
    """Queries whose prefix matches differ from their Porter matches (ASCII words only)."""
    ascii_words = sorted(w for w in words if w.isascii() and w.isalpha())
    by_stem: dict[str, set[str]] = defaultdict(set)
    for w in ascii_words:
        by_stem[porter[w]].add(w)
    differ = extra_total = missed_total = 0
    examples = []
    for q in ascii_words:
        needle = q[: max(4, len(q) - 2)]
        lo = bisect.bisect_left(ascii_words, needle)
        hi = bisect.bisect_left(ascii_words, needle + "\uffff")
        found = set(ascii_words[lo:hi])
        wanted = by_stem[porter[q]]
        extra, missed = found - wanted, wanted - found
        if extra or missed:
            differ += 1
            extra_total += len(extra)
            missed_total += len(missed)
            if len(examples) < 12 and missed:
                examples.append(f"{q}: misses {sorted(missed)[:3]}")
    return len(ascii_words), differ, extra_total, missed_total, examples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tldr", type=Path, default=TLDR)
    parser.add_argument("--examples", type=Path, default=ROOT / "examples")
    parser.add_argument("--show", type=int, default=12, help="examples to print per row")
    args = parser.parse_args(argv)

    fts = fts5_stems(corpus_texts(args.tldr, args.examples))
    words = sorted(w for w in fts if not re.fullmatch(r"\d+", w))
    print(
        f"words: {len(words)} distinct unicode61 tokens (digit-only tokens left out: {len(fts) - len(words)})"
    )

    diff = [w for w in fts if porter_stem(w) != fts[w]]
    print(
        f"porter_stem vs FTS5 porter: {len(fts) - len(diff)} / {len(fts)} identical, {len(diff)} differ"
    )
    for w in diff[: args.show]:
        print(f"    {w!r}: snowball {porter_stem(w)!r}, fts5 {fts[w]!r}")

    porter_pairs = conflation_pairs(words, porter_stem)
    for name, stem in (("light_stem", light_stem), ("inflection_stem", inflection_stem)):
        same = sum(stem(w) == porter_stem(w) for w in words)
        pairs = conflation_pairs(words, stem)
        only, missing = sorted(pairs - porter_pairs), sorted(porter_pairs - pairs)
        changed = {w for pair in (*only, *missing) for w in pair}
        print(
            f"{name} vs porter: same string {same} / {len(words)}; conflated pairs {len(pairs)} "
            f"(porter {len(porter_pairs)}); only {name}: {len(only)}, only porter: {len(missing)}; "
            f"words whose group differs: {len(changed)}"
        )
        print(f"    only {name}: {only[: args.show]}")
        print(f"    only porter: {missing[: args.show]}")

    porter = {w: porter_stem(w) for w in words}
    queries, differ, extra, missed, examples = prefix_finder_diff(words, porter)
    print(
        f"snippet prefix finder vs porter (each ASCII word as a query): {differ} of {queries} queries differ; "
        f"{extra} extra words found, {missed} porter matches missed"
    )
    for e in examples[: args.show]:
        print(f"    {e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
