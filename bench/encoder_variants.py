"""Query encoders between exact and int8: partly quantized derived models, on tune queries.

    PYTHONPATH=src python -m bench.encoder_variants --out bench/.work/encoders

Derives, from the shipped MiniLM model, the int8 query model as ``--fast`` does
(:func:`cairn.models.minilm._derive_int8_model`: ``quantize_dynamic`` per channel on
every MatMul) and variants that keep some MatMuls in float (``nodes_to_exclude``): the
attention projections (``ffn``: only the feed-forward MatMuls, 2/3 of the weights, are
int8), the first and last layer (``mid``), the feed-forward output MatMuls (``up``: only
the feed-forward input MatMuls are int8). Each is run on the tuning queries (Cranfield, all
225; LoCoMo conversations 1–2) against the exact encoder, interleaved per query on one
thread: cosine to the exact vector (median, 5th percentile, minimum) and p50 time.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import eval_retrieval as er
from cairn.models.minilm import OnnxMiniLMEmbedder, _default_minilm_paths, _l2_normalise

#: variant -> which weight MatMuls stay in float
VARIANTS = ("all", "ffn", "mid", "up", "ffn-mid")


def weight_matmuls(folded: Path) -> list[tuple[str, int, str]]:
    """(node name, layer, role) of each MatMul with a weight: role ``attn`` (384 x 384),
    ``up`` (384 x 1536) or ``down`` (1536 x 384); layers counted by FFN up MatMuls."""
    import onnx

    graph = onnx.load(str(folded)).graph
    shapes = {init.name: tuple(init.dims) for init in graph.initializer}
    out: list[tuple[str, int, str]] = []
    layer = 0
    for node in graph.node:
        if node.op_type != "MatMul":
            continue
        shape = next((shapes[i] for i in node.input if i in shapes), None)
        if shape is None:
            out.append((node.name, layer, "act"))
            continue
        role = "up" if shape[-1] > shape[0] else "down" if shape[0] > shape[-1] else "attn"
        out.append((node.name, layer, role))
        if role == "down":
            layer += 1
    return out


def excluded(variant: str, nodes: list[tuple[str, int, str]]) -> list[str]:
    """The MatMuls variant ``variant`` keeps in float."""
    last = max(layer for _, layer, _ in nodes if layer < 6)
    match variant:
        case "all":
            return []
        case "ffn":
            return [n for n, _, role in nodes if role in ("attn", "act")]
        case "mid":
            return [n for n, layer, _ in nodes if layer in (0, last)]
        case "up":
            return [n for n, _, role in nodes if role in ("attn", "act", "down")]
        case "ffn-mid":
            return [n for n, layer, role in nodes if role in ("attn", "act") or layer in (0, last)]
    raise ValueError(variant)


def derive(model: Path, out: Path) -> dict[str, Path]:
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out.mkdir(parents=True, exist_ok=True)
    folded = out / "folded.onnx"
    if not folded.is_file():
        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    nodes = weight_matmuls(folded)
    logging.getLogger().setLevel(logging.ERROR)
    paths = {}
    for variant in VARIANTS:
        target = out / f"q8-{variant}.onnx"
        if not target.is_file():
            quantize_dynamic(folded, target, weight_type=QuantType.QInt8, per_channel=True,
                             nodes_to_exclude=excluded(variant, nodes))
        paths[variant] = target
    return paths


def tune_queries() -> list[str]:
    options = argparse.Namespace(no_titles=False, turn="full", no_sequence=False)
    texts: list[str] = []
    for name, tune in (("cranfield", None), ("locomo", 2)):
        collection = er.LOADERS[name](options)
        split = collection.split({name: tune})
        texts += [text for qid, text in collection.queries.items() if split.get(qid) == "tune"]
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=er.WORK / "encoders")
    args = parser.parse_args(argv)
    model, tokenizer = _default_minilm_paths()
    assert model is not None and tokenizer is not None
    paths = derive(model, args.out)
    embedder = OnnxMiniLMEmbedder(model, tokenizer)
    sessions: dict[str, Any] = {"exact": embedder._load(1)}
    sessions.update({v: embedder._load_unlocked(1, p) for v, p in paths.items()})
    texts = tune_queries()
    times: dict[str, list[float]] = {name: [] for name in sessions}
    cosines: dict[str, list[float]] = {name: [] for name in sessions}
    for text in texts[:3]:  # warm up
        for loaded in sessions.values():
            embedder._embed_batch(loaded, loaded.tokenizer.encode_batch([text]))
    for text in texts:
        vectors = {}
        for name, loaded in sessions.items():
            started = time.perf_counter()
            vectors[name] = _l2_normalise(embedder._embed_batch(loaded, loaded.tokenizer.encode_batch([text])))[0]
            times[name].append(time.perf_counter() - started)
        for name, vector in vectors.items():
            cosines[name].append(float(np.dot(vector, vectors["exact"])))
    exact = statistics.median(times["exact"])
    print(f"n = {len(texts)} tune queries")
    print("| encoder | float MatMuls kept | cosine median | cosine p5 | cosine min | p50 ms | ÷ exact p50 |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name in sessions:
        c = np.array(cosines[name])
        p50 = statistics.median(times[name])
        print(f"| {name} | | {np.median(c):.4f} | {np.percentile(c, 5):.4f} | {c.min():.4f} | "
              f"{1000 * p50:.2f} | {p50 / exact:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
