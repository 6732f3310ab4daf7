"""The fail-closed check after a rule compiles: every word of the request must have been read.

A rule consumes what it uses (assets, amounts, chains, labels); keyword phrases of the compiled kind and
filler words are accounted for here. Any other word means part of the request was not understood, so the
compiler refuses rather than arm a check that ignores it ("eth above 4000 when the fed cuts rates").
"""

from __future__ import annotations

import re

from engine.agents.conditions import (
    GasPriceMetric,
    HealthFactorMetric,
    PortfolioValueMetric,
    PriceMetric,
    PriceRatioMetric,
    YieldPoolMetric,
)
from engine.agents.context import Request
from engine.agents.kinds import Kind
from engine.agents.phrases import (
    ABOVE,
    ANY_DIRECTION,
    APR,
    APY,
    BELOW,
    BORROW_SIDE,
    CHECK_DAILY,
    CHECK_HOURLY,
    DISJUNCTION_ALLOWED,
    DOWN,
    GAS,
    GAS_CONTEXT,
    HEALTH,
    HEALTH_CONTEXT,
    MOVE,
    MY_WALLET,
    NEUTRAL_LEVEL,
    PORTFOLIO,
    RATIO_WORD,
    REMIND,
    SUPPLY_SIDE,
    UP,
    WINDOW_DAY,
    WINDOW_WEEK,
    YIELD,
)
from engine.agents.results import Compiled
from engine.agents.rules_schedule import (
    DAILY,
    DAY_NAME,
    DAY_OF_MONTH,
    EVERY_DAY_NAME,
    EVERY_ORDINAL,
    FIRST_OF_MONTH,
    LAST_OF_MONTH,
    MONTHLY,
    NOON_UTC,
    TIME_OF_DAY,
    TIME_ZONE,
    WEEKLY,
)
from engine.agents.scan import Scanner
from engine.agents.vocabulary import vocabulary
from engine.intents.meaning import MEANING_WORDS, meaning_words
from engine.intents.wording import CHAT_FILLER, unstretched

# Words that carry no condition of their own in an alert or reminder request.
_FILLER_WORDS = """
    a about address after agent alert alerted alerting alerts all an and any are as at be because become becomes
    before being big by can chain check checking coin coins could create crosses crossing current currently
    did do does ever factor for from get gets getting go goes going got hard has have hey i i'm if im in into is
    it it's its just know let level like make mark market me message monitor my network new notification
    notifications notify now of on once please ping pinging pool position positions price priced prices quickly right s
    send set sharply soon spot starting suddenly tell than that the then there this to token total track trades
    trading usd value valued wallet wallets want warn watch when whenever which will with worth would yes you
    also need needs text txt dm email
    oi oy gimme buzz shout msg i'll ill we'll
    quick case i'd flag there's theres
    plan
"""
# The intent reader's chat noise too ("pls", "thx", "hey"): one list of filler for every reader.
FILLER = frozenset(_FILLER_WORDS.split()) | CHAT_FILLER
# Phrases every alert may carry: comparators, move words, "remind me".
# "Either way" phrases first: "up or down" is one phrase, not "up", an unread "or" and "down".
_ALERT_PHRASES = (ANY_DIRECTION, DISJUNCTION_ALLOWED, ABOVE, BELOW, NEUTRAL_LEVEL, UP, DOWN, MOVE, REMIND)
_SCHEDULE_PHRASES = {
    "daily": (DAILY,),
    "weekly": (WEEKLY, EVERY_DAY_NAME, DAY_NAME),
    # "the first of every month": the day phrase goes before "of every month" takes its "of".
    "monthly": (FIRST_OF_MONTH, LAST_OF_MONTH, EVERY_ORDINAL, DAY_OF_MONTH, MONTHLY),
}
_WORD = re.compile(r"[^\W_]+(?:['.,:-][^\W_]+)*")


def _accounted(result: Compiled) -> tuple[re.Pattern[str], ...]:
    if result.kind is Kind.SCHEDULE:
        # A time of day was confirmed as 12:00 UTC before a schedule compiles.
        # The cadence first: "every morning" is a cadence before "morning" is a time of day.
        return (REMIND, NOON_UTC, *_SCHEDULE_PHRASES.get(result.cadence, ()), TIME_OF_DAY, TIME_ZONE)
    checks = (CHECK_HOURLY, CHECK_DAILY, *_ALERT_PHRASES)
    metric = None if result.condition is None else result.condition.metric
    if result.kind in (Kind.AAVE_HEALTH, Kind.SPARK_HEALTH) or isinstance(metric, HealthFactorMetric):
        return (HEALTH, HEALTH_CONTEXT, *checks)
    if result.kind is Kind.YIELD or isinstance(metric, YieldPoolMetric):
        return (YIELD, APR, APY, SUPPLY_SIDE, BORROW_SIDE, *checks)
    if isinstance(metric, GasPriceMetric):
        return (GAS, GAS_CONTEXT, *checks)
    if result.kind is Kind.PORTFOLIO or isinstance(metric, PortfolioValueMetric):
        return (PORTFOLIO, MY_WALLET, WINDOW_DAY, WINDOW_WEEK, *_ALERT_PHRASES)
    if isinstance(metric, PriceRatioMetric):
        return (RATIO_WORD, *checks)
    if result.kind is Kind.PRICE or isinstance(metric, PriceMetric):
        return checks
    return ()


def unread_words(request: Request, result: Compiled) -> list[str]:
    """Words of the request that neither the rule nor the compiled kind's phrases account for."""
    probe = Scanner(request.scanner.remaining)
    for pattern in _accounted(result):
        probe.take(pattern)
    if result.kind is Kind.PRICE or (
        result.condition is not None and result.condition.metric.type == "price"
    ):
        # A chain name is harmless context for a market price ("eth on base above 4000"); other kinds
        # consume the chain they use and refuse a second one.
        probe.take_chains(bare=True)
    return [word for word in _WORD.findall(probe.remaining) if unstretched(word) not in FILLER]


# Words that change what is watched if they are not placed: directions, negations, times, conditions and
# the closed classes of engine.intents.meaning. Any other unread word is set aside and named in the note.
# "again" is left out: an alert re-arms after every crossing (contract, Events rule 6), so "when eth is
# cheap again" or "above 4000 again" says what every alert does.
_MEANING = (MEANING_WORDS - {"am", "pm", "again"}) | frozenset(
    """
    up down above below under over higher lower more less rise rises fall falls drop drops gain gains
    increase decrease hourly daily weekly monthly minute minutes hour hours day days week weeks month
    """.split()  # noqa: SIM905
)


def changes_meaning(word: str, schedule: bool = False) -> bool:
    """Whether an unread word could change the condition: a number, a closed-class word, or a name of an
    asset or a chain the rule did not use (in a reminder, a name is what it is about: "check my aave")."""
    if any(char.isdigit() for char in word):
        # A digit glued to a name by a dash is part of the name ("RP-3", "HM-2"), never an amount.
        return re.fullmatch(r"[^\W\d_]+-\d+\w*", word) is None
    lowered = word.lower()
    if lowered in _MEANING:
        return True
    if schedule:
        return False
    vocab = vocabulary()
    names = {alias.lower() for asset in vocab.assets for alias in (asset.symbol, *asset.aliases)}
    names |= {alias.lower() for aliases in vocab.chains.values() for alias in aliases}
    return lowered in names


# Words that open a condition or a deadline: words read after one that the rule did not use are a second
# condition ("eth above 4000 when the fed cuts rates", "btc above 100k by christmas").
_OPENERS = frozenset(
    {"when", "if", "once", "whenever", "unless", "until", "till", "by", "before", "after", "while"}
)


def _in_a_second_condition(text: str, word: str) -> bool:
    """Whether an unread word stands within three words after a condition or deadline opener that comes
    after the condition's own level or move (the first opener, "if eth wobbles 7%", is the condition's)."""
    levels = [
        match.start()
        for pattern in (ABOVE, BELOW, UP, DOWN, NEUTRAL_LEVEL)
        for match in pattern.finditer(text)
    ]
    numbers = [match.start() for match in re.finditer(r"\d", text)]
    start = min([*levels, *numbers], default=len(text))
    tokens = [(match.start(), match.group().strip(",.;:!?")) for match in re.finditer(r"\S+", text)]
    # "1.25 is when to start worrying": after "is", "when" names the moment, it opens no condition.
    openers = {
        at
        for at, (_, token) in enumerate(tokens)
        if token in _OPENERS
        and (at == 0 or tokens[at - 1][1] not in ("is", "was", "that's", "it's", "thats"))
    }
    return any(
        token == word
        and position > start
        and any(back in openers and tokens[back][0] > start for back in range(max(0, at - 3), at))
        for at, (position, token) in enumerate(tokens)
    )


# "per" is a quantity only before what it divides by: a number, a unit of time or a token ("per day", "per
# eth"); anywhere else it says whose rule the request follows ("per the diversification policy", "per risk
# policy RP-3").
_TIME_UNITS = r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)"


def _per_divides(text: str) -> bool:
    names = "|".join(re.escape(alias) for asset in vocabulary().assets for alias in asset.aliases)
    return re.search(rf"\bper\s+(?:\d|{_TIME_UNITS}\b|(?:{names})\b)", text) is not None


def blocking_words(text: str, unread: list[str], schedule: bool) -> list[str]:
    """The unread words of `text` that stop the request: a number, a closed-class word the reading did not
    place (read in its run, so a past time such as "last time" or "per the policy" is narration, not a
    reference or a share), a name the rule did not use, or a word inside a second condition. Every other
    unread word is open-class and set aside."""
    placed = set(meaning_words(" ".join(word.lower() for word in unread)))
    if not _per_divides(text):
        placed.discard("per")
    return [
        word
        for word in unread
        if (changes_meaning(word, schedule) and (word.lower() not in MEANING_WORDS or word.lower() in placed))
        or (len(word) > 2 and _in_a_second_condition(text, word))
    ]
