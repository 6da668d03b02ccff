"""The answer service: ``ask`` (cited evidence, optionally a drafted answer) and the
verified ask that abstains unless every claim is supported."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from cairn.errors import CairnError
from cairn.store.protocol import StoreOpener

if TYPE_CHECKING:
    from cairn.capsule.service import CapsuleService
    from cairn.contracts.answer import AskResponse, CheckReport, VerifiedAskResponse
    from cairn.contracts.capsule import Capsule
    from cairn.models.generators import Generator
    from cairn.models.hub import ModelHub

#: ``auto``: generative when a capable generator is configured, else extractive.
AnswerModeOption = Literal["auto", "extractive", "generative"]


class AnswerService:
    """Answers questions from Context Capsules, citing (and optionally verifying) evidence."""

    def __init__(self, open_store: StoreOpener, capsules: CapsuleService, models: ModelHub) -> None:
        self._open_store = open_store
        self._capsules = capsules
        self._models = models

    def ask(
        self, question: str, *, answer: bool = False, budget_tokens: int | None = 700,
        collections: Sequence[str] = (), tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None, graph: bool = False,
        max_tokens: int = 160, timeout: float | None = None, mode: AnswerModeOption = "auto",
    ) -> AskResponse:
        """Cited evidence for ``question`` first (a closed capsule); with ``answer``, a short
        answer citing evidence ids (not verified: see :meth:`ask_verified`): quoted evidence
        sentences (``mode`` extractive, the default without a capable generator) or drafted
        by the configured generator (generative). A failure is reported in ``answer_error``."""
        from cairn.answer.ask import answer_from_capsule, extractive_answer
        from cairn.contracts.answer import AskResponse as _Ask

        capsule = self._capsules.context_build(
            question, budget_tokens=budget_tokens, collections=collections, tags_any=tags_any,
            tags_all=tags_all, since=since, until=until, graph=graph)
        generated = None
        error = None
        hints = list(capsule.retrieval.hints)
        if answer and not capsule.evidence:
            error = "no evidence in scope for this question: nothing to answer from"
        elif answer and self._mode(mode) == "extractive":
            generated, error = extractive_answer(question, capsule)
        elif answer:
            try:
                generated = answer_from_capsule(
                    question, capsule, self._models.generator(), guidance=self._guidance(capsule),
                    max_tokens=max_tokens, timeout=timeout,
                )
            except CairnError as exc:
                error = exc.message
        return _Ask(question=question, capsule_id=capsule.capsule_id, evidence=capsule.evidence,
                    coverage=capsule.coverage, answer=generated, answer_error=error, hints=hints)

    def ask_verified(
        self, question: str, *, budget_tokens: int | None = 700, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (), since: str | None = None,
        until: str | None = None, graph: bool = False, max_tokens: int = 160,
        timeout: float | None = None, judge: object = None, judge_timeout: float = 20.0,
        mode: AnswerModeOption = "auto",
    ) -> VerifiedAskResponse:
        """Verified ask: build a closed capsule, draft an answer from it only, split the draft
        into claims and verify each against the evidence (``cairn.answer.verify``). The answer
        is returned only when every substantive claim is supported; otherwise the result
        abstains and shows the verdicts. Fails closed on any generator/verifier problem.

        ``mode`` extractive (the default without a capable generator) quotes the evidence
        sentences that answer the question instead of drafting: no model is run."""
        from cairn.answer.ask import extractive_verified_answer, verified_answer

        capsule = self._capsules.context_build(
            question, budget_tokens=budget_tokens, collections=collections, tags_any=tags_any,
            tags_all=tags_all, since=since, until=until, graph=graph)
        if self._mode(mode) == "extractive":
            return extractive_verified_answer(question, capsule, judge=judge, judge_timeout=judge_timeout)
        generator: Generator | None = None
        error = None
        try:
            generator = self._models.generator()
        except CairnError as exc:
            error = exc.message
        return verified_answer(question, capsule, generator, guidance=self._guidance(capsule),
                               max_tokens=max_tokens, timeout=timeout, judge=judge,
                               judge_timeout=judge_timeout, generator_error=error)

    def check_draft(
        self, draft: str, *, capsule: str | bytes | None = None, collections: Sequence[str] = (),
        budget_tokens: int | None = 700,
    ) -> CheckReport:
        """Check a draft (an agent's own answer, with or without ``[E1]`` citations): split
        it into claims and return each claim's verdict with the evidence span it aligns
        with. Against ``capsule`` (a saved capsule's JSON) when given, read-only and
        without retrieval; otherwise against evidence retrieved for each claim (a capsule
        per claim within ``collections`` and ``budget_tokens``). Runs no model."""
        from cairn.answer.check import check_against_capsule, check_with_retrieval
        from cairn.capsule.verify import parse_capsule
        from cairn.errors import ValidationError

        if not isinstance(draft, str) or not draft.strip():
            raise ValidationError("draft is empty: nothing to check")
        if capsule is not None:
            return check_against_capsule(draft, parse_capsule(capsule))

        def retrieve(claim: str) -> Capsule:
            return self._capsules.context_build(claim, budget_tokens=budget_tokens,
                                                collections=collections)

        return check_with_retrieval(draft, retrieve)

    def _mode(self, mode: str) -> Literal["extractive", "generative"]:
        from cairn.errors import ValidationError

        match mode:
            case "extractive" | "generative":
                return mode
            case "auto":
                return "generative" if self._models.generator_capable() else "extractive"
            case _:
                raise ValidationError(f"mode must be auto, extractive or generative, not {mode!r}")

    def _guidance(self, capsule: Capsule) -> list[tuple[str, str]]:
        """Configured guidance (collection ``context`` text) of the collections cited."""
        used = {item.collection for item in capsule.evidence}
        store = self._open_store(False)
        return [(r.name, r.context) for r in store.list_collections() if r.name in used and r.context]
