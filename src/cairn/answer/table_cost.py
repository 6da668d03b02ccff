"""Which money cell "costs" may read in a table row (issue 12, lead).

"A dry suit costs £100" read the Deposit cell of "| Dry suit | £35 | £100 |" under
"| Item | Hire price | Deposit |": "cost" took any currency value of the row. A row
with more than one currency cell says what each amount is in its header; "costs" does not
read a cell whose header names an amount that is not a price (a deposit, a refund, a
discount, a fine, an allowance, a limit …). Cells told apart by whom or where they apply
("Adult", "Child", "us-east") are prices all, and a row with one currency cell has no
other amount the verb could mean."""

from __future__ import annotations

from cairn.answer.table_reading import read_row
from cairn.answer.tokens import account_tokens

_NOT_PRICE_HEADS = (
    "deposit", "refund", "discount", "fine", "penalt", "allowance", "budget", "limit", "cap",
    "excess", "salary", "wage", "bonus", "revenue", "income", "saving", "credit", "balance",
    "reimburse", "grant", "prize", "compensation", "cashback", "rebate", "bond", "payout",
)  # fmt: skip


def cost_reads(value_key: str, reading: str) -> bool:
    """True when "costs" may bind the currency value ``value_key`` (an account key
    "q:cur…") in the table row ``reading`` ("Item : Dry suit ; Hire price : £35 ; …",
    as :mod:`cairn.answer.evidence` reads a row with its header)."""
    money: list[tuple[str, bool]] = []
    row = read_row(reading)
    for head, cell in zip(row.heads, row.values, strict=True):
        keys = [t.key for t in account_tokens(cell) if t.kind == "n"]
        if any(k.startswith("q:cur") for k in keys):
            money.append((head.lower(), value_key in keys))
    if len(money) <= 1:
        return True
    return not any(hit and any(w in head for w in _NOT_PRICE_HEADS) for head, hit in money)
