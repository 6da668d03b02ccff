"""Checks of caller input shared by every service: bounds, tags and dates."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from cairn.errors import ValidationError

#: Largest ``limit`` the SDK accepts (the faces allow less, see interfaces/operations.py).
MAX_LIMIT = 1000


def check_bound(name: str, value: int, most: int = 1_000_000) -> None:
    """Refuse anything but an int in ``1..most`` (``True`` is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise ValidationError(f"{name} must be between 1 and {most}")


def clean_tags(tags: Sequence[str]) -> list[str]:
    """Tags as stored: comma lists split, ``#`` dropped, lower case, empties removed."""
    cleaned = []
    for tag in tags:
        for part in tag.split(","):
            part = part.strip().lstrip("#").lower()
            if part:
                cleaned.append(part)
    return cleaned


def parse_date(value: str | None, name: str, *, end: bool) -> str | None:
    """Validate a --since/--until value; a bare date as --until covers that whole day."""
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            date.fromisoformat(text)
            return text + ("~" if end else "")
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"--{name} must be a date like 2024-05-31 or an ISO datetime, not {value!r}") from None
    return parsed.isoformat().replace("+00:00", "Z")
