"""/agents templates of the second sealed set: alerts typed in chat, with direction words, number forms,
follow-on actions, requests that must be asked about (no direction, no chain) and things no agent can
watch. Each row states the one right outcome (compiled with kind and fields, clarification, unwatchable)."""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.sealed2_forms import CHAIN_NAMES, CLOSERS, OPENERS, Row, chain_word

# coingecko id -> the words people use, and (text, value) price levels in that coin's range
COINS = {
    "ethereum": (
        ("eth", "ether", "ETH"),
        [("3k", "3000"), ("$3,500", "3500"), ("two thousand", "2000"), ("4200", "4200"), ("2.8k", "2800")],
    ),
    "bitcoin": (
        ("btc", "bitcoin", "BTC"),
        [("60k", "60000"), ("$95,000", "95000"), ("a hundred thousand", "100000"), ("72.5k", "72500")],
    ),
    "solana": (
        ("sol", "solana", "SOL"),
        [("150", "150"), ("$220", "220"), ("two hundred", "200"), ("99.5", "99.5")],
    ),
}
UP = ("goes above", "shoots above", "climbs past", "rises above", "gets over", "pushes past")
DOWN = ("dips under", "falls below", "drops under", "goes below", "tanks below", "slips under")
MOVES_UP = ("pumps {}%", "is up {}%", "rallies {} percent", "+{}%")
MOVES_DOWN = ("dumps {}%", "is down {}%", "drops {} percent", "-{}%")
PERCENTS = ("5", "8", "12", "15", "20", "7.5")
# follow-on actions that fit the direction (nobody buys a dip on a rally), and some that fit either
ACTIONS_UP = ("take profit", "sell half", "market sell it", "so i can rebalance", "i'll bridge to base")
ACTIONS_DOWN = ("buy the dip", "buy more", "so i can rebalance", "i'll bridge to base", "add to my bag")


def agent(tag: str, text: str, kind: str, fields: dict[str, Any], **extra: Any) -> Row:
    return {"tag": tag, "request": text, "expect": "compiled", "kind": kind, "fields": fields, **extra}


def dress(rng: random.Random, body: str) -> str:
    return rng.choice(OPENERS) + body + rng.choice(CLOSERS)


def coin(rng: random.Random) -> tuple[str, str, tuple[str, str]]:
    coin_id = rng.choice(tuple(COINS))
    words, levels = COINS[coin_id]
    return coin_id, rng.choice(words), rng.choice(levels)


def t_level(rng: random.Random, _: Any) -> Row:
    coin_id, word, (level, value) = coin(rng)
    up = rng.random() < 0.5
    move = rng.choice(UP if up else DOWN)
    body = rng.choice(
        (
            f"ping me when {word} {move} {level}",
            f"{word} {move} {level}? lmk",
            f"alert pls if {word} {move} {level}",
            f"heads up when {word} {move} {level}",
            f"can you tell me once {word} {move} {level}",
        )
    )
    fields = {"coingecko_id": coin_id, "condition": "above" if up else "below", "threshold": value}
    return agent("price-level", dress(rng, body), "price", fields)


def t_move(rng: random.Random, _: Any) -> Row:
    coin_id, word, _level = coin(rng)
    up = rng.random() < 0.5
    pct = rng.choice(PERCENTS)
    move = rng.choice(MOVES_UP if up else MOVES_DOWN).format(pct)
    body = rng.choice(
        (f"{word} {move} alert pls", f"let me know if {word} {move}", f"notify me when {word} {move}")
    )
    fields = {"coingecko_id": coin_id, "condition": "above" if up else "below", "pct_change": pct}
    return agent("price-move", dress(rng, body), "price", fields)


def t_follow_on(rng: random.Random, _: Any) -> Row:
    coin_id, word, (level, value) = coin(rng)
    up = rng.random() < 0.5
    action = rng.choice(ACTIONS_UP if up else ACTIONS_DOWN)
    if rng.random() < 0.5:
        pct = rng.choice(PERCENTS)
        move = rng.choice(MOVES_UP if up else MOVES_DOWN).format(pct)
        body = f"if {word} {move} {action}"
        fields = {"coingecko_id": coin_id, "condition": "above" if up else "below", "pct_change": pct}
    else:
        move = rng.choice(UP if up else DOWN)
        body = rng.choice((f"when {word} {move} {level} {action}", f"{action} when {word} {move} {level}"))
        fields = {"coingecko_id": coin_id, "condition": "above" if up else "below", "threshold": value}
    return agent("follow-on", dress(rng, body), "price", fields, dropped_action=True)


YIELD_CHAINS = ("ethereum", "base", "arbitrum", "optimism")


def t_yield(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(YIELD_CHAINS)
    up = rng.random() < 0.5
    rate, value = rng.choice((("6%", "6"), ("4.5%", "4.5"), ("3 %", "3"), ("ten percent", "10")))
    move = rng.choice(
        ("is above", "goes over", "climbs past") if up else ("is below", "drops under", "falls below")
    )
    cw = chain_word(rng, chain)
    body = rng.choice(
        (
            f"tell me when the aave usdc rate on {cw} {move} {rate}",
            f"ping me if usdc apy on aave {cw} {move} {rate}",
        )
    )
    fields = {
        "comparator": "above" if up else "below",
        "threshold": value,
        "metric.type": "yield",
        "metric.chain": chain,
        "metric.project": "aave-v3",
    }
    return agent("yield", dress(rng, body), "condition", fields)


def t_gas(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(tuple(CHAIN_NAMES))
    gwei, value = rng.choice((("8", "8"), ("0.5", "0.5"), ("twenty", "20"), ("3,5", "3.5")))
    up = rng.random() < 0.3
    move = rng.choice(("goes above", "spikes over") if up else ("drops under", "is below", "falls under"))
    cw = chain_word(rng, chain)
    body = rng.choice((f"ping me if {cw} gas {move} {gwei} gwei", f"gas on {cw} {move} {gwei} gwei, lmk"))
    fields = {
        "comparator": "above" if up else "below",
        "threshold": value,
        "metric.type": "gas_price",
        "metric.chain": chain,
    }
    return agent("gas", dress(rng, body), "condition", fields)


def t_health(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(YIELD_CHAINS)
    level = rng.choice(("1.3", "1.5", "1.15", "2"))
    body = rng.choice(
        (
            f"warn me if my aave health factor on {chain_word(rng, chain)} drops below {level}",
            f"aave hf on {chain_word(rng, chain)} under {level} -> ping me",
        )
    )
    return agent(
        "health", dress(rng, body), "aave-health", {"protocol": "aave", "chain": chain, "threshold": level}
    )


def t_ask(rng: random.Random, _: Any) -> Row:
    _coin_id, word, _level = coin(rng)
    pct = rng.choice(PERCENTS)
    body = rng.choice(
        (
            f"tell me when {word} moves {pct}%",
            f"lmk if {word} changes by {pct} percent",
            f"{word} swings {pct}% alert",
            f"alert me when gas drops under {rng.choice(('5', '12'))} gwei",  # no chain
        )
    )
    return {"tag": "ask", "request": dress(rng, body), "expect": "clarification"}


OFF_WORLD = (
    "tell me when my crush texts back",
    "alert me when the new iphone drops",
    "let me know when it rains in paris",
    "notify me when my package arrives",
    "ping me when the lakers win",
    "lmk when vitalik posts on twitter",
    "tell me when my boss is online",
)


def t_unwatchable(rng: random.Random, _: Any) -> Row:
    return {"tag": "unwatchable", "request": dress(rng, rng.choice(OFF_WORLD)), "expect": "unwatchable"}


SEALED2_AGENT_TEMPLATES = (
    (t_level, 4, False),
    (t_move, 3, False),
    (t_follow_on, 3, False),
    (t_yield, 2, False),
    (t_gas, 2, False),
    (t_health, 2, False),
    (t_ask, 2, False),
    (t_unwatchable, 1, False),
)
