"""A registry of model backends, shared by embedders and generators.

Backends are created from plain configuration (``{"backend": name, **options}``); the
built-ins register themselves through the same :meth:`BackendRegistry.register` a third
party would call (STYLE.md: dogfood the plugin hook).
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cairn.errors import ValidationError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BackendInfo:
    """What ``cairn status`` / ``doctor`` shows for one registered backend."""

    name: str
    description: str
    available: bool
    #: Why it is not available and how to fix it; empty when available.
    hint: str = ""


def always_available() -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class _Registration(Generic[T]):
    factory: Callable[..., T]
    description: str
    check: Callable[[], str | None]


class BackendRegistry(Generic[T]):
    """Named factories of one kind of backend (``kind`` appears in error messages)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.entries: dict[str, _Registration[T]] = {}
        self._lock = threading.Lock()

    def register(
        self, name: str, factory: Callable[..., T], *, description: str = "",
        check: Callable[[], str | None] = always_available, replace: bool = False,
    ) -> None:
        """Make ``factory`` available as ``{"backend": name, ...}``; it is called with the
        remaining config keys as keyword arguments. ``check`` must be cheap and import nothing
        heavy: it returns ``None`` when the backend can run, else a one-line hint."""
        with self._lock:
            if name in self.entries and not replace:
                raise ValueError(f"{self.kind} backend {name!r} is already registered")
            self.entries[name] = _Registration(factory, description, check)

    def create(self, config: Mapping[str, Any]) -> T:
        """Build the backend described by ``config``; unknown backends or options raise
        :class:`ValidationError`, the factory's own failures pass through."""
        options = dict(config)
        name = options.pop("backend", None)
        registration = self.entries.get(name) if isinstance(name, str) else None
        if registration is None:
            known = ", ".join(sorted(self.entries))
            raise ValidationError(f"unknown {self.kind} backend {name!r}; known backends: {known}")
        try:
            inspect.signature(registration.factory).bind(**options)
        except TypeError as exc:
            raise ValidationError(f"bad options for {self.kind} backend {name!r}: {exc}") from exc
        except ValueError:  # no introspectable signature: let the factory judge
            pass
        return registration.factory(**options)

    def available(self) -> list[BackendInfo]:
        """Every registered backend and whether it can run here, without loading any model."""
        with self._lock:
            registrations = sorted(self.entries.items())
        infos = []
        for name, registration in registrations:
            hint = registration.check()
            infos.append(BackendInfo(name, registration.description, hint is None, hint or ""))
        return infos
