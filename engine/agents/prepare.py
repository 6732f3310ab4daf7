"""Before the compiler reads an alert request: the request found in what was pasted, the sentences that ask
for nothing set aside, corrections applied, and a few forms people say written as the compiler reads them.

The same structure-first reading as POST /intent's (engine.intents.message): a pasted chat, a dashboard
line or a JSON blob is context, and its numbers are never thresholds; a request that points at it ("tell
me when this is above 6", "ping me if it goes under 1.5") takes the names it shows (the asset, the metric,
the protocol, the chain), never its numbers. Questions and remarks with nothing to watch ("I'm new to this",
"I don't really understand the numbers") are set aside, so a negation in a remark does not stop the alert.
A correction keeps the later value ("above 4000. no wait make it 4500" watches 4500).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from engine.agents.phrases import (
    ABOVE,
    BELOW,
    DOWN,
    GAS,
    HEALTH,
    HEALTH_CONTEXT,
    LEADING_ACTION,
    MOVE,
    NEUTRAL_LEVEL,
    PORTFOLIO,
    REMIND,
    TRAILING_ACTION,
    UP,
    YIELD,
)
from engine.agents.scan import Scanner, normalize
from engine.agents.vocabulary import vocabulary
from engine.intents.message import find_request
from engine.intents.numerals import spell_digits
from engine.intents.sentences import split
from engine.intents.vocabulary import VERBS

# Patterns whose presence makes a sentence part of an alert request.
_CONTENT: Final = (ABOVE, BELOW, UP, DOWN, MOVE, NEUTRAL_LEVEL, GAS, HEALTH, YIELD, PORTFOLIO, REMIND)
_SCHEDULE_WORDS: Final = re.compile(
    r"\b(?:every|daily|weekly|monthly|each|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|morning|evening|noon|night|am|pm|"
    r"\d{1,2}(?::\d{2})?\s?(?:am|pm)|o'clock)\b"
)
# Words that point at pasted material ("tell me when this is above 6", "if it halves").
_POINTER: Final = re.compile(r"\b(?:this|that|it|these|those|there|he|she|they|he's|she's|they're)\b")
_PHONE_OR_MAIL: Final = re.compile(
    r"(?:call|text|phone|tel|reach)\s+me\s+(?:on|at)\s+[+\d][\d\s().-]{5,}\d|\+?\d[\d\s().-]{6,}\d|[\w.+-]+@[\w-]+\.[\w.-]+",
    re.IGNORECASE,
)
# A number as the compiler reads one, and figures of pasted material to leave out of its names.
_FIGURE: Final = re.compile(r"[-+]?\$?\d[\d,]*(?:\.\d+)?\s?(?:%|k|m|gwei|usd)?")
# Corrections: what follows replaces what came before.
_CORRECTION: Final = re.compile(
    r"(?:^|[\s,.;!?\u2014-])(?:no\s*,?\s*wait|wait\s*,?\s*(?:no|i\s+mean)|no\s+sorry|sorry\s*,?\s*i\s+mean(?:t)?|"
    r"i\s+mean(?:t)?|actually(?:\s+no)?(?:\s+make\s+it)?|make\s+(?:it|that)|sorry|scratch\s+that|oops|no\s*,"
    r"|never\s*mind|nvm|forget\s+(?:it|that)|wait|scrap\s+that|cancel\s+that|start\s+over)"
    r"(?=[\s,.;!?]|$)"
)
# What a withdrawing correction says after its marker ("i don't need it", "forget it", "never mind").
_WITHDRAWN: Final = re.compile(
    r"\b(?:don'?t|do not|no longer|not)\s+(?:need|want)\b|\bforget\b|\bnever\s*mind\b|\bnvm\b|\bcancel\b"
    r"|\bno need\b|\bdon'?t bother\b|\bleave it\b"
)
# Corrections that drop everything before them.
_RESET: Final = re.compile(
    r"\b(?:scrap|scratch|cancel|forget)\s+(?:that|it)\b|\bnever\s*mind\b|\bnvm\b|\bstart\s+over\b"
)
# Where the price is now, told beside the condition ("it's at 3k now", "currently 3,050"): a remark, never
# the level to watch nor a correction of it.
_NOW_AT: Final = re.compile(
    r"[,;]?\s*\b(?:it'?s|it\s+is|its|(?:the\s+)?price\s+is|currently|now)\s+(?:at\s+|around\s+|about\s+|~\s*)?"
    r"\$?\d[\d,]*(?:\.\d+)?\s?k?\b(?:\s+(?:right\s+)?(?:now|currently|atm|today))?"
    r"(?=\s*(?:[.,;!?]|$))",
    re.IGNORECASE,
)
# Why the writer wants the alert, told after it ("so I hold off on payouts", "— that's when I convert my
# income", "; should that occur, I may consider reducing..."), a note on a figure ("please note that 1.35 is
# a ratio, not a percentage") and a yes/no tag ("... or not?"): remarks, never a condition nor an order.
_PURPOSE: Final = re.compile(
    r"(?:\s*[,;\u2014\u2013-]\s*|\s+)(?:so\s+(?:that\s+)?(?:i|we)\b|that'?s\s+when\s+(?:i|we)\b|"
    r"should\s+(?:that|this|it)\s+(?:occur|happen)\b|because\s+(?:i|we)\b|since\s+(?:i|we)\b|"
    r"in\s+case\s+(?:i|we)\b).*?(?=[.!?](?:\s|$)|$)",
    re.IGNORECASE,
)
_NOTE: Final = re.compile(
    r"(?:^|(?<=[.!?])\s+)(?:please\s+)?note\s+that\b.*?(?:[.!?](?=\s|$)|$)|\s+or\s+not(?=\s*\?)",
    re.IGNORECASE,
)
# The text handed on for a withdrawn request: a sentence the compiler refuses with that reason.
WITHDRAWN: Final = "the request was withdrawn"
_DAYS: Final = re.compile(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", re.IGNORECASE
)
_DIRECTION_WORDS: Final = re.compile(r"\b(?:up|down|above|below|under|over)\b", re.IGNORECASE)
# Spoken forms: "nine a m", "ninety nine cents", "doubles", "goes up by a fifth".
_SPOKEN_TIME: Final = re.compile(r"\b([ap])\s?\.?\s?m\b\.?", re.IGNORECASE)
_CENTS: Final = re.compile(r"\b(\d{1,2})\s+cents?\b", re.IGNORECASE)
_SPELLED_CENTS: Final = re.compile(
    r"\b(?P<words>(?:[a-z]+[\s-]){1,2}[a-z]+|[a-z]+)\s+cents?\b", re.IGNORECASE
)
_PARTS: Final = {"half": 50, "quarter": 25, "fifth": 20, "tenth": 10}
_BY_PART: Final = re.compile(
    r"\b(up|down|rises?|falls?|drops?|gains?|loses?|goes up|goes down|increases?|decreases?)\s+by\s+(?:a|one)\s+"
    r"(half|quarter|fifth|tenth)\b",
    re.IGNORECASE,
)
_MULTIPLE: Final = re.compile(r"\b(doubles|doubled|triples|tripled)\b", re.IGNORECASE)
_HALVES: Final = re.compile(r"\b(halves|halved|is cut in half|cut in half)\b", re.IGNORECASE)


@dataclass(slots=True)
class Prepared:
    """The text to compile and what was set aside, in words, for the compile note."""

    text: str
    set_aside: list[str] = field(default_factory=list)


class _Names:
    """The agent vocabulary as engine.intents.message.Names."""

    def __init__(self) -> None:
        vocab = vocabulary()
        self._assets = {alias.lower(): asset.symbol for asset in vocab.assets for alias in asset.aliases}
        self._assets.update({asset.symbol.lower(): asset.symbol for asset in vocab.assets})
        self._chains = {alias.lower(): slug for slug, aliases in vocab.chains.items() for alias in aliases}
        self._chains.update({slug: slug for slug in vocab.chains})

    def asset_aliases(self) -> Mapping[str, str]:
        return self._assets

    def chain_aliases(self) -> Mapping[str, str]:
        return self._chains

    def asset_on(self, chain: str, name: str) -> str | None:
        return self._assets.get(name.lower())

    def chain_by_id(self, chain_id: int) -> str | None:
        return None


@cache
def _names() -> _Names:
    return _Names()


def has_content(text: str) -> bool:
    """Whether a piece of a request says something an alert or a reminder is made of."""
    normalized = normalize(text)
    probe = Scanner(normalized)
    if probe.take_assets() or probe.take_numbers() or probe.take_chains(bare=True) or probe.take_protocols():
        return True
    if HEALTH_CONTEXT.search(normalized):
        return True
    if any(pattern.search(normalized) for pattern in _CONTENT) or _SCHEDULE_WORDS.search(normalized):
        return True
    return bool(TRAILING_ACTION.search(" , " + normalized) or LEADING_ACTION.search(normalized + " when"))


def prepare(original: str) -> Prepared:
    """The request of `original` as the compiler should read it (see the module docstring)."""
    text = _spoken(original)
    message = find_request(text, _names())
    request = message.request if message.request.strip() else text
    prepared = Prepared(request, list(message.set_aside))
    item = _pointed_item(request, text.splitlines())
    if item is not None:
        # "set up rule 1" under a pasted list, "the first one" under a table: that item, figures and all.
        asked = next(line for line in reversed(text.splitlines()) if _ORDINAL.search(line))
        prepared.text = f"{item}: {_ORDINAL.sub(' ', asked)}"
    elif message.context and _POINTER.search(request.lower()) and not _names_something(request):
        # "tell me when this is above 6" under "USDC Supply APY 4.12% (Optimism)": the names, not the figures;
        # "set that up" under an advisor's "if your total drops below $25,000" points at all of it.
        lines = [_PHONE_OR_MAIL.sub(" ", line) for line in message.context]
        if Scanner(normalize(request)).take_numbers():
            lines = [_FIGURE.sub(" ", line) for line in lines]
        shown = " ".join(lines)
        prepared.text = f"{' '.join(shown.split())}: {request}"
    prepared.text = _corrected(_NOW_AT.sub(" ", _NOTE.sub(" ", _PURPOSE.sub(_remark, prepared.text))).strip())
    if prepared.text != WITHDRAWN:
        prepared.text = _focus(prepared)
    return prepared


# A pointer at one item of a pasted list or table by its number or place ("rule 1", "#2", "the first one").
_ORDINAL: Final = re.compile(
    r"\b(?:rule|item|line|row|number|no\.?|step|point)\s*#?\s*(?P<number>\d{1,2})\b|#(?P<hash>\d{1,2})\b|"
    r"\bthe\s+(?P<place>first|second|third|fourth|fifth|last)\s+(?:one|rule|item|row|line|alert)\b",
    re.IGNORECASE,
)
_PLACES: Final = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_NUMBERED: Final = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+\S")
_ROW: Final = re.compile(r"\t|\s\|\s")


def _pointed_item(request: str, context: list[str]) -> str | None:
    """The one pasted list item or table row (of the message's lines) the request points at by number or
    place, or None."""
    found = _ORDINAL.search(request)
    if found is None:
        return None
    context = [line for line in context if line.strip() and line.strip() != request.strip()]
    items = [line for line in context if _NUMBERED.match(line)]
    if not items:
        rows = [line for line in context if _ROW.search(line)]
        items = rows[1:] if len(rows) > 1 else []  # a table's first row names its columns
    if not items:
        return None
    place = found.group("place")
    number = found.group("number") or found.group("hash")
    at = len(items) if place == "last" else _PLACES[place.lower()] if place else int(number or 0)
    if not 1 <= at <= len(items):
        return None
    return re.sub(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+", "", items[at - 1]).replace("\t", " ")


def _remark(match: re.Match[str]) -> str:
    """A purpose clause goes ("that's when I convert it", "should that occur, I may sell") unless it says
    what the alert is for as an action ("so i can bridge"), which is reported as the follow-on it is."""
    words = re.findall(r"[a-z]+", match.group(0).lower())
    wants = bool(words) and words[0] == "so" and any(word in VERBS for word in words)
    return match.group(0) if wants else ""


def _names_something(text: str) -> bool:
    normalized = normalize(text)
    if Scanner(normalized).take_assets():
        return True
    return any(pattern.search(normalized) for pattern in (GAS, HEALTH, YIELD, PORTFOLIO))


def _focus(prepared: Prepared) -> str:
    """The sentences and clauses of the request that say something to watch; remarks are set aside."""
    sentences = split(prepared.text)
    if len(sentences) <= 1 and ", but " not in prepared.text:
        return prepared.text
    kept: list[str] = []
    for sentence in sentences:
        clauses = re.split(r",\s+but\s+|;\s+", sentence)
        useful = [clause for clause in clauses if has_content(clause)]
        if not useful:
            prepared.set_aside.append(sentence)
            continue
        if len(useful) < len(clauses):
            prepared.set_aside.extend(clause for clause in clauses if clause not in useful)
        kept.append(", ".join(useful))
    return " ".join(kept) if kept else prepared.text


def _corrected(text: str) -> str:
    """The request with a correction applied: the part after it replaces what it names in the part before
    (a number replaces the last number, a weekday the weekday, a direction the direction) and is kept; a
    whole new condition after it replaces the one before; a correction that withdraws the request ("...
    scratch that, i don't need alerts anymore") leaves nothing to watch."""
    markers = [m for m in _CORRECTION.finditer(text.lower()) if m.start() > 0]
    if not markers:
        return text
    first = markers[0]
    # The markers of one correction run together ("no wait make it"): the first starts it, the last ends it.
    last = first
    for marker in markers[1:]:
        if text[last.end() : marker.start()].strip(" ,.;!?") == "":
            last = marker
    before, after = text[: first.start()], text[last.end() :].strip(" ,.;!?")
    if not after and _RESET.search(text[first.start() : last.end()].lower()):
        return WITHDRAWN  # "set a gas alert ... nah forget it, never mind": nothing is left to watch
    if not after:
        return text
    if not has_content(after) and _WITHDRAWN.search(after.lower()):
        return WITHDRAWN
    if _RESET.search(text[first.start() : last.end()].lower()):
        # "... actually scrap that, make it a price alert on eth at 6k": only what follows counts.
        return after if has_content(after) else WITHDRAWN
    if has_content(after) and _is_whole_condition(after):
        # "ping me when eth drops below 2800, no, when it goes above 2800": the new condition wins; the
        # asset named before stays named ("... wait it's already under. ok then when it gets back above").
        openers = list(re.finditer(r"\b(?:when|if|once)\b", after.lower()))
        after = after[openers[-1].start() :]
        assets = " ".join(m.span.text for m in Scanner(normalize(before)).take_assets())
        return f"{assets} {after}" if assets and not _names_something(after) else after
    changed = before
    for pattern in (_FIGURE, _DAYS, _DIRECTION_WORDS):
        new = pattern.findall(after)
        if new:
            old = list(pattern.finditer(changed))
            if old:
                last = old[-1]
                changed = changed[: last.start()] + new[0].strip() + " " + changed[last.end() :]
                after = pattern.sub(" ", after, count=1)
    rest = after.strip(" ,.;!?")
    return f"{changed.strip()} {rest}".strip() if has_content(rest) else changed.strip()


def _is_whole_condition(text: str) -> bool:
    lowered = text.lower()
    return bool(re.search(r"\b(?:when|if|once)\b", lowered)) and bool(
        any(pattern.search(normalize(text)) for pattern in (ABOVE, BELOW, UP, DOWN, NEUTRAL_LEVEL))
    )


def _spoken(text: str) -> str:
    """Forms people say, written as the compiler reads them."""
    text = _SPELLED_CENTS.sub(lambda m: f"{spell_digits(m.group('words'))} cents", text)
    text = _SPOKEN_TIME.sub(lambda m: f"{m.group(1).lower()}m", text)
    text = _CENTS.sub(lambda m: f"0.{int(m.group(1)):02d}", text)
    text = _BY_PART.sub(lambda m: f"{m.group(1)} {_PARTS[m.group(2).lower()]}%", text)
    text = _MULTIPLE.sub(
        lambda m: "rises 100%" if m.group(1).lower().startswith("doub") else "rises 200%", text
    )
    return _HALVES.sub("falls 50%", text)
