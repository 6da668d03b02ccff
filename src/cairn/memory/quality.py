"""Derived quality of a memory record, recomputed from its outcome signals in order;
never written over the record.

Rule table (each signal moves the state; the state after the last signal is the quality):

====================  =====================================================================
signal                effect
====================  =====================================================================
(no signals)          ``probation``
test-pass             ``verified``; consecutive failures reset to 0
verified-reuse        ``verified``; consecutive failures reset to 0
manual-review         ``verified``; consecutive failures reset to 0
user-pin              ``verified``; consecutive failures reset to 0
test-fail             consecutive failures + 1: ``degraded`` after 1, ``blocked`` after 2+
source-changed        ``degraded`` (failures unchanged)
user-correction       ``degraded`` (failures unchanged)
conflict-confirmed    ``blocked`` for good: the record lost a resolved conflict, and no
                      later signal lifts it
====================  =====================================================================

So ``verified`` means a positive signal with no failure, source change or correction after
it; a block from repeated failures is lifted by a later positive signal (it passed again).
"""

from __future__ import annotations

from collections.abc import Iterable

from cairn.memory.records import Quality, Signal, SignalKind

#: Failures in a row that block a record.
BLOCKING_FAILURES = 2

_POSITIVE: frozenset[str] = frozenset({"test-pass", "verified-reuse", "manual-review", "user-pin"})


def quality_of(signals: Iterable[Signal | SignalKind]) -> Quality:
    """The quality after ``signals`` (oldest first; signals or bare kinds)."""
    state: Quality = "probation"
    failures = 0
    for signal in signals:
        kind = signal if isinstance(signal, str) else signal.kind
        if kind == "conflict-confirmed":
            return "blocked"
        if kind in _POSITIVE:
            state, failures = "verified", 0
        elif kind == "test-fail":
            failures += 1
            state = "blocked" if failures >= BLOCKING_FAILURES else "degraded"
        elif kind in ("source-changed", "user-correction"):
            state = "degraded"
    return state


def pinned(signals: Iterable[Signal]) -> bool:
    """Whether a user pinned the record."""
    return any(s.kind == "user-pin" for s in signals)
