"""CJK near-verbatim claims and dates, session 19c (issue 12): a Japanese first clause
closed by a counter and "で、", a Japanese or Korean topic with a later clause (an edition
or agent clause left out), and a CJK condition or scope clause in front of (or inside)
the part a claim copies, which the claim may not leave out.

Every sentence is written for these tests; each claim that keeps the meaning sits next
to neighbours that change it (a condition, threshold or scope dropped, another edition,
another date) and must not be supported."""

from __future__ import annotations

import pytest

from tests.answer.verdicts import verdict


def _check(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:], (claim, got)
    else:
        assert got == expected, (claim, got)


# ----------------------------------------------------------- a fronted condition or scope

@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # The whole sentence stays supported; the clause after a condition does not.
        ("お買い上げが5,000円以上で、送料は無料です。", "お買い上げが5,000円以上で、送料は無料です。\n", "supported"),
        ("送料は無料です。", "お買い上げが5,000円以上で、送料は無料です。\n", "!supported"),
        ("送料は無料です。", "5,000円以上のお買い上げで、送料は無料です。\n", "!supported"),
        ("送料は無料です。", "お買い上げが5,000円以上の場合、送料は無料です。\n", "!supported"),
        ("送料は無料です。", "会員登録をすると、送料は無料です。\n", "!supported"),
        ("送料は無料です。", "雨の日は、送料は無料です。\n", "!supported"),
        ("窓口は閉鎖します。", "台風が接近した際は、窓口は閉鎖します。\n", "!supported"),
        ("送料は無料です。", "送料は無料です。\n", "supported"),
        ("运费免费。", "购物满5000元，运费免费。\n", "!supported"),
        ("运费免费。", "如果购物超过5000元，运费免费。\n", "!supported"),
        ("须提前一天预约。", "进入重症监护室探视的，须提前一天预约。\n", "!supported"),
        ("购物满5000元，运费免费。", "购物满5000元，运费免费。\n", "supported"),
        ("배송비는 무료이다.", "5만 원 이상 구매하면, 배송비는 무료이다.\n", "!supported"),
        ("대여는 중단된다.", "비가 오는 경우에는, 대여는 중단된다.\n", "!supported"),
        ("5만 원 이상 구매하면, 배송비는 무료이다.", "5만 원 이상 구매하면, 배송비는 무료이다.\n", "supported"),
        # A condition left out in the middle, after the topic.
        ("이 규정은 2027-03-01부터 시행한다.", "이 규정은 이사회가 승인하면, 2027년 3월 1일부터 시행한다.\n", "!supported"),
        ("本規則は2027年4月1日から施行する。", "本規則は、理事会が承認した場合、2027年4月1日から施行する。\n", "!supported"),
        # The condition copied with the rest stays supported.
        ("感染症にかかった場合は、医師の許可を得てから登園してください。", "感染症にかかった場合は、医師の許可を得てから登園してください。\n", "supported"),
        ("雨天の場合、作業は翌週に延期する。", "雨天の場合、作業は翌週に延期する。\n", "supported"),
        ("超过30天提交的申请，人事部不予受理。", "超过30天提交的申请，人事部不予受理。\n", "supported"),
        ("人事部不予受理。", "超过30天提交的申请，人事部不予受理。\n", "!supported"),
        # A clause with a subject of its own after a clause that is no condition stays.
        ("실습생은 부서장의 동의를 받아야 한다.", "정규직은 누구나 참가할 수 있고, 실습생은 부서장의 동의를 받아야 한다.\n", "supported"),
    ],
)
def test_fronted_condition(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# ---------------------------------------- a Japanese first clause "<number><counter>で、"

_EDITION = "本書は2026年3月1日発行の第3版で、2024年発行の第2版に代わるものです。\n"
_FEE = "利用料は1回500円で、月額上限は5,000円です。\n"
_THRESHOLD = "1回の利用は3時間までで、延長はできません。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("本書は2026-03-01発行の第3版です。", _EDITION, "supported"),
        ("本書は2026年3月1日発行の第3版です。", _EDITION, "supported"),
        ("本書は2026年3月1日発行の第2版です。", _EDITION, "!supported"),  # the other edition
        ("本書は2026年4月1日発行の第3版です。", _EDITION, "!supported"),  # another date
        ("本書は第3版だった。", _EDITION, "!supported"),  # tense
        ("利用料は1回500円です。", _FEE, "supported"),
        ("利用料は1回600円です。", _FEE, "!supported"),
        # A threshold closed by で is not a clause of its own ("up to 3 hours, and ...").
        ("延長はできます。", _THRESHOLD, "!supported"),
    ],
)
def test_counter_copula_first_clause(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# ------------------------------------- a Japanese or Korean topic with a later clause

_JA_GUIDE = "本案内は第8版で、2027年2月15日に校長の藤田健一が承認し、2027年4月1日から適用する。\n"
_JA_RULES = "本規則は第6版であり、2027年4月1日から施行する。\n"
_KO_RULES = "이 규정은 제3판으로 2027년 3월 1일부터 시행하며, 2025년 7월 1일에 시행한 제2판을 대체한다.\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("本案内は2027-04-01から適用する。", _JA_GUIDE, "supported"),
        ("本案内は2027年4月1日から適用する。", _JA_GUIDE, "supported"),
        ("本案内は2027-05-01から適用する。", _JA_GUIDE, "!supported"),  # another date
        ("本案内は2027年2月15日から適用する。", _JA_GUIDE, "!supported"),  # the approval date
        ("本案内は2027年4月1日から適用しない。", _JA_GUIDE, "!supported"),
        ("本規則は令和9年4月1日から施行する。", _JA_RULES, "supported"),
        ("本規則は令和8年4月1日から施行する。", _JA_RULES, "!supported"),  # another era year
        # A left-out clause that restricts the kept one: a condition, a limit, a plan.
        ("本規則は2027年4月1日から施行する。", "本規則は理事会が承認した場合、2027年4月1日から施行する。\n", "!supported"),
        ("本規則は2027年4月1日から施行する。", "本規則は会員のみに適用し、2027年4月1日から施行する。\n", "!supported"),
        ("本規則は2027年4月1日から施行する。", "本規則は第6版であり、2027年4月1日から施行する予定である。\n", "!supported"),
        ("이 규정은 2027-03-01부터 시행한다.", _KO_RULES, "supported"),
        ("이 규정은 2027-04-01부터 시행한다.", _KO_RULES, "!supported"),
        ("이 규정은 2025-07-01부터 시행한다.", _KO_RULES, "!supported"),  # the replaced edition's date
        ("이 규정은 2027-03-01부터 시행하지 않는다.", _KO_RULES, "!supported"),
    ],
)
def test_ja_ko_topic_clause(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# ------------------------------------------------ a weekday in parentheses after a date

_ZH_RACE = "比赛定于2028年4月16日（星期日）上午7点30分在东操场鸣枪起跑。\n"
_JA_MEETING = "説明会は1月31日（月）に本社で開く。\n"
_KO_DEADLINE = "신청은 2028년 2월 10일(목)까지 해야 한다.\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("比赛定于2028-04-16上午7:30在东操场鸣枪起跑。", _ZH_RACE, "supported"),
        ("比赛定于2028年4月16日上午7点30分在东操场鸣枪起跑。", _ZH_RACE, "supported"),
        ("比赛定于2028年4月16日（星期日）上午7点30分在东操场鸣枪起跑。", _ZH_RACE, "supported"),
        ("比赛定于2028年4月16日（星期一）上午7点30分在东操场鸣枪起跑。", _ZH_RACE, "!supported"),
        ("比赛定于2028年4月17日上午7点30分在东操场鸣枪起跑。", _ZH_RACE, "!supported"),
        ("比赛定于2028年4月16日下午7点30分在东操场鸣枪起跑。", _ZH_RACE, "!supported"),
        ("説明会は1月31日に本社で開く。", _JA_MEETING, "supported"),
        ("説明会は1月31日（火）に本社で開く。", _JA_MEETING, "!supported"),
        ("説明会は2月1日に本社で開く。", _JA_MEETING, "!supported"),
        ("신청은 2028년 2월 10일까지 해야 한다.", _KO_DEADLINE, "supported"),
        ("신청은 2028년 2월 11일까지 해야 한다.", _KO_DEADLINE, "!supported"),
        ("신청은 2028년 2월 10일까지 할 수 있다.", _KO_DEADLINE, "!supported"),  # must -> may
    ],
)
def test_weekday_in_parentheses(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# ------------------------------------------------------ a CJK title line above a sentence

_TITLED = "仁和医院住院部\n本须知为第4版，自2027年3月1日起施行，2024年5月发布的第3版同时废止。\n"
_WRAPPED = "凡入职未满一年的员工\n不得申请年假。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("本须知为第4版，自2027-03-01起施行。", _TITLED, "supported"),
        ("本须知为第4版，自2027年3月1日起施行。", _TITLED, "supported"),
        ("本须知为第5版，自2027-03-01起施行。", _TITLED, "!supported"),
        ("本须知为第4版，自2027-04-01起施行。", _TITLED, "!supported"),
        ("本须知为第3版，自2027-03-01起施行。", _TITLED, "!supported"),
        # A wrapped sentence whose first line is a condition stays one sentence.
        ("员工不得申请年假。", _WRAPPED, "!supported"),
        ("凡入职未满一年的员工不得申请年假。", _WRAPPED, "supported"),
    ],
)
def test_cjk_title_line(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)
