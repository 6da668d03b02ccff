"""Saved capsules: Context Capsules kept in the index under a name, reverified against
the current sources, each reverification recorded as a receipt.

A saved capsule is stored as its canonical JSON, signature included, exactly as built;
the documents it cites are indexed beside it, so a change to one of them finds the
capsules to reverify (:meth:`SavedCapsuleService.reverify_changed`). A receipt is
``fresh`` when every evidence item is unchanged at its recorded span; otherwise
``stale``, listing the items that are not (stale, missing, or moved elsewhere). A change
of the index state or of a model fingerprint alone does not make a capsule stale: its
evidence still stands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cairn.errors import ValidationError
from cairn.store.protocol import StoreOpener
from cairn.store.records import ReceiptRecord, SavedCapsuleRecord
from cairn.validation import check_bound

if TYPE_CHECKING:
    from cairn.capsule.service import CapsuleService
    from cairn.contracts.capsule import Capsule
    from cairn.contracts.delta import Receipt, ReceiptList, SavedCapsule, SavedCapsuleList

CAPSULE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def check_capsule_name(name: str) -> str:
    """A saved capsule's name: letters, digits, ``.``, ``_``, ``-`` (at most 64)."""
    if not CAPSULE_NAME.match(name):
        raise ValidationError(f"invalid capsule name {name!r}: use letters, digits, '.', '_' or '-' (max 64)")
    return name


def receipt_contract(record: ReceiptRecord) -> Receipt:
    from cairn.contracts.delta import Receipt

    return Receipt.model_validate({
        "id": record.id, "name": record.name, "capsule_id": record.capsule_id, "status": record.status,
        "stale": json.loads(record.stale), "checked_at": record.checked_at,
    })


class SavedCapsuleService:
    """Capsules saved by name, their reverification and its receipts."""

    def __init__(self, open_store: StoreOpener, capsules: CapsuleService) -> None:
        self._open_store = open_store
        self._capsules = capsules

    def context_save(self, name: str, capsule: Capsule | str | bytes, *, replace: bool = False) -> SavedCapsule:
        """Save a capsule (as ``context_build`` returned it, or its JSON) under ``name``,
        after checking it is intact (``capsule_malformed``, ``capsule_tampered``, ...).
        ``replace`` overwrites a capsule saved under that name (and drops its receipts);
        without it a taken name is a conflict."""
        from cairn.capsule.canonical import canonical_json
        from cairn.capsule.verify import parse_capsule
        from cairn.models.tokens import budget_token_counter

        check_capsule_name(name)
        raw = capsule if isinstance(capsule, (str, bytes)) else canonical_json(capsule)
        parsed = parse_capsule(raw, budget_token_counter())
        text = canonical_json(parsed).decode("utf-8")
        record = SavedCapsuleRecord(
            name=name, capsule_id=parsed.capsule_id, goal=parsed.goal, capsule=text, saved_at=_now(),
            docids=tuple(sorted({item.docid for item in parsed.evidence})),
        )
        store = self._open_store(False)
        store.save_capsule(record, replace=replace)
        return _saved(store.saved_capsules([name])[0], None)

    def context_list(self) -> SavedCapsuleList:
        """Every saved capsule with the documents it cites and its latest receipt."""
        from cairn.contracts.delta import SavedCapsuleList

        store = self._open_store(False)
        latest = {r.name: r for r in store.receipts(latest=True, limit=1_000_000)}
        return SavedCapsuleList(capsules=[_saved(r, latest.get(r.name)) for r in store.saved_capsules()])

    def context_reverify(self, names: Sequence[str] = ()) -> ReceiptList:
        """Re-check saved capsules (``names``, or all) against the current sources with
        ``context_verify`` and record a receipt for each: ``fresh``, or ``stale`` with the
        evidence items that no longer stand. Reads no model."""
        for name in names:
            check_capsule_name(name)
        store = self._open_store(False)
        records = store.saved_capsules(list(dict.fromkeys(names)) if names else None)
        return self._reverify(records)

    def reverify_changed(self, docids: Sequence[str]) -> ReceiptList:
        """Reverify only the saved capsules citing one of ``docids`` (what an index change
        touched); a receipt for each, none when no saved capsule cites them."""
        store = self._open_store(False)
        citing = store.capsules_citing(list(dict.fromkeys(docids)))
        names = sorted({name for found in citing.values() for name in found})
        return self._reverify(store.saved_capsules(names) if names else [])

    def context_receipts(self, name: str | None = None, *, after: int = 0, limit: int = 100) -> ReceiptList:
        """Receipts of one or every saved capsule recorded after receipt id ``after``,
        oldest first; ``cursor`` is the last id (what ``context watch`` polls with)."""
        from cairn.contracts.delta import ReceiptList

        check_bound("limit", limit, 1000)
        if after < 0:
            raise ValidationError("after must be 0 or more")
        store = self._open_store(False)
        names = None
        if name is not None:
            store.saved_capsules([check_capsule_name(name)])  # NotFoundError if unknown
            names = [name]
        rows = store.receipts(names, after=after, limit=limit)
        return ReceiptList(receipts=[receipt_contract(r) for r in rows], cursor=rows[-1].id if rows else after)

    def _reverify(self, records: Sequence[SavedCapsuleRecord]) -> ReceiptList:
        from cairn.contracts.delta import ReceiptList, StaleItem

        store = self._open_store(False)
        receipts = []
        for record in records:
            verified = self._capsules.context_verify(record.capsule)
            stale = [
                StaleItem.model_validate({
                    "ref": check.ref, "uri": check.uri, "start_line": check.start_line,
                    "end_line": check.end_line, "status": check.status, "reason": check.reason,
                }).model_dump(mode="json")
                for check in verified.evidence if check.status != "unchanged"
            ]
            row = store.add_receipt(record.name, record.capsule_id, "stale" if stale else "fresh",
                                    json.dumps(stale, ensure_ascii=False, separators=(",", ":")))
            receipts.append(receipt_contract(row))
        return ReceiptList(receipts=receipts, cursor=receipts[-1].id if receipts else 0)


def _saved(record: SavedCapsuleRecord, latest: ReceiptRecord | None) -> SavedCapsule:
    from cairn.contracts.delta import SavedCapsule

    evidence = len(json.loads(record.capsule).get("evidence", []))
    return SavedCapsule(
        name=record.name, capsule_id=record.capsule_id, goal=record.goal, saved_at=record.saved_at,
        evidence=evidence, docids=list(record.docids),
        last_receipt=receipt_contract(latest) if latest is not None else None,
    )


def _now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
