"""One refresh of a project's code graph: walk, read what changed, resolve, assemble.

Incremental by construction: a file whose size and mtime match the previous snapshot keeps
its content hash without being read; a file whose content hash is known keeps its cached
facts without being parsed. Only new content is parsed. Resolution is redone project-wide
(it is dictionary work: adding a file can change what another file's import means).

Nothing here stops a refresh: unreadable, binary, huge and unparsable files, symlink loops
and links out of the root are recorded per file with a reason.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cairn.code.model import MAX_FILE_BYTES, Coverage, Edge, FileEntry, FileFacts, Symbol
from cairn.code.provider import (
    CODE_EXTRA_HINT,
    CODE_EXTRA_LANGUAGES,
    UNSUPPORTED_CODE,
    CodeProvider,
    ProjectView,
)
from cairn.gitcli import git_output, git_text

#: Directory names never walked: version control, dependencies, caches, virtualenvs.
IGNORED_DIRS = frozenset({
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".cairn", ".eggs", "site-packages",
    "bower_components", ".idea", ".vscode",
})
#: A refresh stops walking past this many files and marks its snapshot incomplete.
MAX_FILES = 100_000

#: Loads cached facts by key (``provider/version/content-hash``); missing keys are absent.
FactsLoader = Callable[[Sequence[str]], Mapping[str, FileFacts]]


def registered_providers() -> list[CodeProvider]:
    """The built-in providers, registered the way a third party would register one."""
    from cairn.code.python import PythonProvider

    found: list[CodeProvider] = [PythonProvider()]
    try:
        import tree_sitter  # noqa: F401  (the ``code`` extra)

        from cairn.code.typescript import TypeScriptProvider
    except ImportError:  # without it, TypeScript/JavaScript files are listed as skipped
        return found
    found.append(TypeScriptProvider())
    for grammar, module, provider in (("tree_sitter_go", "golang", "GoProvider"),
                                      ("tree_sitter_rust", "rust", "RustProvider"),
                                      ("tree_sitter_java", "java", "JavaProvider")):
        try:
            importlib.import_module(grammar)
        except ImportError:  # listed as skipped with "no provider for ..."
            continue
        found.append(getattr(importlib.import_module(f"cairn.code.{module}"), provider)())
    return found


def symbol_spans(path: str, data: bytes) -> list[tuple[int, int, tuple[str, ...]]] | None:
    """The classes and functions of a code file as (first line, last line, path) spans, for
    cutting it into passages; ``None`` when no provider reads it or it does not parse."""
    suffix = os.path.splitext(path)[1].lower()
    for provider in registered_providers():
        language = provider.extensions.get(suffix)
        if language is None:
            continue
        facts = provider.parse(data, language)
        if facts.status != "parsed":
            return None
        return [(s.start_line, s.end_line, tuple(part.partition("#")[0] for part in s.name.split(".")))
                for s in facts.symbols if s.kind != "const"]
    return None


def content_hash(data: bytes) -> str:
    """The content identity of a file's bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def facts_key(provider: CodeProvider, digest: str) -> str:
    """The cache key of a provider's facts for some content."""
    return f"{provider.name}/{provider.version}/{digest}"


@dataclass(frozen=True, slots=True)
class _Found:
    path: str
    absolute: str
    size: int
    mtime_ns: int


@dataclass
class _Walk:
    files: list[_Found] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    other: int = 0
    ignored: int = 0
    incomplete: str = ""


def git_ignored(root: Path) -> tuple[frozenset[str], frozenset[str]] | None:
    """The files and folders (relative to ``root``) that git ignores there, or ``None``
    outside a git work tree: a refresh never reads build outputs or vendored trees."""
    out = git_output(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory",
                     timeout=60)
    if out is None:
        return None
    listed = [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
    return (frozenset(p for p in listed if not p.endswith("/")),
            frozenset(p.rstrip("/") for p in listed if p.endswith("/")))


def _walk(root: Path, suffixes: Iterable[str], max_files: int) -> _Walk:
    """Every code file under ``root`` that git does not ignore; symlinks are followed inside
    the root only, and a directory reached twice through links is a loop, recorded, not
    walked again."""
    code = set(suffixes) | set(UNSUPPORTED_CODE)
    out = _Walk()
    ignored = git_ignored(root)
    ignored_files, ignored_dirs = ignored if ignored is not None else (frozenset(), frozenset())
    real_root = os.path.realpath(root)
    seen_dirs = {real_root}
    stack = [("", str(root))]
    while stack:
        rel_dir, abs_dir = stack.pop()
        try:
            entries = sorted(os.scandir(abs_dir), key=lambda e: e.name)
        except OSError as exc:
            out.problems.append((rel_dir or ".", f"cannot read directory: {exc.strerror}"))
            out.incomplete = out.incomplete or f"cannot read directory {rel_dir or '.'}"
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if rel in ignored_files or rel in ignored_dirs:
                out.ignored += 1
                continue
            suffix = os.path.splitext(entry.name)[1].lower()
            try:
                is_link = entry.is_symlink()
                st = os.stat(entry.path)  # follows links
            except OSError:
                if suffix in code:
                    out.problems.append((rel, "broken symlink" if is_link else "cannot stat"))
                continue
            if stat.S_ISDIR(st.st_mode):
                if entry.name in IGNORED_DIRS or entry.name.endswith(".egg-info"):
                    continue
                real = os.path.realpath(entry.path)
                if is_link and not (real == real_root or real.startswith(real_root + os.sep)):
                    out.problems.append((rel, "symlink to a directory outside the root"))
                elif real in seen_dirs:
                    out.problems.append((rel, "symlink loop (directory already walked)"))
                else:
                    seen_dirs.add(real)
                    stack.append((rel, entry.path))
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            if suffix not in code:
                out.other += 1
                continue
            if is_link:
                real = os.path.realpath(entry.path)
                if not real.startswith(real_root + os.sep):
                    out.problems.append((rel, "symlink to a file outside the root"))
                    continue
            if len(out.files) >= max_files:
                out.incomplete = f"more than {max_files} code files; the walk stopped"
                return out
            out.files.append(_Found(rel, entry.path, st.st_size, st.st_mtime_ns))
    return out


@dataclass
class ScanResult:
    """A refresh's outcome, ready to be stored as a snapshot. An incremental refresh hands
    over only the symbols and edges of the files it re-read or re-resolved; the others are
    copied from snapshot ``copy_from`` (``copy_symbols``, ``copy_edges``)."""

    files: list[FileEntry]
    symbols: list[Symbol]
    edges: list[Edge]
    coverage: list[Coverage]
    new_facts: dict[str, tuple[str, str, FileFacts]]
    complete: bool
    reason: str
    fingerprint: str
    parsed: int = 0
    reused: int = 0
    copy_from: int | None = None
    copy_symbols: tuple[str, ...] = ()
    copy_edges: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Previous:
    """The snapshot a refresh builds on, and how to ask the store about it."""

    id: int
    complete: bool
    #: path -> the (name, kind) of its symbols in the previous snapshot, for some paths.
    members: Callable[[Sequence[str]], Mapping[str, set[tuple[str, str]]]]
    #: The paths holding an import edge to any of some modules, in the previous snapshot.
    importers: Callable[[Sequence[str]], set[str]]


class _LazyFacts(Mapping[str, FileFacts]):
    """A provider's files -> facts, loaded from the cache only when resolution asks."""

    def __init__(self, keys: dict[str, str], known: dict[str, FileFacts], load: FactsLoader) -> None:
        self._keys, self._known, self._load = keys, known, load

    def __getitem__(self, path: str) -> FileFacts:
        if path not in self._known:
            key = self._keys[path]
            found = self._load([key]).get(key)
            if found is None:
                raise KeyError(path)
            self._known[path] = found
        return self._known[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _read(found: _Found) -> bytes | str:
    try:
        return Path(found.absolute).read_bytes()
    except OSError as exc:
        return f"cannot read: {exc.strerror}"


def scan(root: Path, *, prior: Mapping[str, FileEntry], load_facts: FactsLoader,
         providers: Sequence[CodeProvider] | None = None, max_files: int | None = None,
         previous: Previous | None = None) -> ScanResult:
    """Refresh the code graph of ``root`` against the files of the previous snapshot."""
    chosen = list(providers) if providers is not None else registered_providers()
    by_suffix: dict[str, tuple[CodeProvider, str]] = {}
    for provider in chosen:
        for suffix, language in provider.extensions.items():
            by_suffix.setdefault(suffix, (provider, language))
    walk = _walk(root, by_suffix, MAX_FILES if max_files is None else max_files)

    entries: dict[str, FileEntry] = {}
    owner: dict[str, CodeProvider] = {}
    pending: list[tuple[_Found, CodeProvider, str, str, bytes | None]] = []
    for found in walk.files:
        suffix = os.path.splitext(found.path)[1].lower()
        if suffix not in by_suffix:
            language = UNSUPPORTED_CODE[suffix]
            hint = f" (install the code extra: {CODE_EXTRA_HINT})" if language in CODE_EXTRA_LANGUAGES else ""
            entries[found.path] = FileEntry(found.path, found.size, found.mtime_ns, "", language,
                                            "skipped", f"no provider for {language}{hint}")
            continue
        provider, language = by_suffix[suffix]
        owner[found.path] = provider
        if found.size > MAX_FILE_BYTES:
            entries[found.path] = FileEntry(found.path, found.size, found.mtime_ns, "", language,
                                            "skipped", f"too large ({found.size} bytes > {MAX_FILE_BYTES})")
            continue
        before = prior.get(found.path)
        data: bytes | None = None
        if before and before.content_hash and (before.size, before.mtime_ns) == (found.size, found.mtime_ns):
            digest = before.content_hash
        else:
            read = _read(found)
            if isinstance(read, str):
                entries[found.path] = FileEntry(found.path, found.size, found.mtime_ns, "", language, "skipped", read)
                continue
            data, digest = read, content_hash(read)
        pending.append((found, provider, language, digest, data))
    for path, reason in walk.problems:
        entries.setdefault(path, FileEntry(path, 0, 0, "", "unknown", "skipped", reason))

    # Unchanged content keeps the previous snapshot's rows when the set of files is the same
    # (so every module keeps its name) and the providers' facts are still current.
    same = {f.path for f, _, _, d, _ in pending if (b := prior.get(f.path)) is not None and b.content_hash == d}
    incremental = (previous is not None and previous.complete and set(prior) == set(entries) | {
        f.path for f, *_ in pending} and bool(same))
    if incremental:
        probes = {p.name: facts_key(p, prior[path].content_hash) for path in same for p in [owner[path]]}
        incremental = set(load_facts(sorted(set(probes.values())))) == set(probes.values())
    if not incremental:
        same = set()

    keys: dict[str, dict[str, str]] = {p.name: {} for p in chosen}
    known: dict[str, dict[str, FileFacts]] = {p.name: {} for p in chosen}
    cached = load_facts(sorted({facts_key(p, d) for f, p, _, d, _ in pending if f.path not in same}))
    new_facts: dict[str, tuple[str, str, FileFacts]] = {}
    parsed = reused = 0
    for found, provider, language, digest, data in pending:
        key = facts_key(provider, digest)
        if found.path in same:
            before = prior[found.path]
            keys[provider.name][found.path] = key
            entries[found.path] = FileEntry(found.path, found.size, found.mtime_ns, digest, language,
                                            before.status, before.reason)
            reused += 1
            continue
        facts = cached.get(key) or (new_facts[key][2] if key in new_facts else None)
        if facts is None:
            read = data if data is not None else _read(found)
            if isinstance(read, str):
                facts = FileFacts("skipped", read)
            else:
                digest = content_hash(read)
                key = facts_key(provider, digest)
                facts = provider.parse(read, language)
                new_facts[key] = (language, digest, facts)
                parsed += 1
        else:
            reused += 1
        keys[provider.name][found.path] = key
        known[provider.name][found.path] = facts
        entries[found.path] = FileEntry(found.path, found.size, found.mtime_ns, digest, language,
                                        facts.status, facts.reason)

    all_paths = frozenset(entries)
    symbols: list[Symbol] = []
    edges: list[Edge] = []
    coverage: list[Coverage] = []
    copy_edges: list[str] = []
    for provider in chosen:
        files = _LazyFacts(keys[provider.name], known[provider.name], load_facts)
        fresh = {p for p in keys[provider.name] if p not in same}
        targets = None
        if incremental and previous is not None:
            modules = provider.resolve(ProjectView(root, files, all_paths, frozenset())).modules
            targets = fresh | _dependents(fresh, files, modules, previous)
            copy_edges += sorted(set(keys[provider.name]) - targets)
        resolution = provider.resolve(ProjectView(root, files, all_paths, None if targets is None else frozenset(targets)))
        for path in sorted(fresh):
            facts = files[path]
            module = resolution.modules.get(path)
            if module is None or facts.status != "parsed":
                continue
            symbols.append(Symbol(module, "", "module", path, 1, max(facts.lines, 1), "",
                                  entries[path].content_hash))
            symbols.extend(
                Symbol(f"{module}{resolution.separator}{s.name}", s.name, s.kind, path,
                       s.start_line, s.end_line, s.signature_hash, s.body_hash)
                for s in facts.symbols
            )
        edges.extend(resolution.edges)
        confidence = dict(provider.confidence)
        if resolution.unresolved is not None:
            among = "" if targets is None else f" (among the {len(targets)} files re-resolved by this incremental refresh)"
            confidence["unresolved_imports"] = (f"{resolution.unresolved} imports{among} name code outside "
                                                "the project; counted, no edge")
        mine = [e for e in entries.values() if e.path in owner and owner[e.path] is provider]
        coverage.append(Coverage(
            provider.name,
            files_parsed=sum(e.status == "parsed" for e in mine),
            files_failed=sum(e.status == "failed" for e in mine),
            files_skipped=tuple((e.path, e.reason) for e in mine if e.status == "skipped"),
            relation_kinds=provider.relation_kinds,
            confidence=confidence,
        ))
    unclaimed = tuple((e.path, e.reason) for e in entries.values() if e.path not in owner)
    coverage.append(Coverage("none", 0, 0, unclaimed, (), {
        "other_files": f"{walk.other} files that are not code",
        "ignored": f"{walk.ignored} files or folders ignored by git"}))
    manifest = sorted(entries.values(), key=lambda e: e.path)
    return ScanResult(
        files=manifest, symbols=symbols, edges=edges, coverage=coverage, new_facts=new_facts,
        complete=not walk.incomplete, reason=walk.incomplete, fingerprint=fingerprint(manifest),
        parsed=parsed, reused=reused, copy_from=previous.id if incremental and previous else None,
        copy_symbols=tuple(sorted(same)), copy_edges=tuple(copy_edges),
    )


def _dependents(fresh: set[str], files: Mapping[str, FileFacts], modules: Mapping[str, str],
                previous: Previous) -> set[str]:
    """Unchanged files whose edges may read differently: they import a changed module (or
    a package above it) whose names (symbols and their kinds) changed."""
    before = previous.members(sorted(fresh))
    touched: set[str] = set()
    for path in fresh:
        facts = files[path]
        names = {(s.name, s.kind) for s in facts.symbols} if facts.status == "parsed" else set()
        if names != before.get(path, set()) and path in modules:
            parts = modules[path].split(".")
            touched.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            touched.add(modules[path])
    return previous.importers(sorted(touched)) if touched else set()


def fingerprint(files: Iterable[FileEntry]) -> str:
    """The worktree fingerprint: a hash of every file's path, content hash and status."""
    digest = hashlib.blake2b(digest_size=16)
    for entry in files:
        digest.update(f"{entry.path}\0{entry.content_hash}\0{entry.status}\n".encode())
    return digest.hexdigest()


def git_revision(root: Path) -> str | None:
    """The commit checked out at ``root`` (``None`` outside a git repository)."""
    out = git_text(root, "rev-parse", "HEAD", timeout=10)
    return (out.strip() or None) if out is not None else None
