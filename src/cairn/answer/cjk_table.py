"""Which columns a CJK claim names, clause by clause, when it reads a table row as a
sentence (issue 12, sessions 8-9).

A claim that names a column reads its values from that column: "완속 충전기의 출력은 지하
1층이다" names 출력, so "지하 1층" (the 위치 cell) is not accounted. A claim of several
clauses names its columns in each clause: "りす組は1歳児のクラスで、定員は12名です" reads
12名 in the clause that names 定員 (from the 定員 cell) and 1歳児 in a clause that names
no column (from any cell that says nothing else, as a one-clause claim naming no column
does); a later clause that names no column goes on with the columns of the clause
before it. A clause is what lies between the claim's "，"/"；"/"。" (not "、" or brackets).

A number read from a CJK cell that says more than it keeps its neighbours there
(session 9): "子ども6名に1名" gives "子ども6名に1名", never "6名" alone ("りす組は6名です"
is not the 定員 of a row whose staffing cell says 6名).
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import AccountToken, _same, account_tokens

__all__ = ["cjk_cell_read", "cjk_named_columns", "cjk_negation_elsewhere"]


def cjk_named_columns(heads: Sequence[str], claim: Sequence[AccountToken]) -> dict[int, list[int]]:
    """For each number token of ``claim`` (by ``id``), the columns (not the first) whose
    header its clause names: every character and word of the header is in that clause."""
    clauses: list[list[AccountToken]] = [[]]
    for t in claim:
        if t.kind == "p" and t.key not in "、（）()":
            clauses.append([])
        else:
            clauses[-1].append(t)
    out: dict[int, list[int]] = {}
    named: list[int] = []
    before: list[AccountToken] = []
    for clause in clauses:
        # A clause that names no column goes on with the one before it ("定員は12名，
        # 6名..." still reads 定員); only a first clause naming none reads any column.
        # Session 10: a clause may name a column by the part that sets it apart, the rest
        # said in the clause before ("员工午餐价格为12元，访客为25元" reads 访客价格).
        named = (
            [k for k in range(1, len(heads)) if heads[k].strip() and _names(heads[k], clause)]
            or [k for k in range(1, len(heads)) if heads[k].strip() and _names_apart(heads[k], clause, before)]
            or named
        )
        before = clause
        for t in clause:
            if t.kind == "n":
                out[id(t)] = named
    return out


def _names_apart(head: str, clause: Sequence[AccountToken], before: Sequence[AccountToken]) -> bool:
    """Every character and word of ``head`` is in ``clause`` or the clause ``before`` it,
    and one that ``before`` lacks is in ``clause``."""
    parts = [e for e in account_tokens(head) if e.kind in ("w", "c")]
    here = [e for e in parts if any(_same(c, e) for c in clause)]
    return (
        bool(before)
        and all(e in here or any(_same(c, e) for c in before) for e in parts)
        and any(not any(_same(c, e) for c in before) for e in here)
    )


def _names(head: str, clause: Sequence[AccountToken]) -> bool:
    return all(
        any(_same(c, e) for c in clause) for e in account_tokens(head) if e.kind in ("w", "c")
    )


def cjk_cell_read(cell: Sequence[AccountToken], t: AccountToken, claim: Sequence[AccountToken]) -> bool:
    """The claim's number ``t`` has, on each side, the token the CJK ``cell`` has next to
    that number (where the cell has one): the number is read with its context."""
    mine = [c for c in claim if c.kind != "p"]
    k = next((i for i, c in enumerate(mine) if c is t), None)
    if k is None:
        return False
    words = [e for e in cell if e.kind != "p"]
    for p, e in enumerate(words):
        if not _same(t, e):
            continue
        before = p == 0 or (k > 0 and _same(mine[k - 1], words[p - 1]))
        after = p == len(words) - 1 or (k + 1 < len(mine) and _same(mine[k + 1], words[p + 1]))
        if before and after:
            return True
    return False


#: Chinese negation characters (session 11).
_ZH_NEGATIONS = frozenset("不没未无非")


def cjk_negation_elsewhere(claim: Sequence[AccountToken], cells: Sequence[Sequence[AccountToken]]) -> str | None:
    """A reason when a Chinese negation of the claim is found in the row only in a cell
    the claim does not read there (session 11): "电动自行车的月租不为20元" is not accounted
    by "| 电动自行车 | 20元 | 不提供 |", whose 不 is 不提供's. The negation must keep a
    neighbour of the claim next to it in its cell (不办理 from "| 不办理月租 |")."""
    for i, t in enumerate(claim):
        if t.kind != "c" or t.key not in _ZH_NEGATIONS:
            continue
        near = {claim[j].key for j in (i - 1, i + 1) if 0 <= j < len(claim) and claim[j].kind == "c"}
        if not any(
            cell[k].key == t.key
            and any(cell[j].key in near for j in (k - 1, k + 1) if 0 <= j < len(cell))
            for cell in cells
            for k in range(len(cell))
        ):
            return f"its {t.text} is in no cell it reads"
    return None
