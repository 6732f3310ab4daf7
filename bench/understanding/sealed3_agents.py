"""The third sealed set's /agents templates: alerts as typed in chat apps.

A row compiles (kind and fields stated) only when the words name the asset or metric, the level or move and
its side; a follow-on action compiles the watch and must be reported dropped. Without a side, or with a
metric whose chain is left open, the right answer is a question; things no agent can measure are
unwatchable.
"""

from __future__ import annotations

import random

from bench.understanding.sealed3_forms import Row

COINS = {
    "eth": "ethereum",
    "ETH": "ethereum",
    "btc": "bitcoin",
    "BTC": "bitcoin",
    "sol": "solana",
    "$sol": "solana",
}
LEVELS = {
    "ethereum": (
        ("3k", "3000"),
        ("four thousand", "4000"),
        ("2,750", "2750"),
        ("3.5k", "3500"),
        ("4200", "4200"),
    ),
    "bitcoin": (("60k", "60000"), ("100k", "100000"), ("ninety thousand", "90000"), ("72,500", "72500")),
    "solana": (("150", "150"), ("two hundred", "200"), ("99.5", "99.5"), ("$180", "180")),
}
UP = ("goes above", "is above", "climbs above", "gets over", "rises above", "pushes past", "is over")
DOWN = ("drops below", "falls under", "dips below", "goes under", "is below", "sinks below")
PCT_UP = ("pumps {p}%", "is up {p}%", "rips {p} percent", "+{p}%", "goes up {p}%")
PCT_DOWN = ("dumps {p}%", "is down {p}%", "drops {p} percent", "-{p}%", "falls {p}%")
PCTS = (("5", "5"), ("8", "8"), ("12", "12"), ("ten", "10"), ("20", "20"), ("7.5", "7.5"))
ASK = (
    "lmk if",
    "ping me when",
    "alert me if",
    "tell me when",
    "notify me once",
    "yo let me know if",
    "hmu when",
)
ENDS = ("", "", " pls", " 🙏", " thx", " asap", " ty", " !!")
UP_ACTIONS = ("take profit", "i'll sell some", "so i can dump it", "gonna move it to usdc")
DOWN_ACTIONS = ("buy more", "i'll buy the dip", "so i can add to my bag", "gonna ape in")
CHAINS_Y = ("base", "arbitrum", "optimism", "ethereum", "polygon")
GAS_CHAINS = (("arbitrum", "arbitrum", "0.1"), ("mainnet", "ethereum", "15"), ("base", "base", "0.05"))


def agent(tag: str, request: str, kind: str, fields: Row, dropped: bool = False) -> Row:
    out: Row = {"tag": tag, "request": request, "expect": "compiled", "kind": kind, "fields": fields}
    if dropped:
        out["dropped_action"] = True
    return out


def t_level(rng: random.Random, held_out: int) -> Row:
    word = rng.choice(sorted(COINS))
    coin = COINS[word]
    text, value = rng.choice(LEVELS[coin])
    up = rng.random() < 0.5
    verb = rng.choice(UP if up else DOWN)
    request = f"{rng.choice(ASK)} {word} {verb} {text}{rng.choice(ENDS)}"
    fields = {"coingecko_id": coin, "condition": "above" if up else "below", "threshold": value}
    return agent("price level", request, "price", fields)


def t_move(rng: random.Random, held_out: int) -> Row:
    word = rng.choice(sorted(COINS))
    text, value = rng.choice(PCTS)
    up = rng.random() < 0.5
    forms = [f for f in (PCT_UP if up else PCT_DOWN) if text[0].isdigit() or f[0] not in "+-"]
    move = rng.choice(forms).format(p=text)
    if move.startswith(("+", "-")):
        request = f"{word} {move} alert{rng.choice(ENDS)}"
    else:
        request = f"{rng.choice(ASK)} {word} {move}{rng.choice(ENDS)}"
    fields = {"coingecko_id": COINS[word], "condition": "above" if up else "below", "pct_change": value}
    return agent("percent move", request, "price", fields)


def t_follow_on(rng: random.Random, held_out: int) -> Row:
    """A move or level with an action after it that fits its side: the watch compiles, the action is dropped."""
    word = rng.choice(sorted(COINS))
    coin = COINS[word]
    up = rng.random() < 0.5
    action = rng.choice(UP_ACTIONS if up else DOWN_ACTIONS)
    if rng.random() < 0.5:
        text, value = rng.choice(PCTS[:3])
        move = rng.choice(PCT_UP[:3] if up else PCT_DOWN[:3]).format(p=text)
        fields = {"coingecko_id": coin, "condition": "above" if up else "below", "pct_change": value}
    else:
        text, value = rng.choice(LEVELS[coin])
        move = f"{rng.choice(UP if up else DOWN)} {text}"
        fields = {"coingecko_id": coin, "condition": "above" if up else "below", "threshold": value}
    request = f"if {word} {move} {action}"
    return agent("follow-on action", request, "price", fields, dropped=True)


def t_yield(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(CHAINS_Y)
    up = rng.random() < 0.5
    level = rng.choice(("4", "5.5", "6", "8"))
    side = rng.choice(("above", "over", "higher than") if up else ("below", "under", "lower than"))
    thing = rng.choice(("the aave usdc rate", "aave's usdc apy", "usdc supply yield on aave"))
    request = f"{rng.choice(ASK)} {thing} on {chain} is {side} {level}%{rng.choice(ENDS)}"
    fields = {
        "comparator": "above" if up else "below",
        "threshold": level,
        "metric.type": "yield",
        "metric.chain": chain,
        "metric.project": "aave-v3",
    }
    return agent("yield", request, "condition", fields)


def t_gas(rng: random.Random, held_out: int) -> Row:
    said, chain, level = rng.choice(GAS_CHAINS)
    side = rng.choice(("below", "under", "less than"))
    request = f"{rng.choice(ASK)} gas on {said} is {side} {level} gwei{rng.choice(ENDS)}"
    fields = {"comparator": "below", "threshold": level, "metric.type": "gas_price", "metric.chain": chain}
    return agent("gas", request, "condition", fields)


def t_health(rng: random.Random, held_out: int) -> Row:
    protocol, chain = rng.choice(
        (("aave", "arbitrum"), ("aave", "base"), ("aave", "optimism"), ("spark", "ethereum"))
    )
    level = rng.choice(("1.2", "1.35", "1.5", "1.1"))
    say_chain = "mainnet" if chain == "ethereum" else chain
    side = rng.choice(("drops below", "goes under", "falls below", "is below"))
    request = f"warn me if my {protocol} health factor on {say_chain} {side} {level}{rng.choice(ENDS)}"
    fields = {"protocol": protocol, "chain": chain, "threshold": level}
    return agent("health factor", request, f"{protocol}-health", fields)


def t_portfolio(rng: random.Random, held_out: int) -> Row:
    pct = rng.choice(("10", "15", "25"))
    window, words = rng.choice((("24h", "in a day"), ("24h", "within 24h"), ("7d", "over a week")))
    what = rng.choice(("my portfolio", "my whole bag", "my wallet"))
    request = f"ping me if {what} moves {pct}% either way {words}{rng.choice(ENDS)}"
    return agent("portfolio move", request, "portfolio", {"threshold": pct, "movement_window": window})


def t_schedule(rng: random.Random, held_out: int) -> Row:
    pick = rng.randrange(3)
    task = rng.choice(("check my positions", "claim rewards", "rebalance", "look at my aave loan"))
    if pick == 0:
        day = rng.choice(("monday", "friday", "sunday", "wednesday"))
        return agent(
            "schedule",
            f"remind me every {day} to {task}",
            "schedule",
            {"cadence": "weekly", "day_of_week": day},
        )
    if pick == 1:
        return agent("schedule", f"remind me every day to {task} pls", "schedule", {"cadence": "daily"})
    nth, day_of_month = rng.choice((("1st", 1), ("15th", 15), ("10th", 10)))
    request = f"remind me on the {nth} of every month to {task}"
    return agent("schedule", request, "schedule", {"cadence": "monthly", "day_of_month": day_of_month})


def t_no_side(rng: random.Random, held_out: int) -> Row:
    """A level or move with no side said, or a lender with no chain: asked, not guessed."""
    word = rng.choice(sorted(COINS))
    text, _ = rng.choice(LEVELS[COINS[word]])
    request = rng.choice(
        (
            f"{word} {text} alert",
            f"tell me when {word} hits {text}",
            f"ping me if {word} moves 6%",
            f"lmk when {word} reaches {text} pls",
            "alert me when the aave usdc rate is above 5%",
        )
    )
    return {"tag": "no side or chain", "request": request, "expect": "clarification"}


UNWATCHABLE = (
    "tell me when my crush texts back",
    "alert me when eth feels bullish again",
    "let me know about the next big airdrop",
    "ping me when vitalik tweets",
    "notify me when the bear market is over",
    "tell me if my friend pays me back",
    "alert me when it's a good time to buy",
)


def t_unwatchable(rng: random.Random, held_out: int) -> Row:
    return {
        "tag": "unwatchable",
        "request": rng.choice(UNWATCHABLE) + rng.choice(ENDS),
        "expect": "unwatchable",
    }
