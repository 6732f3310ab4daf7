"""Pasted material around an alert request: which lines ask, and what the request takes from the rest.

People paste what they look at before they ask: a dashboard ("Aave V3 · Base / Health factor 1.62"), a
price quote ("BTC/USDT 61,240.5 +2.3%"), a table, a JSON or YAML config, a ticket, a claim someone made.
The shared structure reading (engine.intents.message) sets aside signatures, chats, quoted lines and data;
here, besides, a block or line pasted before the one that asks is context, and a ticket's fields that state
the alert's parameters ("Threshold: 12%", "Condition: below 50 gwei") belong to the request. The request
then takes from the context by what it lacks:
- a request that says only go ("do that", "create", "apply this config", "this one") is the context, its
  figures included: the paste is what it asks for;
- a request with a level of its own ("alert me if this goes under 1.3") takes only the names it lacks (the
  metric, the protocol, the chain, the asset), never a figure: a paste shows where things stand now;
- a request with no level that points at one ("lmk if it gets there", "set up the BTC row") takes the
  names, level words and figures of what it points at; a move with no size ("tell me if it drops") takes
  only the names, and its size is asked.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

from engine.agents.content import has_content
from engine.agents.pasted_data import FIELD, FIGURE, ORDINAL, flatten, names_in, pointed_rows, with_headers
from engine.agents.phrases import (
    ABOVE,
    ANY_DIRECTION,
    ARRIVAL,
    BELOW,
    BORROW_SIDE,
    CHECK_DAILY,
    CHECK_HOURLY,
    DISJUNCTION,
    DOWN,
    FROM_STARTING_PRICE,
    GAS,
    HEALTH,
    MOVE,
    NEAR_OR_TURN,
    NEGATION,
    NEWS,
    PORTFOLIO,
    SUPPLY_SIDE,
    TRAILING_ACTION,
    UP,
    YIELD,
)
from engine.agents.scan import Scanner, asset_alias_group, name_patterns, normalize

# An ask to be told or reminded, or to set an alert up: the line that asks.
_ASK: Final = re.compile(
    r"\b(?:alert|notify|tell|ping|warn|remind|text|dm|email|message|buzz|wake|let|inform|advise|update)"
    r"\s+(?:me|us)\b|\blmk\b|\bhmu\b|\b(?:alert|notify|ping|warn)\b.*\b(?:when|if|whenever)\b"
    r"|\b(?:set|create|make|add|need|want|like)\b.{0,20}\b(?:alert|reminder|agent|notification)s?\b",
    re.IGNORECASE,
)
# Labels of ticket or form fields that state the alert itself, not where things stand.
_PARAMETER_LABELS: Final = frozenset(
    """
    threshold condition trigger level target window timeframe period direction side when expected desired
    alert notify frequency cadence limit asset token coin chain network protocol metric kind type day date
    time hour timezone zone
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)
# A pair quoted in a dollar ("BTC/USDT", "ETHUSD", "sol-usdc"): that asset's US dollar price.
_DOLLAR_PAIR: Final = re.compile(
    asset_alias_group("base").removesuffix(r"(?![\w])") + r"\s?[/-]?\s?(?:usdt|usdc|usd)(?![\w])",
    re.IGNORECASE,
)
_RATIO_PAIR: Final = re.compile(asset_alias_group("a") + r"\s?/\s?" + asset_alias_group("b"))
# A prediction pasted as "<asset> to <level>" ("BTC to 100k by summer"): the level it says the asset reaches.
_TO_LEVEL: Final = re.compile(asset_alias_group("asset") + r"\s+to\s+(?=\$?\d)", re.IGNORECASE)
# Where a paste says how to reach its writer: never a figure of the alert.
_PHONE_OR_MAIL: Final = re.compile(
    r"(?:call|text|phone|tel|reach)\s+me\s+(?:on|at)\s+[+\d][\d\s().-]{5,}\d|\+?\d[\d\s().-]{6,}\d"
    r"|\b\d{3}-\d{4}\b|[\w.+-]+@[\w-]+\.[\w.-]+",
    re.IGNORECASE,
)
# Words of a request that point at what was pasted ("if this drops", "set that up", "if he's right").
_POINTER: Final = re.compile(
    r"\b(?:this|that|it|these|those|there|he|she|they|he's|she's|they're|one|row|target|level)\b",
    re.IGNORECASE,
)
# A reference to the paste as a whole at the end of a request ("... under 2800 instead", "set it up here
# too"): it says the request differs from, or repeats, what was pasted, never a second condition.
_REFERS_BACK: Final = re.compile(r"[\s,]+(?:instead|too|as well|here too)(?=\s*[.!?]*\s*$)", re.IGNORECASE)


@dataclass(slots=True)
class Reading:
    """The text to compile and what was set aside, in words."""

    text: str
    set_aside: list[str] = field(default_factory=list)


def asks(text: str) -> bool:
    """Whether a piece of a message asks for an alert or a reminder, says only go, or points at what was
    pasted in a few words ("do it for my spark position", "the first one")."""
    pointing = bool(_POINTER.search(text)) and len(text.split()) <= 12
    return bool(_ASK.search(text) or ORDINAL.search(text) or pointing) or says_only_go(text)


def says_only_go(text: str) -> bool:
    """Whether a request says nothing of its own to watch ("do that", "create", "please advise")."""
    return bool(text.strip()) and not has_content(text) and len(text.split()) <= 12


def split_pasted(text: str) -> tuple[str, list[str]]:
    """(the part of `text` that asks, the lines pasted before it): a block (after a blank line) or, in one
    block, a last line that asks after lines that do not."""
    blocks = [block for block in re.split(r"\n[ \t]*\n", text.strip()) if block.strip()]
    if len(blocks) > 1 and asks(blocks[-1]) and not any(_writer_asks(block) for block in blocks[:-1]):
        return blocks[-1], [line for block in blocks[:-1] for line in block.splitlines() if line.strip()]
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) > 1 and _ASK.search(lines[-1]) and not any(_writer_asks(line) for line in lines[:-1]):
        return lines[-1], lines[:-1]
    return text, []


# A line someone else said, under their name ("Assistant: ...", "@cryptobro: ...", "[10:02] ben: ...").
_SAID_BY: Final = re.compile(r"^\s*(?:\[[^\]]*\]\s*)?@?[A-Za-z][\w .'()-]{0,30}:\s+\S")


def _writer_asks(text: str) -> bool:
    """Whether the writer asks in this piece: an ask outside the lines someone else said."""
    return any(_ASK.search(line) and not _SAID_BY.match(line) for line in text.splitlines())


def parameters(request: str, context: list[str], form: bool) -> tuple[str, list[str]]:
    """The fields of a ticket or form whose request is one of its fields (`form`) that state the alert
    ("Threshold: 12% either direction", "Window: 24h") join the request; a message with no request of its
    own takes the field that asks ("Expected: alert when ETH drops 10%"). Anything else is left as it is:
    the labelled lines of a dashboard or of notes show where things stand."""
    own = request.strip()
    if own and not form:
        return request, context
    kept: list[str] = []
    for line in context:
        match = FIELD.match(line)
        label = match.group("label").lower().replace("_", " ").strip() if match else ""
        value = match.group("value").strip() if match else ""
        if match and value and own and value in own:
            continue  # the field the request was taken from
        stated = own and set(label.split()) & _PARAMETER_LABELS
        if match and value and (stated or (not own and _ASK.search(value))):
            own = f"{own}, {value}" if own else value
            continue
        kept.append(line)
    return (own, kept) if own else (request, context)


@dataclass(slots=True)
class _Slots:
    assets: list[str]
    chains: list[str]
    protocols: list[str]
    families: list[str]


def _slots(text: str) -> _Slots:
    lowered = normalize(_DOLLAR_PAIR.sub(lambda m: m.group("base"), text))
    ratio = _RATIO_PAIR.search(lowered)
    probe = Scanner(lowered)
    families = [
        name for name, pattern in (("gas", GAS), ("health", HEALTH), ("yield", YIELD)) if probe.has(pattern)
    ]
    if probe.has(PORTFOLIO):
        families.append("portfolio")
    if ratio is not None:
        families.append(f"{ratio.group('a')}/{ratio.group('b')}")
    protocols = [m.protocol.name for m in probe.take_protocols()]
    chains = [m.chain for m in probe.take_chains(bare=True)]
    assets = [m.asset.symbol.lower() for m in probe.take_assets()]
    return _Slots(assets, chains, protocols, families)


def _family_words(family: str, lines: list[str]) -> str:
    if family == "health":
        return "health factor"
    if family != "yield":
        return family
    text = normalize(" ".join(lines))
    side = "supply " if SUPPLY_SIDE.search(text) else "borrow " if BORROW_SIDE.search(text) else ""
    return f"{side}apy"


def _closest_family(lines: list[str], level: Decimal) -> str | None:
    """The family of the pasted line whose figure is nearest the request's own level ("Health factor 1.62"
    for "under 1.3", not "Net worth $14,220"): what "this" points at."""
    best: tuple[float, str] | None = None
    for line in lines:
        families = _slots(line).families
        figures = [m.group(0) for m in FIGURE.finditer(normalize(line))]
        if len(families) != 1 or not figures:
            continue
        value = Decimal(re.sub(r"[^\d.]", "", figures[0]) or "0")
        if value <= 0 or level <= 0:
            continue
        distance = abs(math.log(float(value / level)))
        if best is None or distance < best[0]:
            best = (distance, families[0])
    return None if best is None else best[1]


def names_for(request: str, context: list[str]) -> str:
    """The names of the context the request lacks, written before it ("aave arbitrum health factor: alert me
    if this number goes under 1.4"); the request alone when it lacks none."""
    action = TRAILING_ACTION.search(normalize(request))
    own = _slots(normalize(request)[: action.start()] if action else request)
    shown = _slots(" ".join(context))
    added: list[str] = []
    family = own.families[0] if own.families else None
    # A price needs no chain or protocol: one named ("usdc on aave ethereum"), or a pointer ("the arbitrum
    # usdc one"), says the metric is the one the paste shows.
    lending_words = own.protocols or own.chains or _POINTER.search(request)
    if family is None and (not own.assets or lending_words) and shown.families:
        family = shown.families[0]
        if len(shown.families) > 1:
            level = Scanner(normalize(request)).take_numbers()
            family = _closest_family(context, level[0].value) if level else None
        if family is not None:
            added.append(_family_words(family, context))
    lending = family in ("health", "yield")
    if not own.assets and family not in ("health", "gas", "portfolio") and "/" not in (family or ""):
        added += list(dict.fromkeys(shown.assets))
    if not own.chains and (lending or family == "gas"):
        added += list(dict.fromkeys(shown.chains))
    if not own.protocols and lending:
        added += list(dict.fromkeys(shown.protocols))
    return f"{' '.join(added)}: {request}" if added else request


def essentials(text: str) -> str:
    """What of a pasted piece an alert is made of, in order ("btc hits 100k" of "btc to 100k by summer,
    screenshot this"): names, metrics, level and move words, figures, and the closed-class words that turn
    a condition around (negations, "or"); a follow-on action is kept whole. The other words are the
    writer's, not the alert's, and so is a claim's deadline ("this week", "by summer")."""
    lowered = normalize(_DOLLAR_PAIR.sub(lambda m: m.group("base"), _TO_LEVEL.sub(r"\g<asset> hits ", text)))
    action = TRAILING_ACTION.search(lowered)
    head, tail = (lowered[: action.start()], lowered[action.start() :]) if action else (lowered, "")
    spans = [(m.start(), m.end()) for p in _ESSENTIAL for m in p.finditer(head)]
    kept: list[tuple[int, int]] = []
    for start, end in sorted(spans, key=lambda s: (s[0], -s[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return " ".join([*(head[start:end] for start, end in kept), *([tail.strip()] if tail.strip() else [])])


# What essentials() keeps, longest first where two start at one place ("eth/btc" before "eth").
_ESSENTIAL: Final = (
    _RATIO_PAIR,
    *name_patterns(),
    GAS,
    HEALTH,
    YIELD,
    SUPPLY_SIDE,
    BORROW_SIDE,
    PORTFOLIO,
    ANY_DIRECTION,
    ABOVE,
    BELOW,
    ARRIVAL,
    NEAR_OR_TURN,
    UP,
    DOWN,
    MOVE,
    FROM_STARTING_PRICE,
    CHECK_HOURLY,
    CHECK_DAILY,
    NEGATION,
    DISJUNCTION,
    FIGURE,
)
# Words of a reminder's schedule: a paste that says when is read whole.
_SCHEDULE: Final = re.compile(
    r"\b(?:remind\w*|every|daily|weekly|monthly|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
    re.IGNORECASE,
)
# What a request that points at a pasted claim or level says of it: that it comes true ("lmk if it gets
# there", "let me know if he's right", "at the stop level"). Any other word is the request's own.
_COMES_TRUE: Final = re.compile(
    r"\b(?:right|correct|true|does|do|did|there|gets?|makes?\s+it|comes?\s+true|pans?\s+out|plays?\s+out|"
    r"level|target|row|line|item|one|actually|really|finally|ever|set|up|for|me|us|let|know|lmk|tell|alert|"
    r"notify|ping|warn|if|when|once|whenever|and|the|a|at|is|this|that|these|those|please|pls|plz|thanks?|ok|"
    r"okay|(?:it|he|she|they)(?:'s|'re|s)?)(?![\w'])",
    re.IGNORECASE,
)
# A parenthesis of a paste with no figure in it ("(Once per bar close)", "(Central European Time)"): a
# note on the paste, never a condition.
_ASIDE: Final = re.compile(r"\([^()\d]*\)")


def _as_read(lines: list[str], request: str) -> list[str]:
    """Pasted lines as words: contact details out, data flattened, a table's rows with their headers."""
    lines = [_PHONE_OR_MAIL.sub(" ", line) for line in lines]
    lines = [_ASIDE.sub(lambda m: m.group(0) if names_in(m.group(0)) else " ", line) for line in lines]
    return [flatten(line) for line in with_headers(lines, request)]


def _comes_true(request: str) -> bool:
    """Whether a request that points at the paste says only that what it shows comes true."""
    rest = _COMES_TRUE.sub(" ", normalize(request))
    return not re.search(r"[a-z]", Scanner(rest).remaining.translate({ord(c): " " for c in "'?!.,:;"}))


def read_with_context(request: str, context: list[str]) -> Reading:
    """What to compile of `request`, with the pasted `context` it may point at (see the module docstring)."""
    if not context:
        return Reading(request)
    pointed = pointed_rows(request, context)
    if pointed is not None:
        request = ORDINAL.sub(" ", request)
    lines = [flatten(line) for line in pointed] if pointed is not None else _as_read(context, request)
    request = _REFERS_BACK.sub("", request)
    normalized = normalize(request)
    whole = _DOLLAR_PAIR.sub(lambda m: m.group("base"), " ".join(lines))
    if _SCHEDULE.search(whole) or _SCHEDULE.search(request):
        # A reminder's paste says when ("Balance summary  Daily  18:00"): read whole, with the request.
        return Reading(f"{whole}: {request}" if not says_only_go(request) else whole)
    points = bool(_POINTER.search(normalized)) or not request.strip()
    if not request.strip() or (says_only_go(request) and not (points and _comes_true(request))):
        # "do that", "create", "apply this config": the paste is the request; a news word of the request
        # ("alert me on the next headline like this") still says what it waits for.
        pasted_news = NEWS.search(normalize(whole))
        if request.strip() and pasted_news is not None:
            # "notify me next time this happens" under a tweet: what it waits for is news.
            return Reading(f"{pasted_news.group(0)}: {request}")
        news = " ".join(match.group(0) for match in NEWS.finditer(normalized))
        aside = [request.strip()] if request.strip() else []
        return Reading(f"{whole}: {news}" if news else whole, aside)
    if Scanner(normalized).take_numbers():
        return Reading(names_for(request, lines))
    leveled = any(p.search(normalized) for p in (ABOVE, BELOW, ARRIVAL, NEAR_OR_TURN))
    if not leveled and any(p.search(normalized) for p in (UP, DOWN, MOVE)):
        return Reading(names_for(request, lines))  # a move with no size: its size is asked
    if pointed is None and (not points or not _comes_true(essentials_free(request))):
        return Reading(names_for(request, lines))  # the request says what it waits for on its own
    shown = " ".join(part for part in (essentials(line) for line in lines) if part)
    return Reading(f"{shown}: {essentials(request)}" if shown else request, [request.strip()])


def essentials_free(request: str) -> str:
    """The request without what essentials() would keep of it (its names, levels and figures)."""
    lowered = normalize(request)
    for pattern in _ESSENTIAL:
        lowered = pattern.sub(" ", lowered)
    return lowered
