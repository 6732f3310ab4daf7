"""Keyword phrases of the plain-English compiler, grouped by what they signal."""

from __future__ import annotations

import re

from engine.agents.scan import words

# Motion verbs people put before a level ("pushes above", "tanks below", "is back under"): the level word
# after them says the side. A verb that says a direction only joins the level word of that side:
# "drops above 3000" contradicts itself and is refused (context.read_comparison), never guessed.
_EITHER_MOTION = """
    push pushes pushing pushed pop pops popping popped break breaks breaking broke goes go going went get
    gets getting got move moves moving moved trade trades trading traded head heads heading creep creeps
    creeping drift drifts drifting edge edges edging tick ticks ticking swing swings close closes closing
    closed settle settles settling stay stays staying sit sits sitting is
""".split()  # noqa: SIM905 - a word list reads and diffs better as text
_UP_MOTION = """
    rise rises rising rose climb climbs climbing climbed jump jumps jumping jumped spike spikes spiking
    surge surges surging surged soar soars soaring soared shoot shoots shooting shot rally rallies rallying
    rallied rip rips ripping ripped fly flies flying flew moon moons mooning mooned pump pumps pumping
    pumped run runs running ran
""".split()  # noqa: SIM905 - a word list reads and diffs better as text
_DOWN_MOTION = """
    fall falls falling fell drop drops dropping dropped dip dips dipping dipped slip slips slipping slipped
    sink sinks sinking sank slide slides sliding slid tank tanks tanking tanked crash crashes crashing
    crashed plunge plunges plunging plunged tumble tumbles tumbling tumbled dump dumps dumping dumped crater
    craters cratering cratered bleed bleeds bleeding bled slump slumps slumping slumped
""".split()  # noqa: SIM905 - a word list reads and diffs better as text
_UP_LEVELS = ("above", "over", "past", "beyond")
_DOWN_LEVELS = ("below", "under", "beneath")


def _motion_phrases(verbs: list[str], levels: tuple[str, ...]) -> tuple[str, ...]:
    """ "<verb> <level>", "<verb> back <level>" and "back <level>" for every pair."""
    return tuple(
        phrase
        for level in levels
        for phrase in (
            f"back {level}",
            *(f"{verb} {level}" for verb in verbs),
            *(f"{verb} back {level}" for verb in verbs),
        )
    )


# Level comparators: the value ends at or beyond a threshold.
ABOVE = words(
    *_motion_phrases(_EITHER_MOTION + _UP_MOTION, _UP_LEVELS),
    "above", "over", "exceeds", "exceed", "exceeding", "greater than", "more than", "higher than",
    "at least", "surpasses", "surpass", "tops", "breaks above", "goes above", ">=", ">",
    "climbs past", "goes past", "gets past", "breaks past", "pushes past", "moves past",
    # Chat verbs of a level taken from below: "when my holdings pass 50k", "eth reclaims 4k", "btc clears 70k".
    "pass", "passes", "passing", "clears", "clear", "reclaims", "reclaim",
    # A level that counts itself ("at or above 4000", "4000 or higher"): one side, not two conditions.
    "at or above", "or above", "or higher", "and above", "and up",
    "north of", "breaks out above", "broke out above", "breaks out past", "breakout above",
)  # fmt: skip
# A level broken with no side named is broken upwards in chat ("btc breaks 100k"); "breaks below" and
# "breaks down" name the other side and are read by BELOW and DOWN.
ABOVE = re.compile(
    ABOVE.pattern + r"|(?<![\w])(?:breaks|broke)(?:\s+through)?(?!\s+(?:below|under|beneath|down)\b)(?![\w])"
    # "btc past 100k": "past" before a level (or before the blank a consumed level leaves), never "the
    # past 24h"; normalized text has single spaces, so two in a row are a span already read.
    r"|(?<![\w])(?<!the\s)past(?=\s+\$?\d|\s{2,})(?!\s+\d+\s*(?:h|hrs?|hours?|d|days?|w|weeks?|mins?|minutes?)\b)"
)
BELOW = words(
    *_motion_phrases(_EITHER_MOTION + _DOWN_MOTION, _DOWN_LEVELS),
    "below", "under", "less than", "lower than", "beneath", "at most", "sub", "<=", "<",
    "slips under", "slips below",
    # A level fallen through is left below it ("btc falls through 60k"); "breaks through" is read upwards.
    *(f"{verb} through" for verb in _DOWN_MOTION),
    "at or below", "or below", "or lower", "and below", "and under", "south of",
)  # fmt: skip
# The plain direction words, which contradict an opposite move ("rises 10% below").
STRICT_ABOVE = words("above")
STRICT_BELOW = words("below", "under")
# A target level with no direction: "hits 4000".
NEUTRAL_LEVEL = words(
    "hits", "hit", "reaches", "reach", "touches", "touch", "crosses", "cross", "gets to", "equals",
    "near", "nears", "around", "close to", "gets close to", "approaches", "approach", "tags", "taps",
    "lands at", "trades at", "is at", "sits at", "gets near", "comes near",
)  # fmt: skip
# Directions of a move.
UP = words(
    "up", "rises", "rise", "rising", "rose", "gains", "gain", "pumps", "pump", "jumps", "jump", "climbs",
    "climb", "increases", "increase", "surges", "surge", "spikes", "spike", "moons", "grows", "goes up",
    "higher", "rallies", "rally", "rips", "rip", "ripping", "soars", "soar", "soaring", "skyrockets",
    "rockets", "shoots up", "pumped", "jumped", "climbed", "rallied", "spiked", "surged", "mooned", "risen",
    "gained", "ripped", "soared",
)  # fmt: skip
DOWN = words(
    "down", "drops", "drop", "dropping", "dropped", "falls", "fall", "falling", "fell", "dumps", "dump",
    "declines", "decline", "decreases", "decrease", "tanks", "tank", "crashes", "crash", "dips", "dip",
    "loses", "lose", "sinks", "sink", "slides", "slide", "plunges", "plunge", "lower", "goes down",
    "depegs", "depeg", "depegging", "bleeds", "bleed", "bleeding", "craters", "crater", "tumbles",
    "tumble", "plummets", "plummet", "nosedives", "nosedive", "slumps", "slump", "nukes", "nuked",
    "dumped", "tanked", "crashed", "dipped", "sank", "slid", "plunged", "declined", "fallen", "lost",
)  # fmt: skip
# A move of unstated direction or size.
MOVE = words(
    "moves", "move", "moving", "changes", "change", "swings", "swing", "a lot", "volatile", "big move"
)
# "either way": accepted as an explicit choice of both directions for portfolio moves.
ANY_DIRECTION = re.compile(r"\bany\s+\S+\s+move\b|\beither (?:way|direction)\b|\bup or down\b|\bdown or up\b")

NEGATION = re.compile(r"n't\b|\bnot\b|\bnever\b|\bunless\b|\bexcept\b|\bwithout\b|\bno longer\b")
# "A or B" joins two conditions, except in the phrases that mean "either direction".
DISJUNCTION = re.compile(r"\bor\b")
DISJUNCTION_ALLOWED = re.compile(
    r"\bup or down\b|\bdown or up\b|\brises or falls\b|\bfalls or rises\b"
    r"|\b(?:at )?or (?:above|higher|below|lower)\b"
    # "drops 15% or more": at least that size, one condition.
    r"|\bor more\b"
)

# Phase A is notify-only: a follow-on action is dropped (contract: POST /agents).
_ACTION_VERBS = (
    r"market sell|market buy|sell|buy|swap|bridge|repay|withdraw|deposit|stake|unstake|transfer|send|close|borrow|rebalance|claim|"
    r"exit|convert|lend|supply|short|long|hedge|dca|ape|unwind|liquidate|top up|add collateral|add|"
    r"take (?:some )?profits?|tp|cash out|dump|rotate|flip|throw|get out|load up|yeet|grab|scoop|pay back|pay off|"
    r"move (?:it|them|my|everything|all)|buy more|buy the dip"
)
# A verb that names a rate, not an action ("supply apy", "borrow rate").
_NOT_A_RATE = r"(?!\s+(?:rates?|apy|apr|yields?|side|cap)\b)"
# Words between a joiner and the verb ("and then also sell", "so i can bridge").
_LEAD_IN = (
    r"(?:(?:also|please|auto|automatically|immediately|go|i'll|i will|i want to|i wanna|i can|we can"
    r"|i'm gonna|im gonna|i'm going to|gonna|i'd|i would)\s+)*"
)
# Someone saying what they will do next leads into an action with no joiner ("... 8 gwei i'll rebalance").
_FIRST_PERSON = r"(?:i'll|i will|i want to|i wanna|i'm gonna|im gonna|i'm going to|i'd|i would)"
TRAILING_ACTION = re.compile(
    r"(?:(?:\band then\b|\bthen\b|\band\b|,|;|:|\?|!|&|\+|\bso(?:\s+that)?\b)\s*"
    + _LEAD_IN
    # Right after an amount and its unit ("20 percent market sell it", "8 gwei bridge").
    + r"|(?:(?<=\d)|(?<=%)|(?<=\dk)|(?<=\dm)|(?<=\dpercent)|(?<=\d\spercent)|(?<=pct)|(?<=gwei)"
    + r"|(?<=bucks)|(?<=dollars)|(?<=\dusd)|(?<=\d\susd))\s+"
    + _LEAD_IN
    + r"|\s(?="
    + _FIRST_PERSON
    + r"\s)"
    + _LEAD_IN
    + r")(?P<verb>(?:"
    + _ACTION_VERBS
    + r"))\b"
    + _NOT_A_RATE
)
LEADING_ACTION = re.compile(
    # Chat openers before the action ("ok so sell half if ...", "bot: repay 200 dai if ...").
    r"^(?:(?:hey|hi|hello|yo|ok|okay|so|gm|bot|quick|oi|please|pls|plz|can you|could you|team|all"
    r"|i'll|i will|i want to|i wanna|i'm gonna|im gonna|gonna|i'd|i would)[\s,!:.-]+)*"
    r"(?:(?:auto|automatically)\s+)?"
    r"(?P<verb>(?:"
    + _ACTION_VERBS
    + r"))\b"
    + _NOT_A_RATE
    + r"(?P<clause>.*?)\b(?P<cond>when|if|once|as soon as|whenever)\b"
)

# Families of measurable metrics.
GAS = words("gas", "gas price", "gwei", "base fee", "gas fees", "gas fee")
HEALTH = re.compile(r"\bhealth(?:\s*factor)?\b|\bhf\b|\bliquidat\w*")
YIELD = words(
    "apy", "apr", "yield", "yields", "supply rate", "borrow rate", "interest rate", "lending rate",
    "deposit rate", "supply apy", "borrow apy", "rate",
)  # fmt: skip
APR = words("apr")
APY = words("apy")
SUPPLY_SIDE = words("supply", "supplying", "deposit", "lending", "lend", "earn", "savings")
BORROW_SIDE = words("borrow", "borrowing", "borrow cost", "debt")
PORTFOLIO = words(
    "portfolio", "net worth", "holdings", "my bag", "my bags", "total balance", "wallet value",
    "wallets value", "value of my wallet", "value of my wallets", "my balance", "my balances",
    "my funds", "bag value", "bags value", "my total bag", "my total bags", "my total balance",
    "my account balance", "account balance", "my account value", "my crypto", "my crypto holdings",
    # "whole"/"entire" say all of it, which a portfolio already is.
    "my whole bag", "my whole bags", "my entire bag", "my entire bags", "my whole portfolio",
    "my entire portfolio", "my entire holdings", "my whole balance", "my entire balance",
)  # fmt: skip
# A wallet named as the whole thing watched ("lmk if my wallet falls below 20k"): its value, when no
# other metric and no asset is named ("eth in my wallet" is a price, "my wallet's health factor" health).
MY_WALLET = words(
    "my wallet", "my wallets", "my account", "my stack", "my whole wallet", "my entire wallet",
    "my whole stack", "my entire stack",
)  # fmt: skip
RATIO_WORD = words("ratio")
NEWS = words(
    "news", "tweet", "tweets", "tweeted", "announcement", "announces", "headline", "listing", "listed"
)

# Time windows of portfolio moves.
# A window may be led by "within" ("within a week"): the lead is part of the window phrase.
WINDOW_DAY = words(
    "24h", "24 h", "24 hours", "24hrs", "24 hrs", "a day", "one day", "1 day", "1d", "today", "daily"
)
WINDOW_WEEK = words("7d", "7 days", "a week", "one week", "1 week", "1w", "this week", "weekly", "seven days")
WINDOW_DAY = re.compile(r"(?:\bwithin\s+)?(?:" + WINDOW_DAY.pattern + ")")
WINDOW_WEEK = re.compile(r"(?:\bwithin\s+)?(?:" + WINDOW_WEEK.pattern + ")")
# "1m" is left out: in an amount it means a million.
WINDOW_OTHER = re.compile(r"\b\d+\s*(?:h|hrs?|hours?|d|days?|w|weeks?|mins?|minutes?|months?)\b")

# A time window on a price move; price moves are measured from a reference price instead.
PRICE_WINDOW = re.compile(
    r"\b(?:in|within|over|during)\s+(?:the\s+)?(?:last\s+|past\s+|next\s+)?(?:an?\s+|one\s+|\d+\s*)?"
    r"(?:h|hrs?|hours?|d|days?|w|weeks?|mins?|minutes?|months?)\b"
    r"|\b\d+\s*(?:h|hrs?|hours?|d|days?|w|weeks?|mins?|minutes?)\b|\btoday\b|\bthis week\b|\bintraday\b"
)
# "from here", "from now": the move is measured from the price when the agent starts.
FROM_STARTING_PRICE = words(
    "from the starting price",
    "from here",
    "from now",
    "from current price",
    "from the current price",
    "from current levels",
    "from today's price",
    "from the current level",
)

# Cadence words that turn an alert into a condition checked at that cadence.
CHECK_HOURLY = words("hourly", "every hour", "each hour", "once an hour")
CHECK_DAILY = words("daily", "every day", "each day", "once a day")

REMIND = words("remind", "reminder", "reminders", "ping me", "nudge me")
