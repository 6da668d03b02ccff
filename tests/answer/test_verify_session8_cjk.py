"""Session 8, issue 12: CJK near-verbatim recall of the claim verifier, by mechanism.

Each family of ``bench/verify_mutations_cjk.py`` (session 8) has its equivalences here,
each next to a changed neighbour that must not be supported: era years, clock hours with
and without their half of the day, percentages in tenths and words, Korean weeks, days and
metric units, hour+minute compounds, full-width digits, dotted dates, Japanese や/と
coordination and polite verb forms, Korean "-하고" clauses, CJK table rows read as
sentences.
"""

from __future__ import annotations

import pytest

from cairn.answer import Claim, EvidenceSpan, verify_claims
from tests.answer.verdicts import verdict

_HOTEL_TABLE = (
    "| 施設 | 利用時間 | 料金 |\n|---|---|---|\n"
    "| 朝食会場 | 7時から9時30分 | 1名2,200円 |\n| フィットネスルーム | 6時から23時 | 無料 |"
)
_PARKING_TABLE = (
    "| 구분 | 무료 시간 | 초과 요금 | 하루 최대 요금 |\n|---|---|---|---|\n"
    "| 일반 방문 차량 | 2시간 | 30분마다 1,000원 | 20,000원 |\n"
    "| 장애인 차량 | 4시간 | 30분마다 500원 | 10,000원 |"
)
_CHARGER_TABLE = (
    "| 충전기 | 위치 | 출력 | 요금 |\n|---|---|---|---|\n"
    "| 완속 충전기 | 지하 1층 | 7kW | 1kWh당 280원 |\n| 급속 충전기 | 지하 2층 | 50kW | 1kWh당 340원 |"
)

#: (family, equivalent claim, changed neighbour, evidence)
CASES = [
    # A Japanese era year is the Western year.
    ("era", "この規則は第4版で、令和9年4月1日から適用します。",
     "この規則は第4版で、令和8年4月1日から適用します。",
     "この規則は第4版で、2027年4月1日から適用します。"),
    ("era", "本制度は2019年5月1日に開始した。", "本制度は2020年5月1日に開始した。",
     "本制度は令和元年5月1日に開始した。"),
    # A clock hour with or without its half of the day; N時半 is N:30.
    ("clock", "チェックインは午後3時から午後10時までです。",
     "チェックインは午前3時から午後10時までです。", "チェックインは15時から22時までです。"),
    ("clock", "朝食は午前7時から午前9時半までです。", "朝食は午前7時から午前9時までです。",
     "朝食は7時から9時30分までです。"),
    ("clock", "관리사무소는 오후 6시에 문을 닫는다.", "관리사무소는 오전 6시에 문을 닫는다.",
     "관리사무소는 18시에 문을 닫는다."),
    ("clock", "会议于15时30分开始。", "会议于上午3时30分开始。", "会议于下午3时30分开始。"),
    ("clock", "夕食は19時からです。", "夕食は7時からです。", "夕食は夜7時からです。"),
    ("clock", "营业时间为9:00至17:30。", "营业时间为9:00至5:30。", "营业时间为上午9:00至下午5:30。"),
    ("clock", "每天22点至次日6点禁止施工。", "每天22点至次日7点禁止施工。", "每日22:00至次日6:00禁止施工。"),
    ("clock", "数据每天02:00备份。", "数据每天14:00备份。", "数据每天凌晨2点备份。"),
    ("clock", "택배는 14시 이전에 접수해야 한다.", "택배는 2시 이전에 접수해야 한다.",
     "택배는 오후 2시 이전에 접수해야 한다."),
    # Percentages in tenths and words.
    ("percent", "前日の取消料は宿泊料金の三割です。", "前日の取消料は宿泊料金の四割です。",
     "前日の取消料は宿泊料金の30%です。"),
    ("percent", "前日の取消料は宿泊料金の3割5分です。", "前日の取消料は宿泊料金の3割です。",
     "前日の取消料は宿泊料金の35%です。"),
    ("percent", "合格率为三成。", "合格率为三十。", "合格率为30%。"),
    ("percent", "逾期费为百分之五。", "逾期费为百分之五十。", "逾期费为5%。"),
    ("percent", "연체료는 3퍼센트이다.", "연체료는 30퍼센트이다.", "연체료는 3%이다."),
    ("percent", "料金の３０％を請求する。", "料金の３０を請求する。", "料金の30%を請求する。"),
    # Korean weeks and days, metric units in Hangul, hour+minute compounds.
    ("ko-units", "경고장을 붙인 뒤 1주가 지나도 이동하지 않으면 견인할 수 있다.",
     "경고장을 붙인 뒤 1일이 지나도 이동하지 않으면 견인할 수 있다.",
     "경고장을 붙인 뒤 7일이 지나도 이동하지 않으면 견인할 수 있다."),
    ("ko-units", "주차장 안의 제한 속도는 시속 10km이다.", "주차장 안의 제한 속도는 시속 10m이다.",
     "주차장 안의 제한 속도는 시속 10킬로미터이다."),
    ("ko-units", "수영장 이용 시간은 1회 최대 1시간 30분이다.",
     "수영장 이용 시간은 1회 최대 1시간 20분이다.", "수영장 이용 시간은 1회 최대 90분이다."),
    ("ja-units", "10名以上の団体の取消料は、宿泊日の168時間前から別途定めます。",
     "10名以上の団体の取消料は、宿泊日の7時間前から別途定めます。",
     "10名以上の団体の取消料は、宿泊日の7日前から別途定めます。"),
    # Clock ranges with their words or the range mark; 万/만 with 千/천 as one count.
    ("range", "관리사무소는 평일 오전 9시부터 오후 6시까지 운영한다.",
     "관리사무소는 평일 오전 9시부터 오후 5시까지 운영한다.", "관리사무소는 평일 09:00~18:00 운영한다."),
    ("range", "営業時間は9時から18時までです。", "営業時間は18時から9時までです。",
     "営業時間は9:00〜18:00です。"),
    ("range", "营业时间为上午9点至下午6点。", "营业时间为上午9点至下午5点。", "营业时间为9:00-18:00。"),
    ("count", "年会費は1万2千円です。", "年会費は1万3千円です。", "年会費は12,000円です。"),
    ("count", "연회비는 1만 2천 원이다.", "연회비는 1만 원이다.", "연회비는 12,000원이다."),
    # A counted period with its "for", and spelling variants of 曜日 / か月.
    ("period", "보관 기간은 72시간이다.", "보관 기간은 48시간이다.", "보관 기간은 3일간이다."),
    ("period", "保証期間は12か月です。", "保証期間は12年です。", "保証期間は1年間です。"),
    ("period", "保証期間は3ヵ月です。", "保証期間は3年です。", "保証期間は3か月です。"),
    ("period", "定休日は毎週月曜です。", "定休日は毎週火曜です。", "定休日は毎週月曜日です。"),
    # Dotted dates.
    ("date", "发布日期为2027.03.25。", "发布日期为2027.03.26。", "发布日期为2027年3月25日。"),
    # Japanese coordination by や, and と after a topic particle.
    ("ja-coord", "この規則は別館と本館の両方に適用されます。",
     "この規則は別館と新館の両方に適用されます。", "この規則は本館と別館の両方に適用されます。"),
    ("ja-coord", "22時から翌朝7時までは、客室や廊下で大きな音を出さないでください。",
     "22時から翌朝7時までは、客室や廊下で大きな音を出してください。",
     "22時から翌朝7時までは、廊下や客室で大きな音を出さないでください。"),
    # Japanese polite and plain forms of any verb (tense and negation kept).
    ("ja-ending", "貸出期間は別途定める。", "貸出期間は別途定めません。", "貸出期間は別途定めます。"),
    ("ja-ending", "駐車場には充電設備があります。", "駐車場には充電設備がありました。",
     "駐車場には充電設備がある。"),
    ("ja-ending", "本体は水で洗えます。", "本体は水で洗えません。", "本体は水で洗える。"),
    ("ja-ending", "忘れ物はフロントで保管しています。", "忘れ物はフロントで保管していました。",
     "忘れ物はフロントで保管している。"),
    # Korean "-하고" clauses, each with its own subject, in either order.
    ("ko-clauses", "이 규정은 입주자대표회의 회장 강민호가 승인하고 관리사무소장 윤서진이 작성하였다.",
     "이 규정은 입주자대표회의 회장 강민호가 작성하고 관리사무소장 윤서진이 승인하였다.",
     "이 규정은 관리사무소장 윤서진이 작성하고 입주자대표회의 회장 강민호가 승인하였다."),
    # CJK table rows read as sentences.
    ("table", "일반 방문 차량의 무료 시간은 120분이다.", "일반 방문 차량의 무료 시간은 240분이다.",
     _PARKING_TABLE),
    ("table", "장애인 차량의 하루 최대 요금은 10,000원이다.",
     "장애인 차량의 하루 최대 요금은 20,000원이다.", _PARKING_TABLE),
    ("table", "장애인 차량의 하루 최대 요금은 10,000원이다.",
     "장애인 차량의 하루 최대 요금은 10,000원이 아니다.", _PARKING_TABLE),
    ("table", "급속 충전기는 지하 2층에 있으며 출력은 50kW이다.",
     "급속 충전기는 지하 1층에 있으며 출력은 50kW이다.", _CHARGER_TABLE),
    ("table", "완속 충전기의 출력은 7kW이다.", "완속 충전기의 출력은 지하 1층이다.", _CHARGER_TABLE),
    ("table", "颗粒物洁净空气量为600 m³/h。", "颗粒物洁净空气量为600 m³。",
     "| 项目 | 参数 |\n|---|---|\n| 颗粒物洁净空气量 | 600 m³/h |\n| 噪声 | 35 dB |"),
    ("table", "朝食会場の利用時間は午前7時から午前9時半までです。",
     "朝食会場の利用時間は午前7時から午前9時までです。", _HOTEL_TABLE),
]  # fmt: skip


@pytest.mark.parametrize(("family", "claim", "changed", "evidence"), CASES)
def test_equivalent_claim_is_supported_and_changed_one_is_not(
    family: str, claim: str, changed: str, evidence: str
) -> None:
    assert verdict(claim, evidence) == "supported", family
    assert verdict(changed, evidence) != "supported", family


def test_a_lone_tense_mark_earlier_in_the_clause_is_not_the_predicate() -> None:
    # "た" of 喫煙した does not end 請求し (a coordinated item's runs keep their order).
    evidence = "客室で喫煙した場合、清掃費として30,000円を請求します。"
    assert verdict("客室で喫煙した場合、清掃費として30,000円を請求しました。", evidence) != "supported"
    assert verdict("客室で喫煙した場合、清掃費として30,000円を請求します。", evidence) == "supported"


def test_one_subject_doing_two_acts_keeps_their_order() -> None:
    # "-하고" without a second subject is a sequence: no clause reordering.
    evidence = "회원은 신청서를 작성하고 관리사무소에 제출한다."
    assert verdict("회원은 관리사무소에 제출하고 신청서를 작성한다.", evidence) != "supported"


def test_to_meaning_with_is_no_coordination() -> None:
    evidence = "小学生未満のお子様は大浴場に保護者と一緒に入浴してください。"
    assert verdict("小学生未満のお子様は大浴場に一緒と保護者に入浴してください。", evidence) != "supported"


def test_korean_dotted_date_is_the_date() -> None:
    # One claim as written (a draft's sentence splitter still cuts "2027. 3. 1." apart).
    span = EvidenceSpan("E1", "이 규정은 2027년 3월 1일부터 시행한다.", "n.md", 1, 1)

    def one(text: str) -> str:
        claim = Claim(id="C1", text=text, cited=(), substantive=True)
        return verify_claims([claim], [span])[0].verdict

    assert one("이 규정은 2027. 3. 1.부터 시행한다.") == "supported"
    assert one("이 규정은 2027. 3. 2.부터 시행한다.") != "supported"


def test_chinese_points_are_no_clock() -> None:
    # "3点" before 至关/考虑 counts points, not hours.
    assert verdict("以下15:00至关重要。", "以下3点至关重要。") != "supported"
    assert verdict("以下3点至关重要。", "以下3点至关重要。") == "supported"
