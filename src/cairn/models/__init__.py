"""Models cairn runs or calls: text embedders (see :mod:`cairn.models.embedders`).

Importing this package is cheap; no model runtime is imported until a model is used.
"""

from cairn.models.embedders import (
    Embedder,
    EmbedderInfo,
    OnnxMiniLMEmbedder,
    OpenAIEmbedder,
    available_embedders,
    create_embedder,
    register_embedder,
)

__all__ = [
    "Embedder",
    "EmbedderInfo",
    "OnnxMiniLMEmbedder",
    "OpenAIEmbedder",
    "available_embedders",
    "create_embedder",
    "register_embedder",
]
