"""The store contract: what every backend must do, through the protocols only.

Parametrised by ``store_backend`` (see ``conftest.py``); real stores in ``tmp_path``.
"""

from __future__ import annotations

import numpy as np
import pytest

from cairn.errors import BusyError, ConflictError, NotFoundError
from cairn.store import protocol
from cairn.store.protocol import Store
from cairn.store.records import CollectionRecord, FileFailure, KnownFile, LinkRow, SearchFilter
from cairn.text.query import parse_query
from tests.store.conftest import OpenStore, document, sha, write


@pytest.fixture
def notes(store: Store) -> CollectionRecord:
    return store.add_collection("notes", "/tmp/notes", ["**/*.md"], [], "My notes")


def _known(store: Store, collection: CollectionRecord, path: str) -> KnownFile:
    return store.known_files(collection.id)[path]


ALL = SearchFilter()


def search(store: Store, query: str, filters: SearchFilter = ALL, limit: int = 10) -> list[str]:
    return [hit.path for hit, _ in store.search_lexical(parse_query(query), filters, limit)]


# --- the protocols -------------------------------------------------------------------


def test_a_backend_is_every_protocol(store: Store) -> None:
    for name in protocol.__all__:
        assert isinstance(store, getattr(protocol, name)), name
    assert store.schema_version >= 1
    assert store.location
    assert store.quick_check() == "ok"
    assert store.size_bytes() > 0


def test_writer_lock_is_exclusive_across_stores(open_store: OpenStore) -> None:
    first, second = open_store("index"), open_store("index")
    assert not first.writer_lock_held()
    first.acquire_writer()
    assert first.writer_lock_held() and second.writer_lock_held()
    with pytest.raises(BusyError):
        second.acquire_writer()
    first.release_writer()
    assert not second.writer_lock_held()
    second.acquire_writer()
    second.release_writer()


# --- collections -----------------------------------------------------------------------


def test_collections(store: Store) -> None:
    added = store.add_collection("b", "/tmp/b", ["**/*.md"], ["drafts/**"], None, sequence=True)
    store.add_collection("a", "/tmp/a", ["**/*.txt"], [], "guidance")
    assert (added.name, added.root, added.include, added.exclude, added.sequence) == (
        "b", "/tmp/b", ("**/*.md",), ("drafts/**",), True)
    assert [c.name for c in store.list_collections()] == ["a", "b"]
    assert store.get_collection("a").context == "guidance"
    with pytest.raises(ConflictError):
        store.add_collection("a", "/tmp/x", [], [], None)
    with pytest.raises(NotFoundError):
        store.get_collection("missing")
    assert store.has_sequence_collections()
    changed = store.configure_collection("b", sequence=False, context="now with context")
    assert (changed.sequence, changed.context) == (False, "now with context")
    assert not store.has_sequence_collections()
    assert store.configure_collection("b", context="").context is None  # "" clears
    assert store.remove_collection("b") == 0
    assert [c.name for c in store.list_collections()] == ["a"]


def test_removing_a_collection_removes_its_documents(store: Store, notes: CollectionRecord) -> None:
    write(store, notes, document("a.md", "A", ["alpha text"]), document("b.md", "B", ["beta text"]))
    assert store.collection_counts() == {notes.id: (2, 2)}
    assert store.remove_collection("notes") == 2
    assert store.counts() == {"documents": 0, "inactive_documents": 0, "passages": 0}
    assert search(store, "alpha") == []


# --- documents and passages ----------------------------------------------------------------


def test_documents_and_passages(store: Store, notes: CollectionRecord) -> None:
    doc = document("dir/a.md", "Alpha", ["first paragraph", "second paragraph\nspans two lines"],
                   tags=("project/x",))
    write(store, notes, doc, document("b.md", "Beta", ["beta"]))
    assert store.all_docids() == {"doc000", "doc001"}
    found = store.find_document(docid="doc000")
    assert found is not None
    record, text = found
    assert (record.collection, record.path, record.title, record.tags, record.passages) == (
        "notes", "dir/a.md", "Alpha", ("project/x",), 2)
    assert (record.source_hash, record.text_hash, record.active) == (doc.source_hash, doc.text_hash, True)
    assert text == doc.text
    by_path = store.find_document(collection="notes", path="dir/a.md")
    assert by_path is not None and by_path[0].docid == "doc000"
    assert store.find_document(docid="nope") is None
    assert [d.path for d in store.list_documents(None, None, 10)] == ["b.md", "dir/a.md"]
    assert [d.path for d in store.list_documents("notes", "dir/", 10)] == ["dir/a.md"]
    assert store.counts() == {"documents": 2, "inactive_documents": 0, "passages": 3}

    ids = store.document_passage_ids("doc000")
    assert len(ids) == 2
    assert store.passage_texts(ids) == {ids[0]: "first paragraph", ids[1]: "second paragraph\nspans two lines"}
    hits = store.passage_hits([(ids[1], 2.0), (ids[0], 1.0)])
    assert [(h.passage_id, h.score, h.start_line, h.end_line) for h in hits] == [
        (ids[1], 2.0, 3, 4), (ids[0], 1.0, 1, 1)]
    assert (hits[0].docid, hits[0].collection, hits[0].path, hits[0].heading_path) == (
        "doc000", "notes", "dir/a.md", ("Alpha",))
    assert store.passage_hashes(ids) == {
        ids[0]: (sha("first paragraph"), doc.source_hash, doc.text_hash),
        ids[1]: (sha("second paragraph\nspans two lines"), doc.source_hash, doc.text_hash),
    }
    states = store.document_states(["notes"])
    assert [(d, n) for d, _, n in states] == [("doc000", 2), ("doc001", 1)]
    assert store.document_states([]) == states

    tagged = SearchFilter(tags_any=("project",))  # tags match hierarchically
    assert store.passing_filters(ids, tagged) == set(ids)
    assert set(store.filtered_passage_ids(tagged)) == set(ids)
    assert store.filtered_passage_ids(SearchFilter(collections=("other",))) == []


def test_update_rename_and_deactivate(store: Store, notes: CollectionRecord) -> None:
    write(store, notes, document("a.md", "A", ["old words"]))
    run = store.start_run(["notes"])
    known = _known(store, notes, "a.md")
    store.write_documents(notes, run, [(document("a.md", "A", ["new words"]), known, "")], [], [], [])
    assert search(store, "old") == [] and search(store, "new") == ["a.md"]
    assert store.all_docids() == {"doc000"}  # an update keeps the docid

    store.rename_document(notes, run, _known(store, notes, "a.md"), "moved.md", "Moved", 9, 2)
    record, _ = store.find_document(docid="doc000") or pytest.fail("renamed document lost")
    assert (record.path, record.title) == ("moved.md", "Moved")
    assert search(store, "moved") == ["moved.md"]  # the title is searchable

    assert store.deactivate_documents(notes, run, [_known(store, notes, "moved.md")]) == 1
    record, text = store.find_document(docid="doc000") or pytest.fail("inactive document lost")
    assert (record.active, text) == (False, None)
    assert search(store, "new") == []
    assert store.counts() == {"documents": 0, "inactive_documents": 1, "passages": 0}
    assert not store.known_files(notes.id)["moved.md"].active


def test_file_errors(store: Store, notes: CollectionRecord) -> None:
    run = store.start_run(["notes"])
    store.write_documents(notes, run, [], [], [FileFailure("bad.pdf", "convert_failed", "boom", 10, 7, "h1"),
                                               FileFailure("x.md", "too_large", "big")], [])
    assert [(c, p, code) for c, p, code, _, _ in store.file_errors()] == [
        ("notes", "bad.pdf", "convert_failed"), ("notes", "x.md", "too_large")]
    # Only failures recorded with the file's state are remembered for skipping.
    assert store.failed_files(notes.id) == {"bad.pdf": FileFailure("bad.pdf", "convert_failed", "boom", 10, 7, "h1")}
    store.write_documents(notes, run, [], [], [FileFailure("bad.pdf", "timeout", "slow", 11, 8, None)], [])
    assert store.failed_files(notes.id)["bad.pdf"] == FileFailure("bad.pdf", "timeout", "slow", 11, 8, None)
    store.write_documents(notes, run, [], [], [], ["bad.pdf"])
    assert store.failed_files(notes.id) == {}
    store.write_documents(notes, run, [], [], [], ["x.md"])
    store.clear_errors_except(notes.id, set())
    assert store.file_errors() == []


def test_sequence_lookups(store: Store) -> None:
    chat = store.add_collection("chat", "/tmp/chat", ["**/*.md"], [], None, sequence=True)
    write(store, chat, document("001.md", "One", ["one"]), document("002.md", "Two", ["two"]))
    members = store.sequence_documents(["doc000", "doc001", "unknown"])
    assert sorted(members) == [("doc000", chat.id, "001.md"), ("doc001", chat.id, "002.md")]
    found = store.documents_at([(chat.id, "002.md"), (chat.id, "003.md")])
    assert list(found) == [(chat.id, "002.md")]
    assert found[(chat.id, "002.md")] == ("doc001", store.document_passage_ids("doc001")[0])


# --- lexical search ------------------------------------------------------------------------


def test_lexical_ranking_phrases_and_exclusions(store: Store, notes: CollectionRecord) -> None:
    write(
        store, notes,
        document("fox.md", "Fox", ["The quick brown fox jumps over the lazy dog"]),
        document("redis.md", "Rate limiting", ["Rate limiting with Redis: a token bucket"]),
        document("mail.md", "Mail", ["Send an e-mail to the mailing list about the rate of progress"]),
    )
    assert search(store, "fox") == ["fox.md"]
    assert search(store, "what is the fox?") == ["fox.md"]  # stopwords dropped
    assert search(store, "rate limiting")[0] == "redis.md"  # title weight
    assert search(store, '"rate limiting"') == ["redis.md"]  # a phrase is required
    assert sorted(search(store, "rate")) == ["mail.md", "redis.md"]
    assert search(store, "rate -redis") == ["mail.md"]  # negation
    assert search(store, 'rate -"token bucket"') == ["mail.md"]
    assert search(store, "mail*") == ["mail.md"]  # prefix
    assert search(store, "fox AND NOT title: ( ^near") == ["fox.md"]  # syntax in input is just text
    hits = store.search_lexical(parse_query("fox"), SearchFilter(), 5, with_text=True)
    assert hits[0][1] == "The quick brown fox jumps over the lazy dog"
    assert hits[0][0].score > 0 and hits[0][0].title == "Fox"
    light = store.search_lexical(parse_query("fox"), SearchFilter(), 5, light=True)
    assert [(h.passage_id, h.docid, h.score) for h, _ in light] == [
        (hits[0][0].passage_id, hits[0][0].docid, hits[0][0].score)]


def test_lexical_filters_apply_before_the_cut(store: Store, notes: CollectionRecord) -> None:
    other = store.add_collection("other", "/tmp/other", ["**/*.md"], [], None)
    write(store, notes, *[document(f"n{i}.md", f"N{i}", ["shared word " * (5 - i)]) for i in range(3)])
    write(store, other, document("late.md", "Late", ["shared"], tags=("a/b",), doc_date="2026-05-01"))
    assert search(store, "shared", limit=1) != ["late.md"]
    assert search(store, "shared", SearchFilter(collections=("other",)), limit=1) == ["late.md"]
    assert search(store, "shared", SearchFilter(tags_all=("a",)), limit=1) == ["late.md"]
    assert search(store, "shared", SearchFilter(since="2026-03-01")) == ["late.md"]
    assert "late.md" not in search(store, "shared", SearchFilter(until="2026-03-01"))


def test_lexical_cjk(store: Store, notes: CollectionRecord) -> None:
    write(
        store, notes,
        document("zh.md", "Beijing", ["北京大学是一所大学"]),
        document("ja.md", "Tokyo", ["東京大学 and the fox"]),
        document("en.md", "English", ["no cjk here"]),
    )
    assert search(store, "北京") == ["zh.md"]
    assert sorted(search(store, "大学")) == ["ja.md", "zh.md"]
    assert search(store, "大学 -北京") == ["ja.md"]
    assert search(store, "北") == ["zh.md"]  # one character: a bigram prefix
    # Both indexes match: the scores add up, so the passage found twice ranks first.
    assert search(store, "大学 fox")[0] == "ja.md"


def test_lexical_cjk_sentences_typed_without_spaces(store: Store, notes: CollectionRecord) -> None:
    # Issue 13: a CJK sentence is ranked by its parts, not required as one phrase.
    write(
        store, notes,
        document("unzip.md", "unzip", ["从 ZIP 压缩包中解压文件。", "把压缩文件解压到指定目录：unzip 压缩包.zip -d 目录"]),
        document("zip.md", "zip", ["把文件打包成 ZIP 压缩包。", "给压缩包设置密码：zip -e 压缩包.zip 文件"]),
        document("wget.md", "wget", ["从网络下载文件的工具。", "下载一个网址的内容：wget https://example.com/文件"]),
        document("clone.md", "git clone", ["克隆一个现有的代码仓库。", "克隆仓库到指定目录：git clone 远程仓库地址"]),
        document("commit.md", "git commit", ["把暂存的更改提交到代码仓库。"]),
        document("gzip-ja.md", "gzip", ["ファイルを圧縮・展開する。", "ファイルを圧縮して置き換える：gzip ファイル",
                                        "圧縮されたファイルを展開する：gzip --decompress ファイル.gz"]),
        document("tar-ja.md", "tar", ["アーカイブを作成・展開する。"]),
    )
    assert search(store, "如何解压缩文件")[0] == "unzip.md"
    assert search(store, "从网上下载文件")[0] == "wget.md"
    assert search(store, "克隆代码仓库")[0] == "clone.md"
    assert search(store, "ファイルを圧縮")[0] == "gzip-ja.md"
    assert search(store, '"解压缩文件"') == []  # quoted: a phrase, required
    assert search(store, '"压缩包"')[0] in {"unzip.md", "zip.md"}
    # Issue 17: a pasted flag is a word, not an exclusion of its own page.
    assert search(store, "gzip --decompress")[0] == "gzip-ja.md"
    assert search(store, "gzip --decompress の意味")[0] == "gzip-ja.md"


def test_lexical_pasted_text(store: Store, notes: CollectionRecord) -> None:
    write(
        store, notes,
        document("gzip.md", "gzip", ["Compress or decompress files.", "Decompress a file: gzip --decompress file.gz",
                                     "Keep the input file: gzip -k file"]),
        document("backup.md", "Backups", ["Backup to tape and to an off-site copy"]),
        document("disk.md", "Disk backup", ["Backup to a second disk; keep an off-site copy in a safe"]),
        document("notes.md", "Notes", ["an off-site meeting about the copy machine"]),
    )
    assert search(store, "gzip --decompress")[0] == "gzip.md"
    assert set(search(store, "gzip -k")) == {"gzip.md"}
    assert search(store, "backup -tape") == ["disk.md"]  # search keeps its exclusions
    assert sorted(search(store, '"off-site copy"')) == ["backup.md", "disk.md"]  # required

    # query (natural language): the phrase boosts, nothing filters.
    def loose(query: str) -> list[str]:
        return [hit.path for hit, _ in store.search_lexical(parse_query(query, strict=False), ALL, 10)]

    assert loose('"off-site copy"')[-1] == "notes.md"  # found, below the pages with the phrase
    assert set(loose('"off-site copy" -tape')) == {"backup.md", "disk.md", "notes.md"}


# --- vectors -------------------------------------------------------------------------------


def test_vectors(store: Store, notes: CollectionRecord) -> None:
    write(store, notes, document("a.md", "A", ["one", "two", "one"]), document("b.md", "B", ["three"]))
    fp = "model-a"
    assert not store.has_vectors(fp)
    assert store.count_pending(fp) == 3  # distinct passage texts
    assert store.count_pending(fp, [notes.id + 1000]) == 0
    pending = store.pending_passages(fp, None, 10)
    assert [text for _, text in pending] == ["one", "two", "three"]
    version = store.data_version()
    vectors = {h: np.asarray([i, 1.0], dtype="<f4") for i, (h, _) in enumerate(pending)}
    store.write_vectors(fp, [(h, v.tobytes(), 2, 7) for h, v in vectors.items()])
    assert store.data_version() != version
    assert store.has_vectors(fp) and not store.has_vectors("model-b")
    assert store.vector_counts() == {fp: 3}
    assert store.count_pending(fp) == 0 and store.pending_passages(fp, None, 10) == []
    ids, docids, blobs = store.vector_rows(fp)
    assert ids == sorted(ids) and len(ids) == 4  # the repeated text shares its vector
    assert docids == ["doc000", "doc000", "doc000", "doc001"]
    texts = store.passage_texts(ids)
    for pid, blob in zip(ids, blobs, strict=True):
        assert np.frombuffer(blob, dtype="<f4").tolist() == vectors[sha(texts[pid])].tolist()


def test_data_version_sees_every_writer(open_store: OpenStore, store: Store, notes: CollectionRecord) -> None:
    """The data version changes with every change of passages or vectors, made on this
    connection or committed on another (a second store on the same index, the reader),
    and stays put while nothing changes (it is kept between calls)."""
    other = open_store("index")
    reader = getattr(store, "reader", lambda: other)()
    write(store, notes, document("a.md", "A", ["one", "two"]))
    seen = [s.data_version() for s in (store, other, reader)]
    assert [s.data_version() for s in (store, other, reader)] == seen  # nothing changed
    pending = store.pending_passages("fp", None, 10)
    other.write_vectors("fp", [(pending[0][0], np.asarray([1.0, 0.0], dtype="<f4").tobytes(), 2, 1)])
    after = [s.data_version() for s in (store, other, reader)]
    assert all(a != b for a, b in zip(after, seen, strict=True))
    store.write_vectors("fp", [(pending[1][0], np.asarray([0.0, 1.0], dtype="<f4").tobytes(), 2, 1)])
    again = [s.data_version() for s in (store, other, reader)]
    assert all(a != b for a, b in zip(again, after, strict=True))
    write(store, notes, document("b.md", "B", ["three"]))  # a new passage, same vectors
    assert all(s.data_version() != v for s, v in zip((store, other, reader), again, strict=True))


# --- links -----------------------------------------------------------------------------------


def test_links_and_graph_reads(store: Store, notes: CollectionRecord) -> None:
    a_links = (
        LinkRow("wiki", "B", None, None, False, 3, 1, "[[B]]"),
        LinkRow("markdown", "c%20d.md", "Top", "see", True, 5, 4, "![see](c%20d.md#Top)"),
    )
    write(
        store, notes,
        document("a.md", "A", ["links to B", "and c d"], links=a_links, aliases=("Alpha",),
                 metadata={"related": ["[[B]]"]}, headings=((1, "A", 1), (2, "Sub", 3))),
        document("b.md", "B", ["back to [[A]]"], links=(LinkRow("wiki", "A", None, None, False, 1, 9, "[[A]]"),),
                 tags=("t/x", "u")),
    )
    notes_rows = store.graph_notes(None, metadata=True)
    a, b = sorted(notes_rows, key=lambda n: n.path)
    assert (a.docid, a.collection, a.title, a.aliases, a.metadata) == (
        "doc000", "notes", "A", ("Alpha",), {"related": ["[[B]]"]})
    assert b.metadata is None  # no frontmatter
    assert store.graph_notes(["notes"], metadata=False)[0].metadata is None
    assert store.graph_notes(["other"], metadata=True) == []

    assert list(store.link_rows([a.id])) == [(a.id, a_links[0]), (a.id, a_links[1])]
    assert [doc for doc, _ in store.link_rows(None)] == sorted([a.id, a.id, b.id])
    assert [ln.target for _, ln in store.link_rows(None, ["a"])] == ["c%20d.md", "A"]  # '%' kept
    assert [ln.target for _, ln in store.link_rows([a.id], ["b"])] == ["B", "c%20d.md"]

    assert store.heading_rows([a.id, b.id]) == {a.id: [("A", 1), ("Sub", 3)], b.id: []}
    assert store.text_prefixes([a.id], 5) == {a.id: "links"}
    assert store.document_texts([b.id]) == {b.id: "back to [[A]]\n"}
    assert store.tagged_documents(None) == (2, {b.id: ["t/x", "u"]})
    assert store.tagged_documents("notes")[0] == 2


# --- runs and journal -------------------------------------------------------------------------


def test_runs_and_journal(store: Store, notes: CollectionRecord) -> None:
    assert store.last_run() is None and store.changes() == []
    first = write(store, notes, document("a.md", "A", ["alpha"]), document("b.md", "B", ["beta"]))
    run_id, started, finished, status, counts = store.last_run() or pytest.fail("no run")
    assert (run_id, status, counts) == (first, "completed", '{"added":2}')
    assert started and finished and store.get_collection("notes").last_indexed_at == finished

    second = store.start_run(["notes"])
    last = store.last_run()
    assert last is not None and (last[0], last[2], last[3]) == (second, None, "running")
    store.write_documents(notes, second, [(document("a.md", "A", ["alpha 2"]), _known(store, notes, "a.md"), "")],
                          [], [], [])
    store.rename_document(notes, second, _known(store, notes, "b.md"), "c.md", "C", 1, 1)
    store.deactivate_documents(notes, second, [_known(store, notes, "c.md")])
    store.write_documents(notes, second, [(document("c.md", "C", ["back"]), _known(store, notes, "c.md"), "")],
                          [], [], [])
    changes = store.changes()
    assert [(c.kind, c.docid, c.old_path, c.new_path, c.run_id) for c in changes] == [
        ("create", "doc000", None, "a.md", first),
        ("create", "doc001", None, "b.md", first),
        ("update", "doc000", "a.md", "a.md", second),
        ("rename", "doc001", "b.md", "c.md", second),
        ("delete", "doc001", "c.md", None, second),
        ("reactivate", "doc001", "c.md", "c.md", second),
    ]
    assert [c.seq for c in changes] == sorted(c.seq for c in changes)
    assert changes[2].old_text_hash != changes[2].new_text_hash
    assert store.changes(after=changes[3].seq) == changes[4:]
    assert store.changes(limit=1) == changes[:1]
