"""YAML frontmatter of a Markdown page: the block, a bounded safe load, and the metadata fields the index reads (title, tags, aliases, date, author)."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

#: Frontmatter larger than this is reported as an error instead of parsed: no real note
#: needs it, and it bounds the YAML parser's time on hostile input.
MAX_FRONTMATTER_CHARS = 256 * 1024
#: Bounds on the converted frontmatter, so YAML alias bombs and self-referencing
#: aliases (``&a [*a]``) become a ``frontmatter_error`` instead of a hang or a crash.
_MAX_FRONTMATTER_NODES = 20_000
_MAX_FRONTMATTER_DEPTH = 50
_TAG_SPLIT = re.compile(r"[,\s]+")
_DATE_FORMATS = ("%Y/%m/%d", "%Y.%m.%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y")
# --- frontmatter -------------------------------------------------------------------


def _frontmatter_block(text: str) -> tuple[str, int, int] | None:
    """Return (yaml text, body offset, body start line) or None when there is no block."""
    first_end = text.find("\n")
    if first_end == -1 or text[:first_end].rstrip(" \t") != "---":
        return None
    pos = first_end + 1
    line = 2
    while pos <= len(text):
        end = text.find("\n", pos)
        if end == -1:
            end = len(text)
        if text[pos:end].rstrip(" \t") in ("---", "..."):
            return text[first_end + 1 : pos], min(end + 1, len(text)), line + 1
        pos = end + 1
        line += 1
    return None


def _load_frontmatter(yaml_text: str) -> tuple[dict[Any, Any], dict[str, Any], str | None]:
    """Parse a frontmatter block: (raw mapping, JSON-safe mapping, error message)."""
    if len(yaml_text) > MAX_FRONTMATTER_CHARS:
        return {}, {}, f"frontmatter is larger than {MAX_FRONTMATTER_CHARS} characters"
    # PyYAML is imported on the first frontmatter, not at start-up (every CLI call pays imports).
    import yaml

    # libyaml is ~10x faster; the pure-Python loader is a correct fallback.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        loaded = yaml.load(yaml_text, Loader=loader)
    except yaml.YAMLError as exc:
        return {}, {}, f"invalid YAML frontmatter: {_one_line(str(exc))}"
    except Exception as exc:  # never raise: e.g. ValueError for 2024-13-45, RecursionError
        return {}, {}, f"invalid YAML frontmatter: {type(exc).__name__}: {_one_line(str(exc))}"
    if loaded is None:
        return {}, {}, None  # an empty block is an empty mapping
    if not isinstance(loaded, dict):
        return {}, {}, f"frontmatter is a YAML {type(loaded).__name__}, not a mapping"
    try:
        safe = _json_safe(loaded, [_MAX_FRONTMATTER_NODES], 0)
    except _TooComplex:
        return {}, {}, "frontmatter is too large or too deeply nested"
    assert isinstance(safe, dict)
    return loaded, safe, None


class _TooComplex(Exception):
    """The frontmatter exceeds the node or depth budget."""


def _json_safe(value: Any, budget: list[int], depth: int) -> Any:
    """Convert a YAML value to JSON-safe data (dates -> ISO strings, odd scalars -> str)."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_FRONTMATTER_DEPTH:
        raise _TooComplex
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        # NaN/inf are not JSON; keep the YAML spelling rather than drop the key.
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {
            _json_key(k): _json_safe(v, budget, depth + 1) for k, v in value.items()
        }
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(v, budget, depth + 1) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _json_key(key: Any) -> str:
    """A JSON object key for a YAML mapping key (YAML allows ints, dates, null...)."""
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, (dt.date, dt.datetime)):
        return key.isoformat()
    return str(key)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _scalar_text(value: Any) -> str | None:
    """A non-empty display string for a scalar frontmatter value, else None."""
    if value is None or isinstance(value, (dict, list, tuple, set)):
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    text = str(value).strip()
    return text or None


def _meta_tags(value: Any) -> list[str]:
    """Tags from frontmatter: a list, or a comma/space-separated string."""
    out: list[str] = []
    for item in _as_list(value):
        text = _scalar_text(item)
        if text is None:
            continue
        for part in _TAG_SPLIT.split(text):
            tag = part.lstrip("#").rstrip("/").lower()
            if tag:
                out.append(tag)
    return out


def _meta_strings(value: Any) -> list[str]:
    """Strings from a frontmatter value that may be a list or a single string."""
    return [t for t in (_scalar_text(v) for v in _as_list(value)) if t is not None]


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        return list(value)
    return [value]


def _meta_date(value: Any) -> str | None:
    """An ISO-8601 string when the value is (or parses as) a date, else None.

    A value that is not a date (``not-a-date``) must not be stored as one: dates are
    compared as ISO strings, so it would match ``--since 2030-01-01``."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    text = str(value).strip()
    if not text:
        return None
    for parse in (dt.date.fromisoformat, dt.datetime.fromisoformat):
        try:
            return parse(text).isoformat()
        except ValueError:
            pass
    if any(c.isalpha() for c in text) or "/" in text or "." in text:
        for fmt in _DATE_FORMATS:
            try:
                return dt.datetime.strptime(text, fmt).date().isoformat()
            except ValueError:
                pass
    return None


def _meta_author(value: Any) -> str | None:
    """Author as one string; a list is joined with ", ", a mapping uses its ``name``."""
    if isinstance(value, dict):
        value = value.get("name")
    if isinstance(value, (list, tuple)):
        names = [n for n in (_meta_author(v) for v in value) if n]
        return ", ".join(names) or None
    return _scalar_text(value)


def _dedupe(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items)) if items else ()
