"""Every row of the quality rule table (cairn.memory.quality)."""

from __future__ import annotations

import pytest

from cairn.memory.quality import pinned, quality_of
from cairn.memory.records import Signal


@pytest.mark.parametrize(("signals", "quality"), [
    ([], "probation"),
    (["test-pass"], "verified"),
    (["verified-reuse"], "verified"),
    (["manual-review"], "verified"),
    (["user-pin"], "verified"),
    (["test-fail"], "degraded"),
    (["test-fail", "test-fail"], "blocked"),
    (["test-fail", "test-pass", "test-fail"], "degraded"),  # the pass reset the count
    (["test-fail", "test-fail", "test-pass"], "verified"),  # passing again lifts the block
    (["test-pass", "source-changed"], "degraded"),
    (["test-pass", "user-correction"], "degraded"),
    (["source-changed", "test-pass"], "verified"),
    (["source-changed", "test-fail"], "degraded"),
    (["conflict-confirmed"], "blocked"),
    (["conflict-confirmed", "user-pin", "test-pass"], "blocked"),  # for good
    (["test-pass", "conflict-confirmed"], "blocked"),
])
def test_rule_table(signals: list[str], quality: str) -> None:
    assert quality_of(signals) == quality  # type: ignore[arg-type]
    as_signals = [Signal(seq=i, record_id="r", kind=k, note=None, at="t") for i, k in enumerate(signals)]  # type: ignore[arg-type]
    assert quality_of(as_signals) == quality


def test_pinned() -> None:
    assert pinned([Signal(1, "r", "user-pin", None, "t")])
    assert not pinned([Signal(1, "r", "test-pass", None, "t")])
