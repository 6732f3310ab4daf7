"""Markup to plain lines: HTML, markdown and checklists as a person sees them on screen.

People paste invoices as HTML, notes as markdown, plans as checklists. What the reader needs is the text a
person would see, line by line, with two marks markup carries that change meaning: a checklist item done
(`[x]`, a tick) or still open (`[ ]`), and words struck through (`~~500~~ 700`), which are withdrawn. The
standard library's HTML parser is enough for this (a pasted fragment, never a document to lay out), and
markdown needs only its inline marks removed; see docs/decisions.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Final

# Tags after which a person sees a new line, and cells a person reads side by side.
_BLOCK_TAGS: Final = frozenset(
    {"br", "p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "section"}
    | {"article", "header", "footer", "blockquote", "hr", "dl", "dt", "dd"}
)
_CELL_TAGS: Final = frozenset({"td", "th"})
_HIDDEN_TAGS: Final = frozenset({"script", "style", "head", "title"})
_STRUCK_TAGS: Final = frozenset({"s", "del", "strike"})
_TAG: Final = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?/?>")
# Markdown marks that carry no words: emphasis, code ticks, headings, quote bars, list bullets.
_STRUCK: Final = re.compile(r"~~(.+?)~~")
_EMPHASIS: Final = re.compile(r"(\*\*|__|\*|`{1,3})")
_HEADING: Final = re.compile(r"^\s{0,3}#{1,6}\s+")
# A list marker, after an opening quote when a quoted list is pasted ('"1) sell 1 ETH for USDC').
_BULLET: Final = re.compile(r"^\s*[\"'\u201c\u2018]?\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+")
_CHECKBOX: Final = re.compile(r"^\s*(?:[-*+\u2022]\s*)?\[(?P<mark>[ xX\u2713\u2714])\]\s*")
_DONE_MARKS: Final = ("\u2705", "\u2714", "\u2611", "(done)", "[done]")


@dataclass(frozen=True, slots=True)
class Line:
    """One line as seen. `item` is `done` or `open` for a checklist item (else None); `struck` holds the
    words struck through on it (they are left out of `text`)."""

    text: str
    item: str | None = None
    struck: tuple[str, ...] = ()
    # Written as a list entry (a bullet or a number before it).
    listed: bool = False


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.struck = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN_TAGS:
            self.hidden += 1
        elif tag in _STRUCK_TAGS:
            self.struck += 1
            self.parts.append("~~")
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")
        elif tag in _CELL_TAGS:
            self.parts.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self.hidden = max(self.hidden - 1, 0)
        elif tag in _STRUCK_TAGS:
            self.struck = max(self.struck - 1, 0)
            self.parts.append("~~")
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def has_html(text: str) -> bool:
    """True when the text holds at least two HTML tags (one "<3" or "a < b" is no markup)."""
    return len(_TAG.findall(text)) >= 2


def html_text(text: str) -> str:
    """The text a browser would show for an HTML fragment, with a line break at every block."""
    parser = _Text()
    parser.feed(text)
    parser.close()
    joined = "".join(parser.parts)
    lines = [" ".join(line.split()) for line in joined.splitlines()]
    return "\n".join(line.strip(" |") for line in lines)


def seen_lines(text: str) -> list[Line]:
    """The lines a person sees: HTML rendered, markdown marks removed, checklist items and struck words
    noted. Blank lines are kept (they separate blocks)."""
    if has_html(text):
        text = html_text(text)
    lines: list[Line] = []
    for raw in text.splitlines():
        item = None
        box = _CHECKBOX.match(raw)
        if box is not None:
            item = "open" if box.group("mark") == " " else "done"
            raw = raw[box.end() :]
        elif any(mark in raw for mark in _DONE_MARKS):
            item = "done"
        struck = tuple(" ".join(m.group(1).split()) for m in _STRUCK.finditer(raw))
        raw = _STRUCK.sub(" ", raw)
        if struck and not raw.strip(" -*+\u2022()"):
            item = "done"  # a whole item struck through is withdrawn
        raw = _HEADING.sub("", raw)
        listed = bool(_BULLET.match(raw)) or box is not None
        raw = _BULLET.sub("", raw)
        raw = _EMPHASIS.sub("", raw)
        for mark in _DONE_MARKS:
            raw = raw.replace(mark, " ")
        lines.append(Line(" ".join(raw.split()), item, struck, listed))
    return lines
