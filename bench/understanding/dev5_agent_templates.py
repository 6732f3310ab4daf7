"""The dev5 set's /agents templates: alerts typed the way people write them in chat apps. Price levels in
shorthand ("eth under 3k = alert", "alert eth 3500+", "eth sub 3k alert"), portfolio values and moves, and
follow-on actions (the watch compiles, the action is reported dropped). Written for the fourth
understanding round, after the held-out figures named these classes; a dev set: read it freely."""

from __future__ import annotations

import random

from bench.understanding.agent_templates import price_fields
from bench.understanding.forms import Row, Template

COINS = {
    "eth": "ethereum",
    "ETH": "ethereum",
    "btc": "bitcoin",
    "BTC": "bitcoin",
    "sol": "solana",
    "bitcoin": "bitcoin",
    "ether": "ethereum",
    "link": "chainlink",
    "doge": "dogecoin",
}
# (text, value): a level as people type it; the value is exactly what the words mean.
LEVELS = [
    ("200", "200"),
    ("3k", "3000"),
    ("$3,250", "3250"),
    ("70k", "70000"),
    ("$2.8k", "2800"),
    ("1.2", "1.2"),
    ("0,85", "0.85"),
    ("three thousand", "3000"),
    ("twenty five hundred", "2500"),
    ("4500", "4500"),
    ("$65k", "65000"),
    ("1.1m", "1100000"),
    ("150 bucks", "150"),
    ("2500 usd", "2500"),
]
UP = [
    "goes over",
    "is back above",
    "gets above",
    ">=",
    ">",
    "shoots past",
    "rallies above",
    "moons past",
    "reclaims",
    "clears",
    "is higher than",
]
DOWN = [
    "goes under",
    "tanks below",
    "<=",
    "<",
    "drops to below",
    "slides under",
    "falls through",
    "craters below",
    "is lower than",
    "gets below",
    "is back under",
    "loses",
]
OPENERS = ["", "", "", "ok ", "hey bot ", "yo, ", "quick one - ", "gm! ", "pls ", "oi ", "so "]
CLOSERS = ["", "", "", " pls", " ty", " 🙏", " !!", " asap", " thx", " 🚨", " plz"]


def _chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPENERS) + text + rng.choice(CLOSERS)


def a_level(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(COINS))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    verb = rng.choice(UP if up else DOWN)
    pattern = rng.choice(
        [
            "ping me if {n} {v} {t}",
            "lmk when {n} {v} {t}",
            "wake me up if {n} {v} {t}",
            "notify if {n} {v} {t}",
            "{n} {v} {t} = alert",
            "{n} {v} {t}, ping me",
            "heads up if {n} {v} {t}",
            "alert: {n} {v} {t}",
            "shout if {n} {v} {t}",
            "buzz me when {n} {v} {t}",
            "send me a msg if {n} {v} {t}",
            "gimme an alert when {n} {v} {t}",
        ]
    )
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    request = _chat(rng, pattern.format(n=name, v=verb, t=text))
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_level_short(rng: random.Random, _: int) -> Row:
    """Shorthand with no verb: the sign, a plus or a "sub" says the direction."""
    name = rng.choice(list(COINS))
    text, value = rng.choice(LEVELS[:7] + LEVELS[10:12])
    up = rng.random() < 0.5
    forms = (
        [
            "alert {n} {t}+",
            "{n} {t}+ alert",
            "{n} above {t} alert",
            "{n} over {t}? ping",
            "{n} > {t} pls notify",
        ]
        if up
        else [
            "{n} sub {t} alert",
            "alert {n} sub {t}",
            "{n} under {t} = alert",
            "{n} below {t}? ping",
            "{n} < {t} notify",
        ]
    )
    request = _chat(rng, rng.choice(forms).format(n=name, t=text))
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_portfolio_value(rng: random.Random, _: int) -> Row:
    text, value = rng.choice(
        (("50k", "50000"), ("$120,000", "120000"), ("ten thousand", "10000"), ("$7.5k", "7500"))
    )
    up = rng.random() < 0.5
    forms = (
        [
            f"when my holdings pass {text} lmk",
            f"tell me once my wallet value tops {text}",
            f"ping me when my portfolio's worth more than {text}",
            f"my stack over {text}? let me know",
            f"notify me when my total balance gets above {text}",
        ]
        if up
        else [
            f"warn me if my portfolio sinks under {text}",
            f"tell me when my wallet is worth less than {text}",
            f"if my holdings go below {text} ping me",
            f"my bag under {text} = alert",
            f"notify me if my total balance drops below {text}",
        ]
    )
    fields = {"comparator": "above" if up else "below", "threshold": value, "metric.type": "portfolio_value"}
    return {
        "tag": "portfolio",
        "request": _chat(rng, rng.choice(forms)),
        "expect": "compiled",
        "kind": "condition",
        "fields": fields,
    }


def a_portfolio_move(rng: random.Random, _: int) -> Row:
    """A move with no side ("moves 10%", "swings") compiles; a one-sided one is asked (the portfolio kind
    fires either way, docs/decisions.md), and its offered option must compile."""
    pct = rng.choice(("10", "5", "7.5", "20"))
    either = rng.random() < 0.5
    if either:
        request = rng.choice(
            [
                f"tell me if my portfolio moves {pct}% in a day",
                f"ping me when my wallet swings {pct}% either way",
                f"alert on any {pct}% move in my holdings",
                f"my portfolio up or down {pct}% this week, lmk",
            ]
        )
        window = "7d" if "week" in request else "24h"
        fields = {"threshold": pct, "movement_window": window}
        row: Row = {"expect": "compiled", "kind": "portfolio", "fields": fields}
    else:
        request = rng.choice(
            [
                f"if my portfolio drops {pct}% tell me",
                f"my wallet down {pct}% in a day = alert",
                f"lmk if my holdings fall {pct} percent",
            ]
        )
        row = {"expect": "clarification"}
    return {"tag": "portfolio-move", "request": _chat(rng, request), **row}


def a_follow_on(rng: random.Random, _: int) -> Row:
    name = rng.choice(("eth", "btc", "sol"))
    forms = [
        (f"if {name} gets above 4k sell half", "above", "4000", None),
        (f"when {name} > 3,500 then swap 1 eth to usdc on base", "above", "3500", None),
        (f"if {name} dumps 8% buy the dip", "below", None, "8"),
        (f"once {name} is below 2.2k, bridge my usdc to arbitrum", "below", "2200", None),
        (f"{name} over 5k -> take profit", "above", "5000", None),
        (f"when {name} drops under three thousand move everything to usdc", "below", "3000", None),
        (f"if {name} pumps 12% then sell 25% of it", "above", None, "12"),
        (f"if {name} falls below $1,800 repay my aave loan", "below", "1800", None),
    ]
    request, condition, threshold, pct = rng.choice(forms)
    if rng.random() < 0.15:
        # "hits" names no side: what the action hints ("sell" near a top) is not read as a direction.
        return {
            "tag": "follow-on",
            "request": _chat(rng, f"if {name} hits 4k sell half"),
            "expect": "clarification",
        }
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "price",
        "fields": price_fields(COINS[name], condition, threshold, pct),
        "dropped_action": True,
    }


AGENT_TEMPLATES_DEV5: list[tuple[Template, int, bool]] = [
    (a_level, 12, False),
    (a_level_short, 6, False),
    (a_portfolio_value, 5, False),
    (a_portfolio_move, 3, False),
    (a_follow_on, 6, False),
]
