"""The English the parser reads: verbs, amount words, prepositions, pronouns and filler.

Only words of the language live here; chains, tokens and protocol deployments come from the registry.
"""

from __future__ import annotations

from typing import Final

# Verbs -> the action they ask for. Several verbs are settled later by context (see reader.py):
# send/move/transfer become a bridge when they cross chains, add/remove an lp action near "liquidity".
VERBS: Final[dict[str, str]] = {
    "send": "transfer",
    "transfer": "transfer",
    "pay": "transfer",
    "give": "transfer",
    "tip": "transfer",
    "venmo": "transfer",
    "move": "transfer",
    "wire": "transfer",
    # Payment verbs of treasuries and offices ("disburse 4 ETH to the committee", "remit 500 usdc").
    "disburse": "transfer",
    "remit": "transfer",
    "reimburse": "transfer",
    "fund": "transfer",
    "refill": "transfer",
    "replenish": "transfer",
    "shoot": "transfer",
    "carry": "transfer",
    "shift": "transfer",
    "sweep": "sweep",
    "consolidate": "sweep",
    "bridge": "bridge",
    "port": "bridge",
    "hop": "bridge",
    "ship": "transfer",
    "xfer": "transfer",
    "drop": "transfer",
    "bring": "transfer",
    "teleport": "bridge",
    "relay": "bridge",
    "deposit": "deposit",
    "dep": "deposit",
    "supply": "deposit",
    "lend": "deposit",
    "put": "swap",
    "park": "swap",
    "add": "deposit",
    "invest": "deposit",
    "withdraw": "withdraw",
    "redeem": "withdraw",
    "remove": "withdraw",
    "pull": "withdraw",
    "exit": "withdraw",
    "close": "withdraw",
    "stake": "stake",
    "restake": "stake",
    "unstake": "unstake",
    "claim": "claim",
    "harvest": "claim",
    "collect": "claim",
    "approve": "approve",
    "allow": "approve",
    "authorize": "approve",
    "authorise": "approve",
    "swap": "swap",
    "swp": "swap",
    "wrap": "swap",
    "unwrap": "swap",
    "trade": "swap",
    "convert": "swap",
    "exchange": "swap",
    "sell": "swap",
    "buy": "swap",
    "dump": "swap",
    "change": "swap",
    "turn": "swap",
    "flip": "swap",
    "rotate": "swap",
    "offload": "swap",
    "unload": "swap",
    "ape": "swap",
    "throw": "swap",
    "yeet": "swap",
    "chuck": "swap",
    "stick": "swap",
    "yolo": "swap",
    "smash": "swap",
    "fomo": "swap",
    "zap": "swap",
    "liquidate": "swap",
    "spend": "swap",
    "get": "swap",
    "grab": "swap",
    "snag": "swap",
    "scoop": "swap",
    "purchase": "swap",
    "load": "swap",
    "gimme": "swap",
    "stock": "swap",
    "stack": "swap",
    "acquire": "swap",
    "bag": "swap",
    "cop": "swap",
    "borrow": "borrow",
    "repay": "repay",
    "lp": "lp-add",
    "provide": "lp-add",
}

# Verbs that name what is received, not what is spent ("buy eth with usdc", "get me some eth").
BUY_VERBS: Final[frozenset[str]] = frozenset(
    {"buy", "get", "gimme", "grab", "snag", "scoop", "purchase", "acquire", "load", "bag", "cop", "stack"}
)

# Verbs that say "put this into that": a swap into an asset, a deposit into a protocol, a bridge to a chain
# ("ape 300 usdc into eth", "throw it into aave"); settled by what follows them (see verbs.py).
TARGET_VERBS: Final[frozenset[str]] = frozenset(
    {"ape", "throw", "yeet", "yolo", "chuck", "put", "park", "stick", "smash", "fomo", "zap"}
)

# Two-word verbs, read before single words ("pay back" is a repayment, not a payment). The action is the
# first guess; verbs.py settles "cash out" and "exit" by what they name.
PHRASAL_VERBS: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("pay", "back"): ("repay", "pay back"),
    ("top", "up"): ("transfer", "top up"),
    ("pay", "off"): ("repay", "pay off"),
    ("pay", "down"): ("repay", "pay down"),
    ("take", "out"): ("withdraw", "take out"),
    ("pull", "out"): ("withdraw", "pull out"),
    ("cash", "out"): ("swap", "cash out"),
    ("load", "up"): ("swap", "buy"),
    ("stock", "up"): ("swap", "buy"),
    ("pick", "up"): ("swap", "buy"),
    ("scoop", "up"): ("swap", "buy"),
    ("market", "buy"): ("swap", "buy"),
    ("market", "sell"): ("swap", "sell"),
    ("sell", "off"): ("swap", "sell"),
    ("get", "out"): ("withdraw", "exit"),
    ("take", "profit"): ("swap", "cash out"),
    ("take", "profits"): ("swap", "cash out"),
    ("earn", "yield"): ("deposit", "earn yield"),
    ("earn", "interest"): ("deposit", "earn interest"),
    ("earn", "on"): ("deposit", "earn on"),
    ("bail", "out"): ("swap", "cash out"),
    ("full", "port"): ("swap", "ape"),
}

# Chat names of a chain the registry does not list as aliases ("L1 ethereum", "bridge 80 dai L1 to base").
CHAIN_NICKNAMES: Final[dict[str, str]] = {"l1": "ethereum"}

# Nouns that turn add/provide/remove/collect/claim into liquidity-position actions.
LIQUIDITY_WORDS: Final[frozenset[str]] = frozenset({"liquidity", "liq", "lp", "pool", "position", "range"})
# Fee words name a position only beside a claim or collect ("collect the fees on my eth/usdc pool").
FEE_WORDS: Final[frozenset[str]] = frozenset({"fees", "fee"})

# Words that make send/move/transfer a sweep of the whole wallet when no asset is named.
EVERYTHING_WORDS: Final[frozenset[str]] = frozenset(
    {"everything", "funds", "assets", "tokens", "holdings", "balances", "portfolio", "stuff", "bags"}
)

# Amount words meaning "the whole balance" (kept as the literal `max`).
MAX_WORDS: Final[frozenset[str]] = frozenset(
    {"all", "everything", "max", "maximum", "entire", "whole", "full", "fully", "completely", "entirely"}
    | {"unlimited", "infinite"}
)

# Words for "%" ("50 percent of my eth").
PERCENT_WORDS: Final[frozenset[str]] = frozenset({"percent", "pct", "per cent"})

# Words that leave part of the whole balance behind: "all but 100", "everything except 0.1 for gas".
ALL_BUT_WORDS: Final[frozenset[str]] = frozenset(
    {"but", "except", "minus", "save", "less", "leaving", "leave", "keep", "keeping"}
)

# Words that give every payee named the amount said ("15 usdt each to A and B").
EACH_WORDS: Final[frozenset[str]] = frozenset({"each", "apiece", "both"})
# Words that divide the amount said among the payees named ("split 900 usdc evenly between A, B and C").
SPLIT_WORDS: Final[frozenset[str]] = frozenset(
    {"split", "divide", "divided", "evenly", "equally", "between", "among", "amongst"}
)

# Words that make an amount a number of US dollars rather than of tokens.
USD_WORDS: Final[frozenset[str]] = frozenset({"usd", "dollar", "dollars", "bucks", "buck"})

# Protocol names and the nicknames users type -> the registry's protocol name.
PROTOCOL_ALIASES: Final[dict[str, str]] = {
    "aave": "aave",
    "aavev3": "aave",
    "spark": "spark",
    "sparklend": "spark",
    "lido": "lido",
    "uniswap": "uniswap",
    "uni": "uniswap",
    "univ3": "uniswap",
    "across": "across",
    "cctp": "cctp",
    "circle": "cctp",
}

# Prepositions and the slot role of the chain or protocol that follows them.
FROM_WORDS: Final[frozenset[str]] = frozenset({"from", "off", "out"})
TO_WORDS: Final[frozenset[str]] = frozenset({"to", "into", "onto", "towards", "toward", "over"})
ON_WORDS: Final[frozenset[str]] = frozenset({"on", "in", "at", "via", "using", "through", "thru"})
# "with" introduces an asset or a protocol ("lp it with eth", "stake with lido"), never a chain.
WITH_WORDS: Final[frozenset[str]] = frozenset({"with", "w"})
FOR_WORDS: Final[frozenset[str]] = frozenset({"for"})

# Multiples of an amount said before ("double it").
MULTIPLES: Final[dict[str, int]] = {
    "double": 2,
    "twice": 2,
    "doubled": 2,
    "triple": 3,
    "thrice": 3,
    "tripled": 3,
    "quadruple": 4,
}
# Words that refer to the previous step's output ("deposit it", "bridge the proceeds").
PRONOUNS: Final[frozenset[str]] = frozenset({"it", "them", "that", "those", "proceeds", "output", "result"})

# Words that join steps of one request.
STEP_JOINERS: Final[frozenset[str]] = frozenset(
    {"and", "then", "after", "afterwards", "afterward", "next", "finally", "also", "plus", "followed"}
    | {"secondly", "thirdly", "lastly"}
)

# Words of follow-up turns that reuse the previous request ("do the same on arbitrum", "same but 50").
FOLLOW_UP_WORDS: Final[frozenset[str]] = frozenset({"same", "again", "instead", "repeat", "redo"})

# Things the service cannot do, with the reason the refusal gives.
UNSUPPORTED: Final[dict[str, str]] = {
    "nft": "NFTs are not supported",
    "nfts": "NFTs are not supported",
    "leverage": "leveraged trading is not supported",
    "leveraged": "leveraged trading is not supported",
    "short": "short positions are not supported",
    "shorting": "short positions are not supported",
    "perp": "perpetual futures are not supported",
    "perps": "perpetual futures are not supported",
    "perpetual": "perpetual futures are not supported",
    "futures": "futures are not supported",
    "options": "options trading is not supported",
    "margin": "margin trading is not supported",
    "mint": "minting is not supported",
    "dca": "recurring purchases are not supported",
    "recurring": "recurring purchases are not supported",
    "airdrop": "airdrop farming is not supported",
}

# Common English words that are never typo-corrected into a vocabulary word ("more" is not "move",
# "case" is not "base", "take" is not "stake").
PLAIN_WORDS: Final[frozenset[str]] = frozenset(
    """
    a an the my me mine our i im i'm we you your please pls plz can could would will want wanna like
    need let lets let's do does did just now some any of and or then than but so if as is are be been
    this these those that there here what which who how much many more most less few make made take its own
    took get got give gave go going want wants need needs also too very really case cases into onto
    upon over under about above below after before back down up out off new old other another next
    last first second time times day days week all both each every one ones some same
    thing things way ways based have has had having keep kept hold held use used using ok okay
    yes no not dont don't yo hey hi gm gn thanks thank thx ty sir bro fam ser anon lol lmao
    land lands landed loan loans debt wallet wallets address account balance balances money cash coin coins token tokens funds
    position positions yield rewards reward interest pool pools fees fee liquidity
    stable stables stablecoin stablecoins native gas amount total worth value price
    chain chains network networks layer side rest left rate rates best top
    sure want maybe quickly fast asap right now today tomorrow later soon limit stop order orders loss
    trailing check checks
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)

# The shortest word the typo tolerance corrects (brief: edit distance 1 on words of 4+ letters).
TYPO_MIN_LENGTH: Final = 4


def prep_role(word: str) -> str | None:
    """The role a preposition gives the words after it: from, to, on, for or with (None for others)."""
    for role, words in (
        ("from", FROM_WORDS),
        ("to", TO_WORDS),
        ("on", ON_WORDS),
        ("for", FOR_WORDS),
        ("with", WITH_WORDS),
    ):
        if word in words:
            return role
    return None


# Past forms of the verbs that are not the verb plus "-ed" ("sent", "sold").
_IRREGULAR_PAST: Final[dict[str, str]] = {
    "sent": "send",
    "sold": "sell",
    "bought": "buy",
    "paid": "pay",
    "repaid": "repay",
    "withdrew": "withdraw",
    "withdrawn": "withdraw",
    "lent": "lend",
    "gave": "give",
    "threw": "throw",
    "thrown": "throw",
    "swept": "sweep",
    "exited": "exit",
}


def past_of(word: str) -> str | None:
    """The verb a past form is made of ("sent" -> send, "swapped" -> swap, "supplied" -> supply), or None.
    A request that only says what was done ("i sent 5 usdc to ...") asks for nothing to be done."""
    if word in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[word]
    if not word.endswith("ed") or len(word) < 5:
        return None
    stem = word[:-2]
    candidates = (
        stem,
        word[:-1],
        stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else "",
        stem[:-1] + "y",
    )
    return next((candidate for candidate in candidates if candidate in VERBS), None)


# The tokens a protocol takes for an action when it takes only some ("stake usdc with lido" is refused, and
# "stake 2 with lido" can only mean ETH).
SERVED_ASSETS: Final[dict[tuple[str, str], frozenset[str]]] = {
    ("lido", "stake"): frozenset({"ETH"}),
    ("lido", "unstake"): frozenset({"stETH", "ETH"}),
}
