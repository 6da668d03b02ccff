"""Throughput of the local embedder: passages/s and peak RSS per batch size and thread count.

    .venv/bin/python -m bench.embed_bench                 # 256 passages, batches 8/16/32/64, threads 1/2
    .venv/bin/python -m bench.embed_bench --n 512 --threads 2 --batch-sizes 16 32
    .venv/bin/python -m bench.embed_bench --compare-float  # int8 vs float weights (numpy, no torch; ~4 min)

Passages are NFCorpus documents of at least 254 tokens (so every passage is a full
256-token sequence, the worst case for a chunker capped at ``max_tokens``). Each
setting runs in a fresh process so the peak RSS belongs to that setting alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from cairn.models.minilm import OnnxMiniLMEmbedder, _default_minilm_paths  # noqa: E402

DOCS = Path("/work/shared/eval/nfcorpus/test.docs")


def load_passages(n: int, path: Path = DOCS) -> list[str]:
    """The first ``n`` documents with at least 254 tokens (each a full 256-token sequence)."""
    embedder = OnnxMiniLMEmbedder()
    texts = [
        line.split("\t", 1)[1].strip() for line in path.read_text().splitlines() if "\t" in line
    ]
    counts = embedder.count_tokens(texts)
    long_enough = [t for t, c in zip(texts, counts, strict=True) if c >= embedder.max_tokens]
    if len(long_enough) < n:
        raise SystemExit(f"only {len(long_enough)} passages of >= 254 tokens in {path}")
    return long_enough[:n]


def run_one(n: int, batch_size: int, threads: int, repeats: int) -> dict[str, Any]:
    """Embed ``n`` passages ``repeats`` times in this process; report the best run."""
    passages = load_passages(n)
    embedder = OnnxMiniLMEmbedder(batch_size=batch_size, threads=threads)
    started = time.perf_counter()
    embedder.embed(passages[:batch_size])  # load + warm up
    load_s = time.perf_counter() - started
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        embedder.embed(passages)
        best = min(best, time.perf_counter() - started)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "batch": batch_size,
        "threads": threads,
        "passages_per_s": n / best,
        "ms_per_passage": 1000 * best / n,
        "load_s": load_s,
        "peak_rss_mib": peak_kib / 1024,
    }


# ------------------------------------------------- float reference, numpy only


def _read_safetensors(path: Path) -> dict[str, Any]:
    import numpy as np

    with path.open("rb") as handle:
        (size,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(size))
        blob = handle.read()
    dtypes = {"F32": np.float32, "I64": np.int64}
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        array = np.frombuffer(blob[start:end], dtype=dtypes[meta["dtype"]])
        tensors[name] = array.reshape(meta["shape"])
    return tensors


def float_minilm(texts: list[str], max_seq_length: int = 256) -> Any:
    """all-MiniLM-L6-v2 with its float32 weights, as a plain numpy BERT forward pass.

    Mean pooling over the attention mask and L2 normalisation, like sentence-transformers.
    One text at a time, so no padding is involved.
    """
    import numpy as np
    from tokenizers import Tokenizer

    model_dir = _default_minilm_paths()[1]
    assert model_dir is not None
    w = _read_safetensors(model_dir.parent / "model.safetensors")
    tokenizer = Tokenizer.from_file(str(model_dir))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_seq_length)

    def layer_norm(x: Any, prefix: str) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * w[prefix + ".weight"] + w[prefix + ".bias"]

    def dense(x: Any, prefix: str) -> Any:
        return x @ w[prefix + ".weight"].T + w[prefix + ".bias"]

    def erf(x: Any) -> Any:  # Abramowitz & Stegun 7.1.26, |error| < 1.5e-7
        sign, x = np.sign(x), np.abs(x)
        t = 1.0 / (1.0 + 0.3275911 * x)
        poly = t * (
            0.254829592
            + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
        )
        return sign * (1.0 - poly * np.exp(-x * x))

    def gelu(x: Any) -> Any:  # BERT's exact (erf) GELU
        return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))

    heads, out = 12, []

    def split(t: Any) -> Any:  # (seq, hidden) -> (heads, seq, hidden / heads)
        return t.reshape(t.shape[0], heads, -1).transpose(1, 0, 2)

    for encoding in tokenizer.encode_batch(texts):
        ids = np.array(encoding.ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][np.array(encoding.type_ids)]
        )
        x = layer_norm(x, "embeddings.LayerNorm").astype(np.float64)
        seq, hidden = x.shape
        for i in range(6):
            p = f"encoder.layer.{i}"

            q = split(dense(x, f"{p}.attention.self.query"))
            k = split(dense(x, f"{p}.attention.self.key"))
            v = split(dense(x, f"{p}.attention.self.value"))
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(hidden // heads)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            context = (scores / scores.sum(-1, keepdims=True)) @ v
            context = context.transpose(1, 0, 2).reshape(seq, hidden)
            x = layer_norm(
                x + dense(context, f"{p}.attention.output.dense"), f"{p}.attention.output.LayerNorm"
            )
            inner = gelu(dense(x, f"{p}.intermediate.dense"))
            x = layer_norm(x + dense(inner, f"{p}.output.dense"), f"{p}.output.LayerNorm")
        pooled = x.mean(0)
        out.append(pooled / np.linalg.norm(pooled))
    return np.array(out, dtype=np.float32)


def compare_float(n: int) -> None:
    """Cosine between int8 and float vectors of the same texts, and retrieval agreement."""
    import numpy as np

    passages = load_passages(n)
    queries = [
        line.split("\t", 1)[1]
        for line in (DOCS.parent / "test.titles.queries").read_text().splitlines()[:50]
    ]
    int8 = OnnxMiniLMEmbedder()
    started = time.perf_counter()
    reference_p, reference_q = float_minilm(passages), float_minilm(queries)
    print(
        f"numpy float reference: {time.perf_counter() - started:.1f} s for {n + len(queries)} texts"
    )
    quant_p, quant_q = int8.embed(passages), int8.embed(queries, kind="query")
    cosines = np.concatenate([(quant_p * reference_p).sum(1), (quant_q * reference_q).sum(1)])
    print(
        f"cosine(int8, float) over {len(cosines)} texts: "
        f"mean {cosines.mean():.4f}  min {cosines.min():.4f}  p05 {np.percentile(cosines, 5):.4f}"
    )
    top_float = np.argsort(-(reference_q @ reference_p.T), axis=1)[:, :10]
    top_int8 = np.argsort(-(quant_q @ quant_p.T), axis=1)[:, :10]
    top1 = float((top_float[:, 0] == top_int8[:, 0]).mean())
    overlap = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top_float, top_int8, strict=True)])
    print(
        f"{len(queries)} queries x {n} passages: top-1 agreement {top1:.2f}, top-10 overlap {overlap:.2f}"
    )


def main() -> None:
    """Run every setting in a child process and print one table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=256, help="passages per run")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[8, 16, 32, 64])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--compare-float", action="store_true")
    parser.add_argument(
        "--worker", nargs=2, type=int, metavar=("BATCH", "THREADS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()

    if args.worker:
        print(json.dumps(run_one(args.n, args.worker[0], args.worker[1], args.repeats)))
        return
    if args.compare_float:
        compare_float(args.n)
        return

    print(
        f"all-MiniLM-L6-v2 int8 ONNX, {args.n} passages x 256 tokens, "
        f"{os.cpu_count()} CPUs, loadavg {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'batch':>5} {'threads':>7} {'passages/s':>10} {'ms/passage':>10} {'load s':>7} {'peak RSS MiB':>12}"
    )
    for threads in args.threads:
        for batch in args.batch_sizes:
            command = [
                sys.executable,
                __file__,
                "--n",
                str(args.n),
                "--repeats",
                str(args.repeats),
                "--worker",
                str(batch),
                str(threads),
            ]
            row = json.loads(
                subprocess.run(command, check=True, capture_output=True, text=True).stdout
            )
            print(
                f"{row['batch']:>5} {row['threads']:>7} {row['passages_per_s']:>10.1f} "
                f"{row['ms_per_passage']:>10.2f} {row['load_s']:>7.2f} {row['peak_rss_mib']:>12.0f}"
            )


if __name__ == "__main__":
    main()
