"""Session 11, issue 12: CJK classes of meaning-preserving restatements (test11 notes).

Each class of ``bench/verify_mutations_cjk.py`` (session 11) has its equivalence here,
next to a changed neighbour that must not be supported: katakana metric units, slashed
dates, a count "within" a duration in numerals, a Japanese request read as its rule (the
evidence's only), two Japanese clauses around "が、" in either order, a godan verb's
potential, "には" = "に", a te-form clause joint (分別して = 分別し、), Chinese 没有 = 未,
按照 = 按, the "是…的" frame, the light verb 进行, the future 会 = 将; a verb's や (燃やす) that is no
coordinator; and a Chinese table row whose 不 belongs to another cell.
"""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict

#: (class, equivalent claim, changed neighbour, evidence)
CASES = [
    ("katakana-unit", "一辺が0.5メートルを超えるものは粗大ごみです。",
     "一辺が50メートルを超えるものは粗大ごみです。", "一辺が50センチメートルを超えるものは粗大ごみです。"),
    ("katakana-unit", "一辺が50cmを超えるものは粗大ごみです。",
     "一辺が50mmを超えるものは粗大ごみです。", "一辺が50センチメートルを超えるものは粗大ごみです。"),
    ("litre", "指定袋は45Lです。", "指定袋は40Lです。", "指定袋は45リットルです。"),
    ("slash-date", "2026年度版は2027/3/31で廃止します。", "2026年度版は2027/3/30で廃止します。",
     "2026年度版は2027年3月31日で廃止します。"),
    ("slash-date", "本通知于2027/3/10发布。", "本通知于2027/3/11发布。", "本通知于2027年3月10日发布。"),
    ("within-words", "可在发布之日起三十日内书面提出。", "可在发布之日起三十一日内书面提出。",
     "可在发布之日起30日内书面提出。"),
    ("within-words", "物业在一天之内上门查看。", "物业在两天之内上门查看。", "物业在24小时内上门查看。"),
    ("ja-request", "生ごみは水をよく切ってから出します。", "生ごみは水をよく切ってから出せます。",
     "生ごみは水をよく切ってから出してください。"),
    ("ja-request", "穴は開けません。", "穴は開けます。", "穴は開けないでください。"),
    ("ja-ga-swap", "12月31日から1月3日までは収集しませんが、祝日も通常どおり収集します。",
     "12月31日から1月3日までは収集しますが、祝日も通常どおり収集しません。",
     "祝日も通常どおり収集しますが、12月31日から1月3日までは収集しません。"),
    ("ja-potential", "前日の夜には出せません。", "前日の夜には出しません。", "前日の夜に出すことはできません。"),
    ("zh-not-yet", "逾期三个月没有缴纳物业费的，物业服务中心将书面催缴。",
     "逾期三个月已缴纳物业费的，物业服务中心将书面催缴。",
     "逾期三个月未缴纳物业费的，物业服务中心将书面催缴。"),
    ("zh-frame", "物业费是按照房产证上的建筑面积来计算的。", "物业费不是按照房产证上的建筑面积来计算的。",
     "物业费按房产证上的建筑面积计算。"),
    ("zh-light-verb", "访客的车辆须由业主通过物业小程序提前进行登记。",
     "访客的车辆须由业主通过物业小程序提前暂停登记。", "访客车辆须由业主通过物业小程序提前登记。"),
    ("ja-te-stem", "違反ごみは出した人が持ち帰って、正しく分別し、次の収集日に出し直します。",
     "違反ごみは出した人が持ち帰って、正しく分別せず、次の収集日に出し直します。",
     "違反ごみは出した人が持ち帰り、正しく分別して次の収集日に出し直してください。"),
    ("zh-will", "逾期未缴纳物业费的，物业服务中心会书面催缴，但不得停水停电。",
     "逾期未缴纳物业费的，物业服务中心已书面催缴，但不得停水停电。",
     "逾期三个月未缴纳物业费的，物业服务中心将书面催缴，但不得停水停电。".replace("三个月", "")),
]  # fmt: skip


@pytest.mark.parametrize(("family", "claim", "changed", "evidence"), CASES)
def test_equivalent_claim_is_supported_and_changed_one_is_not(
    family: str, claim: str, changed: str, evidence: str
) -> None:
    assert verdict(claim, evidence) == "supported", family
    assert verdict(changed, evidence) != "supported", family


def test_a_request_is_read_as_a_rule_only_on_the_evidence_side() -> None:
    # "(The office) contacts you" does not state "please contact": the subject may differ.
    assert verdict("当日に連絡してください。", "当日に連絡します。") != "supported"
    assert verdict("当日に連絡します。", "当日に連絡してください。") == "supported"


def test_a_verbs_ya_is_no_coordinator() -> None:
    # 燃やすごみ is one noun phrase: its や never splits it as "A や B" would.
    table = (
        "| 種類 | 収集日 | 出す袋 | 手数料 |\n|---|---|---|---|\n"
        "| 燃やすごみ | 毎週月曜日・木曜日 | 指定袋（黄色） | 45リットル袋1枚50円 |\n"
    )
    assert verdict("燃やすごみの指定袋は45Lの袋1枚が50円です。", table) == "supported"
    assert verdict("燃やすごみの指定袋は45Lの袋1枚が60円です。", table) != "supported"


def test_shite_of_an_aspect_stays() -> None:
    # しておく (do in advance) is not the clause joint "し、".
    assert verdict("書類を確認し、おく。", "書類を確認しておく。") != "supported"


def test_hui_in_a_word_is_no_future() -> None:
    # 会议 (meeting), 委员会 (committee): never the future "will".
    assert verdict("业主委员会审议通过。", "业主委员将审议通过。") != "supported"
    assert verdict("会议将于周五举行。", "会议将于周五举行。") == "supported"


def test_a_date_month_first_is_not_read_as_year_first() -> None:
    assert verdict("本通知于3/10/2027发布。", "本通知于2027年3月10日发布。") != "supported"


def test_a_table_rows_negation_must_be_the_cell_the_claim_reads() -> None:
    table = "| 车辆类型 | 月租 | 临时停车 |\n|---|---|---|\n| 电动自行车 | 20元 | 不提供 |\n"
    assert verdict("电动自行车的月租不为20元。", table) != "supported"
    assert verdict("电动自行车的临时停车不提供。", table) != "contradicted"
