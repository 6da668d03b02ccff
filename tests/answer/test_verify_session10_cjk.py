"""Claim verifier, session 10 (CJK): the ``retrieved`` setting on Chinese, and test10's
CJK near-verbatim misses. Each equivalence sits next to a changed neighbour that must
NOT be supported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cairn.answer import Claim, EvidenceSpan, verify_claims
from cairn.capsule.build import Candidate, fit_passage
from cairn.store.records import PassageHit

# A Chinese note of ~950 characters: the chunker's characters/4 estimate (~240) keeps it
# one passage, while the budget counter reads ~800 tokens, more than a 700-token capsule.
CANTEEN = """# 员工食堂管理规定（第3版）

本规定由行政部经理刘静起草，经总经理王建国批准，自2027年1月1日起施行。
第2版（2025年6月1日施行）同时废止。
员工食堂位于总部大楼B1层，可同时容纳320人就餐。

## 一、开放时间
| 餐次 | 工作日 | 周末及法定节假日 |
|---|---|---|
| 早餐 | 7:00–9:00 | 8:00–9:30 |
| 午餐 | 11:30–13:30 | 11:30–13:00 |
| 晚餐 | 17:30–19:30 | 不开放 |

夜班员工可在22:00–23:00领取夜宵，夜宵免费。
食堂在春节放假期间关闭，具体日期由行政部提前两周通知。

## 二、价格与补贴
| 餐次 | 员工价格 | 访客价格 |
|---|---|---|
| 早餐 | 5元 | 10元 |
| 午餐 | 12元 | 25元 |
| 晚餐 | 10元 | 20元 |

公司每月向每位正式员工的饭卡发放餐补400元。
实习生每月餐补为200元。
餐补当月有效，月底未用完的余额不结转到下月。
员工自己充值的金额长期有效，离职时可以申请退还。
饭卡只能在食堂和B1层便利店使用。
访客就餐须由接待员工在前台登记，费用计入接待部门。

## 三、就餐规定
员工须刷饭卡就餐，食堂不收现金。
饭卡丢失应在24小时内到行政部挂失，补卡收取工本费20元。
每人每餐限取一份主食，菜品可按需自取。
餐具使用后应送到回收处，不得带出食堂。
食堂内禁止吸烟，禁止饮酒。
外卖不得带入食堂就餐区。
员工可以在食堂微波炉加热自带的饭菜。

## 四、食品安全
食堂由膳和餐饮管理有限公司承包经营，合同期为两年。
所有厨房人员必须持有有效健康证，并每年体检一次。
每餐每种菜品留样不少于125克，冷藏保存48小时。
食材采购须索取供应商的检验合格证明。
行政部每周对食堂卫生进行一次检查，每月对员工进行一次满意度调查。
满意度连续两个月低于80分时，行政部应约谈承包方。
满意度连续三个月低于80分时，公司可以提前解除承包合同。

## 五、第3版的主要变化
正式员工的月餐补由300元提高到400元。
周末午餐开放时间由12:00开始调整为11:30开始。
新增夜宵供应。
"""


@pytest.fixture
def canteen(ws: Any, tmp_path: Path) -> Any:
    folder = tmp_path / "zh"
    folder.mkdir()
    (folder / "canteen.md").write_text(CANTEEN, encoding="utf-8")
    ws.add_collection(folder, name="zh")
    ws.index()
    return ws


# --- job 1: the retrieved setting on Chinese ----------------------------------------------------


def test_check_retrieves_a_chinese_note_larger_than_the_budget(canteen: Any) -> None:
    """Through the real ``check`` path (a capsule retrieved per claim, 700 tokens): the
    note's one passage costs more than the budget, so before the fix the capsule held no
    evidence and every claim was ``no_evidence``. A window of its lines is offered now."""
    draft = "实习生每月餐补为200元。\n食堂内禁止吸烟，禁止饮酒。\n外卖不得带入食堂就餐区。"
    report = canteen.check_draft(draft, budget_tokens=700)
    assert [c.verdict for c in report.claims] == ["supported"] * 3
    span = report.claims[0].spans[0]
    assert span.uri == "cairn://zh/canteen.md" and span.start_line <= 25 <= span.end_line  # session 15: the sentence itself (CJK units end at 。)
    # A changed neighbour retrieved the same way is not supported.
    changed = canteen.check_draft("实习生每月餐补为300元。\n外卖可以带入食堂就餐区。", budget_tokens=700)
    assert all(c.verdict != "supported" for c in changed.claims)


def test_window_of_a_large_passage_verifies_against_its_document(canteen: Any) -> None:
    capsule = canteen.context_build("工作日午餐时间为11:30–13:30。", budget_tokens=700)
    item = next(e for e in capsule.evidence if e.path == "canteen.md")
    assert item.tokens <= 350  # at most the document's share of the budget
    assert "| 餐次 | 工作日 | 周末及法定节假日 |" in item.text  # the table row with its header
    receipt = canteen.context_verify(capsule)
    assert receipt.status == "unchanged", receipt


def _cand(text: str, start: int = 10) -> Candidate:
    n = text.count("\n") + 1
    hit = PassageHit(1, "d", "c", "p.md", "t", start, start + n - 1, (), "", 1.0)
    return Candidate(hit=hit, text=text, source_hash="s", text_hash="t", passage_hash="h",
                     tokens=len(text), score=1.0)


def test_fit_passage_keeps_exact_whole_lines_around_the_best_line() -> None:
    text = "\n".join(f"第{i}行无关内容。" for i in range(20)).replace("第7行无关内容。", "实习生每月餐补为200元。")
    fitted = fit_passage(_cand(text), "实习生每月餐补", 40, len)
    assert fitted is not None and "实习生每月餐补为200元。" in fitted.text
    lines = text.split("\n")
    assert fitted.text == "\n".join(lines[fitted.start_line - 10 : fitted.end_line - 9])
    assert len(fitted.text) <= 40 and fitted.passage_hash != "h"
    # Nothing of the goal in the passage, or a one-line passage: no window.
    assert fit_passage(_cand(text), "完全不同的话题", 40, len) is None
    assert fit_passage(_cand("实习生每月餐补为200元。" * 9), "实习生", 40, len) is None


def test_content_missing_names_what_is_missing() -> None:
    """A unit too far from the claim to be aligned reports the missing part, not ''."""
    span = EvidenceSpan(evidence_id="E1", text="启航科技有限公司费用报销管理办法自2027年7月1日起施行。",
                        uri="cairn://zh/x.md", start_line=1, end_line=1)
    verdict = verify_claims([Claim(id="C1", text="实习生每月餐补为200元，自2027年7月1日起施行。",
                                   cited=(), substantive=True)], [span])[0]
    assert verdict.verdict == "insufficient"
    assert verdict.reason in ("content_missing", "no_overlap") and verdict.detail


# --- job 2: test10's CJK near-verbatim misses, by mechanism ---------------------------------


def _verdict(claim: str, evidence: str) -> str:
    span = EvidenceSpan(evidence_id="E1", text=evidence, uri="cairn://n/x.md", start_line=1, end_line=1)
    return verify_claims([Claim(id="C1", text=claim, cited=(), substantive=True)], [span])[0].verdict


@pytest.mark.parametrize(
    ("evidence", "same", "changed"),
    [
        # A part of the day before a clock range holds for both ends (was CONTRADICTED).
        ("夜班员工可在22:00–23:00领取夜宵，夜宵免费。", "夜班员工可在晚上10点至11点领取夜宵，夜宵免费。",
         "夜班员工可在早上10点至11点领取夜宵，夜宵免费。"),
        ("会议室在15:00–17:00开放。", "会议室在下午3点至5点开放。", "会议室在下午3点至4点开放。"),
        ("受付は14:00から16:00までです。", "受付は午後2時から4時までです。", "受付は午前2時から4時までです。"),
        ("열람실은 19:00부터 21:00까지 운영한다.", "열람실은 저녁 7시부터 9시까지 운영한다.",
         "열람실은 아침 7시부터 9시까지 운영한다."),
        # "From" the date it takes effect is the date (was CONTRADICTED against another date).
        ("本规定自2027年1月1日起施行。\n第2版（2025年6月1日施行）同时废止。",
         "第2版（自2025-06-01施行）同时废止。", "第2版（自2025-07-01施行）同时废止。"),
        # "，并" added between two verb phrases of one subject.
        ("本规定经总经理王建国批准，自2027年1月1日起施行。", "本规定经总经理王建国批准，并自2027年1月1日起施行。",
         "本规定经总经理王建国批准，并自2027年2月1日起施行。"),
        ("土方运输车辆出场前必须冲洗车轮，不得带泥上路。", "土方运输车辆出场前必须冲洗车轮，并不得带泥上路。",
         "土方运输车辆出场前必须冲洗车轮，并不带泥上路。"),
        # Two verb phrases around "，并" in the other order, the subject and modal kept.
        ("所有厨房人员必须持有有效健康证，并每年体检一次。", "所有厨房人员必须每年体检一次，并持有有效健康证。",
         "所有厨房人员必须每月体检一次，并持有有效健康证。"),
        # 在…后 = …后.
        ("餐具使用后应送到回收处，不得带出食堂。", "餐具在使用后应送到回收处，不得带出食堂。",
         "餐具在使用前应送到回收处，不得带出食堂。"),
        # Korean number words, 만, native counts.
        ("식권은 별도로 구매하며, 1식에 4,500원이다.", "식권은 별도로 구매하며, 1식에 사천오백 원이다.",
         "식권은 별도로 구매하며, 1식에 사천육백 원이다."),
        ("회원증 재발급 수수료는 1,000원이다.", "회원증 재발급 수수료는 천 원이다.", "회원증 재발급 수수료는 만 원이다."),
        ("두 번째 차량은 월 20,000원의 주차료를 낸다.", "두 번째 차량은 월 2만 원의 주차료를 낸다.",
         "두 번째 차량은 월 3만 원의 주차료를 낸다."),
        ("퇴사 조치를 받은 학생은 다음 두 학기 동안 입사를 신청할 수 없다.",
         "퇴사 조치를 받은 학생은 다음 2개 학기 동안 입사를 신청할 수 없다.",
         "퇴사 조치를 받은 학생은 다음 3개 학기 동안 입사를 신청할 수 없다."),
        # A Korean list of three nouns in another order.
        ("전기난로, 전기장판, 전기밥솥은 방에서 사용할 수 없다.", "전기밥솥, 전기난로, 전기장판은 방에서 사용할 수 없다.",
         "전자레인지, 전기난로, 전기장판은 방에서 사용할 수 없다."),
        # Coordinated items keep their parentheses (the changed one was a FALSE SUPPORT).
        ("제2기숙사는 남학생동(A동)과 여학생동(B동)으로 구성되며 총 420명을 수용한다.",
         "제2기숙사는 여학생동(B동)과 남학생동(A동)으로 구성되며 총 420명을 수용한다.",
         "제2기숙사는 남학생동(B동)과 여학생동(A동)으로 구성되며 총 420명을 수용한다."),
    ],
)
def test_cjk_equivalence_and_changed_neighbour(evidence: str, same: str, changed: str) -> None:
    assert _verdict(same, evidence) == "supported"
    assert _verdict(changed, evidence) != "supported"


def test_a_respective_korean_list_keeps_its_order() -> None:
    """A list paired "respectively" (각각) with another is not a set: its order is meaning."""
    evidence = "철수, 영희, 민수는 각각 1층, 2층, 3층에 산다."
    assert _verdict("철수, 영희, 민수는 각각 1층, 2층, 3층에 산다.", evidence) == "supported"
    assert _verdict("영희, 철수, 민수는 각각 1층, 2층, 3층에 산다.", evidence) != "supported"


def test_emphatic_negation_is_not_read_as_and() -> None:
    """并不 (emphatic "not") is never read away: it is not the "，并" of two verb phrases."""
    evidence = "本规定经总经理批准，自2027年1月1日起施行。"
    assert _verdict("本规定经总经理批准，并不自2027年1月1日起施行。", evidence) != "supported"


def test_table_clause_names_its_column_by_the_part_that_differs() -> None:
    """"员工午餐价格为12元，访客为25元" reads 访客价格 in its second clause; the values swapped or
    another row's visitor price are not supported."""
    table = "| 餐次 | 员工价格 | 访客价格 |\n|---|---|---|\n| 午餐 | 12元 | 25元 |\n| 晚餐 | 10元 | 20元 |"
    span = EvidenceSpan(evidence_id="E1", text=table, uri="cairn://n/x.md", start_line=1, end_line=4)

    def verdict(claim: str) -> str:
        return verify_claims([Claim(id="C1", text=claim, cited=(), substantive=True)], [span])[0].verdict

    assert verdict("员工午餐价格为12元，访客为25元。") == "supported"
    assert verdict("员工午餐价格为25元，访客为12元。") != "supported"
    assert verdict("员工午餐价格为12元，访客为20元。") != "supported"
