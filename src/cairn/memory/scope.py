"""Who may see a memory record: the one scope rule the store's search, the service and
the governor all apply (scope comes before relevance).

- ``team``: every caller, whatever their project;
- ``project``: callers working in the record's project;
- ``personal``: its owner, working in the record's project.

Another project's ``project`` or ``personal`` memory is never visible, however relevant.
"""

from __future__ import annotations

from dataclasses import dataclass

from cairn.memory.records import Claim, Observation, RecordKey


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks: the project they work in (its identity as the memory store records it,
    see :mod:`cairn.memory.project`) and their user name (``$CAIRN_USER``, else the OS
    user; needed for personal records). The store, the service and the pure governor all
    take this one type."""

    project: str
    user: str | None = None


def visible(record: Observation | Claim | RecordKey, caller: Caller) -> bool:
    """Whether ``caller`` may see ``record`` (see the module docstring); its
    :class:`~cairn.memory.records.RecordKey` answers the same."""
    match record.visibility:
        case "team":
            return True
        case "project":
            return record.project == caller.project
        case "personal":
            return record.project == caller.project and record.owner is not None and record.owner == caller.user
    return False
