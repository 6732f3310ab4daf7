"""The dev2 set's /agents templates: alerts typed the way people write in chat apps (motion verbs before
a level, dollar signs and k suffixes, portfolio values, weekly and monthly reminders, follow-on actions).
A dev set: read it freely."""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.agent_templates import price_fields
from bench.understanding.dev2_templates import CLOSERS, OPENERS
from bench.understanding.forms import Row, Template

NAMES = {"eth": "ethereum", "ether": "ethereum", "btc": "bitcoin", "sol": "solana", "bnb": "binancecoin"}
LEVELS = [("$4,200", "4200"), ("95k", "95000"), ("180", "180"), ("two thousand", "2000"), ("3.2k", "3200")]
UP = ["shoots above", "rips past", "jumps over", "is back above", "trades above", "goes over", "gets above"]
DOWN = [
    "dumps below",
    "slides under",
    "falls under",
    "is back below",
    "trades below",
    "craters below",
    "dips below",
]


def _chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPENERS[:10]) + text + rng.choice(CLOSERS)


def a_level(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(NAMES))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    verb = rng.choice(UP if up else DOWN)
    pattern = rng.choice(
        [
            "lmk when {n} {v} {t}",
            "ping me if {n} {v} {t}",
            "{n} {v} {t}? tell me",
            "let me know once {n} {v} {t}",
        ]
    )
    fields = {"coingecko_id": NAMES[name], "condition": "above" if up else "below", "threshold": value}
    request = _chat(rng, pattern.format(n=name, v=verb, t=text))
    return {"tag": "level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_move(rng: random.Random, _: int) -> Row:
    name = rng.choice(("eth", "btc", "sol"))
    pct = rng.choice(("7", "12", "25"))
    up = rng.random() < 0.5
    forms = (
        [f"{name} up {pct}%? ping me", f"heads up if {name} rips {pct} percent", f"{name} +{pct}% lmk"]
        if up
        else [
            f"{name} down {pct}%? ping me",
            f"heads up if {name} bleeds {pct} percent",
            f"{name} -{pct}% lmk",
        ]
    )
    fields = {"coingecko_id": NAMES[name], "condition": "above" if up else "below", "pct_change": pct}
    return {
        "tag": "move",
        "request": _chat(rng, rng.choice(forms)),
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
    }


def a_portfolio(rng: random.Random, _: int) -> Row:
    text, value = rng.choice((("10k", "10000"), ("$25,000", "25000"), ("fifty thousand", "50000")))
    up = rng.random() < 0.5
    forms = (
        [f"tell me when my portfolio is worth more than {text}", f"ping me once my bags are above {text}"]
        if up
        else [f"alert me if my portfolio drops below {text}", f"lmk if my net worth falls under {text}"]
    )
    fields = {"comparator": "above" if up else "below", "threshold": value, "metric.type": "portfolio_value"}
    return {
        "tag": "portfolio",
        "request": _chat(rng, rng.choice(forms)),
        "expect": "compiled",
        "kind": "condition",
        "fields": fields,
    }


def a_schedule(rng: random.Random, _: int) -> Row:
    day = rng.choice(("monday", "friday", "sunday"))
    forms: list[tuple[str, dict[str, Any]]] = [
        (f"remind me every {day} to claim my rewards", {"cadence": "weekly", "day_of_week": day}),
        (f"every {day} remind me to check my loans", {"cadence": "weekly", "day_of_week": day}),
        (f"remind me on {day}s to rebalance", {"cadence": "weekly", "day_of_week": day}),
        (
            "remind me on the 1st of every month to pay back my loan",
            {"cadence": "monthly", "day_of_month": 1},
        ),
        ("remind me daily to check eth", {"cadence": "daily"}),
    ]
    request, fields = rng.choice(forms)
    return {
        "tag": "schedule",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "schedule",
        "fields": fields,
    }


def a_follow_on(rng: random.Random, _: int) -> Row:
    name = rng.choice(("eth", "btc"))
    forms = [
        (f"if {name} moons 20% take some profit", "above", None, "20"),
        (f"when {name} slides under 2k buy the dip", "below", "2000", None),
        (f"once {name} rips past 5k sell half", "above", "5000", None),
        (f"if {name} dumps 15% repay 500 usdc on aave", "below", None, "15"),
    ]
    request, condition, threshold, pct = rng.choice(forms)
    fields = price_fields(NAMES[name], condition, threshold, pct)
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
        "dropped_action": True,
    }


def a_ask(rng: random.Random, _: int) -> Row:
    request = rng.choice(
        [
            "lmk when eth is near 4k",
            "ping me if btc gets to 100k",
            "remind me weekly to check my positions",
            "tell me when sol moves",
            "alert me when gas is cheap on ethereum",
        ]
    )
    return {"tag": "ask", "request": _chat(rng, request), "expect": "clarification"}


def a_refuse(rng: random.Random, _: int) -> Row:
    request = rng.choice(
        [
            "tell me when my friend pays me back",
            "alert me when eth is not above 3000",
            "ping me when eth drops above 3000",
            "remind me every 3 days to drink water",
        ]
    )
    return {"tag": "refuse", "request": _chat(rng, request), "expect": "unwatchable"}


AGENT_TEMPLATES_DEV2: list[tuple[Template, int, bool]] = [
    (a_level, 12, False),
    (a_move, 6, False),
    (a_portfolio, 5, False),
    (a_schedule, 5, False),
    (a_follow_on, 5, False),
    (a_ask, 4, False),
    (a_refuse, 3, False),
]
