"""The change journal: every document change exactly once, in order, with its hashes;
cursors that survive restarts and expire explicitly."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import CursorExpiredError, NotFoundError, ValidationError


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _kinds(feed: Any) -> list[tuple[str, str | None, str | None]]:
    return [(c.kind, c.old_path, c.new_path) for c in feed.changes]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "a.md").write_text("# Alpha\n\nfirst words\n", encoding="utf-8")
    (root / "b.md").write_text("# Beta\n\nsecond words\n", encoding="utf-8")
    return root


def test_edit_rename_delete_readd_each_once_in_order_with_hashes(ws: Any, folder: Path) -> None:
    ws.add_collection(folder, name="v")
    ws.index()
    first = ws.changes()
    assert _kinds(first) == [("create", None, "a.md"), ("create", None, "b.md")]
    a0 = first.changes[0]
    assert a0.new_source_hash == _sha((folder / "a.md").read_bytes())
    assert a0.new_text_hash == ws.get("v/a.md").text_hash
    assert a0.uri == "cairn://v/a.md" and a0.docid == ws.get("v/a.md").docid
    assert not first.has_more

    ws.index()  # nothing changed: nothing journalled
    assert ws.changes(first.cursor).changes == []

    (folder / "a.md").write_text("# Alpha\n\nfirst words, edited\n", encoding="utf-8")
    (folder / "b.md").rename(folder / "c.md")
    ws.index()
    feed = ws.changes(first.cursor)
    assert sorted(_kinds(feed)) == [("rename", "b.md", "c.md"), ("update", "a.md", "a.md")]
    update = next(c for c in feed.changes if c.kind == "update")
    assert (update.old_source_hash, update.old_text_hash) == (a0.new_source_hash, a0.new_text_hash)
    assert update.new_source_hash == _sha((folder / "a.md").read_bytes())
    assert update.new_text_hash == ws.get("v/a.md").text_hash != a0.new_text_hash
    rename = next(c for c in feed.changes if c.kind == "rename")
    assert rename.old_text_hash == rename.new_text_hash == first.changes[1].new_text_hash
    assert rename.docid == first.changes[1].docid  # a rename keeps the docid

    saved = (folder / "a.md").read_bytes()
    (folder / "a.md").unlink()
    ws.index()
    deleted = ws.changes(feed.cursor)
    assert _kinds(deleted) == [("delete", "a.md", None)]
    assert deleted.changes[0].old_text_hash == update.new_text_hash
    assert deleted.changes[0].uri == "cairn://v/a.md"

    (folder / "a.md").write_bytes(saved)
    ws.index()
    back = ws.changes(deleted.cursor)
    assert _kinds(back) == [("reactivate", "a.md", "a.md")]
    assert back.changes[0].docid == a0.docid and back.changes[0].new_text_hash == update.new_text_hash

    # The whole journal: every change once, positions strictly increasing.
    everything = ws.changes(limit=1000).changes
    assert [c.kind for c in everything].count("update") == 1
    assert len({c.id for c in everything}) == len(everything) == 6
    # Each entry's id is a cursor positioned at it.
    assert ws.changes(everything[2].id).changes == everything[3:]


def test_cursor_pages_and_survives_a_restart(ws: Any, folder: Path, cairn_home: Path) -> None:
    for i in range(5):
        (folder / f"n{i}.md").write_text(f"note {i}\n", encoding="utf-8")
    ws.add_collection(folder, name="v")
    ws.index()
    page = ws.changes(limit=3)
    assert len(page.changes) == 3 and page.has_more
    ws.close()
    with cairn.open() as again:  # a new process would do the same: the cursor is data
        rest = again.changes(page.cursor, limit=3)
        rest2 = again.changes(rest.cursor, limit=3)
    assert [c.new_path for c in (*page.changes, *rest.changes, *rest2.changes)] == \
        ["a.md", "b.md", *[f"n{i}.md" for i in range(5)]]
    assert rest.has_more and not rest2.has_more


def test_failed_conversion_is_journalled_once(ws: Any, folder: Path) -> None:
    pytest.importorskip("docx")
    (folder / "broken.docx").write_bytes(bytes(range(256)) * 40)
    ws.add_collection(folder, name="v")
    ws.index()
    feed = ws.changes()
    fails = [c for c in feed.changes if c.kind == "fail"]
    assert len(fails) == 1
    fail = fails[0]
    assert (fail.new_path, fail.error, fail.docid) == ("broken.docx", "corrupt", None)
    assert fail.new_source_hash == _sha((folder / "broken.docx").read_bytes())
    ws.index()
    ws.index(retry_failed=True)  # read and failing again: the same failure, not a new one
    assert ws.changes(feed.cursor).changes == []
    (folder / "broken.docx").write_bytes(bytes(range(255, -1, -1)) * 40)  # new bytes, new failure
    ws.index()
    again = ws.changes(feed.cursor)
    assert _kinds(again) == [("fail", None, "broken.docx")]


def test_collection_filter_and_dates(ws: Any, folder: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.md").write_text("x\n", encoding="utf-8")
    ws.add_collection(folder, name="v")
    ws.add_collection(other, name="o")
    ws.index()
    assert [c.collection for c in ws.changes(collection="o").changes] == ["o"]
    assert len(ws.changes("2000-01-01").changes) == 3
    assert ws.changes("2999-01-01T00:00:00+02:00").changes == []
    with pytest.raises(NotFoundError):
        ws.changes(collection="nope")
    for bad in ("yesterday", "c1.!!!", "c1." + "A" * 8):
        with pytest.raises(ValidationError):
            ws.changes(bad)
    with pytest.raises(ValidationError):
        ws.changes(limit=0)
    # Removing a collection journals its documents' deletion (and its past stays readable).
    ws.remove_collection("o")
    assert _kinds(ws.changes(collection="o"))[-1] == ("delete", "x.md", None)


def test_retention_expires_old_cursors_explicitly(ws: Any, folder: Path, cairn_home: Path) -> None:
    (cairn_home / "config.toml").write_text("[journal]\nmax_entries = 3\n", encoding="utf-8")
    ws.close()
    ws = cairn.open()
    ws.add_collection(folder, name="v")
    ws.index()
    start = ws.changes()
    assert len(start.changes) == 2 and start.retention.max_entries == 3
    for i in range(4):
        (folder / f"n{i}.md").write_text(f"note {i}\n", encoding="utf-8")
        ws.index()
    kept = ws.changes()
    assert [c.new_path for c in kept.changes] == ["n1.md", "n2.md", "n3.md"]
    with pytest.raises(CursorExpiredError) as err:  # 2 entries after it were pruned
        ws.changes(start.cursor)
    assert err.value.code == "cursor_expired"
    with pytest.raises(CursorExpiredError):
        ws.changes("2000-01-01")
    assert [c.new_path for c in ws.changes(kept.changes[0].id).changes] == ["n2.md", "n3.md"]
    ws.close()


def test_a_cursor_of_another_index_is_expired(ws: Any, folder: Path) -> None:
    ws.add_collection(folder, name="v")
    ws.index()
    cursor = ws.changes().cursor
    with cairn.open(index="other") as other:
        other.add_collection(folder, name="v")
        other.index()
        with pytest.raises(CursorExpiredError, match="another index"):
            other.changes(cursor)
