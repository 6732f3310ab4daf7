"""Lexical scanning for the plain-English compiler: finds numbers, assets, chains, protocols, addresses
and keywords in a request, each with the exact text it came from, so every compiled field has a trace.

A `Scanner` masks what it has consumed, so a span is read once: an address is never read as a number, a
chain named after "on" is never read as an asset.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache

from engine.agents.vocabulary import Asset, YieldProtocol, vocabulary
from engine.intents.numerals import read_literal, spell_digits
from engine.intents.wording import HEART, POLITE_PHRASES, scale_is_chat, scale_is_unclear

# Multipliers of shorthand amounts ("4k", "1.2m", "2bn").
_MULTIPLIERS = {
    "k": Decimal(1000),
    "m": Decimal(10**6),
    "mm": Decimal(10**6),
    "b": Decimal(10**9),
    "bn": Decimal(10**9),
}
_UNITS = {
    "%": "%",
    "percent": "%",
    "pct": "%",
    "gwei": "gwei",
    "usd": "usd",
    "usdc": "usd",
    "usdt": "usd",
    "dollar": "usd",
    "dollars": "usd",
    "bucks": "usd",
}
# A digit glued to a name by a dash is part of the name ("RP-3", "HM-2"), never an amount.
_NUMBER_RE = re.compile(
    r"(?<![\w.$,])(?<!\d:)(?<![a-z]-)(?P<cur>\$\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?(?P<mult>k|mm|m|bn|b)(?![\w]))?"
    r"(?:\s?(?P<unit>%|percent(?!\w)|pct(?!\w)|gwei(?!\w)|usdc(?!\w)|usdt(?!\w)|usd(?!\w)|dollars?(?!\w)|bucks(?!\w)))?"
    r"(?!\w)(?!\.\d)(?!,\d)(?!:\d)"
)
_EVM_ADDRESS_RE = re.compile(r"(?<![\w])0x[0-9a-fA-F]{40}(?![\w])")
_SOLANA_ADDRESS_RE = re.compile(r"(?<![\w])[1-9A-HJ-NP-Za-km-z]{32,44}(?![\w])")
_UUID_RE = re.compile(r"(?<![\w-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])")
_CHAIN_CONTEXT_BEFORE = re.compile(r"(?:\bon|\bin|\bat|\bvia|\bover)\s+(?:the\s+)?$")
_CHAIN_CONTEXT_AFTER = re.compile(r"^\s+(?:chain|mainnet|network|l2)\b")

_REPLACEMENTS = {
    "\u2019": "'",
    "\u2018": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2265": ">=",
    "\u2264": "<=",
    "\u00a0": " ",
}


# A number written with a comma ("3,5k", "90,000", "0,5%"), read by the shared numeral rules.
_COMMA_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*,\d+(?:[.,]\d+)*(?![\d])")
# A signed percent: "-5%" is a move down, "+10%" a move up.
_SIGNED_PERCENT = re.compile(
    r"(?<![\w.])(?P<sign>[-+])\s?(?P<num>\d+(?:\.\d+)?)\s?(?P<unit>%|percent\b|pct\b)"
)


_THE_MOMENT = re.compile(r"(?<=\s)the (?:moment|second|instant|minute)(?: that)?(?=\s+(?!i\b)[a-z$])")
# "falls to below 3000": the "to" only leads into the level word, and is no reminder's "to <label>".
_TO_LEVEL = re.compile(r"\bto (?=(?:below|under|beneath|above|over)\b)")


def _comma_number(match: re.Match[str]) -> str:
    numeral = read_literal(match.group(0))
    return match.group(0) if numeral.value is None else f"{numeral.value.normalize():f}"


# Courtesy that carries no condition and would read as one ("if you can", "heads up": "up" is a direction),
# dropped as whole phrases before anything is read.
# The intent reader's politeness phrases are the same courtesy here.
# Request framing with a direction word inside ("set up an alert", "hit me up when": "up" says no direction, "hit"
# no level) goes the same way.
_COURTESY = re.compile(
    r"(?<=\s)(?:give me a heads[- ]up|heads[- ]up|set up|sets up|setting up|set (?:this|that|it|one) up|sign me up for|hook me up with|hit me up|hmu|"
    r"shoot me an? (?:message|msg|text|dm|email|note|ping)|holler at me|holler|the (?:moment|second|instant)|"
    r"keep an eye on|"
    r"keep tabs on|keep me posted|keep me updated|keep me in the loop|flag it|flag me|"
    # Chat asks to be told, some with a direction or a number word inside ("wake me up", "quick one").
    r"wake me(?: up)?|quick one|quick q|buzz me|give me a shout|gimme a shout|"
    r"(?:send|drop|shoot) me a (?:msg|message|text|dm|note|line|ping)|"
    + "|".join(re.escape(" ".join(phrase)) for phrase in sorted(POLITE_PHRASES, key=len, reverse=True))
    + r")(?=[\s,.!?:;])"
)


# A greeting that opens a chat message ("morning!", "hi team,", "hello hello,"): framing, dropped before
# anything is read, and only at the start ("every morning" later is a schedule's cadence).
_GREETING = re.compile(
    # A time of day greets only with "good" or a mark after it ("morning!"): "morning reminder" is a time.
    r"^(?:(?:(?:good\s+(?:morning|afternoon|evening)|greetings|hi|hey|hello|yo|gm)"
    r"(?:\s+(?:team|all|everyone|folks|guys|there|gang|frens|fam))?[\s!,.:;-]+)"
    r"|(?:morning|afternoon|evening)(?:\s+(?:team|all|everyone|folks|guys|there|gang|frens|fam))?\s*[!,.:;-]+\s*)+"
)
# "+/-10%", "+-10%": a move either way, written as the one sign "±" (never "-10%", a move down).
_PLUS_MINUS = re.compile(r"(?:\+\s?/\s?-|\+-|-\s?/\s?\+)\s?(?=\d)")
# A cashtag ("$sol", "$ETH") is the ticker; a "$" before digits stays a dollar amount.
_CASHTAG = re.compile(r"(?<![\w$])\$(?=[a-z][a-z0-9]*\b)")


# A level with a trailing plus ("alert eth 3500+", "btc 70k+"): that level or above, read as "above <level>".
# A digit with a scale word ("3 thousand", "1.5 million"): one number, not a number and "1,000". Spelled
# numbers ("three thousand") are the shared reader's; this is the digit form beside them.
# "grand" is chat for a thousand ("four grand", "a grand"); it is read after the spelled numbers too.
_DIGIT_SCALE = re.compile(r"(?<![\w.,])(?P<num>\d+(?:\.\d+)?|a)\s+(?P<scale>thousand|million|grand)(?![\w])")
_SCALES = {"thousand": Decimal(1000), "million": Decimal(1_000_000), "grand": Decimal(1000)}


def _scaled(match: re.Match[str]) -> str:
    number = Decimal(1) if match.group("num") == "a" else Decimal(match.group("num"))
    return f"{(number * _SCALES[match.group('scale')]).normalize():f}"


_LEVEL_PLUS = re.compile(r"(?<![\w.$-])(?P<level>\$?\d+(?:\.\d+)?(?:k|m)?)\+(?![\w+%])")


# An arrow leads from a condition to what follows it ("eth 5k -> take profit"): read as "then", so its ">"
# is never read as "above".
_ARROW = re.compile(r"\s*(?:->|\u2192)\s*")


# A "k" written apart from a number: thousands, chat for "ok", or either (intents.wording).
_DETACHED_K = re.compile(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s(?P<k>kk?)(?![\w])(?=(?:\s+(?P<next>[a-z']+))?)")


def _chat_k(match: re.Match[str]) -> str:
    return (
        f"{match.group('num')} ok"
        if scale_is_chat(match.group("k"), Decimal(match.group("num")))
        else match.group(0)
    )


def unclear_scale(text: str) -> str | None:
    """The "<number> k" of a normalized request that may be thousands or chat for "ok" ("4 k thx")."""
    for match in _DETACHED_K.finditer(text):
        if scale_is_unclear(match.group("k"), Decimal(match.group("num")), match.group("next")):
            return f"{match.group('num')} {match.group('k')}"
    return None


def normalize(text: str) -> str:
    """Lower-case the request, unify quotes, dashes and comparison signs, write spelled numbers in digits
    ("three thousand"), read commas in numbers by the shared rules, turn "-5%" into "down 5%", and
    collapse whitespace."""
    for old, new in _REPLACEMENTS.items():
        text = text.replace(old, new)
    text = " ".join(HEART.sub(" ", _ARROW.sub(" then ", text.lower())).split())
    text = _PLUS_MINUS.sub("\u00b1", _CASHTAG.sub("", _GREETING.sub("", text)))
    # "the moment btc is under 55k": a condition's opener, read as "when" before courtesy is dropped.
    text = _THE_MOMENT.sub(" when ", f" {text} ")
    text = _TO_LEVEL.sub("", _COURTESY.sub(" ", f" {text} ").strip())
    text = _DIGIT_SCALE.sub(_scaled, _COMMA_NUMBER.sub(_comma_number, text))
    text = _DETACHED_K.sub(_chat_k, _DIGIT_SCALE.sub(_scaled, spell_digits(text)))
    text = _LEVEL_PLUS.sub(lambda m: f"above {m.group('level')}", text)
    return _SIGNED_PERCENT.sub(
        lambda m: f"{'down' if m.group('sign') == '-' else 'up'} {m.group('num')}%", text
    )


def parse_amount(text: str) -> Decimal | None:
    """The value of an amount as written ("$4,000", "4.5k", "10%", "12 gwei"); None if it is not one."""
    match = _NUMBER_RE.fullmatch(text.strip())
    return None if match is None else _amount_value(match)


# "4.000", "1.500": a thousands dot to many writers and a decimal point to others; the intent reader asks
# (engine/intents/numerals.py), and an alert never arms at one reading of it.
_DOT_THOUSANDS = re.compile(r"[1-9]\d{0,2}\.\d{3}")


def _amount_value(match: re.Match[str]) -> Decimal | None:
    if _DOT_THOUSANDS.fullmatch(match.group("num")):
        return None
    try:
        value = Decimal(match.group("num").replace(",", ""))
    except InvalidOperation:
        return None
    if match.group("mult"):
        value *= _MULTIPLIERS[match.group("mult")]
    return value


def display(value: Decimal) -> str:
    """A decimal for people: thousands separators, no exponent, no trailing zeros."""
    return f"{value.normalize():,f}"


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of the request: where it is and its text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Number:
    """An amount in the request; unit is "%", "gwei", "usd" or None."""

    span: Span
    value: Decimal
    unit: str | None


@dataclass(frozen=True, slots=True)
class AssetMention:
    span: Span
    asset: Asset


@dataclass(frozen=True, slots=True)
class ChainMention:
    span: Span
    chain: str


@dataclass(frozen=True, slots=True)
class ProtocolMention:
    span: Span
    protocol: YieldProtocol


def _alternation(aliases: list[str]) -> str:
    ordered = sorted(set(aliases), key=len, reverse=True)
    return "|".join(re.escape(alias) for alias in ordered)


def _alias_pattern(aliases: list[str]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w/$-])(" + _alternation(aliases) + r")(?![\w-])")


@cache
def _asset_index() -> tuple[re.Pattern[str], dict[str, Asset]]:
    index = {alias: asset for asset in vocabulary().assets for alias in asset.aliases}
    return _alias_pattern(list(index)), index


@cache
def _chain_index() -> tuple[re.Pattern[str], dict[str, str]]:
    index = {alias: slug for slug, aliases in vocabulary().chains.items() for alias in aliases}
    return _alias_pattern(list(index)), index


@cache
def _protocol_index() -> tuple[re.Pattern[str], dict[str, YieldProtocol]]:
    index = {alias: p for p in vocabulary().yield_protocols.values() for alias in p.aliases}
    return _alias_pattern(list(index)), index


class Scanner:
    """Consumes a normalized request piece by piece; consumed text is masked for later scans."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._masked = list(text)

    @property
    def remaining(self) -> str:
        """The request with consumed spans blanked out (same length as `text`)."""
        return "".join(self._masked)

    def _mask(self, start: int, end: int) -> Span:
        self._masked[start:end] = " " * (end - start)
        return Span(start, end, self.text[start:end])

    def take(self, pattern: re.Pattern[str]) -> list[Span]:
        """Consume every match of `pattern` in what remains."""
        return [self._mask(m.start(), m.end()) for m in list(pattern.finditer(self.remaining))]

    def take_matches(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """Consume every match of `pattern` in what remains and return the matches (groups included)."""
        matches = list(pattern.finditer(self.remaining))
        for match in matches:
            self._mask(match.start(), match.end())
        return matches

    def mask(self, start: int, end: int) -> Span:
        """Consume an explicit range."""
        return self._mask(start, end)

    def span_of(self, match: re.Match[str], group: str | int = 0) -> Span:
        """The span of a match group, with the request's text."""
        return Span(match.start(group), match.end(group), self.text[match.start(group) : match.end(group)])

    def find(self, pattern: re.Pattern[str]) -> list[Span]:
        """Every match of `pattern` in what remains, without consuming it."""
        return [
            Span(m.start(), m.end(), self.text[m.start() : m.end()]) for m in pattern.finditer(self.remaining)
        ]

    def has(self, pattern: re.Pattern[str]) -> bool:
        return pattern.search(self.remaining) is not None

    def take_numbers(self) -> list[Number]:
        """Consume every amount that remains."""
        numbers = []
        for match in list(_NUMBER_RE.finditer(self.remaining)):
            value = _amount_value(match)
            if value is None:
                continue
            unit = _UNITS.get(match.group("unit") or "")
            if match.group("cur"):
                unit = unit or "usd"
            numbers.append(Number(self._mask(match.start(), match.end()), value, unit))
        return numbers

    def take_uuids(self) -> list[Span]:
        return self.take(_UUID_RE)

    def take_chains(self, bare: bool) -> list[ChainMention]:
        """Consume chain names written as "on X", "X chain", ...; with `bare`, any chain name."""
        pattern, index = _chain_index()
        found = []
        for match in list(pattern.finditer(self.remaining)):
            before, after = self.remaining[: match.start()], self.remaining[match.end() :]
            explicit = _CHAIN_CONTEXT_BEFORE.search(before) or _CHAIN_CONTEXT_AFTER.match(after)
            if explicit or bare:
                found.append(ChainMention(self._mask(match.start(), match.end()), index[match.group(1)]))
        return found

    def take_assets(self) -> list[AssetMention]:
        pattern, index = _asset_index()
        return [
            AssetMention(self._mask(m.start(), m.end()), index[m.group(1)])
            for m in list(pattern.finditer(self.remaining))
        ]

    def take_protocols(self) -> list[ProtocolMention]:
        pattern, index = _protocol_index()
        return [
            ProtocolMention(self._mask(m.start(), m.end()), index[m.group(1)])
            for m in list(pattern.finditer(self.remaining))
        ]


def name_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The patterns of every asset, chain and protocol alias as whole words (group 1 is the alias)."""
    return _asset_index()[0], _chain_index()[0], _protocol_index()[0]


def asset_alias_group(name: str) -> str:
    """A named regex group matching any asset alias, for patterns that combine assets (ratios)."""
    return rf"(?<![\w$])(?P<{name}>" + _alternation(list(_asset_index()[1])) + r")(?![\w])"


def asset_for_alias(alias: str) -> Asset | None:
    """The asset a (normalized) alias names."""
    return _asset_index()[1].get(alias)


def chain_for_alias(alias: str) -> str | None:
    """The chain slug a (normalized) alias names."""
    return _chain_index()[1].get(alias)


def find_addresses(raw: str) -> Iterator[tuple[int, str]]:
    """Wallet-looking addresses in the original (case-preserved) request: (position, address)."""
    for pattern in (_EVM_ADDRESS_RE, _SOLANA_ADDRESS_RE):
        for match in pattern.finditer(raw):
            yield match.start(), match.group(0)


def words(*alternatives: str) -> re.Pattern[str]:
    """A pattern matching any of the phrases as whole words (spaces match any whitespace)."""
    body = "|".join(re.escape(a).replace(r"\ ", r"\s+") for a in sorted(alternatives, key=len, reverse=True))
    return re.compile(r"(?<![\w])(?:" + body + r")(?![\w])")
