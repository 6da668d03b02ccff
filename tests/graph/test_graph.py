"""The link graph and tags on a generated 220-note vault, against a hand-written expected graph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import NotFoundError, ValidationError
from cairn.graph.frontmatter import frontmatter_links, normalise_key
from cairn.graph.resolve import LinkSpec, Note, NoteIndex, anchor_found, block_ids, resolve_link
from cairn.graph.tags import tag_tree
from tests.conftest import cli_json, run_cli
from tests.graph_vault import FILLERS, HAND, filler_name, write_vault

U = "cairn://vault/"

# (line, raw, kind, type, target path or None, resolution, anchor_found, tie_break) per note,
# written by hand from the rules in cairn.graph.resolve.
EXPECTED_LINKS: dict[str, list[tuple[int, str, str, str | None, str | None, str, bool | None, str | None]]] = {
    "Home.md": [
        (4, "[[Projects/Alpha]]", "frontmatter", "related", "Projects/Alpha.md", "exact_path", None, None),
        (5, "[[Index]]", "frontmatter", "up", "Index.md", "basename", None, None),
        (9, "[[Projects/Alpha]]", "wiki", None, "Projects/Alpha.md", "exact_path", None, None),
        (9, "[[alpha#Goals]]", "wiki", None, "Projects/Alpha.md", "basename", True, None),
        (9, "[[Alpha#Nope]]", "wiki", None, "Projects/Alpha.md", "basename", False, None),
        (10, "![[Projects/Beta]]", "wiki", None, "Projects/Beta.md", "exact_path", None, None),
        (10, "![[diagram.png]]", "wiki", None, None, "attachment", None, None),
        (11, "[[Meeting]]", "wiki", None, "Areas/Meeting.md", "ambiguous", None, "shortest_path"),
        (11, "[[readme]]", "wiki", None, "Readme.md", "ambiguous", None, "same_folder"),
        (11, "[[Dup]]", "wiki", None, "X/Dup.md", "ambiguous", None, "lexicographic"),
        (12, "[[B-Project]]", "wiki", None, "Projects/Beta.md", "alias", None, None),
        (12, "[[amazing grace]]", "wiki", None, "Topics/Compilers.md", "ambiguous", None, "shortest_path"),
        (13, "[[Nowhere]]", "wiki", None, None, "unresolved", None, None),
        (13, "[[Projects/Gamma]]", "wiki", None, None, "unresolved", None, None),
        (14, "[[Alpha#^alpha-risk]]", "wiki", None, "Projects/Alpha.md", "basename", True, None),
        (14, "[[Alpha#^no-such-block]]", "wiki", None, "Projects/Alpha.md", "basename", False, None),
        (15, "[[#Home]]", "wiki", None, "Home.md", "self", True, None),
        (15, "[[#Missing heading]]", "wiki", None, "Home.md", "self", False, None),
        (16, "[deep](Areas/Sub/Deep%20Note.md)", "markdown", None, "Areas/Sub/Deep Note.md", "relative_markdown", None, None),
        (16, "[web](https://example.com/x#y)", "markdown", None, None, "external", None, None),
    ],
    "Index.md": [
        (3, "[[Home]]", "wiki", None, "Home.md", "basename", None, None),
        (4, "[[Projects/Beta|the beta project]]", "wiki", None, "Projects/Beta.md", "exact_path", None, None),
        (5, "[[projects/alpha]]", "wiki", None, "Projects/Alpha.md", "exact_path", None, None),
    ],
    "Projects/Alpha.md": [
        (5, "[[Beta]]", "frontmatter", "depends_on", "Projects/Beta.md", "basename", None, None),
        (6, "Graphs", "frontmatter", "depends_on", "Topics/Graphs.md", "basename", None, None),
        (7, "[[Compilers]]", "frontmatter", "see_also", "Topics/Compilers.md", "basename", None, None),
        (13, "[[Home]]", "wiki", None, "Home.md", "basename", None, None),
        (19, "[sibling](Beta.md)", "markdown", None, "Projects/Beta.md", "relative_markdown", None, None),
        (19, "[up](../Index.md)", "markdown", None, "Index.md", "relative_markdown", None, None),
        (19, "[readme](../Readme.md#Intro)", "markdown", None, "Readme.md", "relative_markdown", True, None),
        (20, "[[./Beta#Plan]]", "wiki", None, "Projects/Beta.md", "exact_path", True, None),
        (20, "[[../Areas/Health]]", "wiki", None, "Areas/Health.md", "exact_path", None, None),
        (21, "[[Sub/Deep Note]]", "wiki", None, "Areas/Sub/Deep Note.md", "path_suffix", None, None),
    ],
    "Projects/Beta.md": [
        (3, "[[Alpha]]", "frontmatter", "parent", "Projects/Alpha.md", "basename", None, None),
        (9, "[risks](Alpha.md#risks--issues)", "markdown", None, "Projects/Alpha.md", "relative_markdown", True, None),
        (9, "[goals](./Alpha.md#Goals)", "markdown", None, "Projects/Alpha.md", "relative_markdown", True, None),
        (9, "[bad](Alpha.md#no-heading)", "markdown", None, "Projects/Alpha.md", "relative_markdown", False, None),
        (10, "[[Meeting]]", "wiki", None, "Projects/Meeting.md", "ambiguous", None, "same_folder"),
    ],
    "Projects/Meeting.md": [],
    "Areas/Meeting.md": [(3, "[[Home|home page]]", "wiki", None, "Home.md", "basename", None, None)],
    "Archive/2023/Meeting.md": [
        (3, "[[Meeting]]", "wiki", None, "Archive/2023/Meeting.md", "ambiguous", None, "same_folder"),
    ],
    "Areas/Health.md": [
        (6, "[[readme]]", "wiki", None, "Readme.md", "ambiguous", None, "shortest_path"),
        (6, "[[Dup]]", "wiki", None, "X/Dup.md", "ambiguous", None, "lexicographic"),
        (6, "[Home](../Home.md)", "markdown", None, "Home.md", "relative_markdown", None, None),
        (6, "[missing](../Nope.md)", "markdown", None, None, "unresolved", None, None),
        (6, "[outside](../../outside.md)", "markdown", None, None, "unresolved", None, None),
    ],
    "Areas/Sub/Deep Note.md": [
        (3, "[[Health]]", "wiki", None, "Areas/Health.md", "basename", None, None),
        (3, "![alt](../../attachments/pic%201.png)", "markdown", None, None, "attachment", None, None),
        (3, "[[Guide.md]]", "wiki", None, "Docs/Guide.md", "basename", None, None),
    ],
    "Docs/Guide.md": [
        (3, "[[readme]]", "wiki", None, "Docs/Readme.md", "ambiguous", None, "same_folder"),
        (3, "[[Readme#Intro]]", "wiki", None, "Docs/Readme.md", "ambiguous", False, "same_folder"),
        (3, "[[Docs/Readme]]", "wiki", None, "Docs/Readme.md", "exact_path", None, None),
    ],
    "Docs/Readme.md": [],
    "Readme.md": [(5, "[[Index]]", "wiki", None, "Index.md", "basename", None, None)],
    "X/Dup.md": [],
    "Y/Dup.md": [(3, "[[dup]]", "wiki", None, "Y/Dup.md", "ambiguous", None, "same_folder")],
    "People/Ada Lovelace.md": [
        (4, "[[Grace Hopper]]", "frontmatter", "related", "People/Grace Hopper.md", "basename", None, None),
        (5, "[[Nobody Known]]", "frontmatter", "related", None, "unresolved", None, None),
        (9, "[[Ada]]", "wiki", None, "People/Ada Lovelace.md", "alias", None, None),
        (9, "[[People/Grace Hopper|Grace]]", "wiki", None, "People/Grace Hopper.md", "exact_path", None, None),
    ],
    "People/Grace Hopper.md": [
        (4, "Index", "frontmatter", "up", "Index.md", "basename", None, None),
        (8, "[[Compilers]]", "wiki", None, "Topics/Compilers.md", "basename", None, None),
    ],
    "Topics/Compilers.md": [(6, "[[Graphs#Trees]]", "wiki", None, "Topics/Graphs.md", "basename", True, None)],
    "Topics/Graphs.md": [
        (5, "[[Topics/Graphs#Cycles]]", "wiki", None, "Topics/Graphs.md", "exact_path", False, None),
        (5, "![[Compilers#Compilers]]", "wiki", None, "Topics/Compilers.md", "basename", True, None),
    ],
    "Daily/2024-01-01.md": [
        (2, "Home", "frontmatter", "related", "Home.md", "basename", None, None),
        (2, "[[Index]]", "frontmatter", "related", "Index.md", "basename", None, None),
        (2, "[link](../Readme.md)", "frontmatter", "related", "Readme.md", "relative_markdown", None, None),
        (2, "https://example.org", "frontmatter", "related", None, "external", None, None),
        (10, "[[Projects/Alpha#Goals|alpha goals]]", "wiki", None, "Projects/Alpha.md", "exact_path", True, None),
    ],
    "Orphan.md": [],
}

# Backlinks of every hand-written note, by hand (self-links never count).
EXPECTED_BACKLINKS: dict[str, set[str]] = {
    "Home.md": {"Index.md", "Projects/Alpha.md", "Areas/Meeting.md", "Areas/Health.md", "Daily/2024-01-01.md"},
    "Index.md": {"Home.md", "Projects/Alpha.md", "Readme.md", "People/Grace Hopper.md", "Daily/2024-01-01.md"},
    "Projects/Alpha.md": {"Home.md", "Index.md", "Projects/Beta.md", "Daily/2024-01-01.md"},
    "Projects/Beta.md": {"Home.md", "Index.md", "Projects/Alpha.md"},
    "Projects/Meeting.md": {"Projects/Beta.md"},
    "Areas/Meeting.md": {"Home.md"},
    "Archive/2023/Meeting.md": set(),
    "Areas/Health.md": {"Projects/Alpha.md", "Areas/Sub/Deep Note.md"},
    "Areas/Sub/Deep Note.md": {"Home.md", "Projects/Alpha.md"},
    "Docs/Guide.md": {"Areas/Sub/Deep Note.md"},
    "Docs/Readme.md": {"Docs/Guide.md"},
    "Readme.md": {"Home.md", "Projects/Alpha.md", "Areas/Health.md", "Daily/2024-01-01.md"},
    "X/Dup.md": {"Home.md", "Areas/Health.md"},
    "Y/Dup.md": set(),
    "People/Ada Lovelace.md": set(),
    "People/Grace Hopper.md": {"People/Ada Lovelace.md"},
    "Topics/Compilers.md": {"Home.md", "Projects/Alpha.md", "People/Grace Hopper.md", "Topics/Graphs.md"},
    "Topics/Graphs.md": {"Projects/Alpha.md", "Topics/Compilers.md"},
    "Daily/2024-01-01.md": set(),
    "Orphan.md": set(),
}


def _path(uri: str | None) -> str | None:
    from urllib.parse import unquote

    return None if uri is None else unquote(uri[len(U):])


@pytest.fixture(scope="module")
def vault_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_vault(tmp_path_factory.mktemp("vault"))


@pytest.fixture
def gws(ws: Any, vault_dir: Path) -> Any:
    ws.add_collection(vault_dir, name="vault")
    summary = ws.index()
    assert summary.counts.added == len(HAND) + FILLERS >= 200
    return ws


def test_links_match_hand_written_expectations(gws: Any) -> None:
    assert set(EXPECTED_LINKS) == set(HAND)
    for path, expected in EXPECTED_LINKS.items():
        got = [
            (ln.line, ln.raw, ln.kind, ln.type, _path(ln.target_uri), ln.resolution, ln.anchor_found, ln.tie_break)
            for ln in gws.links("vault/" + path).links
        ]
        assert got == expected, path


def test_backlinks_match_hand_written_expectations(gws: Any) -> None:
    # the hand-written backlinks agree with the hand-written links, inverted
    inverted: dict[str, set[str]] = {p: set() for p in HAND}
    for source, links in EXPECTED_LINKS.items():
        for link in links:
            if link[4] is not None and link[4] != source:
                inverted[link[4]].add(source)
    assert inverted == EXPECTED_BACKLINKS
    for path, expected in EXPECTED_BACKLINKS.items():
        result = gws.backlinks("vault/" + path)
        assert {_path(ln.source_uri) for ln in result.links} == expected, path
        assert all(_path(ln.target_uri) == path for ln in result.links)
        assert result.count == len(result.links) and not result.truncated


def test_generated_fillers_resolve_exactly(gws: Any) -> None:
    for i in (0, 1, 2, 10, 57, 199):
        got = [(ln.raw, _path(ln.target_uri), ln.resolution, ln.anchor_found)
               for ln in gws.links(f"vault/filler/{filler_name(i)}.md").links]
        expected = [
            (f"[[{filler_name(i + 1)}]]", f"filler/{filler_name(i + 1)}.md", "basename", None),
            (f"[[filler/{filler_name(i * 7)}#Section {i % 3}]]", f"filler/{filler_name(i * 7)}.md",
             "exact_path", i % 3 != 2),
        ]
        if i % 10 == 0:
            expected.append((f"[[ghost-{i}]]", None, "unresolved", None))
        assert got == expected, i
    back = gws.backlinks("vault/filler/f007.md")
    # f006 (next) and every i with 7i = 7 (mod 200): i = 1
    assert sorted(_path(ln.source_uri) for ln in back.links) == ["filler/f001.md", "filler/f006.md"]


def test_frontmatter_link_positions(gws: Any) -> None:
    daily = [(ln.line, ln.column, ln.raw) for ln in gws.links("vault/Daily/2024-01-01.md").links]
    assert daily[:4] == [(2, 11, "Home"), (2, 18, "[[Index]]"), (2, 31, "[link](../Readme.md)"),
                         (2, 55, "https://example.org")]
    home = gws.links("vault/Home.md").links
    assert (home[0].line, home[0].column, home[1].column) == (4, 11, 5)
    text = gws.get("vault/Daily/2024-01-01.md").text.split("\n")
    assert text[1][30:].startswith("[link](../Readme.md)")


def test_graph_summary(gws: Any) -> None:
    summary = gws.graph("vault")
    n = summary.counts
    assert n.documents == len(HAND) + FILLERS
    hand_links = sum(len(v) for v in EXPECTED_LINKS.values())
    filler_links = 2 * FILLERS + FILLERS // 10
    assert n.links == hand_links + filler_links
    hand_unresolved = sum(1 for v in EXPECTED_LINKS.values() for ln in v if ln[5] == "unresolved")
    assert n.unresolved == hand_unresolved + FILLERS // 10
    assert n.external == 2 and n.attachments == 2
    assert n.ambiguous == sum(1 for v in EXPECTED_LINKS.values() for ln in v if ln[5] == "ambiguous")
    # no link in or out but to themselves (every filler links and is linked)
    assert n.orphans == 3  # Orphan.md, Archive/2023/Meeting.md, Y/Dup.md
    assert len(summary.unresolved) == n.unresolved and not summary.truncated
    docid = {node.uri: node.docid for node in summary.nodes}
    edges = {(e.source, e.target): e for e in summary.edges}
    home_alpha = edges[(docid[U + "Home.md"], docid[U + "Projects/Alpha.md"])]
    assert home_alpha.links == 6 and home_alpha.kinds == ["frontmatter", "wiki"] and home_alpha.types == ["related"]
    assert edges[(docid[U + "Home.md"], docid[U + "Projects/Beta.md"])].embed
    # self links are not edges
    assert (docid[U + "Y/Dup.md"], docid[U + "Y/Dup.md"]) not in edges


def test_caps_report_truncation(gws: Any) -> None:
    small = gws.graph("vault", max_nodes=50, max_edges=3, max_unresolved=2)
    assert small.truncated and len(small.nodes) == 50 and len(small.edges) == 3
    assert {c.name for c in small.caps if c.hit} == {"max_nodes", "max_edges", "max_unresolved"}
    few = gws.links("vault/Home.md", limit=3)
    assert few.truncated and len(few.links) == 3
    near = gws.graph_neighbors("vault/filler/f000.md", depth=5, max_nodes=4)
    assert near.truncated and len(near.neighbors) == 4
    edges = gws.graph_neighbors("vault/filler/f000.md", depth=3, max_edges=2)
    assert edges.truncated and [c.name for c in edges.caps if c.hit] == ["max_edges"]
    cut = gws.graph_path("vault/filler/f000.md", "vault/filler/f100.md", direction="out", max_depth=1)
    assert not cut.found and cut.truncated
    with pytest.raises(ValidationError):
        gws.graph_neighbors("vault/Home.md", depth=0)
    with pytest.raises(ValidationError):
        gws.graph_neighbors("vault/Home.md", depth=6)
    with pytest.raises(ValidationError):
        gws.graph_path("vault/Home.md", "vault/Index.md", direction="sideways")


def test_graph_path_is_explained(gws: Any) -> None:
    path = gws.graph_path("vault/Home.md", "vault/Topics/Graphs.md")
    assert path.found and path.length == 2
    hops = [(_path(h.from_uri), _path(h.to_uri), h.direction, h.link.raw, h.link.line, h.link.type,
             h.link.resolution) for h in path.hops]
    assert hops == [
        ("Home.md", "Projects/Alpha.md", "forward", "[[Projects/Alpha]]", 4, "related", "exact_path"),
        ("Projects/Alpha.md", "Topics/Graphs.md", "forward", "Graphs", 6, "depends_on", "basename"),
    ]
    back = gws.graph_path("vault/Topics/Graphs.md", "vault/Home.md", direction="out")
    assert not back.found and not back.truncated and back.hops == []
    both = gws.graph_path("vault/Topics/Graphs.md", "vault/Home.md")
    assert [(_path(h.from_uri), _path(h.to_uri), h.direction, h.link.raw) for h in both.hops] == [
        ("Topics/Graphs.md", "Topics/Compilers.md", "forward", "![[Compilers#Compilers]]"),
        ("Topics/Compilers.md", "Home.md", "backward", "[[amazing grace]]"),
    ]
    same = gws.graph_path("vault/Home.md", "vault/Home.md")
    assert same.found and same.length == 0
    assert not gws.graph_path("vault/Orphan.md", "vault/Home.md").found


def test_neighbors_depth(gws: Any) -> None:
    one = gws.graph_neighbors("vault/Topics/Graphs.md", depth=1, direction="out")
    assert [_path(n.uri) for n in one.neighbors] == ["Topics/Compilers.md"]
    both = gws.graph_neighbors("vault/Topics/Graphs.md", depth=1)
    assert [(_path(n.uri), n.via.direction) for n in both.neighbors] == [
        ("Topics/Compilers.md", "forward"), ("Projects/Alpha.md", "backward"),
    ]
    two = gws.graph_neighbors("vault/Topics/Graphs.md", depth=2)
    assert {_path(n.uri) for n in two.neighbors if n.distance == 2} >= {"Home.md", "Projects/Beta.md"}
    assert not gws.graph_neighbors("vault/Orphan.md", depth=3).neighbors


def test_graph_expand(gws: Any) -> None:
    graphs = gws.get("vault/Topics/Graphs.md").docid
    orphan = gws.get("vault/Orphan.md").docid
    out = gws.graph_expand([orphan, graphs])
    assert [(_path(d.uri), d.seed_docid, d.via.direction, d.via.link.raw) for d in out.documents] == [
        ("Topics/Compilers.md", graphs, "forward", "![[Compilers#Compilers]]"),
        ("Projects/Alpha.md", graphs, "backward", "Graphs"),
    ]
    assert out.documents[1].via.link.line == 6 and not out.truncated
    one = gws.graph_expand([graphs], per_seed=1)
    assert len(one.documents) == 1 and one.truncated
    assert {c.name for c in one.caps if c.hit} == {"per_seed"}
    # seeds are never added, and each document is added once
    alpha = gws.get("vault/Projects/Alpha.md").docid
    both = gws.graph_expand([graphs, alpha], max_total=50, per_seed=50)
    uris = [d.uri for d in both.documents]
    assert len(uris) == len(set(uris)) and U + "Projects/Alpha.md" not in uris
    with pytest.raises(NotFoundError):
        gws.graph_expand(["deadbeef"])


def test_tags_hierarchy(gws: Any) -> None:
    tags = {t.tag: t for t in gws.tags().tags}
    assert (tags["area"].count, tags["area"].direct, tags["area"].children) == (2, 0, ["area/health", "area/home"])
    assert (tags["area/health"].count, tags["area/health"].direct) == (1, 1)
    assert tags["area/health/sleep"].parent == "area/health" and tags["area/health/sleep"].depth == 2
    assert (tags["project"].count, tags["project"].direct) == (1, 1)
    assert tags["filler"].count == FILLERS and tags["filler/group0"].count == FILLERS // 5
    assert tags["inline"].children == ["inline/tag"]
    assert gws.tags("vault").tags == gws.tags().tags
    with pytest.raises(NotFoundError):
        gws.tags("nope")


def test_cli_json_equals_sdk_and_exit_codes(vault_dir: Path) -> None:
    run_cli("collection", "add", str(vault_dir), "--name", "vault")
    run_cli("index")
    with cairn.open() as ws:
        for args, sdk in [
            (("links", "vault/Home.md"), ws.links("vault/Home.md")),
            (("backlinks", "vault/Projects/Alpha.md"), ws.backlinks("vault/Projects/Alpha.md")),
            (("graph", "--collection", "vault", "--max-nodes", "50"), ws.graph("vault", max_nodes=50)),
            (("graph", "path", "vault/Home.md", "vault/Topics/Graphs.md"),
             ws.graph_path("vault/Home.md", "vault/Topics/Graphs.md")),
            (("graph", "neighbors", "vault/Topics/Graphs.md", "--depth", "2"),
             ws.graph_neighbors("vault/Topics/Graphs.md", depth=2)),
            (("tags",), ws.tags()),
        ]:
            assert cli_json(*args) == sdk.model_dump(mode="json"), args
    human = run_cli("graph").stdout
    assert "documents" in human and "unresolved" in human
    assert "[[Projects/Alpha]]" in run_cli("graph", "path", "vault/Home.md", "vault/Topics/Graphs.md").stdout
    assert "#area" in run_cli("tags").stdout
    assert "ambiguous" in run_cli("links", "vault/Home.md").stdout
    for args, code in [
        (("links", "vault/nope.md"), "not_found"),
        (("backlinks", "deadbeef"), "not_found"),
        (("graph", "path", "vault/Home.md", "vault/nope.md"), "not_found"),
        (("graph", "--collection", "nope"), "not_found"),
        (("graph", "neighbors", "vault/Home.md", "--depth", "9"), "invalid_input"),
        (("links", "justaword"), "invalid_input"),
    ]:
        proc = run_cli(*args, "--json", check=False)
        assert proc.returncode == 1, args
        assert json.loads(proc.stdout)["error"]["code"] == code, args
    # --tags-any matches a tag's descendants: "area" finds the note tagged area/health
    hits = cli_json("search", "Health", "--tags-any", "area")
    assert U + "Areas/Health.md" in {r["uri"] for r in hits["results"]}
    hits = cli_json("search", "Health", "--tags-any", "area/home")
    assert U + "Areas/Health.md" not in {r["uri"] for r in hits["results"]}


# --- pure cores ---------------------------------------------------------------------------


def test_frontmatter_value_forms() -> None:
    meta = {"Depends-On": [["a"], ["b|B"]], "related": "[[c#H|C]] and [[d]]", "up": 42,
            "see_also": {"x": 1}, "title": "[[not a link key]]"}
    got = [(ln.type, ln.syntax, ln.target, ln.anchor, ln.alias)
           for ln in frontmatter_links(meta, ["depends_on", "related", "up", "see_also"], None)]
    assert got == [("depends_on", "wiki", "a", None, None), ("depends_on", "wiki", "b", None, "B"),
                   ("related", "wiki", "c", "H", "C"), ("related", "wiki", "d", None, None),
                   ("up", "wiki", "42", None, None)]
    assert normalise_key(" See Also ") == "see_also"


def test_resolution_core_without_a_store() -> None:
    notes = [Note(1, "a1", "v", "A.md", "A"), Note(2, "b2", "v", "dir/B.md", "B", ("bee",)),
             Note(3, "c3", "w", "A.md", "A other")]
    index = NoteIndex.build(notes)

    def res(target: str, syntax: str = "wiki", source: Note = notes[1]) -> tuple[str, str | None]:
        spec = LinkSpec("wiki" if syntax == "wiki" else "markdown", syntax, target, None, None,  # type: ignore[arg-type]
                        False, 1, 1, target)
        r = resolve_link(spec, source, index)
        return r.reason, r.target.docid if r.target else None

    assert res("a") == ("basename", "a1")  # collection "w" is another vault
    assert res("BEE") == ("alias", "b2")
    assert res("../A.md", "markdown") == ("relative_markdown", "a1")
    assert res("A.md", "markdown") == ("basename", "a1")  # shortest-path Markdown link
    assert res("mailto:x@y.z", "markdown") == ("external", None)
    assert res("..") == ("unresolved", None)
    assert res("x.pdf") == ("attachment", None)
    assert res("2024.01") == ("unresolved", None)
    headings = [("Top", 1), ("Risks & Issues", 3), ("Sub", 5)]
    assert anchor_found("risks--issues", headings, None)
    assert anchor_found("Top#Sub", headings, None) and not anchor_found("Sub#Top", headings, None)
    assert anchor_found("^x", headings, None) is None
    assert block_ids("a ^one\n^two\nno^three\n") == {"one", "two"}
    assert [t.tag for t in tag_tree([["a/b/c"], ["a"]])] == ["a", "a/b", "a/b/c"]
