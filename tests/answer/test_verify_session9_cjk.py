"""Session 9, issue 12: CJK near-verbatim recall of the claim verifier, by mechanism.

Each family of ``bench/verify_mutations_cjk.py`` (session 9) has its equivalences here,
each next to a changed neighbour that must not be supported: a percentage as a fraction
in words, a Chinese date's 号, "；" read as "，" between two Chinese clauses, two verb
phrases around 并 in the other order, an attributive 的 the evidence leaves out, an
edition named by a copula clause of its own, a CJK table row read as several clauses, a
Japanese/Korean continuative first clause, a clock range's own length, a count per period
with or without "every", することができる, a Chinese amount per period with a slash.
"""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict

#: (family, equivalent claim, changed neighbour, evidence)
CASES = [
    # A fraction in words is the percentage when that is exact.
    ("fraction", "财务部每月抽查报销单据，抽查比例不低于十分之一。",
     "财务部每月抽查报销单据，抽查比例不低于十分之二。",
     "财务部每月抽查报销单据，抽查比例不低于10%。"),
    ("fraction", "定員の4分の1を上限とします。", "定員の4分の3を上限とします。",
     "定員の25%を上限とします。"),
    ("fraction", "投票须获得四分之三以上同意。", "投票须获得三分之二以上同意。",
     "投票须获得75%以上同意。"),
    # A Chinese date's 号 is its 日.
    ("hao-date", "本办法自2027年7月1号起施行。", "本办法自2027年7月2号起施行。",
     "本办法自2027年7月1日起施行。"),
    # "；" read as "，" between two clauses.
    ("semicolon-comma", "报销须提供合法的增值税发票，电子发票须同时提交PDF文件。",
     "报销须提供合法的增值税发票，电子发票不须同时提交PDF文件。",
     "报销须提供合法的增值税发票；电子发票须同时提交PDF文件。"),
    # Two verb phrases around 并 in either order.
    ("vp-and-swap", "虚报、冒领费用的，公司将给予警告处分并追回款项。",
     "虚报、冒领费用的，公司将不给予警告处分并追回款项。",
     "虚报、冒领费用的，公司将追回款项并给予警告处分。"),
    # An attributive 的 between two nouns the evidence joins.
    ("attributive", "本办法适用于公司的全体正式员工。", "本办法适用于全体的公司正式员工。",
     "本办法适用于公司全体正式员工；实习生的报销另行规定。"),
    ("attributive", "项目部每周召开一次安全例会，由项目的经理主持。",
     "项目部每周召开一次安全例会，由经理的项目主持。",
     "项目部每周召开一次安全例会，由项目经理主持。"),
    # An edition named by a copula clause of its own is the edition of what follows.
    ("edition", "本办法第3版自2027年7月1号起施行，第2版同时废止。",
     "本办法第4版自2027年7月1号起施行，第2版同时废止。",
     "本办法为第3版，自2027年7月1日起施行，第2版同时废止。"),
    ("edition", "本公示第2版的发布日期为2027-03-25。", "本公示第2版的发布日期为2027-03-18。",
     "本公示为第2版，发布日期为2027年3月25日，替代2027年3月18日发布的第1版。"),
    # A clock range's own length after it is the range.
    ("range-span", "延長保育は18時から19時までの1時間です。", "延長保育は18時から19時までの2時間です。",
     "延長保育は18時から19時までです。"),
    ("range-span", "休憩は12時から13時までの60分とする。", "休憩は12時から13時までの45分とする。",
     "休憩は12時から13時までの1時間とする。"),
    ("range-span", "운영 시간은 평일 9시부터 18시까지 9시간이다.", "운영 시간은 평일 9시부터 18시까지 8시간이다.",
     "운영 시간은 평일 9시부터 18시까지이다."),
    # A count per period with or without "every".
    ("per-period", "避難訓練は月1回行います。", "避難訓練は年1回行います。", "避難訓練は毎月1回行います。"),
    ("per-period", "健康診断は年に2回行います。", "健康診断は月に2回行います。", "健康診断は年2回行います。"),
    ("per-period", "소방 훈련은 월 1회 실시한다.", "소방 훈련은 주 1회 실시한다.", "소방 훈련은 매월 1회 실시한다."),
    # することができる is できる.
    ("suru-koto", "会員はラウンジを利用することができます。", "会員はラウンジを利用します。",
     "会員はラウンジを利用できます。"),
    ("suru-koto", "館内に持ち込むことはできません。", "館内に持ち込みません。", "館内に持ち込むことはできません。"),
    # A Chinese amount per period with a slash.
    ("zh-per-slash", "出差补助为每天100元。", "出差补助为每月100元。", "出差补助为100元/天。"),
]  # fmt: skip


@pytest.mark.parametrize(("family", "claim", "changed", "evidence"), CASES)
def test_equivalent_claim_is_supported_and_changed_one_is_not(
    family: str, claim: str, changed: str, evidence: str
) -> None:
    assert verdict(claim, evidence) == "supported", family
    assert verdict(changed, evidence) != "supported", family


def test_a_fraction_that_is_no_exact_percentage_stays_as_written() -> None:
    assert verdict("赞成票须超过三分之一。", "赞成票须超过33%。") != "supported"
    assert verdict("赞成票须超过三分之一。", "赞成票须超过三分之一。") == "supported"


def test_emphatic_bing_is_no_coordination() -> None:
    # 并不/并非 negate: never read as "and".
    evidence = "该费用并不由公司承担。"
    assert verdict("该费用由公司承担。", evidence) != "supported"
    assert verdict("该费用并不由公司承担。", evidence) == "supported"


def test_a_de_whose_neighbours_the_evidence_does_not_join_stays() -> None:
    evidence = "员工提交申请后，部门经理审批。"
    assert verdict("员工的部门提交申请后，经理审批。", evidence) != "supported"
    assert verdict("员工提交申请后，部门的经理审批。", evidence) == "supported"


_CLASS_TABLE = (
    "| クラス | 年齢 | 定員 | 保育士の配置 |\n|---|---|---|---|\n"
    "| りす組 | 1歳児 | 12名 | 子ども6名に1名 |\n| うさぎ組 | 2歳児 | 15名 | 子ども6名に1名 |"
)
_TRAVEL_TABLE = (
    "| 职级 | 住宿标准（每晚） | 交通工具 | 出差补助（每天） |\n|---|---|---|---|\n"
    "| 普通员工 | 一线城市450元，其他城市350元 | 高铁二等座 | 100元 |"
)


@pytest.mark.parametrize(
    ("claim", "changed"),
    [
        ("りす組は1歳児のクラスで、定員は12名です。", "りす組は1歳児のクラスで、定員は15名です。"),
        ("りす組は1歳児のクラスで、定員は12名です。", "りす組は2歳児のクラスで、定員は12名です。"),
        ("りす組は1歳児のクラスで、定員は12名です。", "りす組は1歳児のクラスで、定員は6名です。"),
    ],
)
def test_a_row_read_as_two_clauses(claim: str, changed: str) -> None:
    # Each clause reads the columns it names; a clause that names none reads any cell.
    assert verdict(claim, _CLASS_TABLE) == "supported"
    assert verdict(changed, _CLASS_TABLE) != "supported"


def test_a_number_of_a_cell_that_says_more_keeps_its_neighbours() -> None:
    # "6名" of "子ども6名に1名" is no count of the class.
    assert verdict("りす組は6名です。", _CLASS_TABLE) != "supported"
    assert verdict("りす組は6名で、定員は12名です。", _CLASS_TABLE) != "supported"


def test_a_later_clause_goes_on_with_the_column_named_before_it() -> None:
    # "其他城市350元" continues the 出差补助 clause: 350元 is the 住宿标准 cell.
    claim = "普通员工为高铁二等座，出差补助（每天）为一线城市450元，其他城市350元。"
    assert verdict(claim, _TRAVEL_TABLE) != "supported"
    fixed = "普通员工为高铁二等座，住宿标准（每晚）为一线城市450元，其他城市350元。"
    assert verdict(fixed, _TRAVEL_TABLE) == "supported"


@pytest.mark.parametrize(
    ("claim", "changed", "evidence"),
    [
        ("本館は10時に開館します。", "本館は10時に開館しました。", "本館は10時に開館し、別館は11時に開館します。"),
        ("別館は11時に開館し、本館は10時に開館します。", "別館は10時に開館し、本館は11時に開館します。",
         "本館は10時に開館し、別館は11時に開館します。"),
        ("利用料は1回500円です。", "利用料は1回5,000円です。", "利用料は1回500円で、月額上限は5,000円です。"),
        ("直前のコミットを取り消します。", "直前のコミットを取り消しました。", "直前のコミットを取り消し、変更もすべて破棄する。"),
        ("이 규정은 2027년 3월 1일부터 시행한다.", "이 규정은 2027년 3월 1일부터 시행했다.",
         "이 규정은 2027년 3월 1일부터 시행하며, 제2판을 대체한다."),
        ("이용료는 1회 500원이다.", "이용료는 1회 5,000원이다.", "이용료는 1회 500원이며, 월 상한은 5,000원이다."),
    ],
)
def test_a_continuative_first_clause_takes_the_final_tense(claim: str, changed: str, evidence: str) -> None:
    assert verdict(claim, evidence) == "supported"
    assert verdict(changed, evidence) != "supported"


def test_a_request_modal_or_sequence_is_not_carried_over() -> None:
    # The final predicate's force (a request, "must") may reach back: no clause of its own.
    assert verdict("登園前に家庭で検温します。", "登園前に家庭で検温し、37.5℃以上の場合は登園を控えてください。") != "supported"
    assert verdict("회원은 신청서를 작성한다.", "회원은 신청서를 작성하며, 관리사무소에 제출해야 한다.") != "supported"
    # Two acts of one subject keep their order.
    evidence = "直前のコミットを取り消し、変更もすべて破棄する。"
    assert verdict("変更もすべて破棄し、直前のコミットを取り消す。", evidence) != "supported"
    # "で、" after a place is the particle, not the copula.
    assert verdict("説明会は会議室です。", "説明会は会議室で、資料は受付で配布します。") != "supported"
