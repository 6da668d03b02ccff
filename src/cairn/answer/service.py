"""The answer service: ``ask`` (cited evidence, optionally a drafted answer) and the
verified ask that abstains unless every claim is supported."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cairn.errors import CairnError
from cairn.store.protocol import Store

if TYPE_CHECKING:
    from cairn.capsule.service import CapsuleService
    from cairn.contracts.answer import AskResponse, VerifiedAskResponse
    from cairn.contracts.capsule import Capsule
    from cairn.models.generators import Generator
    from cairn.models.hub import ModelHub

OpenStore = Callable[[bool], Store]


class AnswerService:
    """Answers questions from Context Capsules, citing (and optionally verifying) evidence."""

    def __init__(self, open_store: OpenStore, capsules: CapsuleService, models: ModelHub) -> None:
        self._open_store = open_store
        self._capsules = capsules
        self._models = models

    def ask(
        self, question: str, *, answer: bool = False, budget_tokens: int | None = 700,
        collections: Sequence[str] = (), tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None, graph: bool = False,
        max_tokens: int = 160, timeout: float | None = None,
    ) -> AskResponse:
        """Cited evidence for ``question`` first (a closed capsule); with ``answer``, a short
        answer from the configured generator citing evidence ids (not verified: see
        :meth:`ask_verified`). A generator failure is reported in ``answer_error``."""
        from cairn.answer.ask import answer_from_capsule
        from cairn.contracts.answer import AskResponse as _Ask

        capsule = self._capsules.context_build(
            question, budget_tokens=budget_tokens, collections=collections, tags_any=tags_any,
            tags_all=tags_all, since=since, until=until, graph=graph)
        generated = None
        error = None
        hints = list(capsule.retrieval.hints)
        if answer and not capsule.evidence:
            error = "no evidence in scope for this question: nothing to answer from"
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
    ) -> VerifiedAskResponse:
        """Verified ask: build a closed capsule, draft an answer from it only, split the draft
        into claims and verify each against the evidence (``cairn.answer.verify``). The answer
        is returned only when every substantive claim is supported; otherwise the result
        abstains and shows the verdicts. Fails closed on any generator/verifier problem."""
        from cairn.answer.ask import verified_answer

        capsule = self._capsules.context_build(
            question, budget_tokens=budget_tokens, collections=collections, tags_any=tags_any,
            tags_all=tags_all, since=since, until=until, graph=graph)
        generator: Generator | None = None
        error = None
        try:
            generator = self._models.generator()
        except CairnError as exc:
            error = exc.message
        return verified_answer(question, capsule, generator, guidance=self._guidance(capsule),
                               max_tokens=max_tokens, timeout=timeout, judge=judge,
                               judge_timeout=judge_timeout, generator_error=error)

    def _guidance(self, capsule: Capsule) -> list[tuple[str, str]]:
        """Configured guidance (collection ``context`` text) of the collections cited."""
        used = {item.collection for item in capsule.evidence}
        store = self._open_store(False)
        return [(r.name, r.context) for r in store.list_collections() if r.name in used and r.context]
