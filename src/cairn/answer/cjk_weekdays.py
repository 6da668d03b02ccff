"""A weekday in parentheses after a CJK date, which a claim may leave out (issue 12,
session 19c).

"比赛定于2028年4月16日（星期日）上午7点30分…" states the date and, in parentheses, its
weekday; "比赛定于2028-04-16上午7:30…" states the same without the weekday. The evidence
is read without each parenthesised weekday that follows a date (…日, a digit or a dot:
"4月16日（星期日）", "12/24（金）", "2028. 2. 10.(목)") when the claim names no weekday in
parentheses itself, so a claim that gives one is still held to the evidence's: a weekday
left out adds nothing, a weekday stated must be the one written.
"""

from __future__ import annotations

import re

__all__ = ["weekday_reading"]

_WEEKDAY_PAREN_RE = re.compile(
    r"(?<=[日\d.])\s*[（(]\s*(?:(?:星期|礼拜|周)[一二三四五六日天]|[月火水木金土日](?:曜日?)?|"
    r"[월화수목금토일](?:요일)?)\s*[）)]"
)


def weekday_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim, evidence without the weekdays in parentheses after its dates), when the
    claim has none; None otherwise."""
    if _WEEKDAY_PAREN_RE.search(claim_text):
        return None
    reading = _WEEKDAY_PAREN_RE.sub("", evidence_text)
    return None if reading == evidence_text else (claim_text, reading)
