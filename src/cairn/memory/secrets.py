"""Secrets never reach the memory store: every text a memory write carries is redacted
first (:func:`redact`).

Each rule replaces a match by ``[REDACTED:<rule>]``; an assignment keeps its key
(``password=[REDACTED:assignment]``). Covered: PEM private-key blocks (also with escaped
``\\n`` as in a GCP service-account JSON), AWS access key ids (``AKIA``/``ASIA``) and
secret keys named as such, GitHub tokens (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``,
``github_pat_``), Slack tokens (``xoxb-`` ...), Google API keys (``AIza``), GCP
``private_key_id`` values, JSON Web Tokens, and ``password=``/``secret:``/``api_key=``-style
assignments whose value looks like a credential (quoted, or with a digit or a symbol).
Ordinary prose is left alone: "the password policy" has no assignment.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("pem-private-key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----", re.S)),
    ("gcp-private-key-id", re.compile(r'(?<="private_key_id": ")[0-9a-f]{40}(?=")')),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("aws-secret-key", re.compile(
        r"(?i)(?<=aws_secret_access_key)(\s*[:=]\s*[\"']?)[A-Za-z0-9/+=]{40}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b")),
    ("slack-token", re.compile(r"\bxox[baprs]-[A-Za-z0-9-]{10,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
)

_KEYS = (r"passwords?|passwd|pwd|secret|secret[_-]?key|client[_-]?secret|api[_-]?key|apikey|"
         r"access[_-]?token|auth[_-]?token|token|private[_-]?key|credentials?")
_ASSIGNMENT = re.compile(
    rf"(?i)\b((?:[A-Za-z0-9]+[_-])*(?:{_KEYS}))(\"?\s*[:=]\s*)(?:\"([^\"\n]{{4,}})\"|'([^'\n]{{4,}})'|([^\s\"',;]{{6,}}))"
)
_CREDENTIAL_LIKE = re.compile(r"[0-9_\-+/=!@#$%^&*.]|[a-z][A-Z]|[A-Z][a-z]*[A-Z]")


def _assignment(match: re.Match[str]) -> str:
    key, sep = match.group(1), match.group(2)
    quoted = match.group(3) if match.group(3) is not None else match.group(4)
    if quoted is not None and "[REDACTED:" in quoted:
        return match.group(0)
    if quoted is not None:
        quote = '"' if match.group(3) is not None else "'"
        return f"{key}{sep}{quote}[REDACTED:assignment]{quote}"
    value = match.group(5)
    if value.startswith("[REDACTED:") or not _CREDENTIAL_LIKE.search(value):
        return match.group(0)
    return f"{key}{sep}[REDACTED:assignment]"


def redact(text: str) -> tuple[str, int]:
    """``text`` with every secret replaced, and how many were."""
    total = 0
    for name, pattern in _RULES:
        if name == "aws-secret-key":
            text, n = pattern.subn(lambda m: m.group(1) + "[REDACTED:aws-secret-key]", text)
        else:
            text, n = pattern.subn(f"[REDACTED:{name}]", text)
        total += n
    out = _ASSIGNMENT.sub(_assignment, text)
    return out, total + _changed(text, out)


def _changed(before: str, after: str) -> int:
    """How many assignments were redacted (a replaced one gains a marker)."""
    return after.count("[REDACTED:assignment]") - before.count("[REDACTED:assignment]")
