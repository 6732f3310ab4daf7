"""The dev3 set's /agents templates: price levels in chat shorthand ("sol > 200", "if btc dips below 60k
lmk"), portfolio values and moves, and follow-on actions. A dev set: read it freely."""

from __future__ import annotations

import random

from bench.understanding.agent_templates import price_fields
from bench.understanding.dev2_templates import CLOSERS, OPENERS
from bench.understanding.forms import Row, Template

NAMES = {"eth": "ethereum", "btc": "bitcoin", "sol": "solana", "bitcoin": "bitcoin", "ether": "ethereum"}
LEVELS = [("200", "200"), ("60k", "60000"), ("$3,500", "3500"), ("4.1k", "4100"), ("two hundred", "200")]
UP = ["goes above", "> ", "is over", "breaks", "breaks above", "hits above", "pumps past", "climbs over"]
DOWN = ["dips below", "< ", "is under", "loses", "drops under", "tanks below", "goes sub", "falls to below"]


def _chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPENERS[:10]) + text + rng.choice(CLOSERS)


def a_level(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(NAMES))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    verb = rng.choice(UP if up else DOWN).strip()
    pattern = rng.choice(
        [
            "ping when {n} {v} {t}",
            "if {n} {v} {t} lmk",
            "alert me if {n} {v} {t}",
            "{n} {v} {t} alert",
            "notify me when {n} {v} {t}",
            "text me if {n} {v} {t}",
            "hit me up when {n} {v} {t}",
            "let me know if {n} {v} {t} pls",
            "set an alert for {n} {v} {t}",
            "watch {n} and ping me if it {v} {t}",
        ]
    )
    fields = {"coingecko_id": NAMES[name], "condition": "above" if up else "below", "threshold": value}
    request = _chat(rng, pattern.format(n=name, v=verb, t=text))
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_portfolio(rng: random.Random, _: int) -> Row:
    text, value = rng.choice((("20k", "20000"), ("$15,000", "15000"), ("a hundred thousand", "100000")))
    up = rng.random() < 0.5
    forms = (
        [
            f"ping me when my wallet is worth over {text}",
            f"lmk once my portfolio hits above {text}",
            f"alert me if my holdings go above {text}",
            f"my portfolio > {text}? tell me",
        ]
        if up
        else [
            f"alert me if my bag drops below {text}",
            f"ping me if my portfolio value goes under {text}",
            f"lmk if my wallet falls below {text}",
            f"if my holdings dip under {text} let me know",
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
    """A portfolio agent fires on a move either way: a one-sided move is asked, never narrowed silently."""
    pct = rng.choice(("10", "5", "15"))
    request = rng.choice(
        [
            f"alert me if my bag drops {pct}%",
            f"ping me if my portfolio dumps {pct} percent",
            f"lmk if my wallet is down {pct}% in a day",
        ]
    )
    return {"tag": "portfolio-move", "request": _chat(rng, request), "expect": "clarification"}


def a_follow_on(rng: random.Random, _: int) -> Row:
    name = rng.choice(("eth", "btc", "sol"))
    forms = [
        (f"if {name} dips below 2k buy more", "below", "2000", None),
        (f"when {name} pumps 15% sell some", "above", None, "15"),
        (f"once {name} breaks 5k swap half to usdc", "above", "5000", None),
        (f"if {name} drops 10% move my usdc to aave", "below", None, "10"),
        (f"when {name} > 4k take profits", "above", "4000", None),
        (f"if {name} < 1.5k bridge my usdc to base and buy", "below", "1500", None),
    ]
    request, condition, threshold, pct = rng.choice(forms)
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "price",
        "fields": price_fields(NAMES[name], condition, threshold, pct),
        "dropped_action": True,
    }


AGENT_TEMPLATES_DEV3: list[tuple[Template, int, bool]] = [
    (a_level, 14, False),
    (a_portfolio, 6, False),
    (a_portfolio_move, 2, False),
    (a_follow_on, 6, False),
]
