"""The dev8 set's /agents templates: chat phrasings of price levels (every way people name a level and its
side: "clears", "loses", "reclaims", "sub 3k", "north of", "a print above"...), follow-on actions after
them, and health and gas alerts in words no earlier dev set used. Words whose side is unclear on their own
("tags", "taps", "retests", a bare "breaks" or "flips") must be asked. Written for the sixth understanding
round before the compiler was changed; a dev set: read it freely."""

from __future__ import annotations

import random

from bench.understanding.agent_templates import price_fields
from bench.understanding.forms import Row, Template

COINS = {
    "eth": "ethereum",
    "ETH": "ethereum",
    "$eth": "ethereum",
    "btc": "bitcoin",
    "Bitcoin": "bitcoin",
    "$btc": "bitcoin",
    "sol": "solana",
    "solana": "solana",
    "link": "chainlink",
    "xrp": "ripple",
}
# (text, value): exactly what the words mean.
LEVELS = [
    ("3k", "3000"),
    ("3,500", "3500"),
    ("$2.8k", "2800"),
    ("105k", "105000"),
    ("4200", "4200"),
    ("$180", "180"),
    ("twenty", "20"),
    ("1.5k", "1500"),
    ("$99,000", "99000"),
    ("250 bucks", "250"),
    ("3 thousand", "3000"),
    ("12.5", "12.5"),
]
# Side words, each a whole phrase put before the level; "{t}" marks the level where it sits inside.
UP = [
    "clears {t}",
    "reclaims {t}",
    "breaks above {t}",
    "breaks out above {t}",
    "is north of {t}",
    "gets north of {t}",
    "prints above {t}",
    "gets a print above {t}",
    "closes above {t}",
    "flips {t} to support",
    "is over {t}",
    "goes over {t}",
    "is back above {t}",
    "tops {t}",
    "rips through {t}",
    "moves above {t}",
    "is > {t}",
    "is above {t}",
]
DOWN = [
    "loses {t}",
    "breaks below {t}",
    "breaks down below {t}",
    "is south of {t}",
    "goes south of {t}",
    "prints below {t}",
    "gets a print below {t}",
    "closes below {t}",
    "is sub {t}",
    "goes sub {t}",
    "is under {t}",
    "falls through {t}",
    "drops beneath {t}",
    "is back below {t}",
    "flips {t} to resistance",
    "is < {t}",
    "slides under {t}",
    "cracks below {t}",
]
# Words that name a level but not its side; a bare "breaks" is the exception the compiler documents (a
# level broken with no side named is broken upwards in chat: docs/decisions.md), so its rows expect above.
UNCLEAR = ["tags {t}", "taps {t}", "retests {t}", "breaks {t}", "flips {t}", "crosses {t}", "prints {t}"]
OPENERS = ["", "", "", "yo ", "gm ", "ser ", "bot, ", "ok ", "hey bot ", "quick one: "]
CLOSERS = ["", "", "", " ty", " 🚨", " pls", " asap", " 🙏", " thx!", " fam"]


def _chat(rng: random.Random, text: str) -> str:
    return " ".join((rng.choice(OPENERS) + text + rng.choice(CLOSERS)).split())


def _side(rng: random.Random, up: bool, text: str) -> str:
    return rng.choice(UP if up else DOWN).format(t=text)


def a_level(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(COINS))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    pattern = rng.choice(
        [
            "ping me if {n} {s}",
            "lmk the second {n} {s}",
            "alert: {n} {s}",
            "{n} {s} -> alert me",
            "heads up when {n} {s}",
            "i need a ping if {n} {s}",
            "can you tell me when {n} {s}",
            "watch {n}, notify if it {s}",
            "set alert {n} {s}",
            "wake me up if {n} {s}",
        ]
    )
    request = _chat(rng, pattern.format(n=name, s=_side(rng, up, text)))
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_level_short(rng: random.Random, _: int) -> Row:
    """A level told without a verb: "eth sub 3k", "btc north of 105k", "sol > 180", "3k+ eth"."""
    name = rng.choice(list(COINS))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    side = rng.choice(
        ["north of", "over", "above", ">", "past"] if up else ["south of", "sub", "under", "below", "<"]
    )
    pattern = rng.choice(
        [
            "alert {n} {s} {t}",
            "{n} {s} {t} alert",
            "ping on {n} {s} {t}",
            "notify me {n} {s} {t}",
            "{n} {s} {t}? lmk",
            "lmk {n} {s} {t}",
        ]
    )
    request = _chat(rng, pattern.format(n=name, s=side, t=text))
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_level_unclear(rng: random.Random, _: int) -> Row:
    """A level whose side the words leave open: asked (every option offered must compile)."""
    name = rng.choice(list(COINS))
    text, value = rng.choice(LEVELS)
    pattern = rng.choice(
        ["ping me if {n} {s}", "lmk when {n} {s}", "alert me once {n} {s}", "{n} {s} -> notify"]
    )
    words = rng.choice(UNCLEAR)
    request = _chat(rng, pattern.format(n=name, s=words.format(t=text)))
    if words.startswith("breaks"):
        fields = {"coingecko_id": COINS[name], "condition": "above", "threshold": value}
        return {
            "tag": "price-level",
            "request": request,
            "expect": "compiled",
            "kind": "price",
            "fields": fields,
        }
    return {"tag": "ask", "request": request, "expect": "clarification"}


def a_follow_on(rng: random.Random, _: int) -> Row:
    """A level with an action after (or before) it: the watch compiles, the action is kept or reported."""
    name = rng.choice(("eth", "btc", "sol", "$eth"))
    text, value = rng.choice(LEVELS[:6])
    up = rng.random() < 0.5
    action = rng.choice(
        ["sell 20%", "take some profit", "swap 0.5 eth to usdc", "rotate into usdc", "sell a third"]
        if up
        else ["buy more", "ape in with 500 usdc", "swap 1000 usdc to eth", "load up", "repay my loan on aave"]
    )
    pattern = rng.choice(
        [
            "if {n} {s} i wanna {a}",
            "once {n} {s}, {a}",
            "{a} as soon as {n} {s}",
            "when {n} {s} -> {a}",
            "if {n} {s} then {a} + ping me",
            "plan: {n} {s} = {a}",
        ]
    )
    request = pattern.format(n=name, s=_side(rng, up, text), a=action)
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "price",
        "fields": price_fields(COINS[name], "above" if up else "below", value, None),
        "dropped_action": True,
    }


def a_health(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "ethereum"))
    value = rng.choice(("1.2", "1.35", "1.1", "1.5"))
    pattern = rng.choice(
        [
            "ping me if my aave hf on {c} is sub {v}",
            "aave health on {c} < {v} -> alert",
            "lmk when my aave health factor on {c} is south of {v}",
            "warn me before liquidation: aave on {c}, health under {v}",
            "my aave position on {c}: alert if hf goes below {v}",
            "alert if health factor (aave, {c}) slips under {v}",
            "watch my aave hf on {c} and ping me under {v}",
        ]
    )
    return {
        "tag": "health",
        "request": _chat(rng, pattern.format(c=chain, v=value)),
        "expect": "compiled",
        "kind": "aave-health",
        "fields": {"chain": chain, "threshold": value},
    }


def a_gas(rng: random.Random, _: int) -> Row:
    value = rng.choice(("6", "12", "3", "25"))
    up = rng.random() < 0.25
    if up:
        request = rng.choice(
            [
                f"warn me if eth gas is north of {value} gwei",
                f"mainnet gas > {value} gwei -> alert",
                f"lmk when gas on ethereum spikes above {value} gwei",
            ]
        )
    else:
        request = rng.choice(
            [
                f"ping me when mainnet gas is sub {value} gwei",
                f"eth gas < {value} gwei alert",
                f"lmk when gas on ethereum is south of {value} gwei",
                f"tell me when mainnet gas gets under {value} gwei",
                f"gas on eth below {value} gwei? ping",
                f"wake me up when ethereum gas cools off below {value} gwei",
            ]
        )
    fields = {"comparator": "above" if up else "below", "threshold": value, "metric.type": "gas_price"}
    return {
        "tag": "gas",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "condition",
        "fields": fields,
    }


def a_follow_on_other(rng: random.Random, _: int) -> Row:
    """Health and gas conditions with an action after (or before) them."""
    if rng.random() < 0.5:
        chain = rng.choice(("base", "arbitrum", "ethereum"))
        value = rng.choice(("1.2", "1.3", "1.15"))
        action = rng.choice(["repay 300 usdc", "add 1 eth collateral", "deleverage", "pay back some usdc"])
        request = rng.choice(
            [
                f"if my aave hf on {chain} is sub {value}, {action}",
                f"{action} once aave health on {chain} slips under {value}",
                f"aave health on {chain} < {value} -> {action}",
            ]
        )
        kind, fields = "aave-health", {"chain": chain, "threshold": value}
    else:
        value = rng.choice(("5", "9", "4"))
        action = rng.choice(["bridge 200 usdc to base", "swap my usdt to usdc", "claim and restake"])
        request = rng.choice(
            [
                f"once eth gas is sub {value} gwei, {action}",
                f"{action} when mainnet gas is south of {value} gwei",
                f"if gas on ethereum < {value} gwei then {action}",
            ]
        )
        kind, fields = "condition", {"comparator": "below", "threshold": value, "metric.type": "gas_price"}
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": kind,
        "fields": fields,
        "dropped_action": True,
    }


AGENT_TEMPLATES_DEV8: list[tuple[Template, int, bool]] = [
    (a_level, 10, False),
    (a_level_short, 6, False),
    (a_level_unclear, 4, False),
    (a_follow_on, 8, False),
    (a_health, 4, False),
    (a_gas, 4, False),
    (a_follow_on_other, 4, False),
]
