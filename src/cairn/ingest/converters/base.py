"""What every converter shares: the protocol, its output, its limits and its guards.

A converter turns a file's bytes into cairn's canonical Markdown-ish text: ``\\n`` line
ends, ``# Title`` / ``## Page 3`` / ``## Slide 2: Title`` / ``## Sheet: Name`` headings so
spans stay meaningful, tables as Markdown pipe tables. It either returns a whole
:class:`Converted` or raises :class:`~cairn.errors.IngestError`: never a partial text.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import signal
import threading
import time
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from cairn.errors import IngestError

__all__ = [
    "ConvertLimits",
    "Converted",
    "Converter",
    "check_cells",
    "check_deadline",
    "check_zip",
    "clean_text",
    "corrupt_error",
    "import_library",
    "missing_dependency",
    "pipe_table",
    "time_limit",
    "unreadable",
]

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ConvertLimits:
    """Bounds on one conversion; each converter declares its own defaults."""

    max_bytes: int = 50 * MB
    seconds: float = 60.0
    #: Sum of the uncompressed sizes a zip container (docx, xlsx, epub...) may declare.
    max_unzipped_bytes: int = 512 * MB
    #: A zip whose declared content is over ``zip_ratio_floor`` bytes and more than this
    #: many times its compressed size is treated as a zip bomb.
    max_zip_ratio: int = 200
    zip_ratio_floor: int = 16 * MB
    max_zip_members: int = 20_000
    #: Cells read from spreadsheets (all sheets together).
    max_cells: int = 2_000_000
    #: Characters of converted text.
    max_chars: int = 50_000_000


@dataclass(frozen=True, slots=True)
class Converted:
    """A converted document.

    ``pages`` maps the first line (1-based) of each page, slide or sheet to its number,
    sorted by line; lines before the first entry belong to no page.
    """

    text: str
    title: str | None = None
    pages: tuple[tuple[int, int], ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Converter(Protocol):
    """Turns the bytes of one file format into :class:`Converted` text."""

    #: Stable name stored on every document it produced (``documents.converter``).
    id: str
    #: Bumped when the output changes, so stale conversions can be found.
    version: str
    #: Lower-case file suffixes with the dot (``(".pdf",)``).
    suffixes: tuple[str, ...]
    limits: ConvertLimits

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        """Convert ``data`` (the bytes of ``path``); raise IngestError on failure."""
        ...


# --- time limits ----------------------------------------------------------------------


class ConversionTimeout(BaseException):
    """Raised from SIGALRM. A BaseException so libraries' ``except Exception`` cannot eat it."""


_local = threading.local()


def check_deadline() -> None:
    """Raise ``timeout`` when the current conversion is past its deadline (cooperative check)."""
    deadline: float | None = getattr(_local, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        raise IngestError("conversion took longer than its time limit", code="timeout")


def _on_alarm(signum: int, frame: object) -> None:
    # Only while a conversion runs: a late signal must never escape as a BaseException.
    if getattr(_local, "alarm_live", False):
        raise ConversionTimeout


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Bound the conversion inside the block to ``seconds``.

    In a process's main thread with no interval timer already running (a forked index
    worker, the CLI), SIGALRM interrupts even a library stuck in a Python loop. Elsewhere
    (threads, or under a test runner that owns SIGALRM) the deadline is cooperative:
    converters call :func:`check_deadline` between pages, rows and paragraphs.
    """
    previous = getattr(_local, "deadline", None)
    _local.deadline = time.monotonic() + seconds
    armed = False
    old_handler: Any = None
    if (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    ):
        old_handler = signal.signal(signal.SIGALRM, _on_alarm)
        _local.alarm_live = True
        signal.setitimer(signal.ITIMER_REAL, seconds)
        armed = True
    try:
        yield
        _local.alarm_live = False
    except ConversionTimeout:
        raise IngestError(f"conversion took longer than {seconds:g} s", code="timeout") from None
    finally:
        _local.alarm_live = False
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
        _local.deadline = previous


# --- guards ----------------------------------------------------------------------------


def missing_dependency(module: str, package: str) -> IngestError:
    """The error for a converter whose library is not installed."""
    return IngestError(
        f"converting this format needs the {package!r} package (module {module!r}); "
        "install it with: pip install 'cairn[office]'",
        code="missing_dependency",
    )


def import_library(module: str, package: str) -> Any:
    """A converter's library, imported when a file needs it (``missing_dependency`` when the
    ``package`` providing ``module`` is not installed)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise missing_dependency(module, package) from exc


def corrupt_error(what: str, exc: BaseException) -> IngestError:
    """The ``corrupt`` error for a library that failed on a file's bytes: ``unreadable
    {what} (zlib.error: Error -3 while decompressing data...)``. A library's own class is
    named with its package, since bare names such as zlib's ``error`` say nothing."""
    kind = type(exc)
    package = kind.__module__.partition(".")[0]
    name = kind.__qualname__ if package == "builtins" else f"{package}.{kind.__qualname__}"
    detail = str(exc).strip()
    return IngestError(f"unreadable {what} ({name}: {detail})" if detail else f"unreadable {what} ({name})",
                       code="corrupt")


@contextlib.contextmanager
def unreadable(what: str,
               errors: type[BaseException] | tuple[type[BaseException], ...]) -> Iterator[None]:
    """Within the block, a library's ``errors`` mean the file is ``corrupt``: raised as
    ``unreadable {what} (KeyError: ...)``. An IngestError raised on purpose passes as is."""
    try:
        yield
    except IngestError:
        raise
    except errors as exc:
        raise corrupt_error(what, exc) from exc


def check_cells(cells: int, limits: ConvertLimits) -> None:
    """``too_large`` once the cells a spreadsheet converter has read pass the limit."""
    if cells > limits.max_cells:
        raise IngestError(f"spreadsheet has more than {limits.max_cells} cells", code="too_large")


def check_zip(data: bytes, limits: ConvertLimits, what: str) -> zipfile.ZipFile:
    """Open a zip container after checking its central directory against ``limits``.

    Python's zipfile never inflates a member past its declared size, so checking the
    declared sizes before anything is read is enough to stop a zip bomb.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise IngestError(f"not a valid {what} file (bad zip container: {exc})", code="corrupt") from exc
    if len(members) > limits.max_zip_members:
        raise IngestError(f"{what} zip holds {len(members)} members, over the limit", code="zip_bomb")
    total = sum(m.file_size for m in members)
    packed = max(sum(m.compress_size for m in members), 1)
    if total > limits.max_unzipped_bytes or (
        total > limits.zip_ratio_floor and total / packed > limits.max_zip_ratio
    ):
        raise IngestError(
            f"{what} zip declares {total} bytes uncompressed from {packed} compressed; refused as a zip bomb",
            code="zip_bomb",
        )
    if any(m.flag_bits & 0x1 for m in members):
        raise IngestError(f"{what} zip members are encrypted", code="encrypted")
    return archive


# --- text helpers ----------------------------------------------------------------------

# Odd whitespace (no-break, typographic spaces, line/paragraph separators, vertical tab,
# form feed) becomes a plain space; zero-width characters and C0 controls disappear.
_ODD_SPACE = re.compile("[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\x0b\x0c\x85]")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\x00-\x08\x0e-\x1f\x7f]")
_SPACE_RUN = re.compile(r"[ \t]{2,}")


def clean_text(text: str, *, collapse: bool = False) -> str:
    """Normalise odd whitespace and drop invisible characters; ``collapse`` squeezes space runs."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _INVISIBLE.sub("", _ODD_SPACE.sub(" ", text))
    if collapse:
        text = _SPACE_RUN.sub(" ", text)
    return "\n".join(line.rstrip() for line in text.split("\n"))


def cell_text(value: object) -> str:
    """One table cell on one line, with pipes escaped."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = clean_text(str(value), collapse=True)
    return " ".join(text.split()).replace("|", "\\|")


def pipe_table(rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows as a Markdown pipe table (first row as header), trailing empty columns dropped."""
    cells = [[cell_text(v) for v in row] for row in rows]
    cells = [row for row in cells if any(row)]
    if not cells:
        return []
    width = max((max((i + 1 for i, v in enumerate(row) if v), default=0) for row in cells), default=0)
    width = max(width, 1)
    cells = [(row + [""] * width)[:width] for row in cells]
    out = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * width]
    out += ["| " + " | ".join(row) + " |" for row in cells[1:]]
    return out


class TextBuilder:
    """Accumulates output lines and the page map as a converter walks a document."""

    def __init__(self, limits: ConvertLimits) -> None:
        self.lines: list[str] = []
        self.pages: list[tuple[int, int]] = []
        self._chars = 0
        self._limit = limits.max_chars

    def add(self, text: str) -> None:
        """Append a block (one or more lines); a blank line is kept before it."""
        if self.lines and self.lines[-1] != "":
            self.lines.append("")
        self.extend(text.split("\n"))

    def extend(self, lines: Iterable[str]) -> None:
        for line in lines:
            self._chars += len(line) + 1
            self.lines.append(line)
        if self._chars > self._limit:
            raise IngestError(f"converted text exceeds {self._limit} characters", code="too_large")

    def page(self, number: int, heading: str) -> None:
        """Start page/slide/sheet ``number`` with a ``## heading`` line."""
        self.add(f"## {heading}")
        self.pages.append((len(self.lines), number))
        self.lines.append("")

    def sheet(self, number: int, name: str, rows: Sequence[Sequence[object]]) -> None:
        """Sheet ``number`` as a ``## Sheet: name`` section, its rows as a pipe table."""
        self.page(number, f"Sheet: {name}")
        self.add("\n".join(pipe_table(rows)))

    def result(self, title: str | None, metadata: dict[str, Any] | None = None) -> Converted:
        lines = self.lines
        # Collapse runs of blank lines: they carry no meaning and cost line numbers.
        out: list[str] = []
        remap: dict[int, int] = {}
        for i, line in enumerate(lines, 1):
            if not line.strip() and (not out or not out[-1]):
                remap[i] = len(out) + 1
                continue
            out.append(line if line.strip() else "")
            remap[i] = len(out)
        while out and not out[-1]:
            out.pop()
        pages = tuple((min(remap.get(line, line), max(len(out), 1)), n) for line, n in self.pages)
        text = "\n".join(out) + "\n" if out else ""
        return Converted(text=text, title=title or None, pages=pages, metadata=metadata or {})
