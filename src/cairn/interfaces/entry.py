"""The ``cairn`` console script: ``cairn [--home H] [--index I] hook EVENT`` runs the
hook's fast path (:mod:`cairn.interfaces.hook`, standard library only); every other
command line goes to the full CLI (:func:`cairn.interfaces.cli.main`)."""

from __future__ import annotations

import os
import sys

from cairn.interfaces.hook import HOOK_EVENTS, run_hook

TYPE_CHECKING = False  # not typing's: the hook's fast path starts here
if TYPE_CHECKING:
    from collections.abc import Sequence


def _global_options(argv: Sequence[str]) -> tuple[dict[str, str], list[str]] | None:
    """``--home X --index Y ... hook EVENT``: the global options and the rest after
    ``hook``; None when the line is not a hook call (the full CLI handles it)."""
    options: dict[str, str] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "hook":
            return options, list(argv[i + 1:])
        if arg in ("--home", "--index") and i + 1 < len(argv):
            options[arg[2:]] = argv[i + 1]
            i += 2
        elif arg.startswith(("--home=", "--index=")):
            key, _, value = arg[2:].partition("=")
            options[key] = value
            i += 1
        elif arg in ("-q", "--quiet"):
            i += 1
        else:
            return None
    return None


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``cairn`` with ``argv`` (default: the process's arguments)."""
    args = list(sys.argv[1:] if argv is None else argv)
    parsed = _global_options(args)
    if parsed is not None and len(parsed[1]) == 1 and parsed[1][0] in HOOK_EVENTS:
        options, rest = parsed
        code = run_hook(rest[0], sys.stdin.read(), options.get("home"), options.get("index", "default"),
                        exiting=True)
        # End now: nothing else to clean up, and the index connection is left open on
        # purpose (no checkpoint on close; see run_hook).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    from cairn.interfaces.cli import main as cli_main

    cli_main(args)
