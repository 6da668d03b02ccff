"""CJK numerals mixed with digits, declared durations and one-slot swaps (issue 12,
session 16b).

Every sentence is written for these tests; each claim that keeps the meaning sits next
to a neighbour that changes it (another number, another unit, a date's day) and must not
be supported."""

from __future__ import annotations

import pytest

from cairn.answer.cjk_numerals import mixed_numerals
from tests.answer.verdicts import verdict


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("2千5百円", "2500円"),
        ("1万2千円", "12000円"),
        ("1万2500円", "12500円"),
        ("1万2千5百円", "12500円"),
        ("1千2百万元", "12000000元"),
        ("5百円", "500円"),
        ("2천5백 원", "2500 원"),
        ("1만 2,500원", "12500원"),
        ("1억 2천만 원", "120000000 원"),
    ],
)
def test_digits_with_multipliers_are_the_number(text: str, read: str) -> None:
    assert mixed_numerals(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "2千克",  # a unit (kg), read by the unit reader
        "2千5",  # colloquial 2,500: left as written
        "1万5",  # colloquial 15,000: left as written
        "3万2026年",  # a year after an amount
        "3万 2026年",
        "15百円",  # not a numeral of the grammar
        "第2千代田ビル",
    ],
)
def test_what_is_not_one_numeral_is_left_as_written(text: str) -> None:
    assert mixed_numerals(text) == text


_JA_FEE = "自転車の返還には、保管料として2,500円を支払う必要がある。\n"
_ZH_FEE = "年度会费为12,500元，于每年3月底前缴纳。\n"
_KO_FEE = "사물함 보증금은 2,500원이다.\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("自転車の返還には、保管料として2千5百円を支払う必要がある。", _JA_FEE, "supported"),
        ("自転車の返還には、保管料として2千4百円を支払う必要がある。", _JA_FEE, "contradicted"),
        ("自転車の返還には、保管料として2千5百ドルを支払う必要がある。", _JA_FEE, "!supported"),
        ("年度会费为1万2千5百元，于每年3月底前缴纳。", _ZH_FEE, "supported"),
        ("年度会费为1万2500元，于每年3月底前缴纳。", _ZH_FEE, "supported"),
        ("年度会费为1万2千元，于每年3月底前缴纳。", _ZH_FEE, "contradicted"),
        ("사물함 보증금은 2천5백 원이다.", _KO_FEE, "supported"),
        ("사물함 보증금은 2천 원이다.", _KO_FEE, "contradicted"),
    ],
)
def test_mixed_numerals_in_claims(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:]
    else:
        assert got == expected


_JA_TOW = "警告札を付けてから14日を過ぎても移動されない自転車は、保管所へ撤去する。\n"
_JA_KEEP = "保管期間が28日を経過した自転車は処分する。\n"
_JA_CHECK = "点検は7日ごとに行う。\n"
_JA_DUE = "督促状は毎月14日を過ぎても支払いがない場合に送る。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("警告札を付けてから2週間を過ぎても移動されない自転車は、保管所へ撤去する。", _JA_TOW, "supported"),
        ("警告札を付けてから3週間を過ぎても移動されない自転車は、保管所へ撤去する。", _JA_TOW, "contradicted"),
        ("警告札を付けてから2か月を過ぎても移動されない自転車は、保管所へ撤去する。", _JA_TOW, "!supported"),
        ("保管期間が4週間を経過した自転車は処分する。", _JA_KEEP, "supported"),
        ("保管期間が1か月を経過した自転車は処分する。", _JA_KEEP, "!supported"),
        ("点検は1週間ごとに行う。", _JA_CHECK, "supported"),
        ("点検は2週間ごとに行う。", _JA_CHECK, "!supported"),
        # a date's day after 月 is not a count of days
        ("督促状は毎月2週間を過ぎても支払いがない場合に送る。", _JA_DUE, "!supported"),
    ],
)
def test_declared_day_counts_are_durations(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:]
    else:
        assert got == expected


_JA_LATE = "第6版では、延長保育の終了時刻を18時30分から19時に延長しました。\n"
_ZH_BACKUP = "数据库每天备份2次，备份文件保留30天。\n"


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # restated in another shape: not one conflicting slot, so never contradicted
        ("第6版では、延長保育の終了時刻を30分延長して19時にしました。", _JA_LATE, "!contradicted"),
        ("第6版では、延長保育の終了時刻を1時間延長して20時にしました。", _JA_LATE, "!supported"),
        # one slot changed: still a contradiction
        ("第6版では、延長保育の終了時刻を18時30分から20時に延長しました。", _JA_LATE, "contradicted"),
        ("数据库每天备份3次，备份文件保留30天。", _ZH_BACKUP, "contradicted"),
        # a copula or comma around the one differing slot is no second slot
        ("本办法第4版自2027年7月1日起施行，第2版同时废止。", "本办法为第3版，自2027年7月1日起施行，第2版同时废止。\n",
         "contradicted"),
        ("数据库每天备份2次，备份文件保留60天。", _ZH_BACKUP, "contradicted"),
    ],
)
def test_a_cjk_run_is_a_swap_only_in_one_slot(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:]
    else:
        assert got == expected


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        # Korean genitive 의 left out or added
        ("근무 요일을 바꾸려면 근로자 동의가 있어야 한다.", "근무 요일을 바꾸려면 근로자의 동의가 있어야 한다.\n", "supported"),
        ("근무 요일을 바꾸려면 근로자의 동의가 있어야 한다.", "근무 요일을 바꾸려면 근로자 동의가 있어야 한다.\n", "supported"),
        ("근무 요일을 바꾸려면 사업주 동의가 있어야 한다.", "근무 요일을 바꾸려면 근로자의 동의가 있어야 한다.\n", "!supported"),
        ("근무 요일을 바꾸려면 근로자 동의가 없어도 된다.", "근무 요일을 바꾸려면 근로자의 동의가 있어야 한다.\n", "!supported"),
        # Chinese copula 为 = 是, and 在 before a time word
        ("物业服务中心的办公时间是每天8:30至17:30。", "物业服务中心办公时间为每天8:30至17:30。\n", "supported"),
        ("物业服务中心的办公时间是每天9:00至17:30。", "物业服务中心办公时间为每天8:30至17:30。\n", "!supported"),
        ("物业服务中心的办公时间不是每天8:30至17:30。", "物业服务中心办公时间为每天8:30至17:30。\n", "!supported"),
        ("校车在周一至周五运行，在节假日和寒暑假停运。", "校车周一至周五运行，节假日和寒暑假停运。\n", "supported"),
        ("校车在周一至周五停运，在节假日和寒暑假运行。", "校车周一至周五运行，节假日和寒暑假停运。\n", "!supported"),
        ("校车在周一至周六运行，在节假日和寒暑假停运。", "校车周一至周五运行，节假日和寒暑假停运。\n", "!supported"),
        # Japanese written directive こと = request てください; prohibition forms
        ("駐車場内では自転車を押して歩いてください。", "駐車場内では自転車を押して歩くこと。\n", "supported"),
        ("ごみは分別して出してください。", "ごみは分別して出すこと。\n", "supported"),
        ("駐車場内では自転車に乗って走ってください。", "駐車場内では自転車を押して歩くこと。\n", "!supported"),
        ("駐車場内では自転車を押して歩かないでください。", "駐車場内では自転車を押して歩くこと。\n", "!supported"),
        ("駐車場内では自転車を押して歩いてもよい。", "駐車場内では自転車を押して歩くこと。\n", "!supported"),
        ("ごみは分別しないで出してください。", "ごみは分別して出すこと。\n", "!supported"),
        ("プールサイドを走ってはいけません。", "プールサイドを走ってはならない。\n", "supported"),
        ("プールサイドを走ってもいいです。", "プールサイドを走ってはならない。\n", "!supported"),
        ("プールサイドを走ってはいけません。", "プールサイドを走らなければならない。\n", "!supported"),
        # Korean "-는 경우에는" = "-(으)면"; a past first clause "-했고"
        ("38도 이상 발열이 있는 경우에는 접종을 미룬다.", "38도 이상 발열이 있으면 접종을 미룬다.\n", "supported"),
        ("38도 이상 발열이 없는 경우에는 접종을 미룬다.", "38도 이상 발열이 있으면 접종을 미룬다.\n", "!supported"),
        ("38도 이상 발열이 있는 경우에는 접종을 한다.", "38도 이상 발열이 있으면 접종을 미룬다.\n", "!supported"),
        ("이 안내문은 원장 정민호가 승인하였고 간호부장 이수진이 작성하였다.",
         "이 안내문은 간호부장 이수진이 작성하고 원장 정민호가 승인하였다.\n", "supported"),
        ("이 안내문은 원장 정민호가 작성하였고 간호부장 이수진이 승인하였다.",
         "이 안내문은 간호부장 이수진이 작성하고 원장 정민호가 승인하였다.\n", "!supported"),
        ("이 안내문은 원장 정민호가 승인하였고 간호부장 이수진이 작성한다.",
         "이 안내문은 간호부장 이수진이 작성하고 원장 정민호가 승인하였다.\n", "!supported"),
        # Chinese 如果 = 如; two agent clauses 由/经 in the other order
        ("探视人员如果有发热、咳嗽等症状，应当暂缓探视。", "探视人员如有发热、咳嗽等症状，应暂缓探视。\n", "supported"),
        ("探视人员如果有发热、咳嗽等症状，可以继续探视。", "探视人员如有发热、咳嗽等症状，应暂缓探视。\n", "!supported"),
        ("本须知经校长刘建华批准，由后勤处处长周敏起草。", "本须知由后勤处处长周敏起草，经校长刘建华批准。\n", "supported"),
        ("本须知经后勤处处长周敏批准，由校长刘建华起草。", "本须知由后勤处处长周敏起草，经校长刘建华批准。\n", "!supported"),
        ("本须知未经校长刘建华批准，由后勤处处长周敏起草。", "本须知由后勤处处长周敏起草，经校长刘建华批准。\n", "!supported"),
        # Japanese "…は N とする" = "…は N です"
        ("保護者1人が同伴できる子どもは2人までです。", "保護者1人が同伴できる子どもは2人までとする。\n", "supported"),
        ("保護者1人が同伴できる子どもは3人までです。", "保護者1人が同伴できる子どもは2人までとする。\n", "!supported"),
        ("保護者1人が同伴できる子どもは2人以上です。", "保護者1人が同伴できる子どもは2人までとする。\n", "!supported"),
        # Korean instrumental 으로 = 로 (the items of an "or" list in another order)
        ("예약은 앱이나 전화로 하며, 하루 전까지 할 수 있다.", "예약은 전화나 앱으로 하며, 하루 전까지 할 수 있다.\n", "supported"),
        ("예약은 앱이나 방문으로 하며, 하루 전까지 할 수 있다.", "예약은 전화나 앱으로 하며, 하루 전까지 할 수 있다.\n", "!supported"),
        ("예약은 앱으로만 하며, 하루 전까지 할 수 있다.", "예약은 전화나 앱으로 하며, 하루 전까지 할 수 있다.\n", "!supported"),
        # Chinese 和 before an item that opens with a Latin code
        ("登记时须出示车辆的行驶证和3C认证标志。", "登记时须出示车辆的3C认证标志和行驶证。\n", "supported"),
        ("登记时须出示车辆的行驶证和5G认证标志。", "登记时须出示车辆的3C认证标志和行驶证。\n", "!supported"),
    ],
)
def test_particles_and_predicate_forms(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:]
    else:
        assert got == expected


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("접종 부위가 붓거나 열이 이틀 넘게 계속되면 의원에 연락해야 한다.", "접종 부위가 붓거나 열이 48시간 넘게 계속되면 의원에 연락해야 한다.\n", "supported"),
        ("접종 부위가 붓거나 열이 사흘 넘게 계속되면 의원에 연락해야 한다.", "접종 부위가 붓거나 열이 48시간 넘게 계속되면 의원에 연락해야 한다.\n", "contradicted"),
        ("예약은 접종일 1일 전까지 할 수 있다.", "예약은 접종일 하루 전까지 할 수 있다.\n", "supported"),
        ("예약은 접종일 이틀 전까지 할 수 있다.", "예약은 접종일 하루 전까지 할 수 있다.\n", "!supported"),
        ("계약 기간은 3월 2일부터 8월 31일까지 반년이다.", "계약 기간은 3월 2일부터 8월 31일까지 6개월이다.\n", "supported"),
        ("계약 기간은 3월 2일부터 8월 31일까지 1년이다.", "계약 기간은 3월 2일부터 8월 31일까지 6개월이다.\n", "!supported"),
        ("视频探视每次不超过一刻钟。", "视频探视每次不超过15分钟。\n", "supported"),
        ("视频探视每次不超过三刻钟。", "视频探视每次不超过15分钟。\n", "!supported"),
        ("毎時50分から600秒間は休憩時間とする。", "毎時50分から10分間は休憩時間とする。\n", "supported"),
        ("毎時50分から60秒間は休憩時間とする。", "毎時50分から10分間は休憩時間とする。\n", "!supported"),
        ("技能教習の予約は14日先まで取ることができる。", "技能教習の予約は2週間先まで取ることができる。\n", "supported"),
        ("技能教習の予約は21日先まで取ることができる。", "技能教習の予約は2週間先まで取ることができる。\n", "!supported"),
    ],
)
def test_duration_words(claim: str, evidence: str, expected: str) -> None:
    got = verdict(claim, evidence)
    if expected.startswith("!"):
        assert got != expected[1:]
    else:
        assert got == expected


_ZH_TABLE = (
    "# 充电收费\n\n"
    "| 充电方式 | 价格 | 说明 |\n"
    "|---|---|---|\n"
    "| 临时充电点 | 每次2元 | 每次最长充电2小时 |\n"
    "| 按次充电 | 每次1元 | 每次最长充电4小时 |\n"
)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("在临时充电点每次最长充电120分钟。", "supported"),
        ("在临时充电点每次2元。", "supported"),
        ("在临时充电点每次最长充电240分钟。", "!supported"),
        ("在临时充电点每次1元。", "!supported"),
        ("不在临时充电点每次最长充电120分钟。", "!supported"),
    ],
)
def test_chinese_locative_reads_a_table_row(claim: str, expected: str) -> None:
    got = verdict(claim, _ZH_TABLE)
    if expected.startswith("!"):
        assert got != expected[1:]
    else:
        assert got == expected


def test_daily_in_a_header_is_not_a_count_of_days() -> None:
    table = "# 주차 요금\n\n| 구분 | 하루 최대 요금 |\n|---|---|\n| 장애인 차량 | 10,000원 |\n| 일반 차량 | 20,000원 |\n"
    assert verdict("장애인 차량의 하루 최대 요금은 10,000원이다.", table) == "supported"
    assert verdict("장애인 차량의 하루 최대 요금은 20,000원이다.", table) != "supported"
