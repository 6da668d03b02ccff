"""The "by" of a size is no relation (issue 12).

"Standard pallets measure 1,200 mm by 1,000 mm": the two lengths are the sides of one
rectangle, given in either order ("1,000 mm by 1,200 mm" states the same size), so the
"by" between two lengths keeps no roles, unlike the "by" of an agent ("approved by A")
or of a change ("raised by 5%"). Only lengths qualify: "by" between a time and another
quantity ("by 5 pm by 10%") keeps its roles.
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import AccountToken

__all__ = ["size_by"]


def size_by(claim: Sequence[AccountToken], i: int) -> bool:
    """``claim[i]`` is a "by" (or "x"/"×") right between two lengths."""
    t = claim[i]
    if t.kind != "w" or t.key not in ("by", "x", "×") or not 0 < i < len(claim) - 1:
        return False
    return all(
        n.kind == "n" and n.key.startswith("q:length:") for n in (claim[i - 1], claim[i + 1])
    )
