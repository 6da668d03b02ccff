"""Converters: office corpus fidelity, pages, limits and bad input."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import IngestError
from cairn.ingest import converters
from cairn.ingest.converters import (
    Converted,
    ConvertLimits,
    check_deadline,
    convert_bytes,
    converter_for,
    register_converter,
)
from cairn.ingest.converters.base import check_zip, pipe_table
from tests.conftest import REPO, SHARED

OFFICE = SHARED / "corpora" / "office"
needs_office = pytest.mark.skipif(
    not (OFFICE / "markitdown" / "expected-content.json").is_file(),
    reason=f"office corpus not found at {OFFICE} (the shared/ folder beside the repo)",
)
TERRIER_FILES = ("document.doc", "document.docx", "document.html", "document.pdf",
                 "document.ppt", "document.pptx", "document.xls", "document.xlsx")


def norm(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def office_ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The whole office corpus indexed once (random.bin included by an extra glob)."""
    if not OFFICE.is_dir():
        pytest.skip(f"office corpus not found at {OFFICE}")
    root = tmp_path_factory.mktemp("office") / "office"
    shutil.copytree(OFFICE, root)
    ws = cairn.open(home=tmp_path_factory.mktemp("office-home"))
    ws.add_collection(root, name="office", include=["**/*.bin"])
    ws.index()
    yield ws
    ws.close()


@needs_office
def test_every_office_file_converts(office_ws: Any) -> None:
    errors = {e.path: e.code for e in office_ws.status().errors}
    # random.bin is not a document: refused as binary, recorded, and nothing else failed.
    assert errors == {"markitdown/random.bin": "binary"}
    store = office_ws._open_store(create=False)
    paths = {row[0] for row in store.conn.execute("SELECT path FROM documents WHERE active = 1")}
    expected = {
        f"{p.parent.name}/{p.name}" for p in OFFICE.rglob("*")
        if p.is_file() and p.suffix not in {".json", ".bin"}
    }
    assert expected <= paths


@needs_office
def test_expected_content(office_ws: Any) -> None:
    expected = json.loads((OFFICE / "markitdown" / "expected-content.json").read_text(encoding="utf-8"))
    problems = []
    for name, spec in expected.items():
        text = norm(office_ws.get(f"office/markitdown/{name}").text)
        problems += [f"{name}: missing {s!r}" for s in spec["must_contain"] if norm(s) not in text]
        problems += [f"{name}: has {s!r}" for s in spec["must_not_contain"] if norm(s) in text]
    assert not problems, "\n".join(problems)


@needs_office
@pytest.mark.parametrize("name", TERRIER_FILES)
def test_terrier_words_in_order(office_ws: Any, name: str) -> None:
    words = re.findall(r"\w+", (OFFICE / "terrier" / "document.txt").read_text(encoding="utf-8"))
    text = office_ws.get(f"office/terrier/{name}").text
    assert "\u2029" not in text and "\u00a0" not in text
    got = iter(re.findall(r"\w+", text))
    missing = [w for w in words if not any(g == w for g in got)]
    assert not missing, f"{name}: words not found in order from {missing[0]!r}"


@needs_office
def test_converter_id_version_and_pages(office_ws: Any) -> None:
    conn = office_ws._open_store(create=False).conn
    rows = dict(conn.execute("SELECT path, converter || '/' || converter_version FROM documents"))
    assert rows["markitdown/test.pptx"] == "pptx/1"
    assert rows["terrier/document.ppt"] == "ppt/1"
    assert rows["terrier/document.txt"].startswith("text/")

    def pages(path: str) -> list[tuple[int, int | None]]:
        return list(conn.execute(
            "SELECT p.start_line, p.page FROM passages p JOIN documents d ON d.id = p.document_id"
            " WHERE d.path = ? ORDER BY p.seq", (path,),
        ))

    pdf = pages("markitdown/REPAIR-2022-INV-001_multipage.pdf")
    assert {page for _, page in pdf} == {1, 2, 3}
    text_lines = office_ws.get("office/markitdown/REPAIR-2022-INV-001_multipage.pdf").text.split("\n")
    for start, page in pdf:
        # The nearest "## Page N" heading at or above the passage's first line is its page.
        above = [ln for ln in text_lines[:start] if ln.startswith("## Page ")]
        assert above and above[-1] == f"## Page {page}"
    slides = pages("markitdown/test.pptx")
    # Small slides share a passage, which carries the slide of its first line.
    assert [p for _, p in slides] == sorted(p for _, p in slides)
    assert slides[0][1] == 1 and {p for _, p in slides} <= set(range(1, 7))
    sheets = pages("markitdown/test.xlsx")
    assert sheets[0][1] == 1 and {p for _, p in sheets} <= {1, 2}
    assert all(p is None for _, p in pages("markitdown/test.docx"))
    assert all(p is None for _, p in pages("terrier/document.txt"))


@needs_office
def test_headings_and_tables(office_ws: Any) -> None:
    pptx = office_ws.get("office/markitdown/test.pptx").text
    assert "## Slide 1: AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation" in pptx
    xlsx = office_ws.get("office/markitdown/test.xlsx").text
    assert "## Sheet: 09060124-b5e7-4717-9d07-3c046eb" in xlsx
    assert "| Alpha | Beta | Gamma | Delta |\n|---|---|---|---|" in xlsx
    hits = office_ws.search("6ff4173b-42a5-4784-9b19-f49caff4d93d")
    assert {h.uri.rsplit("/", 1)[-1] for h in hits.results} >= {"test.xlsx", "test.xls"}


# --- bad input ------------------------------------------------------------------------------


def _pdf(pages: int = 2) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _encrypted_pdf() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_pdf())))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _zip_bomb() -> bytes:
    """An .xlsx-shaped zip whose one member inflates 64 MiB of zeros from ~64 KiB."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("xl/worksheets/sheet1.xml", "w") as member:
            chunk = b"\0" * (1 << 20)
            for _ in range(64):
                member.write(chunk)
    return out.getvalue()


def _docx(text: str) -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("Good heading", level=1)
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_bad_files_are_recorded_and_never_stop_the_run(ws: Any, tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    pytest.importorskip("docx")
    root = tmp_path / "bad"
    root.mkdir()
    (root / "good.docx").write_bytes(_docx("The quokka sentence survives bad neighbours."))
    (root / "good.pdf").write_bytes(_pdf())
    (root / "corrupt.docx").write_bytes(bytes(range(256)) * 40)
    (root / "encrypted.pdf").write_bytes(_encrypted_pdf())
    (root / "bomb.xlsx").write_bytes(_zip_bomb())
    real = (OFFICE / "markitdown" / "test.pdf").read_bytes() if OFFICE.is_dir() else _pdf(6)
    (root / "truncated.pdf").write_bytes(real[: len(real) // 2])
    (root / "fake.msg").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    (root / "notes.md").write_text("# Notes\n\nplain markdown next to office files\n", encoding="utf-8")
    ws.add_collection(root, name="bad")
    summary = ws.index()
    errors = {e.path: e.code for e in ws.status().errors}
    assert errors == {
        "corrupt.docx": "corrupt", "encrypted.pdf": "encrypted", "bomb.xlsx": "zip_bomb",
        "truncated.pdf": "corrupt", "fake.msg": "corrupt",
    }
    assert summary.counts.failed == 5
    conn = ws._open_store(create=False).conn
    indexed = {row[0] for row in conn.execute("SELECT path FROM documents")}
    assert indexed == {"good.docx", "good.pdf", "notes.md"}
    assert "quokka sentence" in ws.get("bad/good.docx").text
    assert ws.get("bad/good.docx").text.startswith("# Good heading\n")

    # A fixed file is picked up by the next run and its error cleared.
    (root / "corrupt.docx").write_bytes(_docx("Repaired now."))
    ws.index()
    errors = {e.path for e in ws.status().errors}
    assert "corrupt.docx" not in errors
    assert "Repaired now." in ws.get("bad/corrupt.docx").text


def test_encrypted_ooxml_is_named() -> None:
    data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100 + "EncryptedPackage".encode("utf-16-le")
    conv = converter_for("x.docx")
    assert conv is not None
    with pytest.raises(IngestError) as err:
        convert_bytes(conv, data, "x.docx")
    assert err.value.code == "encrypted"


def test_zip_guard_checks_declared_sizes() -> None:
    with pytest.raises(IngestError) as err:
        check_zip(_zip_bomb(), ConvertLimits(), "Excel")
    assert err.value.code == "zip_bomb"
    small = io.BytesIO()
    with zipfile.ZipFile(small, "w") as archive:
        archive.writestr("a.xml", "<a/>" * 100)
    check_zip(small.getvalue(), ConvertLimits(), "test").close()
    with pytest.raises(IngestError) as err:
        check_zip(small.getvalue(), ConvertLimits(max_unzipped_bytes=10), "test")
    assert err.value.code == "zip_bomb"


def test_per_format_size_limit() -> None:
    conv = converter_for("a.pdf")
    assert conv is not None and conv.limits.max_bytes == 100 * 1024 * 1024
    with pytest.raises(IngestError) as err:
        convert_bytes(conv, b"%PDF-1.4" + b"\0" * 100, "a.pdf", ConvertLimits(max_bytes=50))
    assert err.value.code == "too_large"


def test_spreadsheet_cell_limit() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for _ in range(50):
        book.active.append(list(range(20)))
    out = io.BytesIO()
    book.save(out)
    conv = converter_for("a.xlsx")
    assert conv is not None
    with pytest.raises(IngestError) as err:
        convert_bytes(conv, out.getvalue(), "a.xlsx", ConvertLimits(max_cells=500))
    assert err.value.code == "too_large"
    assert "| 0 | 1 | 2 |" in convert_bytes(conv, out.getvalue(), "a.xlsx").text


# --- registry, time limits, dependencies -------------------------------------------------------


class _SlowConverter:
    id = "slow"
    version = "1"
    suffixes: tuple[str, ...] = (".slow",)
    limits = ConvertLimits(seconds=0.2)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        while True:
            check_deadline()


def test_registry_first_match_wins_and_third_parties_register_the_same_way() -> None:
    assert converter_for("notes.md") is None and converter_for("README") is None
    pdf = converter_for("A/B/Report.PDF")
    assert pdf is not None and pdf.id == "pdf"
    assert converters.converter_suffixes()[:1] == (".pdf",)

    class Override:
        id = "my-pdf"
        version = "7"
        suffixes: tuple[str, ...] = (".pdf", ".slow")
        limits = ConvertLimits()

        def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
            return Converted(text="# Mine\n", title="Mine")

    saved = list(converters._registry)
    try:
        register_converter(_SlowConverter())
        register_converter(Override())  # later: the .slow suffix stays with the first
        conv = converter_for("x.slow")
        assert conv is not None and conv.id == "slow"
        assert (pdf_conv := converter_for("x.pdf")) is not None and pdf_conv.id == "pdf"
        register_converter(Override(), first=True)
        assert (pdf_conv := converter_for("x.pdf")) is not None and pdf_conv.id == "my-pdf"
    finally:
        converters._registry[:] = []
        for conv in saved:
            register_converter(conv)
    assert (pdf_conv := converter_for("x.pdf")) is not None and pdf_conv.id == "pdf"


def test_cooperative_time_limit() -> None:
    with pytest.raises(IngestError) as err:
        convert_bytes(_SlowConverter(), b"", "x.slow")
    assert err.value.code == "timeout"


def test_sigalrm_time_limit_interrupts_a_stuck_library() -> None:
    """In a process's main thread (a forked worker, the CLI) SIGALRM stops code that never checks."""
    script = textwrap.dedent("""
        import signal, time
        from cairn.errors import IngestError
        from cairn.ingest.converters import ConvertLimits, Converted, convert_bytes

        class Stuck:
            id, version, suffixes, limits = "stuck", "1", (".x",), ConvertLimits(seconds=0.3)
            def convert(self, data, path, limits):
                while True:
                    try:
                        sum(range(1000))
                    except Exception:
                        pass  # a library swallowing errors must not swallow the timeout

        start = time.monotonic()
        try:
            convert_bytes(Stuck(), b"", "a.x")
        except IngestError as exc:
            assert exc.code == "timeout", exc.code
        assert time.monotonic() - start < 5
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
        assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL
        print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_missing_library_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)
    conv = converter_for("a.pdf")
    assert conv is not None
    with pytest.raises(IngestError) as err:
        convert_bytes(conv, _pdf_bytes_stub(), "a.pdf")
    assert err.value.code == "missing_dependency"
    assert "pip install" in err.value.message


def _pdf_bytes_stub() -> bytes:
    return b"%PDF-1.4\n%%EOF\n"


def test_pipe_table_escapes_and_trims() -> None:
    assert pipe_table([["a", "b|c", None], [1.0, "x\ny", ""]]) == [
        "| a | b\\|c |", "|---|---|", "| 1 | x y |",
    ]
    assert pipe_table([[None, ""]]) == []


def test_importing_converters_loads_no_document_library() -> None:
    script = (
        "import sys, cairn.ingest.pipeline\n"
        "heavy = {'pypdf', 'docx', 'pptx', 'openpyxl', 'xlrd', 'olefile', 'bs4', 'markdownify', 'lxml'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
