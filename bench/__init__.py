"""cairn's benchmarks and retrieval evaluations, one module per measurement; run each from
the repository root as ``python -m bench.NAME`` (e.g. ``python -m bench.eval_retrieval``)."""
