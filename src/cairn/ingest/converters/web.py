"""HTML (BeautifulSoup + markdownify) and EPUB (its spine of XHTML chapters).

HTML keeps the page's main content only: navigation, headers, footers, sidebars, forms
and scripts are dropped, and the ``<title>`` becomes the ``# Title`` line. Links stay as
Markdown links; images become their alt text (never ``data:`` URIs).
"""

from __future__ import annotations

import functools
import posixpath
import re
from contextlib import closing
from typing import Any
from urllib.parse import unquote

from cairn.errors import IngestError
from cairn.ingest.converters.base import (
    MB,
    Converted,
    ConvertLimits,
    TextBuilder,
    check_deadline,
    check_zip,
    clean_text,
    missing_dependency,
    unreadable,
)

_DROP_TAGS = ("script", "style", "noscript", "template", "svg", "canvas", "iframe", "object",
              "nav", "header", "footer", "aside", "form", "button", "input", "select", "textarea",
              "head", "link", "meta")
#: Where the main content usually is, most specific first.
_MAIN_SELECTORS = ("#mw-content-text", "[role=main]", "main", "article", "#content", "body")
_BLANK_RUN = re.compile(r"\n{3,}")


def _import_html() -> tuple[Any, Any]:
    try:
        import bs4
        import markdownify
    except ImportError as exc:
        raise missing_dependency("bs4/markdownify", "beautifulsoup4 markdownify") from exc
    return bs4, markdownify


def _soup(bs4: Any, data: bytes | str) -> Any:
    try:
        import lxml  # noqa: F401  (a dependency of python-docx; much faster than html.parser)

        parser = "lxml"
    except ImportError:  # pragma: no cover - depends on the installed extras
        parser = "html.parser"
    return bs4.BeautifulSoup(data, parser)


def _to_markdown(markdownify: Any, node: Any) -> str:
    for img in node.find_all("img"):
        alt = " ".join((img.get("alt") or "").split())
        img.replace_with(f"[Image: {alt}]" if alt else "")
    for a in node.find_all("a"):
        href = a.get("href") or ""
        if href.startswith(("data:", "javascript:")):
            del a["href"]
    converter = _converter_class(markdownify)(
        heading_style="ATX", bullets="*", escape_underscores=False, escape_asterisks=False,
    )
    text = converter.convert_soup(node)
    return _BLANK_RUN.sub("\n\n", clean_text(text)).strip("\n")


@functools.cache
def _converter_class(markdownify: Any) -> Any:
    """markdownify's converter with bold rendered as plain text.

    Bold markers inside sentences break phrase search (``a **test** case``) and carry
    little meaning in a passage; emphasis (``*x*``) is kept.
    """

    class _Converter(markdownify.MarkdownConverter):  # type: ignore[misc]
        def convert_b(self, el: Any, text: str, *args: Any, **kwargs: Any) -> str:
            return text

        convert_strong = convert_b

    return _Converter


def html_title(soup: Any) -> str | None:
    """The document's ``<title>`` (or ``og:title``), whitespace-normalised."""
    tag = soup.find("title")
    raw = tag.get_text(" ") if tag is not None else ""
    if not raw.strip():
        meta = soup.find("meta", attrs={"property": "og:title"})
        raw = meta.get("content", "") if meta is not None else ""
    title = " ".join(clean_text(str(raw)).split())
    return title or None


def html_body_markdown(data: bytes | str, *, main_only: bool) -> tuple[str | None, str]:
    """(title, Markdown of the body or of its main content)."""
    bs4, markdownify = _import_html()
    soup = _soup(bs4, data)
    title = html_title(soup)
    root: Any = soup
    if main_only:
        for selector in _MAIN_SELECTORS:
            found = soup.select_one(selector)
            if found is not None:
                root = found
                break
    for tag in root.find_all(_DROP_TAGS):
        tag.decompose()
    for tag in root.find_all(class_=re.compile(r"(^|\s)(navbox|mw-editsection|noprint|reflist-hidden|mw-jump-link)(\s|$)")):
        tag.decompose()
    for tag in root.find_all(attrs={"hidden": True}):
        tag.decompose()
    check_deadline()
    return title, _to_markdown(markdownify, root)


class HtmlConverter:
    """An HTML page's main content as Markdown, its title as ``# Title``."""

    id = "html"
    version = "1"
    suffixes: tuple[str, ...] = (".html", ".htm", ".xhtml")
    limits = ConvertLimits(max_bytes=20 * MB, seconds=30.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        with unreadable("HTML", (ValueError, TypeError, AttributeError, RecursionError, LookupError)):
            title, body = html_body_markdown(data, main_only=True)
        out = TextBuilder(limits)
        if title and not body.lstrip().startswith(f"# {title}"):
            out.add(f"# {title}")
        out.add(body)
        return out.result(title)


_OPF_NS = {"opf": "http://www.idpf.org/2007/opf", "dc": "http://purl.org/dc/elements/1.1/"}
_CONTAINER_NS = {"c": "urn:oasis:names:tc:opendocument:xmlns:container"}


class EpubConverter:
    """An EPUB's metadata and its chapters in spine order."""

    id = "epub"
    version = "1"
    suffixes: tuple[str, ...] = (".epub",)
    limits = ConvertLimits(max_bytes=100 * MB, seconds=60.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        import xml.etree.ElementTree as ET

        archive = check_zip(data, limits, "EPUB")
        errors = (KeyError, ET.ParseError, ValueError, OSError, EOFError, RecursionError)
        with closing(archive), unreadable("EPUB", errors):
            names = set(archive.namelist())
            if "META-INF/encryption.xml" in names:
                raise IngestError("EPUB content is encrypted (DRM)", code="encrypted")
            container = ET.fromstring(archive.read("META-INF/container.xml"))
            rootfile = container.find(".//c:rootfile", _CONTAINER_NS)
            if rootfile is None or not rootfile.get("full-path"):
                raise IngestError("EPUB has no package document", code="corrupt")
            opf_path = rootfile.get("full-path", "")
            opf = ET.fromstring(archive.read(opf_path))
            base = posixpath.dirname(opf_path)

            def meta(tag: str) -> list[str]:
                return [" ".join((e.text or "").split()) for e in opf.findall(f".//dc:{tag}", _OPF_NS) if (e.text or "").strip()]

            title = next(iter(meta("title")), None)
            manifest = {
                item.get("id", ""): (item.get("href", ""), item.get("media-type", ""))
                for item in opf.findall(".//opf:manifest/opf:item", _OPF_NS)
            }
            out = TextBuilder(limits)
            if title:
                out.add(f"# {title}")
            header = [
                f"{label}: {', '.join(values)}"
                for label, values in (("Authors", meta("creator")), ("Publisher", meta("publisher")),
                                      ("Date", meta("date")), ("Language", meta("language")),
                                      ("Description", meta("description")))
                if values
            ]
            if header:
                out.add("\n".join(header))
            for ref in opf.findall(".//opf:spine/opf:itemref", _OPF_NS):
                check_deadline()
                href, media = manifest.get(ref.get("idref", ""), ("", ""))
                if not href or "html" not in media:
                    continue
                member = posixpath.normpath(posixpath.join(base, unquote(href)))
                if member not in names:
                    continue
                _, body = html_body_markdown(archive.read(member), main_only=False)
                if body.strip():
                    out.add(body)
        return out.result(title)
