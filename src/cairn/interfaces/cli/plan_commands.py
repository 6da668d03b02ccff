"""``cairn plan TASK`` and ``cairn resume``: the evidence governor's context plans.

Declared from the ``memory_plan`` and ``memory_resume`` operations; written here is how a
plan prints. ``--explain`` prints the trace of the plan: the governor is deterministic,
so the trace printed for an ``explanation_id`` is the one that produced it.
"""

from __future__ import annotations

from typing import Any

import click

from cairn.contracts.plan import Plan
from cairn.interfaces.cli import (
    cli,
    field_argument,
    field_option,
    operation_command,
    output_options,
)
from cairn.interfaces.operations import operation

_PLAN = operation("memory_plan").input
_RESUME = operation("memory_resume").input


def print_plan(plan: Plan, args: dict[str, Any]) -> None:
    b = plan.budget
    click.echo(f"{plan.mode} ({plan.reason}, confidence {plan.confidence}): "
               f"{b.used}/{b.requested} tokens, explanation {plan.explanation_id[:16]}")
    for item in plan.items:
        if item.disposition in ("include", "compact"):
            click.echo(f"\n[{item.disposition}] {item.key}  {item.title}  "
                       f"({item.tokens} tokens, score {item.score:.2f}; {', '.join(item.reasons)})")
            click.echo(f"  {(item.text or '').replace(chr(10), chr(10) + '  ')}")
    for caution in plan.cautions:
        click.echo(f"caution {caution.code}{f' [{caution.key}]' if caution.key else ''}: {caution.message}")
    for follow in plan.follow_ups:
        click.echo(f"deferred {follow.key} ({follow.tokens} tokens): {follow.fetch}")
    left_out = [i for i in plan.items if i.disposition == "exclude"]
    if left_out:
        click.echo("excluded: " + ", ".join(f"{i.key} ({i.reasons[-1]})" for i in left_out), err=True)
    if plan.trace:
        click.echo(f"\ntrace of {plan.explanation_id}:")
        for step in plan.trace:
            click.echo(f"  {step.step}: {step.entered} in")
            for entry in step.excluded:
                click.echo(f"    - {entry.key}: {entry.code}")
            for entry in step.flagged:
                click.echo(f"    ~ {entry.key}: {entry.code}")
            for code, n in sorted(step.counts.items()):
                if step.step == "scope":  # out-of-scope records are counted, never named
                    click.echo(f"    - {n} record(s): {code}")


operation_command(
    cli, "memory_plan", "plan", render=print_plan,
    help="What to hand an agent for TASK: abstain, a compact card or a workset, each item with reasons.",
    params=[
        field_argument(_PLAN, "task"),
        field_option(_PLAN, "budget", metavar="N"),
        field_option(_PLAN, "project", metavar="ID"),
        field_option(_PLAN, "collections", "-c", "--collection", metavar="NAME"),
        field_option(_PLAN, "explain"),
        output_options(),
    ],
)

operation_command(
    cli, "memory_resume", "resume", render=print_plan,
    help="A card for the start of a session: pinned and verified decisions/gotchas, and git state.",
    params=[
        field_option(_RESUME, "project", metavar="ID"),
        field_option(_RESUME, "budget", metavar="N"),
        field_option(_RESUME, "explain"),
        output_options(),
    ],
)
