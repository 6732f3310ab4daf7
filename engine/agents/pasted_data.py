"""Pasted data as words: JSON, labelled fields ("Threshold: 1.35", YAML's "max_gwei: 15"), tables and CSV rows
with their headers, and the rows of a pasted list or table a request points at ("rule 1", "the first one",
"set up the BTC row")."""

from __future__ import annotations

import json
import re
from typing import Any, Final

from engine.agents.scan import name_patterns, normalize

FIELD: Final = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?P<label>[A-Za-z][\w ()/-]{0,30}?)\s*:\s*(?P<value>.*)$")
# A unit written as the last word of a key ("drop_pct", "max_gwei", "collateral_usd").
_UNIT_KEYS: Final = frozenset({"pct", "percent", "gwei", "usd"})
# A figure as pasted ("$3,050.00", "4.1%", "15 gwei").
FIGURE: Final = re.compile(
    r"(?<![\w.])[-+]?\$?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|k|m|gwei|usd|pct|percent))?(?![\w])"
)
# A pointer at one item of a pasted list or table by its number or place ("rule 1", "#2", "the first one").
ORDINAL: Final = re.compile(
    r"\b(?:rule|item|line|row|number|no\.?|step|point)\s*#?\s*(?P<number>\d{1,2})\b|#(?P<hash>\d{1,2})\b|"
    r"\bthe\s+(?P<place>first|second|third|fourth|fifth|last)\s+(?:one|rule|item|row|line|alert)\b",
    re.IGNORECASE,
)
_PLACES: Final = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_NUMBERED: Final = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+\S")
_CELLS: Final = re.compile(r"\t|\s*\|\s*|\s*\u00b7\s*|\s+\u2014\s+")


def flatten(line: str) -> str:
    """A pasted line of data as words: JSON keys and values, "key: value" fields, a unit key's value with
    its unit ("drop_pct: 12" is "drop 12 pct")."""
    stripped = line.strip().rstrip(",")
    if stripped.startswith(("{", "[")):
        try:
            return " ".join(_pairs(json.loads(stripped)))
        except ValueError:
            pass
    match = FIELD.match(stripped)
    if match is None:
        return stripped
    return _pair(match.group("label"), match.group("value").strip())


def _pairs(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [
            _pair(str(k), v) if not isinstance(v, dict | list) else " ".join([_words(str(k)), *_pairs(v)])
            for k, v in data.items()
        ]
    if isinstance(data, list):
        return [part for item in data for part in _pairs(item)]
    return [str(data)]


def _words(key: str) -> str:
    return " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).replace("_", " ").split()).lower()


def _pair(key: str, value: Any) -> str:
    words = _words(key).split()
    shown = _words(str(value)) if isinstance(value, str) and "_" in value else str(value)
    if words and words[-1] in _UNIT_KEYS and re.fullmatch(r"-?\d+(?:\.\d+)?", shown):
        return " ".join([*words[:-1], shown, words[-1]])
    return " ".join([*words, shown]) if shown else ""


def rows(context: list[str]) -> tuple[list[str], list[str]]:
    """(header cells, rows) of a table or CSV in the context; ([], []) when it has none."""
    table = [line for line in context if _CELLS.search(line) or line.count(",") >= 1]
    if len(table) < 2:
        return [], []
    split = [_cells(line) for line in table]
    if len({len(cells) for cells in split}) != 1 or len(split[0]) < 2:
        return [], []
    header = split[0] if not any(re.search(r"\d", cell) for cell in split[0]) else []
    body = table[1:] if header else table
    return header, body


def _cells(line: str) -> list[str]:
    parts = _CELLS.split(line) if _CELLS.search(line) else line.split(",")
    return [cell.strip() for cell in parts if cell.strip()]


def _labelled(header: list[str], row: str, request: str) -> str:
    """A table row as "header value" pairs; a column the request names ("the SOL target") keeps only the
    cells that are no figure besides it."""
    cells = _cells(row)
    named = [h for h in header if re.search(rf"\b{re.escape(h.lower())}\b", request.lower())]
    pairs = [
        (h, c)
        for h, c in zip(header, cells, strict=False)
        if not named or h in named or not FIGURE.fullmatch(c.replace(" ", ""))
    ]
    return ", ".join(_pair(h, c) for h, c in pairs)


def pointed_rows(request: str, context: list[str]) -> list[str] | None:
    """The rows of a pasted list or table the request points at, by number or place ("rule 1", "the first
    one") or by the names it shares with them ("set up the BTC row"), as lines to read; None when it
    points at none."""
    header, body = rows(context)
    found = ORDINAL.search(request)
    if found is not None:
        items = [line for line in context if _NUMBERED.match(line)] or body
        place, number = found.group("place"), found.group("number") or found.group("hash")
        at = len(items) if place == "last" else _PLACES[place.lower()] if place else int(number or 0)
        if not items or not 1 <= at <= len(items):
            return None
        item = re.sub(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+", "", items[at - 1])
        return [_labelled(header, item, request) if header and item in body else item]
    names = set(names_in(request))
    if not body or not names:
        return None
    chosen = [row for row in body if names <= set(names_in(row))]
    if not chosen or len(chosen) == len(body):
        return None
    return [_labelled(header, row, request) if header else row for row in chosen]


def names_in(text: str) -> list[str]:
    lowered = normalize(text)
    return [m.group(1) for pattern in name_patterns() for m in pattern.finditer(lowered)]


def with_headers(lines: list[str], request: str) -> list[str]:
    """Pasted lines with a table's rows written as "header value" pairs and its header row left out."""
    header, body = rows(lines)
    if not header:
        return lines
    lines = [_labelled(header, line, request) if line in body else line for line in lines]
    return [line for line in lines if _cells(line) != header]
