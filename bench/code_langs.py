"""The Rust and Java providers on real source trees nobody here wrote (no oracle: counts).

    .venv/bin/python -m bench.code_langs --rust DIR --java DIR                  # one table
    .venv/bin/python -m bench.code_langs --rust DIR --java DIR --write-results  # and RESULTS.md

Sources used for the RESULTS section (fetched by name with the ordinary clients):

    apt-get download librust-tokio-dev && dpkg -x librust-tokio-dev_*.deb rust
        # -> rust/usr/share/cargo/registry/tokio-1.24.2 (Debian's copy of the crate)
    unzip $JAVA_HOME/lib/src.zip 'java.base/*' 'jdk.compiler/*' -d jdk   # the JDK's own sources

There is no oracle for these two languages here (no cargo registry, no javac-based
dependency tool wired in); the figures are what a refresh reads and resolves, plus two
self-checks that need no oracle: Rust files of ``src/`` the module tree reaches from the
crate roots, and Java imports of types the tree declares that resolve to a file.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench.results_md import machine_note, stamp, update_section
from cairn.code.java import JavaProvider
from cairn.code.provider import CodeProvider, ProjectView
from cairn.code.rust import RustProvider, _Tree
from cairn.code.scan import ScanResult, scan


def _refresh(root: Path, provider: CodeProvider) -> tuple[ScanResult, float]:
    started = time.perf_counter()
    result = scan(root, prior={}, load_facts=lambda keys: {}, providers=[provider])
    return result, time.perf_counter() - started


def _facts(root: Path, result: ScanResult, provider: CodeProvider) -> ProjectView:
    files = {f.path: provider.parse((root / f.path).read_bytes(), f.language)
             for f in result.files if f.status == "parsed"}
    return ProjectView(root, files, frozenset(files))


def rust_row(root: Path) -> dict[str, str]:
    provider = RustProvider()
    result, seconds = _refresh(root, provider)
    cov = next(c for c in result.coverage if c.provider == "rust")
    view = _facts(root, result, provider)
    tree = _Tree(view)
    in_src = [p for p in view.files if p.startswith("src/")]
    reached = sum(p in tree.home for p in in_src)
    imports = sum(len(f.imports) for f in view.files.values())
    return {"tree": f"tokio ({root.name})", "files": str(len(result.files)),
            "parsed": f"{cov.files_parsed} ({sum('syntax errors' in f.reason for f in result.files)} with syntax errors)",
            "symbols": str(len(result.symbols)), "edges": str(len(result.edges)),
            "imports": str(imports), "unresolved": cov.confidence.get("unresolved_imports", "").split(" ")[0],
            "check": f"{reached}/{len(in_src)} files of src/ reached by the module tree "
                     f"from {len({r for r, _ in tree.home.values()})} crate roots",
            "time": f"{seconds:.1f} s"}


def java_row(root: Path) -> dict[str, str]:
    provider = JavaProvider()
    result, seconds = _refresh(root, provider)
    cov = next(c for c in result.coverage if c.provider == "java")
    view = _facts(root, result, provider)
    declared = {f"{f.package}.{s.name}" for f in view.files.values() for s in f.symbols if "." not in s.name}
    packages = {f.package for f in view.files.values()}
    single = [i for f in view.files.values() for i in f.imports if i.name != "*" and i.level == 0]
    internal = [i for i in single if i.module in declared]
    in_packages = [i for i in single if i.module.rsplit(".", 1)[0] in packages]
    edges_from = {(e.source, e.line) for e in result.edges}
    imports = sum(len(f.imports) for f in view.files.values())
    return {"tree": f"JDK sources ({', '.join(sorted(p.name for p in root.iterdir() if p.is_dir()))})",
            "files": str(len(result.files)),
            "parsed": f"{cov.files_parsed} ({sum('syntax errors' in f.reason for f in result.files)} with syntax errors)",
            "symbols": str(len(result.symbols)), "edges": str(len(result.edges)),
            "imports": str(imports), "unresolved": cov.confidence.get("unresolved_imports", "").split(" ")[0],
            "check": f"{len(internal)}/{len(in_packages)} single-type imports into the tree's own packages name "
                     f"a declared top-level type (the rest: nested types); edges written on "
                     f"{len(edges_from)} distinct lines",
            "time": f"{seconds:.1f} s"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rust", type=Path, required=True)
    parser.add_argument("--java", type=Path, required=True)
    parser.add_argument("--write-results", action="store_true")
    args = parser.parse_args()
    rows = [rust_row(args.rust), java_row(args.java)]
    head = ["tree", "files", "parsed", "symbols", "edges", "imports", "unresolved", "check", "time"]
    table = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    table += ["| " + " | ".join(row[h] for h in head) + " |" for row in rows]
    body = "\n".join([
        "Command: `python -m bench.code_langs --rust rust/usr/share/cargo/registry/tokio-1.24.2 "
        "--java jdk --write-results` (sources fetched as the module docstring says)  ",
        f"Date: {stamp()}  ",
        machine_note(), "",
        *table, "",
        "No oracle for Rust or Java here: these are counts and self-checks, not agreement figures. "
        "`edges` are import edges between files of the tree (Rust: `mod` declarations and `use` paths; "
        "Java: single-type, static, on-demand and same-package uses); `unresolved` are imports naming code "
        "outside the tree (std/core and crates.io dependencies; other JDK modules), counted, never turned "
        "into edges. `time` is a cold refresh through the provider alone (parse + resolve, no index).",
    ])
    print(body)
    if args.write_results:
        update_section("Code graph: Rust and Java providers on real trees (issue 15)", body)


if __name__ == "__main__":
    main()
