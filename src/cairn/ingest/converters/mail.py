"""E-mail: RFC 822 ``.eml`` (the standard library) and Outlook ``.msg`` (olefile).

Both become ``# Email Message``, the header lines (``From:``, ``To:``, ``Cc:``, ``Date:``,
``Subject:``), a ``## Content`` section with the plain-text body (the HTML body as
Markdown when there is no plain one) and a list of attachment names. The title is the
subject.
"""

from __future__ import annotations

from contextlib import closing

from cairn.errors import IngestError
from cairn.ingest.converters.base import (
    MB,
    Converted,
    ConvertLimits,
    TextBuilder,
    clean_text,
    unreadable,
)


def _mail_text(headers: list[tuple[str, str]], body: str, attachments: list[str],
               limits: ConvertLimits) -> Converted:
    out = TextBuilder(limits)
    out.add("# Email Message")
    out.add("\n".join(f"{k}: {' '.join(v.split())}" for k, v in headers if v and v.strip()))
    out.add("## Content")
    if body.strip():
        out.add(clean_text(body).strip("\n"))
    if attachments:
        out.add("## Attachments")
        out.add("\n".join(f"* {name}" for name in attachments))
    subject = next((" ".join(v.split()) for k, v in headers if k == "Subject" and v.strip()), None)
    return out.result(subject)


def _html_body(html: bytes | str) -> str:
    from cairn.ingest.converters.web import html_body_markdown

    return html_body_markdown(html, main_only=False)[1]


class EmlConverter:
    """An RFC 822 message (``.eml``)."""

    id = "eml"
    version = "1"
    suffixes: tuple[str, ...] = (".eml",)
    limits = ConvertLimits(max_bytes=50 * MB, seconds=30.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        import email
        import email.policy
        from email.message import EmailMessage

        errors = (LookupError, ValueError, TypeError, AttributeError, AssertionError, UnicodeError)
        with unreadable("e-mail", errors):
            msg = email.message_from_bytes(data, policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            if not any(msg.get(h) for h in ("From", "To", "Subject", "Date", "Message-ID")):
                raise IngestError("not an e-mail message (no From/To/Subject/Date header)", code="corrupt")
            headers = [(h, str(msg.get(h) or "")) for h in ("From", "To", "Cc", "Date", "Subject")]
            part = msg.get_body(preferencelist=("plain", "html"))
            body = ""
            if part is not None:
                content = part.get_content()
                if isinstance(content, bytes):
                    content = content.decode("utf-8", "replace")
                body = _html_body(content) if part.get_content_subtype() == "html" else str(content)
            attachments = [p.get_filename() or "(unnamed)" for p in msg.iter_attachments()]
        return _mail_text(headers, body, attachments, limits)


class MsgConverter:
    """An Outlook message (``.msg``), read from its MAPI property streams."""

    id = "msg"
    version = "1"
    suffixes: tuple[str, ...] = (".msg",)
    limits = ConvertLimits(max_bytes=50 * MB, seconds=30.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        from cairn.ingest.converters.legacy import open_ole

        ole = open_ole(data, "Outlook message")
        with closing(ole), unreadable("Outlook message", Exception):  # olefile's errors are not exported
            def prop(tag: str, prefix: str = "") -> str:
                for kind, encoding in (("001F", "utf-16-le"), ("001E", "cp1252")):
                    name = f"{prefix}__substg1.0_{tag}{kind}"
                    if ole.exists(name):
                        return str(ole.openstream(name).read().decode(encoding, "replace")).rstrip("\x00")
                return ""

            if not any(ole.exists(f"__substg1.0_{t}") for t in ("0037001F", "0037001E", "1000001F", "1000001E", "001A001F", "001A001E")):
                raise IngestError("not an Outlook message (no MAPI properties)", code="corrupt")
            transport = prop("007D")
            date = ""
            if transport:
                import email
                import email.policy

                parsed = email.message_from_string(transport, policy=email.policy.default)
                date = str(parsed.get("Date") or "")
            sender = prop("0C1F") or prop("0065") or prop("0042") or prop("0C1A")
            headers = [("From", sender), ("To", prop("0E04")), ("Cc", prop("0E03")),
                       ("Date", date), ("Subject", prop("0037"))]
            body = prop("1000")
            if not body.strip() and ole.exists("__substg1.0_10130102"):
                body = _html_body(ole.openstream("__substg1.0_10130102").read())
            attachments: list[str] = []
            for entry in ole.listdir(streams=False, storages=True):
                if len(entry) == 1 and entry[0].startswith("__attach_version1.0_"):
                    prefix = entry[0] + "/"
                    attachments.append(prop("3707", prefix) or prop("3704", prefix) or "(unnamed)")
        return _mail_text(headers, body, attachments, limits)
