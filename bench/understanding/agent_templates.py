"""The /agents templates: each draws one plain-English agent request and what it must compile to."""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.forms import Row, Template

ASSETS_CG = {
    "eth": ("ETH", "ethereum"),
    "btc": ("BTC", "bitcoin"),
    "sol": ("SOL", "solana"),
    "ethereum": ("ETH", "ethereum"),
    "bitcoin": ("BTC", "bitcoin"),
}
AGENT_WALLETS = ["0x" + "ab" * 20]


def a_price_level(rng: random.Random, held_out: int) -> Row:
    name = rng.choice(list(ASSETS_CG))
    symbol, cg = ASSETS_CG[name]
    text, value = rng.choice(
        [
            ("4000", "4000"),
            ("3,500", "3500"),
            ("60k", "60000"),
            ("150", "150"),
            ("three thousand", "3000"),
            ("2.5k", "2500"),
        ]
    )
    up = rng.random() < 0.5
    verbs = (
        ["goes above", "rises above", "is above", "gets over"]
        if up
        else ["falls below", "dips under", "drops below", "is under"]
    )
    if held_out:
        verbs += ["climbs past", "tops"] if up else ["sinks below", "crashes under"]
    if held_out >= 3:
        verbs += ["pushes above", "pops above"] if up else ["slips under", "breaks below"]
    pattern = rng.choice(
        [
            "tell me when {n} {v} {t}",
            "alert me if {n} {v} {t}",
            "ping me when {n} {v} ${t}",
            "{n} {v} {t} alert pls",
        ]
        + (["lmk if {n} {v} {t}", "heads up when {n} {v} {t}"] if held_out else [])
        + (["yo lmk when {n} {v} {t}", "notify me once {n} {v} {t}"] if held_out >= 3 else [])
    )
    request = pattern.format(n=name, v=rng.choice(verbs), t=text)
    fields = {"coingecko_id": cg, "condition": "above" if up else "below", "threshold": value}
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_price_move(rng: random.Random, held_out: int) -> Row:
    name = rng.choice(("eth", "btc", "sol"))
    symbol, cg = ASSETS_CG[name]
    pct = rng.choice(("5", "10", "15", "20"))
    down = rng.random() < 0.5
    forms = (
        [f"{name} -{pct}% alert pls", f"tell me if {name} dumps {pct}%", f"{name} drops {pct}%"]
        if down
        else [f"{name} +{pct}% alert", f"tell me if {name} pumps {pct}%", f"{name} rises {pct}%"]
    )
    if held_out:
        forms += [f"lmk if {name} tanks {pct}%"] if down else [f"lmk if {name} moons {pct}%"]
    fields = {"coingecko_id": cg, "condition": "below" if down else "above", "pct_change": pct}
    return {
        "tag": "price-move",
        "request": rng.choice(forms),
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
    }


def price_fields(cg: str, condition: str, threshold: str | None, pct: str | None) -> dict[str, Any]:
    """The fields a price agent must compile to: a level (threshold) or a percent move (pct_change)."""
    fields: dict[str, Any] = {"coingecko_id": cg, "condition": condition}
    if threshold:
        fields["threshold"] = threshold
    if pct:
        fields["pct_change"] = pct
    return fields


def a_follow_on(rng: random.Random, held_out: int) -> Row:
    name = rng.choice(("eth", "btc"))
    _, cg = ASSETS_CG[name]
    forms = [
        (f"if {name} pumps 10% take profit", "above", None, "10"),
        (f"when {name} is above 4000 sell it", "above", "4000", None),
        (f"if {name} drops below 3000 buy more", "below", "3000", None),
    ]
    if held_out:
        forms += [
            (f"once {name} tops 5000 swap it to usdc", "above", "5000", None),
            (f"if {name} dumps 20% rebalance my portfolio", "below", None, "20"),
        ]
    request, condition, threshold, pct = rng.choice(forms)
    fields = price_fields(cg, condition, threshold, pct)
    return {
        "tag": "follow-on",
        "request": request,
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
        "dropped_action": True,
    }


def a_yield(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "ethereum"))
    pct = rng.choice(("5", "6", "4.5"))
    up = rng.random() < 0.5
    word = rng.choice(["above", "over"] if up else ["below", "under"])
    forms = [
        f"tell me when the aave usdc rate on {chain} is {word} {pct}%",
        f"aave usdc apy on {chain} {word} {pct}%",
    ]
    if held_out:
        forms += [f"ping me if usdc on aave {chain} yields {word} {pct}%"]
    fields = {
        "comparator": "above" if up else "below",
        "threshold": pct,
        "metric.type": "yield",
        "metric.chain": chain,
        "metric.project": "aave-v3",
    }
    return {
        "tag": "yield",
        "request": rng.choice(forms),
        "expect": "compiled",
        "kind": "condition",
        "fields": fields,
    }


def a_gas(rng: random.Random, held_out: int) -> Row:
    value = rng.choice(("10", "5", "20"))
    forms = [f"gas on ethereum under {value} gwei", f"tell me when eth gas is below {value} gwei"]
    if held_out:
        forms += [f"lmk when mainnet gas drops under {value} gwei"]
    return {
        "tag": "gas",
        "request": rng.choice(forms),
        "expect": "compiled",
        "kind": "condition",
        "fields": {"comparator": "below", "threshold": value, "metric.type": "gas_price"},
    }


def a_health(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "ethereum"))
    value = rng.choice(("1.3", "1.5", "1.2"))
    forms = [
        f"my aave health factor on {chain} below {value}",
        f"alert me if my aave health on {chain} drops under {value}",
    ]
    if held_out:
        forms += [f"warn me when aave hf on {chain} goes below {value} pls"]
    return {
        "tag": "health",
        "request": rng.choice(forms),
        "expect": "compiled",
        "kind": "aave-health",
        "fields": {"chain": chain, "threshold": value},
    }


def a_unwatchable(rng: random.Random, held_out: int) -> Row:
    forms = ["tell me when elon tweets", "when will I be rich", "alert me when my crush texts back"]
    if held_out:
        forms += ["notify me when it rains in paris", "tell me when the fed cuts rates"]
    return {"tag": "unwatchable", "request": rng.choice(forms), "expect": "unwatchable"}


def a_ambiguous(rng: random.Random, held_out: int) -> Row:
    forms = ["tell me when eth moves a lot", "eth hits 4000", "btc moves 10%"]
    if held_out:
        forms += ["sol reaches 200", "ping me about eth 3000"]
    return {"tag": "ambiguous", "request": rng.choice(forms), "expect": "clarification"}


AGENT_TEMPLATES: list[tuple[Template, int, bool]] = [
    (a_price_level, 12, False),
    (a_price_move, 8, False),
    (a_follow_on, 5, False),
    (a_yield, 4, False),
    (a_gas, 3, False),
    (a_health, 4, False),
    (a_unwatchable, 2, False),
    (a_ambiguous, 3, False),
]
