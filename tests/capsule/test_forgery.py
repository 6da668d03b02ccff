"""Forged capsules (issue 13, point 10): a capsule edited and *resealed* (evidence ids,
``budget.bytes_used`` and ``capsule_id`` recomputed, as anyone can: they are unkeyed
hashes) never verifies as unchanged. Each forgery is caught by the consistency checks
(``capsule_inconsistent``), by the recorded hashes being recomputed from the sources
(``mismatches``), and, when the capsule keeps its old signature, by ``signature-invalid``.
Authenticity: signed by this install, by another key, unsigned, or an invalid signature."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cairn.capsule.canonical import canonical_json, capsule_digest, evidence_id
from cairn.contracts.capsule import Capsule
from cairn.errors import ValidationError
from tests.conftest import run_cli
from tests.schemas import assert_valid

GOAL = "backup retention drill atlas maps"


def reseal(data: dict[str, Any], *, keep_signature: bool = False) -> bytes:
    """What a forger without the key can do: recompute every evidence id, the byte count
    and the capsule id (dropping the signature, or leaving the now stale one in place)."""
    data = copy.deepcopy(data)
    if not keep_signature:
        data["signature"] = None
    for item in data["evidence"]:
        item["passage_hash"] = hashlib.sha256(item["text"].encode()).hexdigest()
        item["id"] = evidence_id(item["uri"], item["docid"], item["start_line"], item["end_line"],
                                 item["text_hash"], item["passage_hash"])
    size = 0
    for _ in range(10):
        data["budget"]["bytes_used"] = size
        measured = len(canonical_json(Capsule.model_validate(data)))
        if measured == size:
            break
        size = measured
    data["capsule_id"] = capsule_digest(Capsule.model_validate(data).model_dump(mode="json"))
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


@pytest.fixture
def built(ws: Any, notes: Path) -> dict[str, Any]:
    """A signed capsule of several items over the example notes, as saved JSON data."""
    ws.add_collection(notes, name="notes")
    ws.index()
    capsule = ws.context_build(GOAL, budget_tokens=None)
    assert len(capsule.evidence) >= 3 and capsule.signature is not None
    data: dict[str, Any] = json.loads(canonical_json(capsule))
    return data


def _renumber(data: dict[str, Any]) -> dict[str, str]:
    """Give the items refs E1..En again; returns old ref -> new ref."""
    mapping = {}
    for n, item in enumerate(data["evidence"], 1):
        mapping[item["ref"]] = f"E{n}"
        item["ref"] = f"E{n}"
    return mapping


# --- the forgeries of the issue ----------------------------------------------------------


def _wrong_text_hash(d: dict[str, Any]) -> None:
    d["evidence"][0]["text_hash"] = hashlib.sha256(b"another version of the document").hexdigest()


def _wrong_source_hash(d: dict[str, Any]) -> None:
    d["evidence"][0]["source_hash"] = hashlib.sha256(b"other bytes").hexdigest()


def _dropped_middle_item(d: dict[str, Any]) -> None:
    del d["evidence"][1]


def _dropped_last_item(d: dict[str, Any]) -> None:
    d["evidence"].pop()


def _duplicated_item(d: dict[str, Any]) -> None:
    d["evidence"].append(copy.deepcopy(d["evidence"][0]))
    _renumber(d)


def _reordered_items(d: dict[str, Any]) -> None:
    """The first two items swapped, refs renumbered and the coverage refs remapped, so the
    capsule is otherwise coherent: only the selection order gives it away."""
    d["evidence"][0], d["evidence"][1] = d["evidence"][1], d["evidence"][0]
    mapping = _renumber(d)
    for c in d["coverage"]:
        c["evidence"] = sorted((mapping[r] for r in c["evidence"]), key=lambda r: int(r[1:]))


def _edited_goal(d: dict[str, Any]) -> None:
    d["goal"] = "something else entirely"


def _coverage_cites_missing_item(d: dict[str, Any]) -> None:
    d["coverage"][0]["evidence"].append(f"E{len(d['evidence']) + 1}")


def _edited_token_count(d: dict[str, Any]) -> None:
    """An item made to look cheaper, with the total adjusted to match."""
    d["evidence"][0]["tokens"] -= 1
    d["budget"]["tokens_used"] -= 1


def _extra_omissions(d: dict[str, Any]) -> None:
    d["omissions"] = [{"reason": "budget_tokens", "count": d["retrieval"]["candidates"]}]


INCONSISTENT: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "dropped middle item": (_dropped_middle_item, "has ref"),
    "dropped last item": (_dropped_last_item, "does not exist"),
    "duplicated item": (_duplicated_item, "duplicates E1"),
    "reordered items": (_reordered_items, "out of selection order"),
    "edited goal": (_edited_goal, "goal's facets"),
    "coverage cites a missing item": (_coverage_cites_missing_item, "does not exist"),
    "edited token count": (_edited_token_count, "tokens, its text has"),
    "more candidates than retrieved": (_extra_omissions, "more than retrieval.candidates"),
}


@pytest.mark.parametrize("name", list(INCONSISTENT))
@pytest.mark.parametrize("keep_signature", [False, True])
def test_resealed_inconsistent_capsule_is_rejected(ws: Any, built: dict[str, Any], name: str,
                                                   keep_signature: bool) -> None:
    edit, message = INCONSISTENT[name]
    forged = copy.deepcopy(built)
    edit(forged)
    raw = reseal(forged, keep_signature=keep_signature)
    Capsule.model_validate_json(raw)  # a well-formed capsule with matching unkeyed hashes
    with pytest.raises(ValidationError) as info:
        ws.context_verify(raw)
    assert info.value.code == "capsule_inconsistent", name
    assert message in info.value.message, info.value.message


@pytest.mark.parametrize(("edit", "field"), [(_wrong_text_hash, "text_hash"), (_wrong_source_hash, "source_hash")])
@pytest.mark.parametrize("keep_signature", [False, True])
def test_resealed_wrong_document_hash_is_reported(ws: Any, built: dict[str, Any], edit: Any, field: str,
                                                  keep_signature: bool) -> None:
    forged = copy.deepcopy(built)
    edit(forged)
    receipt = ws.context_verify(reseal(forged, keep_signature=keep_signature))
    assert_valid("capsule-verify", receipt)
    assert receipt.status == "changed"
    assert receipt.counts.mismatched == 1
    first = receipt.evidence[0]
    assert first.status == "unchanged"  # the passage text itself still stands at its span...
    (mismatch,) = first.mismatches      # ...but the document hash the capsule records is wrong
    assert mismatch.field == field
    assert mismatch.recorded == forged["evidence"][0][field]
    assert mismatch.current == built["evidence"][0][field]
    assert all(not c.mismatches for c in receipt.evidence[1:])
    assert receipt.authenticity == ("signature-invalid" if keep_signature else "unsigned")


def test_forgeries_exit_nonzero_through_the_cli(ws: Any, built: dict[str, Any], tmp_path: Path) -> None:
    for edit in (_wrong_text_hash, _duplicated_item):
        forged = copy.deepcopy(built)
        edit(forged)
        path = tmp_path / "forged.json"
        path.write_bytes(reseal(forged))
        proc = run_cli("context", "verify", str(path), "--json", check=False)
        assert proc.returncode in (1, 3), proc.stdout
        out = json.loads(proc.stdout)
        assert out.get("status") != "unchanged"


def test_unchanged_capsule_has_no_problems_or_mismatches(ws: Any, built: dict[str, Any]) -> None:
    receipt = ws.context_verify(json.dumps(built))
    assert receipt.status == "unchanged"
    assert receipt.counts.mismatched == 0
    assert all(not c.mismatches for c in receipt.evidence)


def test_edit_elsewhere_in_the_document_is_a_change(ws: Any, notes: Path, built: dict[str, Any]) -> None:
    """The passage still stands where it was, but its document is no longer the version the
    capsule recorded: reported as a source/text hash mismatch, not as unchanged."""
    item = built["evidence"][0]
    target = notes / item["path"]
    target.write_text(target.read_text(encoding="utf-8") + "\nA line added at the end.\n", encoding="utf-8")
    receipt = ws.context_verify(json.dumps(built))
    check = receipt.evidence[0]
    assert check.status == "unchanged" and check.read_from == "disk"
    assert {m.field for m in check.mismatches} == {"source_hash", "text_hash"}
    assert receipt.status == "changed"


# --- authenticity ------------------------------------------------------------------------


def test_signed_by_this_install(ws: Any, built: dict[str, Any], cairn_home: Path) -> None:
    key_file = cairn_home / "keys" / "capsule.key"
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    receipt = ws.context_verify(json.dumps(built))
    assert receipt.authenticity == "signed-by-this-install"
    assert receipt.signed_by == built["signature"]["key_id"]
    assert built["signature"]["alg"] == "hmac-sha256"
    # the key is made once and reused: a second build signs with the same key, same bytes
    again = json.loads(canonical_json(ws.context_build(GOAL, budget_tokens=None)))
    assert again == built


def test_signed_by_another_key(ws: Any, notes: Path, built: dict[str, Any], tmp_path: Path) -> None:
    import cairn

    other_home = tmp_path / "other-home"
    with cairn.open(other_home) as other:
        other.add_collection(notes, name="notes")
        other.index()
        theirs = other.context_build(GOAL, budget_tokens=None)
        assert other.context_verify(theirs).authenticity == "signed-by-this-install"
    assert theirs.signature is not None and theirs.signature.key_id != built["signature"]["key_id"]
    assert theirs.capsule_id == built["capsule_id"]  # the id names the content, not the signer
    receipt = ws.context_verify(canonical_json(theirs))
    assert receipt.authenticity == "signed-by-another-key"
    assert receipt.signed_by == theirs.signature.key_id
    assert receipt.status == "unchanged"  # the content still checks out against the sources


def test_unsigned(ws: Any, built: dict[str, Any]) -> None:
    stripped = reseal(built)  # signature removed, byte count fixed
    receipt = ws.context_verify(stripped)
    assert receipt.authenticity == "unsigned" and receipt.signed_by is None
    assert receipt.status == "unchanged"
    without_key = {k: v for k, v in json.loads(stripped).items() if k != "signature"}
    assert ws.context_verify(json.dumps(without_key)).authenticity == "unsigned"


def test_tampered_signature(ws: Any, built: dict[str, Any]) -> None:
    forged = copy.deepcopy(built)
    value = forged["signature"]["value"]
    forged["signature"]["value"] = ("1" if value[0] == "0" else "0") + value[1:]
    receipt = ws.context_verify(json.dumps(forged))
    assert receipt.authenticity == "signature-invalid"
    # the signature covers every field: a consistent edit that keeps the old signature
    edited = copy.deepcopy(built)
    edited["retrieval"]["hints"] = ["an added hint"]
    assert ws.context_verify(reseal(edited, keep_signature=True)).authenticity == "signature-invalid"


def test_verify_without_a_key_creates_none(ws: Any, built: dict[str, Any], cairn_home: Path) -> None:
    key_file = cairn_home / "keys" / "capsule.key"
    saved = key_file.read_bytes()
    key_file.unlink()
    receipt = ws.context_verify(json.dumps(built))
    assert receipt.authenticity == "signed-by-another-key"
    assert not key_file.exists()  # verify never makes a key
    key_file.write_bytes(saved)
    assert ws.context_verify(json.dumps(built)).authenticity == "signed-by-this-install"


def test_corrupt_key_file_is_an_error_and_kept(ws: Any, notes: Path, cairn_home: Path) -> None:
    from cairn.capsule.signing import KeyFileError

    ws.add_collection(notes, name="notes")
    ws.index()
    key_file = cairn_home / "keys" / "capsule.key"
    key_file.parent.mkdir(parents=True)
    key_file.write_text("not a key\n")
    with pytest.raises(KeyFileError, match="does not hold a capsule key"):
        ws.context_build(GOAL)
    assert key_file.read_text() == "not a key\n"


def test_key_file_is_created_atomically_once(tmp_path: Path) -> None:
    from cairn.capsule.signing import load_capsule_key

    path = tmp_path / "keys" / "capsule.key"
    assert load_capsule_key(path, create=False) is None
    first = load_capsule_key(path, create=True)
    second = load_capsule_key(path, create=True)
    assert first is not None and first == second
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["capsule.key"]  # no temporary left behind
    assert len(first.key_id) == 16


def test_key_that_cannot_be_created_is_a_typed_error(tmp_path: Path) -> None:
    from cairn.capsule.signing import KeyFileError, load_capsule_key

    blocker = tmp_path / "keys"
    blocker.write_text("a file where the keys folder should be")
    with pytest.raises(KeyFileError, match="cannot create the capsule key"):
        load_capsule_key(blocker / "capsule.key", create=True)
