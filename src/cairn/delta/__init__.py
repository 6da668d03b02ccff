"""The knowledge delta: the change journal, structural diffs and impact."""
