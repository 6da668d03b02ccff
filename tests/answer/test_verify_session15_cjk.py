"""CJK evidence units end at a full-width sentence-final mark (issue 12, session 15).

Consecutive lines of a Chinese, Japanese or Korean note form one block, and the
sentence splitter cut only at ".", "!" and "?" followed by a space; the block was then one
evidence unit, so a claim that reorders the coordinated items of one of its sentences
was read against the whole paragraph, and a "分别"/"それぞれ" (respectively) in another
sentence of it forbade the reorder. Now each "。", "！" or "？" (with a closing quote or
bracket after it) ends a unit. The notes below are written for these tests; every claim
that keeps the meaning sits next to a neighbour that changes it and must not be supported."""

from __future__ import annotations

import pytest

from cairn.answer.contract import EvidenceSpan
from cairn.answer.evidence import _units
from tests.answer.verdicts import verdict as _verdict

_ZH = (
    "# 停车场管理办法\n\n"
    "本办法由物业经理王军制定。\n"
    "保安每天巡查两次，分别在上午8点和晚上8点。\n"
    "会议室内禁止吸烟和使用明火。\n"
    "停车费可以通过微信或支付宝缴纳，不收现金。\n"
    "停车场每天晚上十点关闭。\n"
)
_JA = (
    "# 見学案内\n\n"
    "見学は平日のみ受け付けます。\n"
    "受付は1階と2階にあり、それぞれ9時と10時に開きます。\n"
    "入館時には社員証と入館許可証を提示しなければならない。\n"
    "館内での撮影は禁止されています。\n"
)


def _unit_texts(text: str) -> list[str]:
    span = EvidenceSpan(evidence_id="E1", text=text, uri="cairn://t/a.md", start_line=1,
                        end_line=text.count("\n") + 1)
    return [u.text for u in _units(span, 0) if not u.table]


def test_cjk_lines_of_one_block_are_units_of_their_own() -> None:
    texts = _unit_texts(_ZH)
    assert "会议室内禁止吸烟和使用明火。" in texts
    assert "停车场每天晚上十点关闭。" in texts


def test_a_closing_quote_stays_with_its_sentence() -> None:
    texts = _unit_texts("# 通知\n\n他说：“明天停电。”随后离开。\n")
    assert "他说：“明天停电。”" in texts


def test_english_sentences_are_cut_as_before() -> None:
    texts = _unit_texts("# Notes\n\nThe gate shuts at 22:00. Visitors sign in.\n")
    assert texts[-2:] == ["The gate shuts at 22:00.", "Visitors sign in."]


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("会议室内禁止使用明火和吸烟。", _ZH),
        ("停车费可以通过支付宝或微信缴纳，不收现金。", _ZH),
        ("入館時には入館許可証と社員証を提示しなければならない。", _JA),
    ],
)
def test_reordered_items_of_one_sentence_in_a_block_are_supported(claim: str, text: str) -> None:
    assert _verdict(claim, text) == "supported"


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("会议室内允许使用明火和吸烟。", _ZH),  # modality: 禁止 -> 允许
        ("会议室内禁止使用明火和喝酒。", _ZH),  # another object
        ("停车费可以通过支付宝或银行卡缴纳，不收现金。", _ZH),  # another item
        ("停车费可以通过支付宝或微信缴纳，也收现金。", _ZH),  # negation dropped
        ("入館時には入館許可証と社員証を提示しなくてもよい。", _JA),  # modality
        ("入館時には入館許可証と保険証を提示しなければならない。", _JA),  # another item
        ("見学は週末のみ受け付けます。", _JA),  # another day
        ("保安每天巡查两次，分别在晚上8点和上午8点。", _ZH),  # respectively: pairs swapped
    ],
)
def test_meaning_changed_neighbours_are_not_supported(claim: str, text: str) -> None:
    assert _verdict(claim, text) != "supported"


# Chinese 把 = 将 (disposal marker) and 都 after a distributive subject.
_RULES = (
    "# 仓库管理规定\n\n"
    "严禁将易燃物品带入仓库或办公室。\n"
    "每位访客须在前台登记并佩戴访客证。\n"
    "各部门应在每月5日前提交盘点表。\n"
)


@pytest.mark.parametrize(
    "claim",
    [
        "严禁把易燃物品带入仓库或办公室。",
        "每位访客都须在前台登记并佩戴访客证。",
        "各部门都应在每月5日前提交盘点表。",
    ],
)
def test_ba_and_distributive_dou_are_supported(claim: str) -> None:
    assert _verdict(claim, _RULES) == "supported"


@pytest.mark.parametrize(
    "claim",
    [
        "允许把易燃物品带入仓库或办公室。",  # prohibition -> permission
        "严禁把食品带入仓库或办公室。",  # another object
        "每位访客都不须在前台登记并佩戴访客证。",  # negation added
        "所有员工都须在前台登记并佩戴访客证。",  # another subject
        "各部门都应在每月10日前提交盘点表。",  # another day
        "各部门都可在每月5日前提交盘点表。",  # should -> may
    ],
)
def test_ba_and_dou_neighbours_are_not_supported(claim: str) -> None:
    assert _verdict(claim, _RULES) != "supported"


def test_dou_in_a_word_or_after_lian_is_kept() -> None:
    from cairn.answer.cjk_restated import restated_forms

    assert restated_forms("连经理都不知道") == "连经理都不知道"
    assert restated_forms("每年在首都举办") == "每年在首都举办"
    assert restated_forms("他把握机会") == "他把握机会"
    assert restated_forms("一把钥匙") == "一把钥匙"


def test_a_cjk_sentence_copied_verbatim_is_not_contradicted_by_its_neighbour() -> None:
    text = (
        "# 退票规定\n\n"
        "开车前48小时以上退票的，不收退票费。\n"
        "开车前不足48小时退票的，按票价的20%收取退票费。\n"
    )
    assert _verdict("开车前不足48小时退票的，按票价的20%收取退票费。", text) == "supported"
    assert _verdict("开车前不足48小时退票的，按票价的30%收取退票费。", text) == "contradicted"


def test_a_short_cjk_copy_is_no_verbatim_shield() -> None:
    from cairn.answer.verbatim import copies

    assert not copies("不收费。", "开车前48小时以上退票的，不收费。")
    assert copies("开车前不足48小时退票的。", "开车前不足48小时退票的，按票价的20%收取退票费。")
