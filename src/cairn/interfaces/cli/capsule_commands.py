"""``cairn context build``, ``cairn context verify`` and ``cairn ask``.

Each is declared from its operation; written here is how it prints. ``context build
--json`` prints the capsule's canonical JSON (byte-identical for the same index and
request), so a saved capsule can be verified later.

Exit codes: ``context verify`` exits 0 when everything is unchanged, 3 when anything
changed (stale, moved or missing evidence, or a changed index or model fingerprint), 1
for a capsule that is malformed, of an unknown schema or tampered with. ``ask --verify``
exits 0 also when it abstains (``"abstained": true``); ``ask --answer`` exits 2 when the
generator failed (the evidence is still printed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from cairn.contracts.answer import AskResponse, CheckReport, VerifiedAskResponse
from cairn.interfaces.cli import (
    busy,
    cli,
    decorators,
    field_argument,
    field_option,
    operation_command,
    output_options,
    scope_filters,
)
from cairn.interfaces.operations import Operation, operation

if TYPE_CHECKING:
    from cairn.contracts.capsule import Capsule, EvidenceItem, VerifyReceipt
    from cairn.workspace import Workspace

EXIT_CHANGED = 3

_BUILD = operation("context_build").input
_VERIFY = operation("context_verify").input
_ASK = operation("ask").input
_CHECK = operation("check_draft").input


def _no_limit_if_zero(_ctx: click.Context, _param: click.Parameter, value: int) -> int | None:
    return value or None


def _graph_option(model: Any) -> Any:
    return field_option(model, "graph", help="Also draw candidates one link hop away.")


@cli.group()
def context() -> None:
    """Context Capsules: budgeted, exact, verifiable evidence for a goal."""


def _print_capsule(capsule: Capsule, args: dict[str, Any]) -> None:
    from cairn.capsule.render import capsule_markdown

    if args["fmt"] == "md":
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


def _print_canonical(capsule: Capsule) -> None:
    from cairn.capsule.canonical import canonical_json

    click.echo(canonical_json(capsule).decode("utf-8"))


def _build_and_save(op: Operation, workspace: Workspace, args: dict[str, Any], fmt: str | None) -> Any:
    """``--save NAME``: the capsule built is also saved under NAME."""
    from cairn.capsule.canonical import canonical_json

    name = args.pop("save", None)
    capsule = op.call_with(workspace, args)
    if name is not None:
        workspace.context_save(name, canonical_json(capsule))
    return capsule


operation_command(
    context, "context_build", "build", help="Build a Context Capsule of evidence for GOAL within a budget.",
    params=[
        field_argument(_BUILD, "goal"),
        field_option(_BUILD, "budget_tokens", metavar="N", callback=_no_limit_if_zero,
                     help="Most tokens of evidence text (0: no token limit)."),
        field_option(_BUILD, "budget_bytes", metavar="N", help="Most bytes of the capsule's canonical JSON."),
        click.option("--candidates", type=int, default=50, show_default=True, metavar="N",
                     help="Candidate passages considered."),
        scope_filters,
        _graph_option(_BUILD),
        click.option("--save", metavar="NAME", default=None,
                     help="Also save the capsule under NAME (see context list / reverify)."),
        output_options("json", "md", json_help="Print the capsule's canonical JSON.",
                       md_help="Print Markdown (evidence fenced)."),
    ],
    render=_print_capsule, dump=_print_canonical, call=_build_and_save,
)


def _print_receipt(receipt: VerifyReceipt, args: dict[str, Any]) -> None:
    c = receipt.counts
    click.echo(f"capsule {receipt.capsule_id}: {receipt.status} "
               f"({c.unchanged} unchanged, {c.moved} moved, {c.stale} stale, {c.missing} missing, "
               f"{c.mismatched} mismatched)")
    signer = f" (key {receipt.signed_by})" if receipt.signed_by else ""
    click.echo(f"authenticity: {receipt.authenticity}{signer}")
    for check in receipt.evidence:
        where = ""
        if check.current is not None and check.status == "moved":
            where = f" → {check.current.uri}:{check.current.start_line}-{check.current.end_line}"
        click.echo(f"  {check.ref:4} {check.status:9} {check.uri}:{check.start_line}-{check.end_line}"
                   f"{where}  ({check.reason}{', read from disk' if check.read_from == 'disk' else ''})")
        for mismatch in check.mismatches:
            click.echo(f"    hash {mismatch.field}: recorded {mismatch.recorded[:12]} ≠ current {(mismatch.current or '(none)')[:12]}")
    for change in (*receipt.index_changes, *receipt.fingerprint_changes):
        click.echo(f"  changed {change.field}: {change.before} → {change.after}")


def _read_capsule(_ctx: click.Context, _param: click.Parameter, value: Any) -> bytes:
    data: bytes = value.read()
    return data


operation_command(
    context, "context_verify", "verify",
    help="Re-check a saved capsule against the current index and files (no model).\n\n"
         "    Exits 0 when everything is unchanged, 3 when anything changed, 1 when the capsule is\n"
         "    malformed, of an unknown schema, tampered with or internally inconsistent\n"
         "    (capsule_inconsistent). Reports whether this install signed it (authenticity).",
    params=[
        field_argument(_VERIFY, "capsule", type=click.File("rb"), metavar="FILE|-", callback=_read_capsule),
        output_options(),
    ],
    render=_print_receipt,
    exit_code=lambda receipt: 0 if receipt.status == "unchanged" else EXIT_CHANGED,
)


def _print_evidence(evidence: list[EvidenceItem]) -> None:
    from cairn.capsule.render import fenced

    for item in evidence:
        click.echo(f"[{item.ref}] {item.uri}:{item.start_line}-{item.end_line}  {item.title} (untrusted)")
        click.echo(fenced(item.text))


def _print_answer(result: AskResponse | VerifiedAskResponse, args: dict[str, Any]) -> None:
    if isinstance(result, VerifiedAskResponse):
        return _print_verified(result)
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


def _print_verified(result: VerifiedAskResponse) -> None:
    _print_evidence(result.evidence)
    if result.abstained:
        click.echo(f"\nabstained ({result.abstain_reason}): {result.detail}")
    else:
        click.echo(f"\nanswer (verified):\n{result.answer}")
    for claim in result.claims:
        cited = f" [{', '.join(claim.cited)}]" if claim.cited else ""
        click.echo(f"  {claim.verdict:12} {claim.text}{cited}  ({claim.reason})")


def _ask_with_progress(op: Operation, workspace: Workspace, args: dict[str, Any], fmt: str | None) -> Any:
    """Generating an answer takes seconds: say so on stderr while it runs."""
    if not (args.get("answer") or args.get("verify")):
        return op.call_with(workspace, args)
    with busy("generating the answer"):
        return op.call_with(workspace, args)


operation_command(
    cli, "ask",
    help="Cited evidence for QUESTION; --answer adds a model's answer, --verify checks it.\n\n"
         "    A verified ask that abstains exits 0 with \"abstained\": true; --answer exits 2 when\n"
         "    the generator failed (the evidence is still printed).",
    params=[
        field_argument(_ASK, "question"),
        scope_filters,
        _graph_option(_ASK),
        field_option(_ASK, "answer", help="Add a short cited answer from the configured generator."),
        field_option(_ASK, "verify", help="Verified ask: answer only if every claim is supported, else abstain."),
        field_option(_ASK, "mode"),
        field_option(_ASK, "budget_tokens", metavar="N", callback=_no_limit_if_zero,
                     help="Most tokens of evidence."),
        decorators(
            click.option("--max-tokens", type=int, default=160, show_default=True, metavar="N",
                         help="Most tokens the generator may write."),
            click.option("--timeout", type=float, default=None, metavar="SECONDS", help="Generator timeout."),
        ),
        output_options(),
    ],
    render=_print_answer, call=_ask_with_progress,
    exit_code=lambda result: 2 if isinstance(result, AskResponse) and result.answer_error is not None else 0,
)


_MARKS = {"supported": "✓", "contradicted": "✗"}


def _print_check(report: CheckReport, args: dict[str, Any]) -> None:
    for claim in report.claims:
        if not claim.substantive:
            continue
        span = claim.spans[0] if claim.spans else None
        where = f" → {span.uri}:{span.start_line}-{span.end_line} \"{span.quote}\"" if span else ""
        click.echo(f"{_MARKS.get(claim.verdict, '?')} {claim.verdict} {claim.id} \"{claim.text}\"{where}")
    summary = f"{report.supported} of {report.supported + report.unsupported} claims supported ({report.contradicted} contradicted)"
    if report.unknown_citations:
        summary += f"; unknown citations: {', '.join(report.unknown_citations)}"
    click.echo(summary)


def _read_draft(_ctx: click.Context, _param: click.Parameter, value: Any) -> str:
    data: bytes = value.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise click.BadParameter(f"the draft is not UTF-8 text: {exc}") from None


def _read_optional_capsule(_ctx: click.Context, _param: click.Parameter, value: Any) -> bytes | None:
    return None if value is None else bytes(value.read())


operation_command(
    cli, "check_draft", "check",
    help="Check a draft (an agent's own answer, with or without [E1] citations): each claim's\n"
         "    verdict with the evidence span it aligns with, against a saved capsule (--capsule)\n"
         "    or evidence retrieved for each claim. Reads no model; exits 0 whenever it ran.",
    params=[
        field_argument(_CHECK, "draft", type=click.File("rb"), metavar="DRAFT|-", callback=_read_draft),
        field_option(_CHECK, "capsule", type=click.File("rb"), metavar="FILE", callback=_read_optional_capsule,
                     help="A capsule saved by context build --json."),
        field_option(_CHECK, "collections", "--collection", "-c", csv=True, metavar="NAME",
                     help="Without --capsule: retrieve only from these collections."),
        field_option(_CHECK, "budget_tokens", metavar="N", help="Without --capsule: token budget of each claim's evidence."),
        output_options(),
    ],
    render=_print_check,
)
