"""CJK near-verbatim claims, session 18c (issue 12): "or" kept apart from "and",
function words written two ways, a Chinese "but"/"also" between clauses, a carried topic
over reordered items, a Korean "있으며," clause.

Every sentence is written for these tests; each claim that keeps the meaning sits next
to neighbours that change it (a condition or an alternative dropped, "and" for "or",
another number, another time word, a negation or modality changed) and must not be
supported."""

from __future__ import annotations

import pytest

from cairn.answer.cjk_connectives import connective_reading
from cairn.answer.cjk_function_words import function_word_forms
from tests.answer.verdicts import verdict


def _check(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:], (claim, got)
    else:
        assert got == expected, (claim, got)


# --------------------------------------------------------------------------- "or"

_ZH_OR = "申请人须提交身份证或户口本复印件。\n"
_ZH_OR_FREE = "六岁以下儿童或七十岁以上老人可免费入园。\n"
_KO_OR = "신청서는 우편이나 팩스로 제출해야 한다.\n"
_KO_OR2 = "신청인은 여권 또는 운전면허증을 제시해야 한다.\n"
_JA_OR_KA = "受付ではカードか現金で支払う。\n"
_JA_OR = "申請者はパスポートまたは運転免許証を提示しなければならない。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("申请人须提交身份证或户口本复印件。", _ZH_OR, "supported"),
        ("申请人须提交户口本复印件或身份证。", _ZH_OR, "supported"),
        ("申请人须提交身份证。", _ZH_OR, "!supported"),  # one alternative as the duty
        ("申请人须提交身份证和户口本复印件。", _ZH_OR, "!supported"),  # "and" for "or"
        ("申请人须提交身份证、户口本复印件。", _ZH_OR, "!supported"),
        ("六岁以下儿童或七十岁以上老人可免费入园。", _ZH_OR_FREE, "supported"),
        ("七十岁以上老人或六岁以下儿童可免费入园。", _ZH_OR_FREE, "supported"),
        ("六岁以下儿童和七十岁以上老人可免费入园。", _ZH_OR_FREE, "!supported"),
        ("六岁以下儿童可免费入园。", _ZH_OR_FREE, "!supported"),
        ("신청서는 팩스나 우편으로 제출해야 한다.", _KO_OR, "supported"),
        ("신청서는 우편과 팩스로 제출해야 한다.", _KO_OR, "!supported"),  # "and" for "or"
        ("신청인은 운전면허증 또는 여권을 제시해야 한다.", _KO_OR2, "supported"),
        ("신청인은 여권과 운전면허증을 제시해야 한다.", _KO_OR2, "!supported"),
        ("신청인은 여권을 제시해야 한다.", _KO_OR2, "!supported"),
        ("申請者はパスポートを提示しなければならない。", _JA_OR, "!supported"),
        ("受付では現金かカードで支払う。", _JA_OR_KA, "supported"),
        ("受付ではカードか現金で支払う。", _JA_OR_KA, "supported"),
        ("受付ではカードと現金で支払う。", _JA_OR_KA, "!supported"),  # "and" for "or"
        ("受付ではカードで支払う。", _JA_OR_KA, "!supported"),
        ("受付ではカードか小切手で支払う。", _JA_OR_KA, "!supported"),
        ("朝食はおかゆを出す。", "朝食はおかゆを出す。\n", "supported"),
        ("朝食はおゆを出す。", "朝食はおかゆを出す。\n", "!supported"),
        ("更新は満了の1か月前に行う。", "更新は満了の1か月前に行う。\n", "supported"),
        ("更新は満了の1月前に行う。", "更新は満了の1か月前に行う。\n", "!supported"),
        ("期限内に受診しなかった社員は再受診する。", "期限内に受診しなかった社員は再受診する。\n", "supported"),
    ],
)
def test_or_is_not_and_and_no_alternative_is_dropped(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# --------------------------------------------------------------------------- function words


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("退房以后24小时以内", "退房后24小时内"),
        ("入住以前", "入住前"),
        ("办理手续的时候", "办理手续时"),
        ("以内容为准", "以内容为准"),  # 以 "by": no position word
        ("购票以前往北京", "购票以前往北京"),
        ("以后每月检查一次", "以后每月检查一次"),  # a clause opening with 以后
        ("예약할 때 보증금을 낸다", "예약 시 보증금을 낸다"),
        ("예약할 때에는", "예약 시에는"),
        ("할 때", "할 때"),
    ],
)
def test_function_word_forms(text: str, read: str) -> None:
    assert function_word_forms(text) == read


_ZH_DEPOSIT = "押金须在退房后3个工作日内退还，逾期按日计息。\n"
_ZH_PICKUP = "领取钥匙时须出示本人身份证。\n"
_ZH_CLEFT = "本制度由人事部经理刘芳起草，经总经理陈伟批准。\n"
_KO_DEPOSIT = "예약 시 보증금 5만 원을 내야 한다.\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("押金必须在退房以后3个工作日之内退还，逾期按日计息。", _ZH_DEPOSIT, "supported"),
        ("押金须在退房以前3个工作日内退还，逾期按日计息。", _ZH_DEPOSIT, "!supported"),  # before
        ("押金须在退房后5个工作日内退还，逾期按日计息。", _ZH_DEPOSIT, "contradicted"),
        ("押金可以在退房以后3个工作日之内退还，逾期按日计息。", _ZH_DEPOSIT, "!supported"),
        ("领取钥匙的时候必须出示本人身份证。", _ZH_PICKUP, "supported"),
        ("领取钥匙的时候可以出示本人身份证。", _ZH_PICKUP, "!supported"),
        ("归还钥匙的时候必须出示本人身份证。", _ZH_PICKUP, "!supported"),
        ("本制度是由人事部经理刘芳起草的，经总经理陈伟批准。", _ZH_CLEFT, "supported"),
        ("本制度是由总经理陈伟起草的，经人事部经理刘芳批准。", _ZH_CLEFT, "!supported"),  # roles
        ("本制度是由人事部经理刘芳批准的，经总经理陈伟批准。", _ZH_CLEFT, "!supported"),
        ("예약할 때 보증금 5만 원을 내야 합니다.", _KO_DEPOSIT, "supported"),
        ("예약할 때 보증금 3만 원을 내야 합니다.", _KO_DEPOSIT, "!supported"),
        ("취소할 때 보증금 5만 원을 내야 합니다.", _KO_DEPOSIT, "!supported"),
        ("예약할 때 보증금 5만 원을 낼 수 있다.", _KO_DEPOSIT, "!supported"),
    ],
)
def test_function_words_in_claims(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# --------------------------------------------------------------------------- 但 / 也


def test_connective_reading_only_drops_what_the_evidence_lacks() -> None:
    assert connective_reading("会员可借阅，但须登记。", "会员可借阅，须登记。") == ("会员可借阅，须登记。", "会员可借阅，须登记。")
    assert connective_reading("会员可借阅，但须登记。", "会员可借阅，但须登记。") is None
    assert connective_reading("不但免费，还可借阅。", "免费，还可借阅。") is None  # 不但
    assert connective_reading("馆内禁止吸烟，室外也许可以。", "馆内禁止吸烟，室外可以。") is None  # 也许
    assert connective_reading("馆内也禁止吸烟。", "馆内禁止吸烟。") is None  # first clause


_ZH_LOAN = "在校学生可以免费借阅图书，须出示学生证。\n"
_ZH_BAN = "馆内禁止饮食，禁止在阅览室大声交谈。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("在校学生可免费借阅图书，但须出示学生证。", _ZH_LOAN, "supported"),
        ("在校学生可免费借阅图书，但不须出示学生证。", _ZH_LOAN, "!supported"),
        ("在校学生可免费借阅图书，但可出示学生证。", _ZH_LOAN, "!supported"),
        ("所有读者可免费借阅图书，但须出示学生证。", _ZH_LOAN, "!supported"),
        ("禁止在阅览室大声交谈，馆内也禁止饮食。", _ZH_BAN, "supported"),
        ("禁止在阅览室大声交谈，馆内也允许饮食。", _ZH_BAN, "!supported"),
        ("禁止在阅览室大声交谈，馆外也禁止饮食。", _ZH_BAN, "!supported"),
        ("禁止在阅览室大声交谈，馆内也许禁止饮食。", _ZH_BAN, "!supported"),
    ],
)
def test_but_and_also_between_clauses(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# --------------------------------------------------------------------------- carried topic

_ZH_PARTY = "聚会期间禁止吸烟，果汁和茶水免费供应。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("聚会期间茶水和果汁免费供应，禁止吸烟。", _ZH_PARTY, "supported"),
        ("聚会期间茶水和啤酒免费供应。", _ZH_PARTY, "!supported"),
        ("聚会期间茶水和果汁不免费供应。", _ZH_PARTY, "!supported"),
        ("聚会期间茶水和果汁免费供应，允许吸烟。", _ZH_PARTY, "!supported"),
        ("聚会以后茶水和果汁免费供应。", _ZH_PARTY, "!supported"),
    ],
)
def test_a_carried_topic_over_reordered_items(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# --------------------------------------------------------------------------- 있으며,

_KO_PAY = "요금은 현금 또는 카드로 낼 수 있으며, 카드 결제 시 수수료는 없다.\n"
_KO_PAY_PAST = "요금은 현금으로 낼 수 있으며, 수수료는 없었다.\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("요금은 카드 또는 현금으로 낼 수 있다.", _KO_PAY, "supported"),
        ("요금은 현금 또는 카드로 낼 수 있다.", _KO_PAY, "supported"),
        ("요금은 카드로 낼 수 있다.", _KO_PAY, "!supported"),  # one alternative
        ("요금은 현금 또는 카드로 낼 수 없다.", _KO_PAY, "!supported"),
        ("요금은 현금 또는 카드로 내야 한다.", _KO_PAY, "!supported"),
        ("요금은 현금으로 낼 수 있다.", _KO_PAY_PAST, "!supported"),  # a past sentence
    ],
)
def test_a_korean_existence_clause_of_its_own(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)


# --------------------------------------------------------------------------- topic + a later clause

_ZH_RULES = "本办法由财务部经理赵磊起草，经董事长孙伟批准，自2028年3月1日起施行。\n"
_ZH_RULES_AFTER = "本办法经董事会审议通过后，自2028年3月1日起施行。\n"
_ZH_RULES_IF = "本办法如经董事会批准，自2028年3月1日起施行。\n"
_ZH_RULES_EXCEPT = "本办法除第五条外，自2028年3月1日起施行。\n"
_ZH_LIMIT = "每位住客每天限领一瓶饮用水，零食可按需领取。\n"
_ZH_FEES = "本项目为第2期，由市体育局主办，每名学员收费300元。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("本办法自2028年3月1日起施行。", _ZH_RULES, "supported"),
        ("本办法自2028-03-01起施行。", _ZH_RULES, "supported"),
        ("本办法经董事长孙伟批准。", _ZH_RULES, "supported"),
        ("本办法自2028年4月1日起施行。", _ZH_RULES, "!supported"),  # another date
        ("本办法自2028年3月1日起废止。", _ZH_RULES, "!supported"),
        ("本办法由董事长孙伟起草。", _ZH_RULES, "!supported"),  # role swapped
        ("本办法经财务部经理赵磊批准。", _ZH_RULES, "!supported"),
        ("本办法自2028年3月1日起施行。", _ZH_RULES_AFTER, "!supported"),  # a condition dropped
        ("本办法自2028年3月1日起施行。", _ZH_RULES_IF, "!supported"),
        ("本办法自2028年3月1日起施行。", _ZH_RULES_EXCEPT, "!supported"),  # an exception dropped
        ("每位住客每天限领一瓶零食。", _ZH_LIMIT, "!supported"),  # another object
        ("本项目由市体育局主办。", _ZH_FEES, "supported"),
        ("本项目每名学员收费300元。", _ZH_FEES, "!supported"),  # a clause of its own subject: not read
        ("本项目每名学员收费500元。", _ZH_FEES, "!supported"),
        ("本项目由省体育局主办。", _ZH_FEES, "!supported"),
    ],
)
def test_a_topic_with_a_later_clause(claim: str, evidence: str, expected: str) -> None:
    _check(claim, evidence, expected)
