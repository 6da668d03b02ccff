"""One ModelHub per process: models created once and shared by every Workspace and thread."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cairn
from cairn.interfaces.pool import WorkspacePool
from cairn.workspace import open_workspace


def test_workspaces_of_a_pool_share_one_model_hub(cairn_home: Path) -> None:
    probe = cairn.open()
    models = probe.models
    pool = WorkspacePool(lambda: open_workspace(models=models), workers=3)
    try:
        hubs = {id(pool.call(lambda ws: ws.models)) for _ in range(12)}
        embedders = {id(pool.call(lambda ws: ws.models.embedder())) for _ in range(12)}
    finally:
        pool.close()
        probe.close()
    assert hubs == {id(models)}
    assert len(embedders) == 1


def test_concurrent_first_use_creates_one_embedder(cairn_home: Path) -> None:
    ws = cairn.open()
    try:
        with ThreadPoolExecutor(max_workers=8) as threads:
            made = set(threads.map(lambda _: id(ws.models.embedder()), range(32)))
        assert len(made) == 1
        assert ws.models.vectors is ws.models.vectors
    finally:
        ws.close()


def test_a_workspace_closes_only_the_hub_it_owns(cairn_home: Path) -> None:
    owner = cairn.open()
    guest = open_workspace(models=owner.models)
    background = owner.models.background()
    guest.close()
    assert background.submit(lambda: 1).result() == 1  # still running
    owner.close()
