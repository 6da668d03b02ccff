"""The service layer (SDK) on a real SQLite file: collections, incremental index, search, get."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import ConflictError, NotFoundError, ValidationError
from tests.schemas import assert_valid


def indexed(ws: Any, notes: Path) -> Any:
    ws.add_collection(notes, name="notes")
    return ws.index()


def test_add_index_search_get(ws: Any, notes: Path) -> None:
    summary = indexed(ws, notes)
    assert summary.counts.added == 6
    assert summary.counts.failed == 0
    assert summary.passages_written >= 6
    result = ws.search("backup schedule")
    top = result.results[0]
    assert top.uri == "cairn://notes/howto/backups.md"
    assert top.title == "Backup strategy"
    assert top.collection == "notes"
    assert top.start_line <= top.end_line
    assert top.stages == ["bm25"]
    assert result.meta.mode == "bm25"
    # get returns exactly the lines the passage points at
    piece = ws.get(top.uri, from_line=top.start_line, lines=top.end_line - top.start_line + 1)
    assert piece.start_line == top.start_line
    assert "Nightly snapshots" in ws.get(top.docid).text


def test_search_json_shape(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    data = ws.search("atlas").model_dump(mode="json")
    assert_valid("search", data)
    assert set(data) == {"results", "meta"}
    assert {"uri", "docid", "title", "collection", "score", "start_line", "end_line", "snippet",
            "headings"} <= set(data["results"][0])


def test_title_rules(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    titles = {d.path: d.title for d in ws.ls().documents}
    assert titles["index.md"] == "Team handbook"  # frontmatter
    assert titles["howto/release-checklist.md"] == "Release checklist"  # first H1
    assert titles["glossary.txt"] == "glossary"  # file name


def test_headings_in_results(ws: Any, tmp_path: Path) -> None:
    root = tmp_path / "long"
    root.mkdir()
    filler = "This paragraph is filler text about nothing in particular, repeated. " * 12
    (root / "guide.md").write_text(
        f"# Guide\n\n{filler}\n\n## Install\n\n{filler}\n\n### Linux\n\n"
        f"Use the package manager to install the zebra tool.\n\n{filler}\n\n## Usage\n\n{filler}\n",
        encoding="utf-8",
    )
    ws.add_collection(root, name="long")
    ws.index()
    hit = ws.search("zebra").results[0]
    assert hit.headings == ["Guide", "Install", "Linux"]
    lines = (root / "guide.md").read_text().split("\n")
    assert any("zebra" in line for line in lines[hit.start_line - 1 : hit.end_line])
    assert ws.status().passages > 3


def test_cjk_search(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    for query in ("北京", "北京大学", "東京", "地図", "离线地图"):
        results = ws.search(query).results
        assert results, query
        assert results[0].uri == "cairn://notes/projects/beijing-trip.md"


def test_phrase_and_negation(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    assert ws.search('"off-site copy"').results[0].uri.endswith("backups.md")
    uris = {r.uri for r in ws.search("offline").results}
    assert "cairn://notes/projects/atlas.md" in uris
    uris = {r.uri for r in ws.search("offline -zstd").results}
    assert "cairn://notes/projects/atlas.md" not in uris


def test_stemming(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    assert ws.search("renders").results[0].uri.endswith("atlas.md")  # "renders" ~ "render"
    assert ws.search("compressing").results  # "compressed"


def test_filters(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    assert {r.uri for r in ws.search("backups", tags_any=["ops"]).results} == {
        "cairn://notes/howto/backups.md"
    }
    # hierarchical tags: "ops" matches "ops/backups"; "ops/retention" is an inline tag
    assert ws.search("backups", tags_all=["ops/retention", "ops"]).results
    assert not ws.search("backups", tags_all=["ops", "maps"]).results
    assert ws.search("map", since="2026-05-01").results
    assert all(
        r.uri != "cairn://notes/projects/atlas.md" for r in ws.search("map", until="2026-05-19").results
    )
    assert ws.search("map", until="2026-05-20").results[0].uri.endswith("atlas.md")
    with pytest.raises(ValidationError):
        ws.search("map", since="last tuesday")
    with pytest.raises(NotFoundError):
        ws.search("map", collections=["nope"])


def test_selective_filter_keeps_recall(ws: Any, tmp_path: Path) -> None:
    # 60 documents mention "zebra"; only one carries the tag. Filtering must find it even
    # though it would rank far below the first page without the filter.
    root = tmp_path / "many"
    root.mkdir()
    for i in range(60):
        (root / f"n{i:02d}.md").write_text("zebra " * 20 + "\n", encoding="utf-8")
    (root / "rare.md").write_text("---\ntags: [rare]\n---\nzebra once among many words here\n", encoding="utf-8")
    ws.add_collection(root, name="many")
    ws.index()
    hits = ws.search("zebra", limit=3, tags_any=["rare"]).results
    assert [h.uri for h in hits] == ["cairn://many/rare.md"]


def test_get_refs_and_lines(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    by_path = ws.get("notes/howto/backups.md")
    by_uri = ws.get("cairn://notes/howto/backups.md")
    by_docid = ws.get(by_path.docid)
    by_hash_docid = ws.get("#" + by_path.docid)
    assert by_path == by_uri == by_docid == by_hash_docid
    assert by_path.total_lines == len((notes / "howto/backups.md").read_text().splitlines())
    part = ws.get("notes/howto/backups.md", from_line=9, lines=2)
    lines = (notes / "howto/backups.md").read_text().splitlines()
    assert part.text == "\n".join(lines[8:10])
    assert (part.start_line, part.end_line) == (9, 10)
    with pytest.raises(ValidationError):
        ws.get("notes/howto/backups.md", from_line=999)
    with pytest.raises(ValidationError):
        ws.get("notes/howto/backups.md", from_line=0)
    with pytest.raises(NotFoundError):
        ws.get("notes/nope.md")
    with pytest.raises(NotFoundError):
        ws.get("deadbeef")
    with pytest.raises(ValidationError):
        ws.get("justaword")
    # refs resolve against the index only, never the file system; traversal is refused
    with pytest.raises(ValidationError):
        ws.get("notes/../../etc/passwd")


def test_uri_escaping(ws: Any, tmp_path: Path) -> None:
    root = tmp_path / "odd"
    root.mkdir()
    (root / "a note #1.md").write_text("# Odd\nhello space\n", encoding="utf-8")
    ws.add_collection(root, name="odd")
    ws.index()
    hit = ws.search("hello").results[0]
    assert hit.uri == "cairn://odd/a%20note%20%231.md"
    assert ws.get(hit.uri).title == "Odd"
    assert ws.get("odd/a note #1.md").title == "Odd"


def test_multi_get_and_ls(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    res = ws.multi_get(["notes/index.md", "notes/missing.md"])
    assert res.items[0].document is not None and res.items[0].error is None
    assert res.items[1].document is None and res.items[1].error.code == "not_found"
    assert len(ws.ls().documents) == 6
    assert [d.path for d in ws.ls("notes/howto/").documents] == [
        "howto/backups.md", "howto/release-checklist.md"
    ]
    assert len(ws.ls("cairn://notes/projects").documents) == 2
    with pytest.raises(NotFoundError):
        ws.ls("nope")


def test_collections_crud(ws: Any, notes: Path) -> None:
    ws.add_collection(notes, name="notes", context="team notes")
    with pytest.raises(ConflictError):
        ws.add_collection(notes, name="notes")
    with pytest.raises(ValidationError):
        ws.add_collection(notes / "index.md")
    with pytest.raises(ValidationError):
        ws.add_collection(notes, name="bad/name")
    ws.index()
    listed = ws.list_collections().collections
    assert listed[0].documents == 6 and listed[0].context == "team notes"
    assert ws.remove_collection("notes").documents_removed == 6
    assert ws.list_collections().collections == []
    assert ws.status().passages == 0
    with pytest.raises(NotFoundError):
        ws.remove_collection("notes")


def test_incremental_index(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    again = ws.index()
    assert again.counts.unchanged == 6
    assert again.counts.parsed == 0
    assert again.passages_written == 0

    docid = ws.get("notes/howto/backups.md").docid
    # edit: same docid, new content
    path = notes / "howto/backups.md"
    path.write_text(path.read_text() + "\nMonthly archives go to tape.\n", encoding="utf-8")
    run = ws.index()
    assert (run.counts.updated, run.counts.parsed, run.counts.unchanged) == (1, 1, 5)
    assert ws.get("notes/howto/backups.md").docid == docid
    assert ws.search("tape").results[0].docid == docid

    # touch without change: read and hashed, not parsed
    os.utime(notes / "index.md", None)
    os.utime(notes / "index.md", ns=(1, 1))
    run = ws.index()
    assert run.counts.parsed == 0 and run.counts.unchanged == 6

    # rename: detected by content hash, docid kept
    shutil.move(notes / "howto/backups.md", notes / "howto/backup-strategy.md")
    run = ws.index()
    assert run.counts.renamed == 1 and run.counts.added == 0 and run.counts.removed == 0
    moved = ws.get("notes/howto/backup-strategy.md")
    assert moved.docid == docid
    assert ws.search("tape").results[0].uri == "cairn://notes/howto/backup-strategy.md"

    # delete: inactive, gone from search and get
    (notes / "howto/backup-strategy.md").unlink()
    run = ws.index()
    assert run.counts.removed == 1
    assert not ws.search("tape").results
    with pytest.raises(NotFoundError):
        ws.get(docid)
    assert ws.status().inactive_documents == 1

    # a new file at a deleted path reactivates the old docid
    (notes / "howto/backup-strategy.md").write_text("# Back again\ntape\n", encoding="utf-8")
    run = ws.index()
    assert run.counts.reactivated == 1
    assert ws.get("notes/howto/backup-strategy.md").docid == docid


def test_broken_files_are_recorded_not_fatal(ws: Any, notes: Path, cairn_home: Path) -> None:
    (notes / "binary.md").write_bytes(b"\x00\x01\x02garbage\xff" * 20)
    (notes / "latin1.txt").write_bytes("café crème brûlée, déjà vu à Paris".encode("cp1252"))
    (notes / "bad-yaml.md").write_text("---\ntitle: [unclosed\n---\n# Still indexed\nbody\n")
    (cairn_home / "config.toml").write_text("[index]\nmax_file_bytes = 2000\n")
    (notes / "big.md").write_text("x" * 5000)
    ws = cairn.open()
    indexed(ws, notes)
    status = ws.status()
    codes = {e.path: e.code for e in status.errors}
    assert codes == {"binary.md": "binary", "big.md": "too_large"}
    assert ws.get("notes/latin1.txt").text.startswith("café crème")
    assert ws.get("notes/bad-yaml.md").title == "Still indexed"
    assert ws.search("brûlée").results
    # fixing a file clears its error
    (notes / "binary.md").write_text("# fixed\n")
    ws.index()
    assert {e.path for e in ws.status().errors} == {"big.md"}
    (notes / "big.md").unlink()
    ws.index()
    assert ws.status().errors == []
    ws.close()


def test_skips_hidden_ignored_vendor_and_outside_symlinks(ws: Any, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    for rel in ("keep.md", "sub/keep2.md", ".hidden/no.md", ".git/no.md", "node_modules/x/no.md", "..md",
                "venv/no.md", "myenv/no.md", "ignored/no.md", "sub/also-ignored.md", "code/app.py",
                "notes.txt", "sub/.dotfile.md"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {rel}\ncontent\n")
    (root / "myenv/pyvenv.cfg").write_text("home = /usr\n")
    (root / ".gitignore").write_text("ignored/\n")
    (root / "sub/.gitignore").write_text("also-ignored.md\n")
    outside = tmp_path / "outside.md"
    outside.write_text("# secret outside\n")
    os.symlink(outside, root / "link-out.md")
    os.symlink(root / "keep.md", root / "link-in.md")
    os.symlink(tmp_path, root / "dirlink")
    ws.add_collection(root, name="vault")
    summary = ws.index()
    paths = sorted(d.path for d in ws.ls().documents)
    assert paths == ["..md", "keep.md", "link-in.md", "notes.txt", "sub/.dotfile.md", "sub/keep2.md"]
    assert [(e.path, e.code) for e in summary.errors] == [("link-out.md", "symlink_outside_root")]
    # code is indexed when included by glob
    ws.close()
    ws2 = cairn.open(index="code")
    ws2.add_collection(root, name="vault", include=["**/*.py"])
    ws2.index()
    assert "code/app.py" in {d.path for d in ws2.ls().documents}
    ws2.close()


def test_missing_collection_root_is_not_a_mass_delete(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    shutil.rmtree(notes)
    with pytest.raises(ValidationError):
        ws.index()
    assert ws.status().documents == 6


def test_index_names_are_separate(cairn_home: Path, notes: Path) -> None:
    with cairn.open(index="a") as a, cairn.open(index="b") as b:
        a.add_collection(notes, name="notes")
        a.index()
        assert a.status().documents == 6
        assert b.status().documents == 0
        with pytest.raises(NotFoundError):
            b.search("backup")
    with pytest.raises(ValidationError):
        cairn.open(index="../escape")
    assert (cairn_home / "indexes" / "a.sqlite").exists()


def test_status_and_doctor(ws: Any, notes: Path) -> None:
    assert ws.status().documents == 0
    indexed(ws, notes)
    status = ws.status()
    assert status.documents == 6 and status.passages >= 6
    assert status.schema_version >= 1
    assert status.last_run is not None and status.last_run.status == "completed"
    assert status.capabilities["bm25"] and status.capabilities["cjk"]
    assert status.index_bytes > 0
    report = ws.doctor()
    assert report.ok
    assert {c.name for c in report.checks} >= {"python", "sqlite_fts5", "index_integrity"}


def test_frontmatter_metadata_and_links_stored(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    store = ws._open_store(create=False)
    rows = store.conn.execute(
        "SELECT l.kind, l.target, l.anchor, l.alias, l.line, l.col FROM links l"
        " JOIN documents d ON d.id = l.document_id WHERE d.path = 'index.md' ORDER BY l.seq"
    ).fetchall()
    assert ("wiki", "howto/backups", None, "backup strategy", 11, 48) in rows
    assert ("markdown", "howto/release-checklist.md", None, "release checklist", 12, 28) in rows
    meta = store.conn.execute("SELECT metadata, author, aliases FROM documents WHERE path = 'index.md'").fetchone()
    assert '"author":"Ada Park"' in meta[0] and meta[1] == "Ada Park" and "start here" in meta[2]


def test_query_graph_adds_one_hop_of_linked_documents(ws: Any, notes: Path) -> None:
    indexed(ws, notes)
    plain = ws.query("zstd", explain=True)
    assert [r.uri for r in plain.results] == ["cairn://notes/projects/atlas.md"]
    result = ws.query("zstd", graph=True, explain=True)
    assert "graph" in result.meta.stages_run
    by_uri = {r.uri: r for r in result.results}
    assert result.results[0].uri == "cairn://notes/projects/atlas.md"
    linked = by_uri["cairn://notes/howto/backups.md"]  # atlas links [[backups]]
    assert linked.stages == ["graph"]
    assert linked.explain is not None and linked.explain.via is not None
    assert "[[backups]]" in linked.explain.via and "graph" in linked.explain.stages
    assert "cairn://notes/index.md" in by_uri  # frontmatter related: "[[index]]"
    # filters still apply to graph-expanded documents
    filtered = ws.query("zstd", graph=True, tags_any=["projects"])
    assert {r.uri for r in filtered.results} == {"cairn://notes/projects/atlas.md"}


def test_add_collection_refuses_unusable_paths(ws: Any) -> None:
    for bad in ("x" * 300, "/tmp/" + "y" * 300 + "/z", "bad\x00name"):
        with pytest.raises(ValidationError):
            ws.add_collection(bad)
