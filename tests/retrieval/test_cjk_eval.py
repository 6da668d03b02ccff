"""The CJK known-item evaluation (bench/cjk) runs in CI: queries typed without spaces must
find their pages by BM25 (issue 13, point 2). Floors sit below the measured held-out
figures (test split MRR@10: zh 0.914, ja 0.896, ko 0.859; before the bigram parser 0.36,
0.29, 0.76) so that noise passes and a return of the old failure does not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FLOORS = {"zh": 0.8, "ja": 0.8, "ko": 0.75}


def test_cjk_queries_typed_without_spaces_find_their_pages(tmp_path: Path) -> None:
    out = tmp_path / "cjk.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.eval_cjk", "--modes", "bm25", "--fresh", "--resamples", "100",
         "--json", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["errors"]["bm25"] == 0
    mrr = {lang: report["metrics"][lang]["test"]["bm25"]["MRR@10"]["mean"] for lang in FLOORS}
    assert all(mrr[lang] >= floor for lang, floor in FLOORS.items()), mrr
