"""Requests that say too little to watch, and requests that name something the agents do not watch.

A request that names something watchable but not when to alert ("alert me on eth", "when eth is in a good
price for buy", "when number go up", "alert me", "alert when eth goes to" cut off) is asked about, with
options that each lead to a question or an agent when picked (contract: 200 needs_clarification, at most
four options, possibly none). A request whose metric is no watchable one ("ETH funding rate above 0.1%",
"open interest on eth spikes") is refused: a rate or interest is a yield only when nothing else qualifies
it. A word that may be a token's name misheard ("eath", "soul") is asked as "did you mean".
"""

from __future__ import annotations

import re
from typing import Final

from engine.agents.context import Request
from engine.agents.leftovers import FILLER
from engine.agents.phrases import (
    ABOVE,
    BELOW,
    BORROW_SIDE,
    DOWN,
    MOVE,
    MY_WALLET,
    NEUTRAL_LEVEL,
    PORTFOLIO,
    SUPPLY_SIDE,
    UP,
)
from engine.agents.results import NeedsClarification, Unwatchable
from engine.agents.scan import words
from engine.agents.vocabulary import vocabulary
from engine.intents.english import is_common
from engine.intents.spelling import near_names, token_question
from engine.intents.wording import CHAT_FILLER

# What can be watched, for the reasons of refusals.
WATCHABLE: Final = "prices, price ratios, gas, health factors, yields, portfolio value and schedules"
# An ask to be told, or a price, with nothing else named: what is there to watch is asked.
_ASK: Final = words("alert", "alerts", "notify", "notification", "tell", "ping", "warn", "let me know", "lmk")
_PRICE: Final = words("price", "prices", "number", "chart", "value")
_LEVEL_OR_MOVE: Final = (ABOVE, BELOW, UP, DOWN, MOVE, NEUTRAL_LEVEL)
# The answers to "what should it watch?": each leads to an agent within two more answers (gas and health
# factors need a threshold typed in, so they are named in the question instead).
_WHAT_LABELS: Final = ("A token's price", "My portfolio value")
# A rate or an interest figure, and the word before it that says whose.
_RATE: Final = re.compile(r"\b(?P<qualifier>[a-z][a-z'-]*)\s+(?P<rate>rates?|interest)\b")
# Words that keep a rate a yield ("supply rate", "the usdc rate", "variable rate", "interest rate").
_YIELD_QUALIFIERS: Final = frozenset(
    """
    interest variable stable fixed staking stake annual yearly percentage average reward rewards return
    returns current the my our your their its his her this that a an apy apr yield yields pool pools market
    markets
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)


def _token_labels() -> list[str]:
    """Four tokens to offer for "which token's price?": the vocabulary's first assets that are no dollar."""
    symbols = [asset.symbol for asset in vocabulary().assets]
    # Dollars, and wraps or stakes of another token (WBTC, STETH), are no price people ask about first.
    kept = [
        s
        for s in symbols
        if s not in {"USDC", "USDT", "DAI"} and s[1:] not in symbols and s[2:] not in symbols
    ]
    return kept[:4]


# Market figures no upstream of the agents reads: derivatives' funding and open interest, a perpetual's own
# price, market-wide totals, and whether a liquidity position is in range.
MARKET_FIGURES: Final = words(
    "funding", "funding rate", "perps", "perp", "perpetual", "perpetuals", "futures", "open interest", "tvl",
    "market cap", "mcap", "trading volume", "dominance", "out of range", "in range", "impermanent loss",
)  # fmt: skip


def unwatched_metric(request: Request) -> Unwatchable | None:
    """A market figure no agent watches ("funding flips negative on eth perps", "when my lp goes out of
    range"), or a rate or interest qualified by an ordinary word that names no yield ("funding rate",
    "open interest", "fed rates"): that figure, not a price or a yield, is what the request watches, and it
    is refused."""
    figure = MARKET_FIGURES.search(request.scanner.remaining)
    if figure is not None:
        return Unwatchable(f'"{figure.group(0)}" is not a figure agents watch; watchable are {WATCHABLE}')
    names = {alias.lower() for asset in vocabulary().assets for alias in (asset.symbol, *asset.aliases)}
    names |= {alias for protocol in vocabulary().yield_protocols.values() for alias in protocol.aliases}
    names |= {alias for aliases in vocabulary().chains.values() for alias in aliases}
    for match in _RATE.finditer(request.scanner.remaining):
        qualifier = match.group("qualifier")
        if qualifier in _YIELD_QUALIFIERS or qualifier in names or not is_common(qualifier):
            continue
        if SUPPLY_SIDE.fullmatch(qualifier) or BORROW_SIDE.fullmatch(qualifier):
            continue
        return Unwatchable(f'"{match.group(0)}" is not a figure agents watch; watchable are {WATCHABLE}')
    return None


# Where a condition starts, and the words before its subject.
_OPENER: Final = re.compile(r"\b(?:when(?:ever)?|if|once|as soon as|any ?time|next time)\b")
_LEAD: Final = frozenset(
    "the a an my our your his her their its is are was be being it's that's there's".split()  # noqa: SIM905
)
_PRONOUNS: Final = frozenset({"it", "it's", "its", "this", "that", "they", "they're", "he", "she"})
_METRICS: Final = frozenset(
    {"gas", "health", "hf", "apy", "apr", "yield", "rate", "portfolio", "wallet", "wallets", "account"}
    # What someone holds ("the value of my crypto"): the portfolio.
    | {
        "crypto",
        "bag",
        "bags",
        "stash",
        "savings",
        "funds",
        "balance",
        "holdings",
        "treasury",
        "stack",
        "total",
    }
)
_VAGUE: Final = frozenset({"something", "anything", "everything"})
# What a pointer back at a move or level said before says of it: that it happens ("if it does").
_COMES_ABOUT: Final = _PRONOUNS | frozenset(
    {"does", "do", "did", "happens", "happen", "so", "ever", "really"}
)


def _event(text: str) -> str | None:
    """The condition clause of `text` when its subject is no watchable thing ("when elon tweets about doge",
    "when the vote passes", "when whales start selling eth", "when it's approved"), else None. A clause
    about a token, a price or a metric ("when eth is in a good price", "when the price is good") is vague,
    not unwatchable; so is "it" with a level or a move ("when it goes up")."""
    opener = _OPENER.search(text)
    if opener is None:
        return None
    clause = re.split(r"[.,;!?|]", text[opener.end() :], maxsplit=1)[0].strip()
    words = re.findall(r"[a-z0-9$/']+", clause)
    while words and (words[0] in _LEAD - _PRONOUNS or words[0] in CHAT_FILLER):
        words.pop(0)
    if not words:
        return None
    if len(words) > 2 and _PRICE.fullmatch(words[0]) and words[1] == "of":
        # "the value of my house": whose value is what follows "of".
        words = [w for w in words[2:] if w not in _LEAD] or words
    subject = words[0].removesuffix("'s")
    names = {alias.lower() for asset in vocabulary().assets for alias in (asset.symbol, *asset.aliases)}
    if subject in names or subject in _METRICS or _PRICE.fullmatch(subject) or subject.startswith("$"):
        return None
    if subject in _PRONOUNS and any(p.search(clause) for p in (_PRICE, *_LEVEL_OR_MOVE)):
        return None
    if subject in _PRONOUNS and set(words) <= _COMES_ABOUT and any(p.search(text) for p in _LEVEL_OR_MOVE):
        return None  # "Bitcoin might double. Let me know if it does": the move said before is the condition
    if subject in _VAGUE and (MY_WALLET.search(clause) or PORTFOLIO.search(clause)):
        return None  # "if something bad happens to my portfolio": vague about a watchable thing, asked
    return clause


def waits_for_an_event(request: Request) -> Unwatchable | None:
    """The refusal of a request whose condition is an event about something agents do not watch."""
    clause = _event(request.text)
    if clause is None:
        return None
    return Unwatchable(
        f'the request waits for something agents cannot watch ("{clause}"); watchable are {WATCHABLE}'
    )


# Events a token or a protocol goes through, which no figure measures ("before the next ARB token unlock",
# "a hack on Aave", "the next airdrop"): a request waiting for one is refused, as news is.
EVENTS: Final = words(
    "unlock", "unlocks", "token unlock", "airdrop", "airdrops", "halving", "hack", "hacked", "exploit",
    "exploited", "hard fork", "upgrade", "listing", "delisting", "delisted", "proposal", "governance vote",
)  # fmt: skip


def no_condition(request: Request, symbol: str) -> NeedsClarification | Unwatchable:
    """An asset named with nothing said of when to alert ("alert me on eth"): which kind of change; a
    condition about something else the asset is only named in ("when elon tweets about doge", "before the
    next unlock") is refused."""
    event = waits_for_an_event(request)
    if event is not None:
        return event
    happening = EVENTS.search(request.scanner.remaining)
    if happening is not None:
        return Unwatchable(
            f'the request waits for an event ("{happening.group(0)}") agents cannot watch; watchable are {WATCHABLE}'
        )
    return NeedsClarification.ask(
        f"Which move in the {symbol} price should trigger the alert (or answer with a price level)?",
        ["Up 5%", "Down 5%", "Up 10%", "Down 10%"],
    )


def nothing_named(request: Request) -> NeedsClarification | Unwatchable | None:
    """No asset and no metric named. A price, a level or a move with no subject ("when the price is good",
    "when number go up") asks which token; a bare ask to be told ("alert me") asks what to watch; a
    condition about something else ("when the vote passes") is refused."""
    event = waits_for_an_event(request)
    if event is not None:
        return event
    remaining = request.scanner.remaining
    unknown = _unknown_subject(remaining)
    if unknown is not None:
        # "FOOCOIN above 5": a name the agents cannot price, where a token would stand.
        return Unwatchable(f'"{unknown}" is no token agents can price; watchable are {WATCHABLE}')
    if _PRICE.search(remaining) or any(pattern.search(remaining) for pattern in _LEVEL_OR_MOVE):
        return NeedsClarification.ask("Which token's price should it watch?", _token_labels())
    if _ASK.search(remaining) and not _open_words(remaining):
        return NeedsClarification.ask(
            "What should it watch (a token's price, your portfolio, gas on a chain or a health factor)?",
            list(_WHAT_LABELS),
        )
    return None


def _unknown_subject(text: str) -> str | None:
    """A word no dictionary or vocabulary knows standing right before a level or move word ("foocoin above
    5", "pepe2 hits 3"): where a token's name would stand."""
    names = {alias.lower() for asset in vocabulary().assets for alias in (asset.symbol, *asset.aliases)}
    names |= {alias for protocol in vocabulary().yield_protocols.values() for alias in protocol.aliases}
    names |= {alias for aliases in vocabulary().chains.values() for alias in aliases}
    for pattern in _LEVEL_OR_MOVE:
        for match in pattern.finditer(text):
            before = re.findall(r"[a-z0-9]+", text[: match.start()])
            word = before[-1] if before else ""
            known = word in names or word in FILLER or is_common(word)
            if word[:1].isalpha() and not known:
                return word
    return None


def _open_words(text: str) -> list[str]:
    """The words of `text` beyond filler and asks to be told."""
    return [
        w for w in re.findall(r"[a-z']+", _ASK.sub(" ", text)) if w not in FILLER and w not in CHAT_FILLER
    ]


def _before_a_level(text: str, end: int) -> bool:
    """Whether a level or move word follows position `end` ("soul moves", "dye drops below")."""
    rest = text[end:].lstrip()
    start = len(text) - len(rest)
    return any(pattern.match(text, start) for pattern in (*_LEVEL_OR_MOVE, _PRICE))


# Words that open a question, never a token's name misheard ("what" is no WETH).
_QUESTION_WORDS: Final = frozenset({"what", "when", "where", "which", "who", "whom", "whose", "why", "how"})


def misheard_asset(remaining: str) -> NeedsClarification | None:
    """A word that may be a token's name misspelt or misheard ("eath", "soul", "dye"), when no token is
    named: asked as "did you mean", with the names it may be (each answer names a token, so it compiles)."""
    aliases = {
        alias.lower(): asset.symbol
        for asset in vocabulary().assets
        for alias in (asset.symbol, *asset.aliases)
    }
    for found in re.finditer(r"[a-z]{3,}", remaining):
        word = found.group(0)
        if word in aliases or word in FILLER or word in CHAT_FILLER or word in _QUESTION_WORDS:
            continue
        if is_common(word) and not _before_a_level(remaining, found.end()):
            continue  # an ordinary word ("day", "una") is a token's name misheard only where one stands
        near = near_names(word, aliases)
        if near:
            return NeedsClarification.ask(token_question(word), near)
    return None
