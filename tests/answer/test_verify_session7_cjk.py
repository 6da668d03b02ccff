"""Session 7, issue 12: CJK near-verbatim recall of the claim verifier.

One test per cause found with ``bench/verify_mutations_cjk.py`` (and the verify set's
zh/ja/ko notes), each next to its safe neighbour: the equivalent claim is supported (and
never contradicted), the meaning-changed one is not supported.
"""

from __future__ import annotations

import pytest

from cairn.answer import Claim, EvidenceSpan, verify_claims
from cairn.answer.cjk_forms import canonical_cjk
from cairn.text.tokens import tokenize


def _verdict(claim: str, evidence: str) -> str:
    span = EvidenceSpan("E1", evidence, "note.md", 1, 1)
    return verify_claims([Claim(id="C1", text=claim, cited=(), substantive=True)], [span])[0].verdict


SUPPORTED = [
    # A number glued to its unit is the whole number (it was "10" + "MB" for "101MB").
    ("The box weighs 12 kg.", "The box weighs 12kg."),
    # Digits before 万/亿 are the number itself (45万 had been read as 450).
    ("会议批准预算为每台450,000元。", "会议批准预算为每台45万元。"),
    ("1万円を支払う。", "10,000円を支払う。"),
    # Korean polite and plain declarative endings.
    ("관리비는 매월 25일까지 납부해야 합니다.", "관리비는 매월 25일까지 납부해야 한다."),
    ("놀이터에는 반려동물을 데리고 들어갈 수 없습니다.", "놀이터에는 반려동물을 데리고 들어갈 수 없다."),
    ("정회원의 월 회비는 6만 원입니다.", "정회원의 월 회비는 6만 원이다."),
    ("이 규약은 상가 건물에는 적용하지 않습니다.", "이 규약은 상가 건물에는 적용하지 않는다."),
    # Korean topic and subject particle.
    ("관리비가 매월 25일까지 납부해야 한다.", "관리비는 매월 25일까지 납부해야 한다."),
    ("김민수는 박지영을 추천했다.", "김민수가 박지영을 추천했다."),
    # Korean days as a duration (7일 이내 = 168시간 이내).
    ("회원은 등록 후 168시간 이내에 전액 환불을 받을 수 있다.", "회원은 등록 후 7일 이내에 전액 환불을 받을 수 있다."),
    # Japanese "AとB" before に/を after の: coordinated nouns in either order.
    ("システムの時刻と日付を設定する。", "システムの日付と時刻を設定する。"),
    ("グループと所有者に読み書きの権限を与える。", "所有者とグループに読み書きの権限を与える。"),
    ("プロセスとシステムリソースの使用状況を表示する。", "システムリソースとプロセスの使用状況を表示する。"),
]

NOT_SUPPORTED = [
    ("The box weighs 13kg.", "The box weighs 12kg."),
    ("Sort by sizes such as 3K and 1G.", "Sort by sizes such as 2K and 1G."),
    ("101MB보다 큰 파일 찾기.", "100MB보다 큰 파일 찾기."),
    ("按易读的大小（如 3K、1G）排序。", "按易读的大小（如 2K、1G）排序。"),
    ("会议批准预算为每台450元。", "会议批准预算为每台45万元。"),
    ("会议批准预算为每台4.5万元。", "会议批准预算为每台45万元。"),
    ("3万円を支払う。", "10,000円を支払う。"),
    # tense stays: 했다 (past) is not 한다 (present), polite or not
    ("관리비는 매월 25일까지 납부했다.", "관리비는 매월 25일까지 납부한다."),
    ("관리비는 매월 25일까지 납부했습니다.", "관리비는 매월 25일까지 납부한다."),
    # negation and possibility stay
    ("놀이터에는 반려동물을 데리고 들어갈 수 있습니다.", "놀이터에는 반려동물을 데리고 들어갈 수 없다."),
    ("관리비는 매월 25일까지 납부하지 않습니다.", "관리비는 매월 25일까지 납부합니다."),
    # roles stay: subject and object swapped
    ("김민수가 박지영을 추천했다.", "박지영이 김민수를 추천했다."),
    # a date's day is not a duration; another unit is another amount
    ("관리비는 매월 600시간까지 납부한다.", "관리비는 매월 25일까지 납부한다."),
    ("회원은 등록 후 7시간 이내에 전액 환불을 받을 수 있다.", "회원은 등록 후 7일 이내에 전액 환불을 받을 수 있다."),
    # "と" after a verb is a condition, not a coordination
    ("ボタンを押すと電源が入る。", "電源を入れるとボタンが光る。"),
]


@pytest.mark.parametrize(("claim", "evidence"), SUPPORTED)
def test_equivalent_cjk_claim_is_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(("claim", "evidence"), NOT_SUPPORTED)
def test_changed_claim_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


def test_glued_number_keeps_every_digit() -> None:
    assert [(t.raw, t.kind) for t in tokenize("101MB")] == [("101", "number"), ("MB", "word")]
    assert [t.raw for t in tokenize("12kg 3K 2nd 10am")] == ["12", "kg", "3", "K", "2", "10", "am"]
    assert tokenize("1st")[0].ordinal and tokenize("1st")[0].value == 1


def test_canonical_forms_keep_what_differs() -> None:
    assert canonical_cjk("45万元") == "450000元"
    assert canonical_cjk("1.2亿人") == "120000000人"
    assert canonical_cjk("3千克") == "3千克"  # a unit (kg), not the numeral 千
    # a date's day stays a day; a span of days becomes a duration
    assert canonical_cjk("매월 25일까지 낸다.") == "매월 25일까지 내다."
    assert "7天" in canonical_cjk("7일 이내에 받는다.")
    # tense and the adnominal -는 are kept
    assert canonical_cjk("납부했습니다.") == "납부했다."
    assert canonical_cjk("이용하는 회원") == "이용하는 회원"
    # 이 after a vowel belongs to the word (나이), after a consonant it is the particle
    assert canonical_cjk("나이 제한") == "나이 제한"
    assert canonical_cjk("회원이 낸다.") == canonical_cjk("회원은 낸다.")


def test_quoted_old_rule_is_no_conflicting_span() -> None:
    """A quoted, cancelled rule is mentioned, not stated: the current value in the same
    sentence does not make the claim contradicted (it was, against the 4 of 第4版)."""
    evidence = "本版取消了第4版中“开车前15天以上免费退票”的规定，改为开车前8天以上。"
    assert _verdict("开车前8天以上退票免费。", evidence) != "contradicted"
    # a stated conflicting value still contradicts
    assert _verdict("开车前20天以上退票免费。", "开车前8天以上退票免费。") == "contradicted"
    # and a number is compared with a number of its own kind only
    assert _verdict("本说明书为第3版。", "本说明书为第4版，替代2025年发布的第3版。") != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("演练在90分钟内完成。", "演练在1个半小时内完成。"),
        ("演练在30分钟内完成。", "演练在半小时内完成。"),
        ("保修期为6个月。", "保修期为半年。"),
        ("炊飯には90分かかる。", "炊飯には1時間半かかる。"),
        ("수업은 90분 동안 진행된다.", "수업은 1시간 반 동안 진행된다."),
    ],
)
def test_half_in_a_duration_is_exact(claim: str, evidence: str) -> None:
    """"1時間半" had made "90分" contradicted: an equivalent claim, never contradicted."""
    assert _verdict(claim, evidence) == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [("炊飯には60分かかる。", "炊飯には1時間半かかる。"), ("保修期为1年。", "保修期为半年。")],
)
def test_other_duration_than_the_half_is_not_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence", "supported"),
    [
        ("在宅勤務は週2日までとします。", "在宅勤務は週2日までとする。", True),
        ("派遣社員は本規程の対象外です。", "派遣社員は本規程の対象外である。", True),
        ("会社の許可なく在宅勤務はできません。", "会社の許可なく在宅勤務はできない。", True),
        ("申請は上長が承認します。", "申請は上長が承認する。", True),
        # negation and tense stay
        ("会社の許可なく在宅勤務はできます。", "会社の許可なく在宅勤務はできない。", False),
        ("申請は上長が承認しました。", "申請は上長が承認する。", False),
    ],
)
def test_japanese_polite_and_plain_endings(claim: str, evidence: str, supported: bool) -> None:
    assert (_verdict(claim, evidence) == "supported") is supported


@pytest.mark.parametrize(
    ("claim", "evidence", "supported"),
    [
        ("团体票退票必须在开车前48小时以上办理。", "团体票退票须在开车前48小时以上办理。", True),
        ("旅客可以随时取消。", "旅客可随时取消。", True),
        ("备份每个月检查一次。", "备份每月检查一次。", True),
        ("演练每星期三进行。", "演练每周三进行。", True),
        ("员工应当遵守本规定。", "员工应遵守本规定。", True),
        ("관리비는 매월 25일까지 납부하여야 한다.", "관리비는 매월 25일까지 납부해야 한다.", True),
        ("관리비는 매달 25일까지 납부해야 한다.", "관리비는 매월 25일까지 납부해야 한다.", True),
        ("使用出来るシグナル名を表示する。", "使用できるシグナル名を表示する。", True),
        # the variant is one word: modality, negation, weekday, period and tense stay
        ("团体票退票可以在开车前48小时以上办理。", "团体票退票须在开车前48小时以上办理。", False),
        ("旅客不可以随时取消。", "旅客可随时取消。", False),
        ("演练每星期四进行。", "演练每周三进行。", False),
        ("备份每个季度检查一次。", "备份每月检查一次。", False),
        ("관리비는 매년 25일까지 납부하여야 한다.", "관리비는 매달 25일까지 납부해야 한다.", False),
        ("관리비는 매월 25일까지 납부하였다.", "관리비는 매월 25일까지 납부한다.", False),
    ],
)
def test_spelling_variants_of_one_word(claim: str, evidence: str, supported: bool) -> None:
    assert (_verdict(claim, evidence) == "supported") is supported


def test_variants_leave_other_words_alone() -> None:
    # Chinese 出来 (come out) is not Japanese 出来る (can)
    # (session 15: the disposal marker 把 is read as the written 将)
    assert canonical_cjk("把文件拿出来。") == "将文件拿出来。"
    assert canonical_cjk("使用出来ます。") == "使用できる。"
