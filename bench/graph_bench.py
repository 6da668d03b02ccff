"""Link-graph speed on a generated vault: is resolving links when the graph is read fast enough?

    .venv/bin/python -m bench.graph_bench              # 10,000 notes, 3 repeats, one Markdown table
    .venv/bin/python -m bench.graph_bench --notes 2000

The vault: ``N`` notes in 20 folders; each links to 8 others by basename (some with a
``#heading``, one ``#^block``, one embed), one Markdown relative link, two typed
frontmatter links (``related:``, ``up:``), one alias and one unresolved link, i.e. about
12 links per note. Every operation goes through the SDK (store read + resolution +
contract); the median of the repeats is reported.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cairn


def write_vault(root: Path, n: int) -> None:
    rng = random.Random(7)
    for i in range(n):
        folder = root / f"area{i % 20:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        picks = [rng.randrange(n) for _ in range(8)]
        body = [f"# Note {i}", "", "## Details", "", f"Some text ^b{i}", ""]
        body += [f"See [[n{p:05d}{'#Details' if k % 3 == 0 else ''}]]." for k, p in enumerate(picks)]
        body.append(f"Block: [[n{picks[0]:05d}#^b{picks[0]}]] and ![[n{picks[1]:05d}]].")
        body.append(f"Rel: [x](../area{picks[2] % 20:02d}/n{picks[2]:05d}.md) alias [[alias {picks[3]}]]")
        body.append(f"Missing: [[ghost {i}]]")
        front = (f"---\naliases: [alias {i}]\nrelated: \"[[n{picks[4]:05d}]]\"\n"
                 f"up: [[n{picks[5]:05d}]]\n---\n")
        (folder / f"n{i:05d}.md").write_text(front + "\n".join(body) + "\n", encoding="utf-8")


def timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CAIRN_HOME"] = str(Path(tmp) / "home")
        root = Path(tmp) / "vault"
        write_vault(root, args.notes)
        with cairn.open() as ws:
            ws.add_collection(root, name="vault")
            ws.index()
            ref = f"vault/area00/n{0:05d}.md"
            far = f"vault/area{(args.notes - 1) % 20:02d}/n{args.notes - 1:05d}.md"
            seeds = [ws.get(f"vault/area{i % 20:02d}/n{i:05d}.md").docid for i in range(5)]
            ops = {
                "links REF": lambda: ws.links(ref),
                "backlinks REF": lambda: ws.backlinks(ref),
                "graph (summary, whole vault)": lambda: ws.graph("vault"),
                "graph neighbors --depth 2": lambda: ws.graph_neighbors(ref, depth=2),
                "graph path A B": lambda: ws.graph_path(ref, far),
                "graph_expand (5 seeds, both ways)": lambda: ws.graph_expand(seeds),
                "tags": lambda: ws.tags(),
            }
            links = ws.graph("vault").counts.links
            print(f"{args.notes} notes, {links} links; median of {args.repeats} runs\n")
            print("| operation | ms |\n| --- | ---: |")
            for name, op in ops.items():
                samples = [timed(op) for _ in range(args.repeats)]
                print(f"| {name} | {statistics.median(samples):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
