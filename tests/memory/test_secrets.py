"""Secrets are redacted before anything is stored; ordinary text is untouched. The
samples are constructed to look real; none is a real credential."""

from __future__ import annotations

from typing import Any

import pytest

from cairn.memory.secrets import redact

# Constructed at run time so no scanner mistakes this file for a leak.
AWS_ID = "AKIA" + "Q3EXAMPLE7KZ4WJ2"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
GH = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
GH_PAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
GOOGLE = "AIza" + "SyD4-example_Key0123456789abcdefghi"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
       + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7V3kExampleOnlyNotAKey\n"
       "q8zLm0ExampleOnly==\n-----END RSA PRIVATE KEY-----")
GCP_JSON = ('{"type": "service_account", "private_key_id": "' + "0123456789abcdef" * 2 + '01234567",'
            ' "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANExample\\n-----END PRIVATE KEY-----\\n"}')


@pytest.mark.parametrize(("text", "secret", "marker"), [
    (f"aws key {AWS_ID} in the env", AWS_ID, "[REDACTED:aws-access-key]"),
    (f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET, "[REDACTED:aws-secret-key]"),
    (f"token {GH} works", GH, "[REDACTED:github-token]"),
    (f"use {GH_PAT}", GH_PAT, "[REDACTED:github-token]"),
    (f"slack {SLACK}", SLACK, "[REDACTED:slack-token]"),
    (f"maps key {GOOGLE}", GOOGLE, "[REDACTED:google-api-key]"),
    (f"Authorization: Bearer {JWT}", JWT, "[REDACTED:jwt]"),
    (f"key:\n{PEM}\nend", "MIIEpAIBAAKCAQEA7V3kExampleOnlyNotAKey", "[REDACTED:pem-private-key]"),
    (GCP_JSON, "MIIEvQIBADANExample", "[REDACTED:pem-private-key]"),
    (GCP_JSON, "0123456789abcdef0123456789abcdef01234567", "[REDACTED:gcp-private-key-id]"),
    ("password=hunter2!", "hunter2!", "password=[REDACTED:assignment]"),
    ('db_password: "correct horse battery"', "correct horse", 'db_password: "[REDACTED:assignment]"'),
    ("API_KEY=sk_live_51Habc", "sk_live_51Habc", "API_KEY=[REDACTED:assignment]"),
    ("client_secret: Zx9-qq8_rr7", "Zx9-qq8_rr7", "client_secret: [REDACTED:assignment]"),
    ("secret='s3cr3tvalue'", "s3cr3tvalue", "secret='[REDACTED:assignment]'"),
])
def test_secrets_are_redacted(text: str, secret: str, marker: str) -> None:
    out, n = redact(text)
    assert secret not in out and marker in out and n >= 1


@pytest.mark.parametrize("text", [
    "The password policy requires 12 characters and a rotation every 90 days.",
    "Rotate the API key monthly; the secret manager holds it.",
    "token: see the vault",
    "Set password to something long.",
    "git commit 4e1d2b7 fixed the AKIA prefix check",
    "JWTs start with eyJ and have three parts.",
    "-----BEGIN CERTIFICATE----- blocks are public",
    "db.py: connect(host=localhost, port=5432)",
    "Nightly snapshots run at 02:00 UTC and are kept for 35 days.",
])
def test_ordinary_text_is_untouched(text: str) -> None:
    assert redact(text) == (text, 0)


def test_nothing_secret_reaches_the_store(mws: Any) -> None:
    result = mws.memory_add(f"Deploy with {GH}", f"export AWS key {AWS_ID}\npassword=hunter2!",
                            facts=[f"slack {SLACK}"], concepts=["deploy"])
    assert result.redactions == 4
    store = mws._memory._open_store(False)
    dumped = repr(store.memory_records([result.item.id])) + repr(store.memory_history(result.item.id))
    for secret in (GH, AWS_ID, "hunter2!", SLACK):
        assert secret not in dumped
    claim = mws.memory_add(subject="deploy token", predicate="is", object=GH)
    assert GH not in claim.item.object and claim.redactions == 1
