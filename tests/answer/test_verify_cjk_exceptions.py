"""A CJK claim that stops right before the evidence's exception word (以外, 之外, 외의,
제외 …) states the opposite of it (issue 12; found on the held-out split test18, lead).

Every sentence is written for these tests: the cut claim next to the whole statement and
a claim about another part of the sentence, which keep being supported."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("考试中禁止使用计算器以外的任何电子设备。", "考试中禁止使用计算器。"),
        ("图书馆周一之外的每天都开放。", "图书馆周一都开放。"),
        ("会场内禁止携带饮用水以外的饮料。", "会场内禁止携带饮用水。"),
        ("試験中は電卓以外の電子機器の使用を禁止します。", "試験中は電卓の使用を禁止します。"),
        ("시험 중에는 계산기 외의 전자기기 사용을 금지합니다.", "시험 중에는 계산기 사용을 금지합니다."),
    ],
)
def test_a_claim_cut_before_an_exception_is_not_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("考试中禁止使用计算器以外的任何电子设备。", "考试中禁止使用计算器以外的任何电子设备。"),
        ("会场内禁止携带饮用水以外的饮料，入场时间为上午9点。", "入场时间为上午9点。"),
    ],
)
def test_the_whole_statement_stays_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        # possibility, ability, need, plan, expectation, negation of the whole, inference
        ("雨の日は列車が遅れることがあります。", "雨の日は列車が遅れます。"),
        ("工事の騒音が夜まで続く場合があります。", "工事の騒音が夜まで続きます。"),
        ("申請は窓口で受け付けることができます。", "申請は窓口で受け付けます。"),
        ("会員証の更新には写真を提出する必要があります。", "会員証の更新には写真を提出します。"),
        ("新しい倉庫は来年の春に完成する予定です。", "新しい倉庫は来年の春に完成します。"),
        ("荷物は三日以内に届くはずです。", "荷物は三日以内に届きます。"),
        ("説明会の資料が配られるとは限りません。", "説明会の資料が配られます。"),
        ("この薬で眠くなるかもしれません。", "この薬で眠くなります。"),
        ("明日の会議は延期になるそうです。", "明日の会議は延期になります。"),
    ],
)
def test_a_japanese_claim_cut_before_a_predicate_tail_is_not_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("雨の日は列車が遅れることがあります。", "雨の日は列車が遅れることがあります。"),
        ("新しい倉庫は来年の春に完成する予定です。", "新しい倉庫は来年の春に完成する予定です。"),
        ("申請は窓口で受け付けます。", "申請は窓口で受け付けます。"),
    ],
)
def test_the_predicate_with_its_tail_stays_supported(evidence: str, claim: str) -> None:
    assert verdict(claim, evidence) == "supported"
