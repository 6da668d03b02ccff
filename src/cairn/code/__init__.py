"""The code graph: providers parse a project's code into symbols and edges, snapshots keep
them by revision, and diff and impact answer what a change touches."""
