"""The faces of cairn: thin adapters over :class:`cairn.workspace.Workspace`."""
