"""``cairn context build``, ``cairn context verify`` and ``cairn ask`` (issue 5).

Each command parses options, calls one Workspace method and prints it. ``context build
--json`` prints the capsule's canonical JSON (byte-identical for the same index and
request), so a saved capsule can be verified later.

Exit codes: ``context verify`` exits 0 when everything is unchanged, 3 when anything
changed (stale, moved or missing evidence, or a changed index or model fingerprint), 1
for a capsule that is malformed, of an unknown schema or tampered with. ``ask --verify``
exits 0 also when it abstains (``"abstained": true``); ``ask --answer`` exits 2 when the
generator failed (the evidence is still printed).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import BinaryIO

import click

from cairn.contracts.answer import AskResponse, VerifiedAskResponse
from cairn.contracts.capsule import EvidenceItem
from cairn.interfaces.cli import State, cli, emit_json, json_option, pass_state, split_csv

EXIT_CHANGED = 3


def scope_options(command: Callable[..., None]) -> Callable[..., None]:
    """Filters and budget shared by ``context build`` and ``ask``."""
    for option in reversed([
        click.option("-c", "--collection", "collections", multiple=True, metavar="NAME",
                     help="Only these collections (repeatable)."),
        click.option("--tags-any", multiple=True, metavar="a,b", help="Documents with any of these tags."),
        click.option("--tags-all", multiple=True, metavar="a,b", help="Documents with all of these tags."),
        click.option("--since", metavar="DATE", help="Documents dated on or after DATE."),
        click.option("--until", metavar="DATE", help="Documents dated on or before DATE."),
        click.option("--graph", is_flag=True, help="Also draw candidates one link hop away."),
    ]):
        command = option(command)
    return command


@cli.group()
def context() -> None:
    """Context Capsules: budgeted, exact, verifiable evidence for a goal."""


@context.command("build")
@click.argument("goal")
@click.option("--budget-tokens", type=int, default=1200, show_default=True, metavar="N",
              help="Most tokens of evidence text (0: no token limit).")
@click.option("--budget-bytes", type=int, default=None, metavar="N",
              help="Most bytes of the capsule's canonical JSON.")
@click.option("--candidates", type=int, default=50, show_default=True, metavar="N",
              help="Candidate passages considered.")
@scope_options
@click.option("--json", "fmt", flag_value="json", help="Print the capsule's canonical JSON.")
@click.option("--md", "fmt", flag_value="md", help="Print Markdown (evidence fenced).")
@pass_state
def context_build(state: State, goal: str, budget_tokens: int, budget_bytes: int | None,
                  candidates: int, collections: tuple[str, ...], tags_any: tuple[str, ...],
                  tags_all: tuple[str, ...], since: str | None, until: str | None, graph: bool,
                  fmt: str | None) -> None:
    """Build a Context Capsule of evidence for GOAL within a budget."""
    from cairn.capsule.canonical import canonical_json
    from cairn.capsule.render import capsule_markdown

    capsule = state.workspace.context_build(
        goal, budget_tokens=budget_tokens or None, budget_bytes=budget_bytes, candidates=candidates,
        collections=collections, tags_any=split_csv(tags_any), tags_all=split_csv(tags_all),
        since=since, until=until, graph=graph,
    )
    if fmt == "json":
        click.echo(canonical_json(capsule).decode("utf-8"))
        return
    if fmt == "md":
        click.echo(capsule_markdown(capsule))
        return
    b = capsule.budget
    click.echo(f"capsule {capsule.capsule_id}")
    click.echo(f"{len(capsule.evidence)} evidence items, {b.tokens_used}/{b.tokens_requested or '∞'} tokens "
               f"({capsule.fingerprints.token_counter}), {b.bytes_used} bytes")
    for item in capsule.evidence:
        click.echo(f"  {item.ref}  {item.uri}:{item.start_line}-{item.end_line}  {item.title}  "
                   f"[{', '.join(item.facets)}]")
    for facet in capsule.coverage:
        if not facet.covered:
            click.echo(f"  gap: {facet.facet} ({facet.gap_reason})")
    if capsule.omissions:
        click.echo("  omitted: " + ", ".join(f"{o.reason}={o.count}" for o in capsule.omissions))
    click.echo("save with --json, check later with: cairn context verify FILE", err=True)


@context.command("verify")
@click.argument("source", type=click.File("rb"), metavar="FILE|-")
@json_option
@pass_state
def context_verify(state: State, source: BinaryIO, as_json: bool) -> None:
    """Re-check a saved capsule against the current index and files (no model).

    Exits 0 when everything is unchanged, 3 when anything changed, 1 when the capsule is
    malformed, of an unknown schema or tampered with."""
    receipt = state.workspace.context_verify(source.read())
    if as_json:
        emit_json(receipt)
    else:
        c = receipt.counts
        click.echo(f"capsule {receipt.capsule_id}: {receipt.status} "
                   f"({c.unchanged} unchanged, {c.moved} moved, {c.stale} stale, {c.missing} missing)")
        for check in receipt.evidence:
            where = ""
            if check.current is not None and check.status == "moved":
                where = f" → {check.current.uri}:{check.current.start_line}-{check.current.end_line}"
            click.echo(f"  {check.ref:4} {check.status:9} {check.uri}:{check.start_line}-{check.end_line}"
                       f"{where}  ({check.reason}{', read from disk' if check.read_from == 'disk' else ''})")
        for change in (*receipt.index_changes, *receipt.fingerprint_changes):
            click.echo(f"  changed {change.field}: {change.before} → {change.after}")
    if receipt.status != "unchanged":
        sys.exit(EXIT_CHANGED)


def _print_evidence(evidence: list[EvidenceItem]) -> None:
    from cairn.capsule.render import fenced

    for item in evidence:
        click.echo(f"[{item.ref}] {item.uri}:{item.start_line}-{item.end_line}  {item.title} (untrusted)")
        click.echo(fenced(item.text))


@cli.command()
@click.argument("question")
@scope_options
@click.option("--answer", is_flag=True, help="Add a short cited answer from the configured generator.")
@click.option("--verify", "verify", is_flag=True,
              help="Verified ask: answer only if every claim is supported, else abstain.")
@click.option("--budget-tokens", type=int, default=700, show_default=True, metavar="N",
              help="Most tokens of evidence.")
@click.option("--max-tokens", type=int, default=160, show_default=True, metavar="N",
              help="Most tokens the generator may write.")
@click.option("--timeout", type=float, default=None, metavar="SECONDS", help="Generator timeout.")
@json_option
@pass_state
def ask(state: State, question: str, collections: tuple[str, ...], tags_any: tuple[str, ...],
        tags_all: tuple[str, ...], since: str | None, until: str | None, graph: bool, answer: bool,
        verify: bool, budget_tokens: int, max_tokens: int, timeout: float | None, as_json: bool) -> None:
    """Cited evidence for QUESTION; --answer adds a model's answer, --verify checks it.

    A verified ask that abstains exits 0 with "abstained": true; --answer exits 2 when
    the generator failed (the evidence is still printed)."""
    ws = state.workspace
    if verify:
        verified = ws.ask_verified(
            question, budget_tokens=budget_tokens or None, max_tokens=max_tokens, timeout=timeout,
            collections=collections, tags_any=split_csv(tags_any), tags_all=split_csv(tags_all),
            since=since, until=until, graph=graph,
        )
        return _print_verified(verified, as_json)
    result = ws.ask(
        question, answer=answer, budget_tokens=budget_tokens or None, max_tokens=max_tokens,
        timeout=timeout, collections=collections, tags_any=split_csv(tags_any),
        tags_all=split_csv(tags_all), since=since, until=until, graph=graph,
    )
    _print_ask(result, as_json)
    if result.answer_error is not None:
        sys.exit(2)


def _print_ask(result: AskResponse, as_json: bool) -> None:
    if as_json:
        return emit_json(result)
    if not result.evidence:
        click.echo("no evidence found", err=True)
    _print_evidence(result.evidence)
    gaps = [f.facet for f in result.coverage if not f.covered]
    if gaps:
        click.echo(f"gaps: {', '.join(gaps)}")
    if result.answer is not None:
        click.echo(f"\nanswer (unverified, {result.answer.generator}):\n{result.answer.text}")
        if result.answer.unknown_citations:
            click.echo(f"warning: cites unknown evidence {', '.join(result.answer.unknown_citations)}", err=True)
    if result.answer_error is not None:
        click.echo(f"error: no answer: {result.answer_error}", err=True)
    return None


def _print_verified(result: VerifiedAskResponse, as_json: bool) -> None:
    if as_json:
        return emit_json(result)
    _print_evidence(result.evidence)
    if result.abstained:
        click.echo(f"\nabstained ({result.abstain_reason}): {result.detail}")
    else:
        click.echo(f"\nanswer (verified):\n{result.answer}")
    for claim in result.claims:
        cited = f" [{', '.join(claim.cited)}]" if claim.cited else ""
        click.echo(f"  {claim.verdict:12} {claim.text}{cited}  ({claim.reason})")
    return None

