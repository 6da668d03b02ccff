"""The link graph: resolution of stored links, traversal, paths, backlinks; and tags."""
