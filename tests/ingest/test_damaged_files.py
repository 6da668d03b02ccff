"""Damaged office files: each is one clear ``corrupt`` error, never a broken index run.

The damage is the office corpus cut, flipped and filled with junk the way a fuzzing pass
over it found library errors escaping the converters (deterministic seeds: the file's
corpus path), so every library error class below is really reproduced, not mocked.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cairn.errors import IngestError
from cairn.ingest import converters, pipeline
from cairn.ingest.converters import (
    Converted,
    ConvertLimits,
    convert_bytes,
    converter_for,
    register_converter,
)
from cairn.ingest.converters.ooxml import XlsxConverter
from cairn.ingest.workers import _start_method
from tests.conftest import CAIRN_BIN, SHARED

OFFICE = SHARED / "corpora" / "office"
pytestmark = pytest.mark.skipif(
    not (OFFICE / "markitdown" / "test.xlsx").is_file(), reason=f"office corpus not found at {OFFICE}"
)

#: Damaged file name: (corpus file, damage, the library error class it raises).
DAMAGED = {
    "zlib.xlsx": ("markitdown/test.xlsx", "flip0", "error"),  # zlib.error
    "badzip.epub": ("markitdown/test.epub", "flip2", "BadZipFile"),
    "version.xlsx": ("markitdown/test.xlsx", "flip5", "NotImplementedError"),
    "loop.pdf": ("terrier/document.pdf", "flip7", "LimitReachedError"),
    "compdoc.xls": ("markitdown/test.xls", "olejunk", "CompDocError"),
}
#: Good file name: (corpus file, a word only its text holds).
GOOD = {
    "good.docx": ("markitdown/test.docx", "Awadallah"),
    "good.pdf": ("markitdown/test.pdf", "observations"),
    "good.xlsx": ("terrier/document.xlsx", "gubergren"),
    "good.epub": ("markitdown/test.epub", "MarkItDown"),
    "good.xls": ("markitdown/test.xls", "Gamma"),
}


def damage(name: str, kind: str) -> bytes:
    """Corpus file ``name`` damaged as ``kind``: ``olejunk`` (an OLE2 header, then random
    bytes) or ``flipK`` (1 + 3K random bytes overwritten), seeded by ``name``."""
    data = (OFFICE / name).read_bytes()
    rnd = random.Random(name)
    junk = [bytes(rnd.randrange(256) for _ in range(4096)) for _ in range(3)]  # junk, olejunk, zipjunk
    if kind == "olejunk":
        return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + junk[1]
    for k in range(12):
        buf = bytearray(data)
        for _ in range(1 + k * 3):
            buf[rnd.randrange(len(buf))] = rnd.randrange(256)
        if kind == f"flip{k}":
            return bytes(buf)
    raise ValueError(kind)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Good office files, a note and the damaged files side by side."""
    root = tmp_path / "mixed"
    root.mkdir()
    for name, (source, kind, _) in DAMAGED.items():
        (root / name).write_bytes(damage(source, kind))
    for name, (source, _) in GOOD.items():
        shutil.copyfile(OFFICE / source, root / name)
    (root / "notes.md").write_text("# Notes\n\nThe wombat ledger sits beside damaged files.\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_each_library_error_becomes_a_corrupt_error(name: str) -> None:
    source, kind, library_error = DAMAGED[name]
    conv = converter_for(name)
    assert conv is not None
    with pytest.raises(IngestError) as err:
        convert_bytes(conv, damage(source, kind), name)
    assert err.value.code == "corrupt"
    cause = err.value.__cause__
    assert type(cause).__name__ == library_error  # the damage reproduces the library's error
    assert err.value.message.startswith("unreadable ")
    assert str(cause) in err.value.message  # the library's own words stay in the reason


def _searchable(ws: Any, word: str, uri: str) -> bool:
    return uri in {hit.uri for hit in ws.search(word, limit=50).results}


def test_damaged_files_never_break_an_index_run(ws: Any, folder: Path) -> None:
    ws.add_collection(folder, name="mixed")
    summary = ws.index()
    assert summary.counts.failed == len(DAMAGED)
    assert summary.counts.added == len(GOOD) + 1
    for name, (_, word) in GOOD.items():
        assert _searchable(ws, word, f"cairn://mixed/{name}"), name
    assert _searchable(ws, "wombat", "cairn://mixed/notes.md")
    reported = sorted((e.path, e.code) for e in summary.errors)
    assert reported == sorted((name, "corrupt") for name in DAMAGED)  # each once, each corrupt
    assert sorted((e.path, e.code, e.message) for e in ws.status().errors) == sorted(
        (e.path, e.code, e.message) for e in summary.errors
    )

    # The next run reports them again without reading or converting anything.
    again = ws.index()
    assert (again.counts.failed, again.counts.parsed, again.counts.unchanged) == (len(DAMAGED), 0, len(GOOD) + 1)
    assert sorted(e.path for e in again.errors) == sorted(DAMAGED)


def test_a_good_file_damaged_later_keeps_its_indexed_text(ws: Any, folder: Path) -> None:
    ws.add_collection(folder, name="mixed")
    ws.index()
    good = folder / "good.xlsx"
    original = good.read_bytes()
    good.write_bytes(damage("markitdown/test.xlsx", "flip0"))
    ws.index()
    errors = {e.path: e.code for e in ws.status().errors}
    assert errors["good.xlsx"] == "corrupt"
    assert _searchable(ws, "gubergren", "cairn://mixed/good.xlsx")  # the last good text stays
    third = ws.index()
    assert third.counts.parsed == 0 and "good.xlsx" in {e.path for e in third.errors}
    good.write_bytes(original)
    fixed = ws.index()  # the bytes the index holds again: nothing to convert, the error goes
    assert (fixed.counts.failed, fixed.counts.parsed) == (len(DAMAGED), 0)
    assert "good.xlsx" not in {e.path for e in ws.status().errors}
    assert _searchable(ws, "gubergren", "cairn://mixed/good.xlsx")


def test_cli_reports_each_damaged_file_once_without_a_traceback(folder: Path) -> None:
    def cairn_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CAIRN_BIN), *args], capture_output=True, text=True, timeout=300)

    assert cairn_cli("collection", "add", str(folder), "--name", "mixed").returncode == 0
    run = cairn_cli("index")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    for name in DAMAGED:
        lines = [line for line in run.stderr.splitlines() if f"mixed/{name}:" in line]
        assert len(lines) == 1 and "corrupt: unreadable" in lines[0], (name, run.stderr)
    status = cairn_cli("status", "--json")
    assert status.returncode == 0, status.stderr
    errors = json.loads(status.stdout)["errors"]
    assert sorted((e["path"], e["code"]) for e in errors) == sorted((name, "corrupt") for name in DAMAGED)


class _Failing:
    """A converter whose library raises ``error`` on every file."""

    id = "failing"
    version = "1"
    suffixes: tuple[str, ...] = (".failing",)
    limits = ConvertLimits()

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        raise self.error


class _LibraryError(Exception):
    """Stands for an error class some library does not export."""


@pytest.fixture
def registry() -> Iterator[None]:
    saved = list(converters._registry)
    yield
    converters._registry[:] = []
    for conv in saved:
        register_converter(conv)


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize(
    ("error", "code"),
    [(_LibraryError("bad table"), "corrupt"), (RecursionError(), "corrupt"), (MemoryError(), "too_large"),
     (IngestError("on purpose", code="encrypted"), "encrypted")],
)
def test_the_converter_boundary_maps_every_exception(error: BaseException, code: str) -> None:
    with pytest.raises(IngestError) as err:
        convert_bytes(_Failing(error), b"x", "a.failing")
    assert err.value.code == code
    if code == "corrupt":
        assert err.value.message.startswith("unreadable failing file (")
        assert type(error).__qualname__ in err.value.message


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(3)])
def test_interrupts_are_not_file_errors(error: BaseException) -> None:
    with pytest.raises(type(error)):
        convert_bytes(_Failing(error), b"x", "a.failing")


class _TightXlsx(XlsxConverter):
    """The xlsx converter with a cell limit every corpus spreadsheet is over."""

    limits = dataclasses.replace(XlsxConverter.limits, max_cells=10)
    calls = 0

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        type(self).calls += 1
        return super().convert(data, path, limits)


@pytest.mark.usefixtures("registry")
def test_a_file_over_a_conversion_limit_is_not_converted_again(ws: Any, folder: Path) -> None:
    register_converter(_TightXlsx(), first=True)
    ws.add_collection(folder, name="mixed")
    first = ws.index()
    assert {e.path: e.code for e in first.errors}["good.xlsx"] == "too_large"
    calls = _TightXlsx.calls
    again = ws.index()
    assert _TightXlsx.calls == calls  # recorded with its bytes' hash, like a corrupt file
    assert {e.path: e.code for e in again.errors}["good.xlsx"] == "too_large"


_TEST_PID = os.getpid()


class _Segfault:
    """A converter whose native library crashes the process converting the file."""

    id = "segfault"
    version = "1"
    suffixes: tuple[str, ...] = (".segfault",)
    limits = ConvertLimits()

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        if os.getpid() == _TEST_PID:  # never crash the test runner itself
            raise RuntimeError("converted outside a worker process")
        os.kill(os.getpid(), signal.SIGSEGV)
        raise AssertionError("unreachable")


@pytest.mark.usefixtures("registry")
def test_a_converter_crashing_its_worker_costs_that_file_only(
    ws: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2+ cores: below that the index converts in its own process")
    if _start_method() != "fork":
        # Earlier tests loaded a native thread pool (or started threads), so workers would
        # come from a forkserver that never saw this test's converter: run it alone in a
        # fresh interpreter, where the index forks its workers.
        if os.environ.get("CAIRN_TEST_FRESH_INTERPRETER"):
            pytest.fail("a fresh interpreter still cannot fork index workers")
        test_id = f"{Path(__file__).resolve()}::test_a_converter_crashing_its_worker_costs_that_file_only"
        env = {**os.environ, "CAIRN_TEST_FRESH_INTERPRETER": "1"}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_id],
            capture_output=True, text=True, env=env, cwd=Path(__file__).resolve().parents[2], timeout=600,
        )
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
        return
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_FILES", 8)
    monkeypatch.setattr(pipeline, "PARALLEL_CHUNK", 4)
    register_converter(_Segfault())
    root = tmp_path / "many"
    root.mkdir()
    for i in range(40):
        (root / f"note{i:02d}.md").write_text(f"# Note {i}\n\nkestrel{i} is here.\n", encoding="utf-8")
    (root / "note17.segfault").write_bytes(b"boom")
    ws.add_collection(root, name="many", include=["**/*.segfault"])
    summary = ws.index()
    assert (summary.counts.added, summary.counts.failed) == (40, 1)
    assert [(e.path, e.code) for e in summary.errors] == [("note17.segfault", "corrupt")]
    assert "crashed the worker process" in summary.errors[0].message
    assert _searchable(ws, "kestrel39", "cairn://many/note39.md")
    again = ws.index()  # not converted again: no crash, the error stands
    assert (again.counts.failed, again.counts.parsed) == (1, 0)
