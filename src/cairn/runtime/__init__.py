"""The resident runtime (issue 16): watch the collections' folders, keep the index current
through a durable job queue (index, embed, reverify), publish committed events, and leave
a heartbeat so a runtime that stopped is visible.

- :mod:`cairn.runtime.watch`: which changed paths matter to which collection (pure).
- :mod:`cairn.runtime.events`: the in-process event bus and the resumable event feed.
- :mod:`cairn.runtime.daemon`: the runtime itself (watcher, worker, heartbeat threads).
- :mod:`cairn.runtime.service`: ``runtime_status`` and ``runtime_events`` for the faces.
"""
