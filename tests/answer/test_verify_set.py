"""The independent verifier set (bench/verify_set) is well formed.

No verifier is run here (that is bench/eval_verify_set.py): only the shape of the set,
its coverage of every kind, the split by note, and that cases.jsonl is what
build_cases.py generates.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

SET = Path(__file__).resolve().parents[2] / "bench" / "verify_set"


def _cases() -> list[dict]:
    lines = (SET / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _builder():
    spec = importlib.util.spec_from_file_location("verify_set_build", SET / "build_cases.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cases_jsonl_is_generated_from_build_cases() -> None:
    assert _builder().build() == _cases()


def test_size_notes_and_kinds() -> None:
    build = _builder()
    cases = _cases()
    notes = sorted(p.name for p in (SET / "notes").glob("*.md"))
    assert len(cases) >= 320
    assert len(notes) >= 12 and {c["note"] for c in cases} == set(notes)
    for note in notes:
        assert 30 <= len((SET / "notes" / note).read_text(encoding="utf-8").splitlines()) <= 80
    kinds = Counter(c["kind"] for c in cases)
    for kind in build.SUPPORTED_KINDS | build.UNSUPPORTED_KINDS:
        assert kinds[kind] >= 10, kind
    assert kinds["verbatim"] >= 25
    assert kinds["paraphrase"] + kinds["synonym"] >= 25


def test_labels_evidence_and_splits() -> None:
    build = _builder()
    split_of: dict[str, str] = {}
    for case in _cases():
        assert case["label"] in ("supported", "unsupported")
        supported = case["label"] == "supported"
        assert case["kind"] in (build.SUPPORTED_KINDS if supported else build.UNSUPPORTED_KINDS)
        if supported or case["contradicted"]:
            start, end = case["evidence_lines"]
            n = len((SET / "notes" / case["note"]).read_text(encoding="utf-8").splitlines())
            assert 1 <= start <= end <= n
        if supported:
            assert case["contradicted"] is False
        assert split_of.setdefault(case["note"], case["split"]) == case["split"]
    splits = Counter(split_of.values())
    assert set(splits) == {"tune", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10", "test11", "test12", "test13", "test14", "test15", "test16", "test17", "test18", "test19", "test20", "test21", "test22"}
    assert abs(splits["tune"] - splits["test"]) <= 2
    # test2: the second held-out split, written after test had been looked at
    assert splits["test2"] >= 4
    assert sum(c["split"] == "test2" for c in _cases()) >= 120
    assert splits["test3"] >= 3
    # test4: the fourth held-out split (session 6), five notes of new kinds
    assert splits["test4"] >= 5
    assert sum(c["split"] == "test4" for c in _cases()) >= 150
    # test5: the fifth held-out split (session 7), weighted to the supported side
    test5 = [c for c in _cases() if c["split"] == "test5"]
    assert splits["test5"] >= 4 and len(test5) >= 120
    assert sum(c["label"] == "supported" for c in test5) >= 60
    # test6: the sixth held-out split (session 8), balanced, four notes of new kinds
    test6 = [c for c in _cases() if c["split"] == "test6"]
    assert splits["test6"] >= 4 and len(test6) >= 120
    assert sum(c["label"] == "supported" for c in test6) >= 55
    assert sum(c["label"] == "unsupported" for c in test6) >= 55
    # test7: the seventh held-out split (session 9), six notes of new kinds, weighted to
    # verbatim and near-verbatim supported claims (the >= 95% goal is measured on them)
    test7 = [c for c in _cases() if c["split"] == "test7"]
    near_verbatim = {"verbatim", "near-verbatim-inflection", "near-verbatim-reorder", "unit-equivalence"}
    assert splits["test7"] >= 6 and len(test7) >= 260
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test7) >= 120
    assert sum(c["label"] == "unsupported" for c in test7) >= 110
    assert {c["kind"] for c in test7} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test8: the eighth held-out split (session 10), six more notes of new kinds, written
    # and committed before any verifier was run on them
    test8 = [c for c in _cases() if c["split"] == "test8"]
    assert splits["test8"] >= 6 and len(test8) >= 260
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test8) >= 120
    assert sum(c["label"] == "unsupported" for c in test8) >= 110
    assert {c["kind"] for c in test8} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test9: the ninth held-out split (session 11), six more notes of new kinds, written
    # and committed before any verifier was run on them
    test9 = [c for c in _cases() if c["split"] == "test9"]
    assert splits["test9"] >= 6 and len(test9) >= 300
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test9) >= 130
    assert sum(c["label"] == "unsupported" for c in test9) >= 120
    assert {c["kind"] for c in test9} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test10: the tenth held-out split (session 12), six more notes of new kinds, written
    # and committed before any verifier was run on them
    test10 = [c for c in _cases() if c["split"] == "test10"]
    assert splits["test10"] >= 6 and len(test10) >= 330
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test10) >= 130
    assert sum(c["label"] == "unsupported" for c in test10) >= 130
    assert {c["kind"] for c in test10} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test11: the eleventh held-out split (session 13), six more notes of new kinds, written
    # and committed before any verifier was run on them
    test11 = [c for c in _cases() if c["split"] == "test11"]
    assert splits["test11"] >= 6 and len(test11) >= 330
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test11) >= 130
    assert sum(c["label"] == "unsupported" for c in test11) >= 130
    assert {c["kind"] for c in test11} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test12: the twelfth held-out split (session 14), six more notes of new kinds, written
    # and committed before any verifier was run on them
    test12 = [c for c in _cases() if c["split"] == "test12"]
    assert splits["test12"] >= 6 and len(test12) >= 330
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test12) >= 130
    assert sum(c["label"] == "unsupported" for c in test12) >= 130
    assert {c["kind"] for c in test12} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test13: the thirteenth held-out split (session 15), six more notes of new kinds, written
    # and committed before any verifier was run on them
    test13 = [c for c in _cases() if c["split"] == "test13"]
    assert splits["test13"] >= 6 and len(test13) >= 330
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test13) >= 130
    assert sum(c["label"] == "unsupported" for c in test13) >= 130
    assert {c["kind"] for c in test13} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test14: the fourteenth held-out split (session 16), six more notes of new kinds, weighted
    # to table rows, written and committed before any verifier was run on them
    test14 = [c for c in _cases() if c["split"] == "test14"]
    assert splits["test14"] >= 6 and len(test14) >= 330
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test14) >= 130
    assert sum(c["label"] == "unsupported" for c in test14) >= 130
    assert sum(c["kind"] == "table-cell" for c in test14) >= 40
    assert sum(c["kind"] == "table-wrong-row" for c in test14) >= 25
    assert {c["kind"] for c in test14} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test15: the fifteenth held-out split, six more notes of new kinds (three with tables),
    # weighted to verbatim and near-verbatim claims, written without reading the verifier and
    # committed before any verifier was run on them
    test15 = [c for c in _cases() if c["split"] == "test15"]
    assert splits["test15"] >= 6 and len(test15) >= 400
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test15) >= 150
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test15
    ) >= 190
    assert sum(c["label"] == "unsupported" for c in test15) >= 150
    assert sum(c["kind"] == "table-cell" for c in test15) >= 35
    assert {c["kind"] for c in test15} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test16: the sixteenth held-out split, six more notes of new kinds (all with tables),
    # weighted to CJK (Chinese, Korean, Japanese) and to verbatim and near-verbatim claims,
    # written without reading the verifier and committed before any verifier was run on them
    test16 = [c for c in _cases() if c["split"] == "test16"]
    assert splits["test16"] >= 6 and len(test16) >= 400
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test16) >= 150
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test16
    ) >= 190
    assert sum(c["label"] == "unsupported" for c in test16) >= 160
    assert sum(c["kind"] == "table-cell" for c in test16) >= 30
    assert sum(c["note"].startswith(("zh-", "ko-", "ja-")) for c in test16) >= 210
    assert {c["kind"] for c in test16} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test17: the seventeenth held-out split, six more notes of new kinds (all with tables; four
    # English, one Chinese, one Japanese), weighted to verbatim and near-verbatim claims, written
    # without reading the verifier and committed before any verifier was run on them
    test17 = [c for c in _cases() if c["split"] == "test17"]
    assert splits["test17"] >= 6 and len(test17) >= 400
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test17) >= 140
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test17
    ) >= 160
    assert sum(c["label"] == "unsupported" for c in test17) >= 140
    assert sum(c["kind"] == "table-cell" for c in test17) >= 25
    assert sum(c["kind"] == "role-swap" for c in test17) >= 20
    assert sum(c["note"].startswith(("zh-", "ja-")) for c in test17) >= 130
    assert {c["kind"] for c in test17} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test18: the eighteenth held-out split, six more notes of new kinds (five with tables; four
    # English, one Korean, one Chinese), weighted to verbatim and near-verbatim claims, written
    # without reading the verifier and committed before any verifier was run on them
    test18 = [c for c in _cases() if c["split"] == "test18"]
    assert splits["test18"] >= 6 and len(test18) >= 420
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test18) >= 150
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test18
    ) >= 195
    assert sum(c["label"] == "unsupported" for c in test18) >= 170
    assert sum(c["kind"] == "table-cell" for c in test18) >= 25
    assert sum(c["kind"] == "role-swap" for c in test18) >= 25
    assert sum(c["note"].startswith(("zh-", "ko-")) for c in test18) >= 140
    assert {c["kind"] for c in test18} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test19: the nineteenth held-out split, six more notes of new kinds (all with tables; four
    # English, one Japanese, one Chinese; dated steps in five), weighted to verbatim and
    # near-verbatim claims, written without reading the verifier and committed before any
    # verifier was run on them
    test19 = [c for c in _cases() if c["split"] == "test19"]
    assert splits["test19"] >= 6 and len(test19) >= 460
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test19) >= 155
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test19
    ) >= 210
    assert sum(c["label"] == "unsupported" for c in test19) >= 180
    assert sum(c["kind"] == "table-cell" for c in test19) >= 25
    assert sum(c["kind"] == "role-swap" for c in test19) >= 30
    assert sum(c["note"].startswith(("ja-", "zh-")) for c in test19) >= 150
    assert {c["kind"] for c in test19} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test20: the twentieth held-out split, six more notes of new kinds (four with tables; four
    # English, one Korean, one Japanese), weighted to verbatim and near-verbatim claims, written
    # without reading the verifier and committed before any verifier was run on them
    test20 = [c for c in _cases() if c["split"] == "test20"]
    assert splits["test20"] >= 6 and len(test20) >= 420
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test20) >= 135
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test20
    ) >= 185
    assert sum(c["label"] == "unsupported" for c in test20) >= 170
    assert sum(c["kind"] == "table-cell" for c in test20) >= 20
    assert sum(c["kind"] == "role-swap" for c in test20) >= 30
    assert sum(c["note"].startswith(("ko-", "ja-")) for c in test20) >= 140
    assert {c["kind"] for c in test20} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test21: the twenty-first held-out split, six more notes of new kinds (all with tables; four
    # English, one Chinese, one Korean; dated steps in four), weighted to verbatim and
    # near-verbatim claims, written without reading the verifier and committed before any
    # verifier was run on them
    test21 = [c for c in _cases() if c["split"] == "test21"]
    assert splits["test21"] >= 6 and len(test21) >= 420
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test21) >= 130
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test21
    ) >= 180
    assert sum(c["label"] == "unsupported" for c in test21) >= 180
    assert sum(c["kind"] == "table-cell" for c in test21) >= 20
    assert sum(c["kind"] == "role-swap" for c in test21) >= 30
    assert sum(c["note"].startswith(("zh-", "ko-")) for c in test21) >= 140
    assert {c["kind"] for c in test21} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
    # test22: six more notes of new kinds (all with tables; four English, one Japanese, one
    # Chinese; dated steps in all six), weighted to verbatim and near-verbatim claims, written
    # without reading the verifier and committed before any verifier was run on them
    test22 = [c for c in _cases() if c["split"] == "test22"]
    assert splits["test22"] >= 6 and len(test22) >= 450
    assert sum(c["label"] == "supported" and c["kind"] in near_verbatim for c in test22) >= 145
    assert sum(
        c["label"] == "supported" and c["kind"] in near_verbatim | {"number-word", "date-format"}
        for c in test22
    ) >= 205
    assert sum(c["label"] == "unsupported" for c in test22) >= 165
    assert sum(c["kind"] == "table-cell" for c in test22) >= 25
    assert sum(c["kind"] == "role-swap" for c in test22) >= 30
    assert sum(c["note"].startswith(("ja-", "zh-")) for c in test22) >= 145
    assert {c["kind"] for c in test22} >= build.UNSUPPORTED_KINDS | build.SUPPORTED_KINDS
