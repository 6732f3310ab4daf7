"""Keyword phrases of the plain-English compiler, grouped by what they signal."""

from __future__ import annotations

import re

from engine.agents.scan import words
from engine.intents.vocabulary import VERBS
from engine.intents.wording import CHAT_FILLER

# Motion verbs people put before a level ("pushes above", "tanks below", "is back under"): the level word
# after them says the side. A verb that says a direction only joins the level word of that side:
# "drops above 3000" contradicts itself and is refused (context.read_comparison), never guessed.
_EITHER_MOTION = """
    push pushes pushing pushed pop pops popping popped break breaks breaking broke goes go going went get
    gets getting got move moves moving moved trade trades trading traded head heads heading creep creeps
    creeping drift drifts drifting edge edges edging tick ticks ticking swing swings close closes closing
    closed settle settles settling stay stays staying sit sits sitting is print prints printing printed
    hold holds holding held pass passes passing passed
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
    craters cratering cratered bleed bleeds bleeding bled slump slumps slumping slumped crack cracks cracking
    cracked
""".split()  # noqa: SIM905 - a word list reads and diffs better as text
_UP_LEVELS = ("above", "over", "past", "beyond", "north of")
_DOWN_LEVELS = ("below", "under", "beneath", "south of")
# Two-word motions that say the side by themselves ("breaks down below 3k", "gas cools off under 8 gwei").
_DOWN_MOTION_PAIRS = [
    f"{verb} {particle}"
    for verb in ("breaks", "broke", "breaking", "cools", "cooling", "cooled", "calms", "settles")
    for particle in ("down", "off")
]


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
    # A level gone through on the way up ("eth rips through 3,500"), as "falls through" is on the way down;
    # forcing verbs go through upwards as "breaks through" does ("pushes through", "punches through").
    *(f"{verb} through" for verb in _UP_MOTION),
    *(f"{verb} through" for verb in ("pushes", "pushed", "punches", "punched", "pops", "popped", "blasts")),
    "breaks out over", "broke out over", "breaks out past", "broke out past",
    "above", "over", "exceeds", "exceed", "exceeding", "greater than", "more than", "higher than",
    "at least", "surpasses", "surpass", "tops", "breaks above", "goes above", ">=", ">",
    "climbs past", "goes past", "gets past", "breaks past", "pushes past", "moves past",
    # Chat verbs of a level taken from below: "when my holdings pass 50k", "eth reclaims 4k", "btc clears 70k".
    "clears", "clear", "reclaims", "reclaim",
    # A level that counts itself ("at or above 4000", "4000 or higher"): one side, not two conditions.
    "at or above", "or above", "or higher", "and above", "and up",
    "north of", "breaks out above", "broke out above", "breaks out past", "breakout above",
    "to the upside", "pricier than", "more expensive than",
    # Comparatives as people write them, native or not ("bigger than", "more big than", "more of").
    "bigger than", "larger than", "more big than", "more bigger than", "more higher than", "big than",
    "more high than", "becomes bigger than", "becomes greater than", "becomes higher than", "more of",
    "greater", "is more than",
    # A level returned to from below ("when SOL is back up at 180", "back up to 4k").
    "back up at", "back up to", "is back up at", "gets back up to", "goes back up to",
)  # fmt: skip
# A level broken with no side named is broken upwards in chat ("btc breaks 100k"); "breaks below" and
# "breaks down" name the other side and are read by BELOW and DOWN.
ABOVE = re.compile(
    ABOVE.pattern + r"|(?<![\w])(?:breaks|broke)(?:\s+through)?(?!\s+(?:below|under|beneath|down)\b)(?![\w])"
    # "when my holdings pass 50k" is a level taken from below; "pass under 50 000" takes the level word's side.
    r"|(?<![\w])pass(?:es|ing|ed)?(?!\s+(?:below|under|beneath|south)\b)(?![\w])"
    # "btc past 100k": "past" before a level (or before the blank a consumed level leaves), never "the
    # past 24h"; normalized text has single spaces, so two in a row are a span already read.
    # A level flipped to support is held from above, one flipped to resistance from below ("flips 3k to
    # support"); a bare "flips 3k" names no side and is asked (NEUTRAL_LEVEL).
    r"|(?<![\w])flip(?:s|ped|ping)?\s+(?:\$?[\d.,]+k?\s+)?(?:in)?to\s+support(?![\w])"
    r"|(?<![\w])(?<!the\s)past(?=\s+\$?\d|\s{2,})(?!\s+\d+\s*(?:h|hrs?|hours?|d|days?|w|weeks?|mins?|minutes?)\b)"
)
BELOW = words(
    *_motion_phrases(_EITHER_MOTION + _DOWN_MOTION, _DOWN_LEVELS),
    "below", "under", "less than", "lower than", "beneath", "at most", "sub", "<=", "<",
    "slips under", "slips below",
    # A level fallen through is left below it ("btc falls through 60k"); "breaks through" is read upwards.
    *(f"{verb} through" for verb in _DOWN_MOTION),
    "at or below", "or below", "or lower", "and below", "and under", "south of", "to the downside",
    # Said of a price or a fee: "gas gets cheaper than 10 gwei".
    "cheaper than",
    # Comparatives as people write them ("smaller than", "less of", "coming below", "stay less of").
    "smaller than", "less of", "more small than", "more lower than", "small than", "becomes smaller than",
    "becomes less than", "becomes lower than", "coming below", "coming under", "cracks", "cracked",
    "back down at", "back down to", "is back down at", "gets back down to", "goes back down to",
    *_motion_phrases(_DOWN_MOTION_PAIRS, _DOWN_LEVELS),
    *(f"{verb} through" for verb in _DOWN_MOTION_PAIRS),
)  # fmt: skip
BELOW = re.compile(
    BELOW.pattern + r"|(?<![\w])flip(?:s|ped|ping)?\s+(?:\$?[\d.,]+k?\s+)?(?:in)?to\s+resistance(?![\w])"
)
# The plain direction words, which contradict an opposite move ("rises 10% below").
STRICT_ABOVE = words("above")
STRICT_BELOW = words("below", "under")
# A level the price moves to, with no side named: "hits 4000", "reaches 2500", "goes to 2500", "crosses
# 3500". The price is on one side of the level now, so moving to it is crossing it from that side: the side
# is read from the price at creation when one is known (rules_common.level_or_clarify), else asked.
ARRIVAL = re.compile(
    words(
        "hits",
        "hit",
        "reaches",
        "reach",
        "touches",
        "touch",
        "crosses",
        "cross",
        "gets to",
        "tags",
        "taps",
        "lands at",
        # Chart words for a level met again ("retests 3k").
        "retests",
        "retest",
        "retesting",
        # Going through a level without a verb that says which way ("slices through 3k").
        "slices through",
        "sliced through",
        "cuts through",
        "cut through",
        "goes through",
        "went through",
    ).pattern  # fmt: skip
    # "goes to 2500", and "goes to" cut off at the end: the level moved to, or the one left to ask.
    + r"|(?<![\w])(?:goes|go|comes)\s+to(?=\s+\$?\d|\s*(?:\||$))"
)
# A level named with no side and no move to it: a state ("is at 200", "trades at", "prints 12.5"),
# nearness ("near 4000", "around 4000"), a turn ("bounces off 3k", "rejects at 3k") or a bare flip ("flips
# 180"); the side is always asked, as it is for a level with no word at all ("bnb 800 alert").
NEAR_OR_TURN = words(
    "equals", "is at", "sits at", "trades at", "prints", "printing",
    "near", "nears", "around", "close to", "gets close to", "approaches", "approach", "gets near", "comes near",
    "flips",
    "bounces off", "bounce off", "bounces at", "bounced off", "rejects at", "rejected at", "gets rejected at",
)  # fmt: skip
# Every level word with no side.
NEUTRAL_LEVEL = re.compile(f"{ARRIVAL.pattern}|{NEAR_OR_TURN.pattern}")
# Directions of a move.
UP = words(
    "up", "rises", "rise", "rising", "rose", "gains", "gain", "pumps", "pump", "jumps", "jump", "climbs",
    "climb", "increases", "increase", "surges", "surge", "spikes", "spike", "moons", "grows", "goes up",
    "higher", "rallies", "rally", "rips", "rip", "ripping", "soars", "soar", "soaring", "skyrockets",
    "rockets", "shoots up", "pumped", "jumped", "climbed", "rallied", "spiked", "surged", "mooned", "risen",
    "gained", "ripped", "soared",
    # "is pumping 10%": the move under way, the same side.
    "pumping", "jumping", "climbing", "surging", "spiking", "mooning", "rallying", "gaining", "rocketing",
)  # fmt: skip
DOWN = words(
    "down", "drops", "drop", "dropping", "dropped", "falls", "fall", "falling", "fell", "dumps", "dump",
    "declines", "decline", "decreases", "decrease", "tanks", "tank", "crashes", "crash", "dips", "dip",
    "loses", "lose", "sinks", "sink", "slides", "slide", "plunges", "plunge", "lower", "goes down",
    "depegs", "depeg", "depegging", "bleeds", "bleed", "bleeding", "craters", "crater", "tumbles",
    "tumble", "plummets", "plummet", "nosedives", "nosedive", "slumps", "slump", "nukes", "nuked",
    "dumped", "tanked", "crashed", "dipped", "sank", "slid", "plunged", "declined", "fallen", "lost",
    "dumping", "tanking", "crashing", "dipping", "sinking", "sliding", "plunging", "tumbling", "slumping",
    "cratering", "plummeting", "nosediving", "declining", "sheds", "shed", "shedding",
    # A chart's break of a support, and a fall from a peak ("if it breaks down", "a 15% drawdown").
    "breaks down", "broke down", "breaking down", "drawdown", "drawdowns",
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
    # "drops 15% or more": at least that size, one condition; "above 1.02 or so": an approximation.
    r"|\bor more\b|\bor so\b"
)

# Phase A is notify-only: a follow-on action is dropped (contract: POST /agents).
_ACTION_VERBS = (
    r"market sell|market buy|sell|buy|swap|bridge|repay|withdraw|deposit|stake|unstake|transfer|close|borrow|rebalance|claim|"
    # "send me a notification", "send an alert" ask to be told: no action.
    r"send(?!\s+(?:me|us|an?\s+(?:alert|notification|ping|message|msg|text|dm|email|push|note|reminder)\b"
    r"|(?:alerts?|notifications?|pings?|messages?|reminders?)\b))|"
    r"exit|convert|lend|supply|short|long|hedge|dca|ape|unwind|liquidate|top up|add collateral|add|"
    r"take (?:some )?profits?|tp|cash out|dump|rotate|flip|throw|get out|load up|yeet|grab|scoop|pay back|pay off|"
    r"move (?:it|them|my|everything|all)|buy more|buy the dip|"
    # Trading slang for the same deeds ("trim", "scale out", "de-risk", "cop some", "take some off the table").
    # Words that are also nouns ("my stack", "bag value") are verbs only with what they take.
    r"trim|scale (?:out|in)|de-?risk|deleverage|stack (?:more|some|up)|cop (?:some|more|it)|"
    r"bag (?:more|some|it)|ladder (?:in|out)|pay down|take (?:some |it |them )?off|"
    r"buy back|go (?:to|into) (?:stables|stablecoins|cash|usdc|usdt|dai)|i'm out|im out|i want out|"
    r"buying|selling|swapping|bridging|repaying|shorting|stacking|"
    # A deed readied for signing ("queue a sell of 2 eth", "attach a 2k dai repay", "prepare the swap").
    r"(?:queue|prepare|draft|attach|pre-?fill|stage)(?=\s+(?:up\s+)?(?:a|an|the|my)\b)|"
    # Opening a leveraged trade ("open 10x leverage", "open a long"); "open interest" is a market figure.
    r"open(?!\s+interest\b)|"
    # Any deed verb the intent reader plans with (its closed class), taking an amount or a holding: "move 5k
    # over from aave", "put 500 usdc in aave", "pay 200 dai back". Alone such a verb may be a market word
    # ("moves 10%", "drop below"), so it is a deed only with what it takes, and never with a percent.
    r"(?:" + "|".join(sorted(VERBS, key=len, reverse=True)) + r")(?=\s+(?:\$?\d[\d,.]*\s?(?:k|m)?"
    r"(?![\d.,]*\s?(?:%|percent|pct))\b|it\b|them\b|my\b|all\b|everything\b|half\b|some\b|the\s+rest\b))"
)
# A verb that names a rate, not an action ("supply apy", "borrow rate").
_NOT_A_RATE = r"(?!\s+(?:rates?|apy|apr|yields?|side|cap)\b)"
# Words between a joiner and the verb ("and then also sell", "so i can bridge").
# Someone saying what they will do next leads into an action with no joiner ("... 8 gwei i'll rebalance",
# "... 10% imma buy", "... 100k time to take profits").
_FIRST_PERSON = (
    r"(?:i'll|ill|i will|i want to|i wanna|i'm gonna|im gonna|i'm going to|i'd|i would|imma|ima|we'll|we will"
    r"|let's|lets|i might|i may|i should|i'm|im|time to|it's time to|its time to|i shall|we shall)"
)
# Words between a joiner and the verb ("and then also sell", "so i can bridge", "then i buy"); consumed with
# the joiner, never handed on as part of the action.
# Hedges and plans before the deed ("probably take profit", "planning to buy", "need to repay").
_INTENDING = (
    r"probably|prob|maybe|likely|definitely|def|just|would|should|could|need to|have to|gotta|wanna"
    r"|planning to|plan to|thinking of|thinking about|ready to|going to|to"
)
_LEAD_IN = (
    # The deed stated as a plan's step ("the prescribed action is to swap", "next step is to repay").
    r"(?:(?:the\s+)?(?:[a-z]+\s+)?(?:action|plan|step|remedy|response)\s+(?:is|will\s+be)\s+to\s+)?"
    r"(?:(?:also|please|auto|automatically|immediately|go|i can|we can|gonna|will|might|be|i|we|"
    + _INTENDING
    + "|"
    + _FIRST_PERSON[3:-1]
    + r")\s+)*"
)
TRAILING_ACTION = re.compile(
    r"(?:(?:\band then\b|\bthen\b|\band\b|,|;|:|\?|!|&|\+|=|\bso(?:\s+that)?\b)\s*"
    + _LEAD_IN
    # Right after an amount and its unit ("20 percent market sell it", "8 gwei bridge").
    + r"|(?:(?<=\d)|(?<=%)|(?<=\dk)|(?<=\dm)|(?<=\dpercent)|(?<=\d\spercent)|(?<=pct)|(?<=gwei)"
    + r"|(?<=bucks)|(?<=dollars)|(?<=\dusd)|(?<=\d\susd)"
    # ... or after the reference or window that ends a move ("drops 10% from here buy more").
    + r"|(?<=from\shere)|(?<=from\snow)|(?<=hours)|(?<=\dh)|(?<=\shrs)|(?<=a\sday)|(?<=a\sweek)"
    # ... or after the level flipped that ends a condition ("flips 3k to support take profit").
    + r"|(?<=to\ssupport)|(?<=to\sresistance)|(?<=upside)|(?<=downside))\s+"
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
# Chat openers before a leading action ("ok so sell half if ...", "bot: repay 200 dai if ...", "hiya, 🙂 ape
# in when ..."): the shared chat filler, asks, first-person lead-ins and emoji.
_OPENERS = sorted(
    CHAT_FILLER
    | {"quick", "team", "all", "everyone", "greetings", "can you", "could you", "auto", "automatically"}
    | set(_INTENDING.split("|"))
    | set(_FIRST_PERSON[3:-1].split("|")),
    key=len,
    reverse=True,
)
LEADING_ACTION = re.compile(
    r"^\s*(?:(?:"
    + "|".join(re.escape(word) for word in _OPENERS)
    + r")(?![\w'])[\s,!:.;-]*|[^\w\s$]+\s*)*"
    + r"(?P<verb>(?:"
    + _ACTION_VERBS
    + r"))\b"
    + _NOT_A_RATE
    + r"(?P<clause>.*?)\b(?P<cond>when|if|once|as soon as|whenever)\b"
)

# A condition inside a follow-on action that is the watched one ("sell it if that happens", "open a long
# when it triggers"): it says when the deed follows, and is no second condition.
SAME_CONDITION = re.compile(
    r"\s*\b(?:if|when|once|as soon as)\s+(?:it|that|this)\s+(?:happens|triggers|fires|goes off|does|occurs|"
    r"hits|is triggered|gets triggered)\b(?=\s*(?:[.,;!?]|$))"
)

# Families of measurable metrics.
GAS = re.compile(
    words("gas", "gas price", "gwei", "base fee", "gas fees", "gas fee").pattern
    # What a chain charges to send a transaction, in other words ("network fees", "the fees on the Ethereum
    # network", "tx fees").
    + r"|(?<![\w])(?:network|transaction|tx|txn)\s+fees?(?![\w])|(?<![\w])fees?\s+on\s+(?:the\s+)?[a-z]+"
    r"(?:\s+(?:network|chain|mainnet))?(?![\w])"
)
# The fee's own name, whose "base" is no chain ("base fee on mainnet below 8 gwei").
BASE_FEE = words("base fee", "base fees")
HEALTH = re.compile(r"\bhealth(?:\s*factor)?\b|\bhf\b|\bliquidat\w*")
# Words a health alert may carry that name no condition of their own ("my aave loan on base is at risk");
# read only once the request is a health alert, so they never make one.
HEALTH_CONTEXT = words(
    "loan", "loans", "at risk", "risk", "risky", "danger zone", "in danger", "danger", "dangerous"
)
# How people say a loan nears liquidation ("my Spark loan becomes risky", "her Aave position is in
# danger"): beside a lending protocol's name, a health alert whose threshold is read or asked.
LOAN_AT_RISK = words("risky", "at risk", "in danger", "danger zone", "dangerous", "getting risky")
# "gas is cheap (under 10 gwei)": said of a gas level only.
GAS_CONTEXT = words("cheap", "cheaper")
YIELD = words(
    "apy", "apr", "yield", "yields", "supply rate", "borrow rate", "interest rate", "lending rate",
    "deposit rate", "supply apy", "borrow apy", "rate", "interest",
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
    # "my port" is chat for my portfolio.
    "my port", "my whole port",
    # "if your total drops below $25,000": an advisor's words for the portfolio's value.
    "my total", "your total", "total value", "total portfolio", "my total value",
    # "pf -20% 7d": trading chat's portfolio.
    "pf",
)  # fmt: skip
# Whose holdings, as people say it for themselves or for someone they ask for ("his crypto", "their
# savings", "me whole stash", "our treasury"), and what they call them.
_OWNER = r"(?:my|me|his|her|their|our|your)"
_HELD = (
    r"(?:bags?|crypto(?:\s+holdings)?|stash|savings|funds|balances?|holdings|portfolio|port|treasury"
    r"|total(?:\s+(?:value|balance))?|account\s+(?:balance|value)|net\s+worth)"
)
PORTFOLIO = re.compile(
    # "total treasury value": what a treasury holds, as a desk says it.
    PORTFOLIO.pattern + r"|(?<![\w])(?:total\s+)?treasury\s+value(?![\w])"
)
# A wallet named as the whole thing watched ("lmk if my wallet falls below 20k"): its value, when no
# other metric and no asset is named ("eth in my wallet" is a price, "my wallet's health factor" health).
MY_WALLET = re.compile(
    # "my wallet", "his account", "the shop wallet", "our treasury wallet", "my whole stack", and what someone
    # holds ("his crypto", "my savings", "me whole stash"): beside an asset, that asset ("my savings in
    # USDC"); alone, the portfolio.
    rf"(?<![\w])(?:{_OWNER}|the)(?:\s+(?:whole|entire))?(?:\s+[a-z]+)?\s+wallets?(?![\w])"
    rf"|(?<![\w]){_OWNER}(?:\s+(?:whole|entire))?\s+(?:account|stack)(?![\w])"
    rf"|(?<![\w]){_OWNER}(?:\s+(?:whole|entire|total|overall|combined))?\s+{_HELD}(?![\w])"
)
RATIO_WORD = words("ratio")
NEWS = words(
    "news", "tweet", "tweets", "tweeted", "announcement", "announces", "headline", "listing", "listed"
)

# Time windows of portfolio moves, with what leads into them ("within 24h", "over the last 24 hours", "in
# a 24 hour window", "over the week"): the whole phrase is the window.
_WINDOW_PREP = r"(?<![\w])(?:(?:within|over|in|during|for)\s+)?"
_WINDOW_SPAN = r"(?:the\s+)?(?:(?:last|past|next)\s+)?"
_WINDOW_TAIL = r"(?:\s+(?:period|window|span|stretch))?(?![\w])"


def _window(count: str, unit: str, words_alone: str) -> re.Pattern[str]:
    """ "<prep> the last 24 hours", "a 24h window", "one day", "the day", or a word alone ("daily")."""
    return re.compile(
        _WINDOW_PREP
        + r"(?:"
        + _WINDOW_SPAN
        + r"(?:(?:a|one|1)\s+)?"
        + count
        + r"|"
        + _WINDOW_SPAN
        + r"(?:a|one|1)\s+"
        + unit
        + r"|the\s+(?:(?:last|past|next)\s+)?"
        + unit
        + r"|(?:last|past|next)\s+"
        + unit
        + r"|"
        + words_alone
        + r")"
        + _WINDOW_TAIL
    )


WINDOW_DAY = _window(r"24\s*-?\s*(?:h|hrs?|hours?)", "day", r"1d|today|daily")
WINDOW_WEEK = _window(r"(?:7|seven)\s*-?\s*(?:d|days?)", "week", r"1w|this\s+week|weekly")
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
