"""The dev4 set: a fourth dev split, written after dev3 was tuned on, to see whether dev3's fixes hold on
phrasings they were not made from (its first run is the check; then it is a dev set like the others).
Bridges, swaps and slang in new words and orders, and agents with chat price levels and portfolio values.
"""

from __future__ import annotations

import random

from bench.understanding.agent_templates import price_fields
from bench.understanding.dev2_templates import CLOSERS, OPENERS, chat, evm, swap_row
from bench.understanding.forms import Row, Template

CHAINS = {
    "base": ("base", "Base"),
    "arbitrum": ("arbitrum", "arb", "arbitrum one"),
    "optimism": ("optimism", "op", "op mainnet"),
    "polygon": ("polygon", "Polygon"),
    "ethereum": ("ethereum", "mainnet", "L1"),
}
AMOUNTS = [("80", "80"), ("2.5k", "2500"), ("forty", "40"), ("0.3", "0.3"), ("1,200", "1200"), ("ten", "10")]


def t_bridge(rng: random.Random, _: int) -> Row:
    src, dst = rng.sample(list(CHAINS), 2)
    f, t = rng.choice(CHAINS[src]), rng.choice(CHAINS[dst])
    asset = rng.choice(("USDC", "DAI") if "base" in (src, dst) else ("USDC", "USDT", "DAI"))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "bridge {a} {s} {f} to {t}",
            "{a} {s} to {t} from {f}",
            "move {a} {s} across to {t} from {f}",
            "ship {a} {s} from {f} to {t}",
            "port over {a} {s} from {f} to {t}",
            "can you get my {a} {s} off {f} and onto {t}",
            "transfer {a} {s} from {f} over to {t}",
            "{f} to {t}, {a} {s}",
            "send {a} {s} from {f} to my wallet on {t}",
            "need {a} {s} moved from {f} to {t}",
            "bridge {a} {s} from {f} → {t}",
            "move {a} of my {s} from {f} to {t}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=asset.lower(), f=f, t=t))
    intent = {"action": "bridge", "asset": asset, "from_chain": src, "to_chain": dst, "amount": value}
    return {"tag": "bridge", "prompt": prompt, "wallets": evm(src, dst), "expect": {"intents": [intent]}}


def t_swap(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    where = rng.choice(CHAINS[chain])
    text, value = rng.choice(AMOUNTS)
    sold, bought = rng.choice((("USDC", "ETH"), ("ETH", "USDC"), ("DAI", "ETH"), ("USDC", "DAI")))
    s, b = sold.lower(), bought.lower()
    pattern = rng.choice(
        [
            "{c}: swap {a} {s} → {b}",
            "trade {a} {s} for {b} on the {c} network",
            "exchange {a} {s} into {b} on {c}",
            "{a} {s} into {b} on {c}",
            "i'd like to swap {a} {s} for {b} on {c}",
            "swap {a} of my {s} for {b} on {c}",
            "swap {a} {s} with {b} on {c}",
            "on {c} i want to trade {a} {s} to {b}",
            "convert {a} {s} → {b} ({c})",
            "sell {a} {s} to {b} on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=s, b=b, c=where))
    return swap_row("swap", prompt, chain, sold, bought, value)


def t_slang(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "scoop up some eth with {a} usdc on {c}",
            "gimme eth for {a} usdc on {c}",
            "rotate {a} usdc to eth on {c}",
            "aping {a} usdc into eth on {c}",
            "swap {a} usdc 4 eth on {c}",
            "get me some eth for {a} usdc on {c}",
            "stack some eth with {a} usdc on {c}",
            "snag eth with {a} usdc on {c}",
        ]
    )
    return swap_row("slang", chat(rng, pattern.format(a=text, c=chain)), chain, "USDC", "ETH", value)


INTENT_TEMPLATES_DEV4: list[tuple[Template, int, bool]] = [
    (t_bridge, 12, False),
    (t_swap, 10, False),
    (t_slang, 6, False),
]

NAMES = {"eth": "ethereum", "btc": "bitcoin", "sol": "solana"}
LEVELS = [("$4k", "4000"), ("90,000", "90000"), ("250", "250"), ("3.3k", "3300")]


def a_level(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(NAMES))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    verb = rng.choice(
        ("rises above", "gets over", "crosses above", "is higher than", "hits above")
        if up
        else ("sinks below", "gets under", "crosses below", "is lower than", "goes below")
    )
    pattern = rng.choice(
        [
            "holler if {n} {v} {t}",
            "let me know the moment {n} {v} {t}",
            "{n} {v} {t}? lmk",
            "notify if {n} {v} {t}",
            "alert: {n} {v} {t}",
            "when {n} {v} {t} ping",
            "shoot me a message if {n} {v} {t}",
            "give me a heads up when {n} {v} {t}",
        ]
    )
    fields = {"coingecko_id": NAMES[name], "condition": "above" if up else "below", "threshold": value}
    request = rng.choice(OPENERS[:10]) + pattern.format(n=name, v=verb, t=text) + rng.choice(CLOSERS)
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_portfolio(rng: random.Random, _: int) -> Row:
    text, value = rng.choice((("50k", "50000"), ("$8,000", "8000"), ("thirty thousand", "30000")))
    up = rng.random() < 0.5
    forms = (
        [
            f"ping me if my total bag value goes over {text}",
            f"tell me once my funds are worth more than {text}",
        ]
        if up
        else [f"tell me if my funds drop below {text}", f"warn me when my total balance is under {text}"]
    )
    fields = {"comparator": "above" if up else "below", "threshold": value, "metric.type": "portfolio_value"}
    request = rng.choice(OPENERS[:10]) + rng.choice(forms) + rng.choice(CLOSERS)
    return {
        "tag": "portfolio",
        "request": request,
        "expect": "compiled",
        "kind": "condition",
        "fields": fields,
    }


def a_follow_on(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(NAMES))
    forms = [
        (f"if {name} sinks below 2k i want to buy, alert me", "below", "2000", None),
        (f"when {name} rises 20% sell half", "above", None, "20"),
        (f"once {name} gets over 6k rotate into usdc", "above", "6000", None),
    ]
    request, condition, threshold, pct = rng.choice(forms)
    return {
        "tag": "follow-on",
        "request": request,
        "expect": "compiled",
        "kind": "price",
        "fields": price_fields(NAMES[name], condition, threshold, pct),
        "dropped_action": True,
    }


AGENT_TEMPLATES_DEV4: list[tuple[Template, int, bool]] = [
    (a_level, 10, False),
    (a_portfolio, 4, False),
    (a_follow_on, 3, False),
]
