"""Where cairn keeps its files, and the settings it reads from ``config.toml``.

Only :mod:`cairn.workspace` calls into this module; everything else receives the
resolved values as arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cairn.errors import ValidationError
from cairn.locations import INDEX_DIR, chosen_home, index_file
from cairn.locations import (
    check_index_name as check_index_name,  # re-exported: the workspace checks names
)

DEFAULT_EMBED: Mapping[str, Any] = {"backend": "onnx-minilm"}

DEFAULT_INCLUDE = (
    "**/*.md", "**/*.markdown", "**/*.mdx", "**/*.txt", "**/*.text",
    # Converted formats (cairn.ingest.converters; needs the ``office`` extra).
    "**/*.pdf", "**/*.docx", "**/*.doc", "**/*.pptx", "**/*.ppt", "**/*.xlsx", "**/*.xls",
    "**/*.html", "**/*.htm", "**/*.epub", "**/*.ipynb", "**/*.eml", "**/*.msg",
)


@dataclass(frozen=True, slots=True)
class Paths:
    """Resolved locations of cairn's data and configuration."""

    data_dir: Path
    config_file: Path

    @property
    def index_dir(self) -> Path:
        return self.data_dir / INDEX_DIR

    def index_file(self, name: str) -> Path:
        """The SQLite file of the index called ``name``."""
        return Path(index_file(self.data_dir, name))


@dataclass(frozen=True, slots=True)
class IndexSettings:
    """Ingest limits and chunking parameters (``[index]`` in config.toml)."""

    max_file_bytes: int = 20 * 1024 * 1024
    chunk_max_tokens: int = 256
    chunk_min_tokens: int = 48
    batch_files: int = 2000


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything read from config.toml, with defaults."""

    index: IndexSettings = field(default_factory=IndexSettings)
    #: The ``[embed]`` table: ``backend`` plus that backend's options.
    embed: Mapping[str, Any] = field(default_factory=lambda: dict(DEFAULT_EMBED))
    raw: Mapping[str, Any] = field(default_factory=dict)
    #: Bearer token for ``cairn serve`` when ``--token`` is not given: ``$CAIRN_TOKEN``,
    #: else ``[serve] token`` in config.toml.
    serve_token: str | None = None


def resolve_paths(home: str | Path | None, env: Mapping[str, str]) -> Paths:
    """Resolve data and config locations: explicit ``home``, else ``$CAIRN_HOME``, else platformdirs."""
    chosen = chosen_home(home, env)
    if chosen is not None:
        root = Path(chosen)
        return Paths(data_dir=root, config_file=root / "config.toml")
    import platformdirs

    return Paths(
        data_dir=Path(platformdirs.user_data_dir("cairn", appauthor=False)),
        config_file=Path(platformdirs.user_config_dir("cairn", appauthor=False)) / "config.toml",
    )


def load_settings(config_file: Path) -> Settings:
    """Read ``config.toml`` if present; unknown keys are kept in ``raw`` for later stages."""
    if not config_file.is_file():
        return Settings()
    import tomllib  # only when there is a config file

    try:
        raw = tomllib.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValidationError(f"cannot read config file {config_file}: {exc}") from exc
    section = raw.get("index", {})
    if not isinstance(section, dict):
        raise ValidationError(f"{config_file}: [index] must be a table")
    defaults = IndexSettings()
    values: dict[str, int] = {}
    for key in ("max_file_bytes", "chunk_max_tokens", "chunk_min_tokens", "batch_files"):
        value = section.get(key, getattr(defaults, key))
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValidationError(f"{config_file}: index.{key} must be a positive integer")
        values[key] = value
    serve = raw.get("serve", {})
    if not isinstance(serve, dict):
        raise ValidationError(f"{config_file}: [serve] must be a table")
    token = serve.get("token")
    if not isinstance(token, str | None):
        raise ValidationError(f"{config_file}: serve.token must be a string")
    embed = raw.get("embed", DEFAULT_EMBED)
    if not isinstance(embed, dict) or not isinstance(embed.get("backend", ""), str):
        raise ValidationError(f"{config_file}: [embed] must be a table with a string 'backend'")
    return Settings(index=IndexSettings(**values), embed={"backend": "onnx-minilm", **embed}, raw=raw,
                    serve_token=token or None)
