"""The dev3 set: a third dev split, invented for tuning (read it freely, print its failures, fix the reader
by class). It leans on the phrasings the earlier rounds missed most: bridges told with motion verbs and
arrows ("move", "port", "shift", "send over to", "from arb to op", "onto base", "→"), swaps in every word
order ("swap out of", "x to y", "worth of", "buy eth with", "sell for"), and slang verbs.
"""

from __future__ import annotations

import random

from bench.understanding.dev2_templates import chat, evm, swap_row
from bench.understanding.forms import Row, Template

CHAINS = {
    "base": ("base",),
    "arbitrum": ("arbitrum", "arb", "Arbitrum"),
    "optimism": ("optimism", "op", "OP"),
    "polygon": ("polygon",),
    "ethereum": ("ethereum", "mainnet", "eth mainnet"),
}
AMOUNTS = [
    ("60", "60"),
    ("250", "250"),
    ("1.2k", "1200"),
    ("three hundred", "300"),
    ("0.4", "0.4"),
    ("1,500", "1500"),
    ("twenty", "20"),
]


def t_bridge(rng: random.Random, _: int) -> Row:
    src, dst = rng.sample(list(CHAINS), 2)
    f, t = rng.choice(CHAINS[src]), rng.choice(CHAINS[dst])
    # USDT is not listed on base in the registry: a row must be plannable as written.
    asset = rng.choice(("USDC", "DAI") if "base" in (src, dst) else ("USDC", "USDT", "DAI"))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "move {a} {s} from {f} to {t}",
            "port {a} {s} from {f} to {t}",
            "shift {a} {s} from {f} over to {t}",
            "send {a} {s} over to {t} from {f}",
            "{a} {s} from {f} to {t}",
            "{a} {s} {f} → {t}",
            "{a} {s} {f} -> {t}",
            "move {a} {s} onto {t} from {f}",
            "get {a} {s} from {f} onto {t}",
            "take {a} {s} from {f} to {t}",
            "from {f} to {t}: {a} {s}",
            "bridge over {a} {s} from {f} to {t}",
            "can i move {a} {s} from {f} to {t}",
            "i want my {a} {s} on {t}, it's on {f} now",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=asset.lower(), f=f, t=t))
    intent = {"action": "bridge", "asset": asset, "from_chain": src, "to_chain": dst, "amount": value}
    return {"tag": "bridge", "prompt": prompt, "wallets": evm(src, dst), "expect": {"intents": [intent]}}


def t_swap(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    where = rng.choice(CHAINS[chain])
    text, value = rng.choice(AMOUNTS)
    sold, bought = rng.choice((("USDC", "ETH"), ("ETH", "USDC"), ("DAI", "USDC"), ("USDC", "DAI")))
    s, b = sold.lower(), bought.lower()
    pattern = rng.choice(
        [
            "swap out of {a} {s} into {b} on {c}",
            "{a} {s} to {b} on {c}",
            "{a} {s} → {b} on {c}",
            "on {c}: {a} {s} for {b}",
            "sell {a} {s} for {b} on {c}",
            "trade {a} {s} to {b} on {c}",
            "exchange {a} {s} for {b} on {c}",
            "turn {a} {s} into {b} on {c}",
            "change {a} {s} to {b} on {c}",
            "swap {a} {s} into {b} over on {c}",
            "{c} swap {a} {s} {b}",
            "swap {a} {s} for some {b} on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=s, b=b, c=where))
    return swap_row("swap", prompt, chain, sold, bought, value)


def t_buy_with(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "buy eth with {a} usdc on {c}",
            "buy some eth with {a} usdc on {c}",
            "get eth with {a} usdc on {c}",
            "use {a} usdc to buy eth on {c}",
            "spend {a} usdc on eth on {c}",
            "pick up some eth with {a} usdc on {c}",
            "buy {a} usdc worth of eth on {c}",
            "buy {a} usdc of eth on {c}",
        ]
    )
    return swap_row("buy-with", chat(rng, pattern.format(a=text, c=chain)), chain, "USDC", "ETH", value)


def t_slang(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "flip {a} usdc to eth on {c}",
            "ape {a} usdc into eth on {c}",
            "throw {a} usdc into eth on {c}",
            "rotate {a} usdc into eth on {c}",
            "load up on eth with {a} usdc on {c}",
            "dump {a} usdc for eth on {c}",
            "market buy eth with {a} usdc on {c}",
            "swap {a} usdc -> eth on {c} pls ser",
            "yolo {a} usdc into eth on {c}",
            "convert {a} usdc to eth on {c}",
        ]
    )
    return swap_row("slang", chat(rng, pattern.format(a=text, c=chain)), chain, "USDC", "ETH", value)


def t_sell_for(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "sell {a} eth for usdc on {c}",
            "cash out {a} eth to usdc on {c}",
            "sell {a} eth into usdc on {c}",
            "take profit on {a} eth into usdc on {c}",
            "sell {a} of my eth for usdc on {c}",
        ]
    )
    return swap_row("sell-for", chat(rng, pattern.format(a=text, c=chain)), chain, "ETH", "USDC", value)


def t_unsure(rng: random.Random, _: int) -> Row:
    """Requests that leave something open: a question is the right answer."""
    prompt, field = rng.choice(
        [
            ("move some usdc from arb to op", "amount"),
            ("bridge 100 usdc to base", "from_chain"),
            ("port my usdc onto base", "amount"),
            ("swap usdc for eth on base", "amount"),
            ("flip some eth on base", "amount"),
        ]
    )
    return {
        "tag": "unsure",
        "prompt": chat(rng, prompt),
        "wallets": evm("base", "arbitrum", "optimism"),
        "expect": {"clarify": [field]},
    }


INTENT_TEMPLATES_DEV3: list[tuple[Template, int, bool]] = [
    (t_bridge, 14, False),
    (t_swap, 10, False),
    (t_buy_with, 5, False),
    (t_slang, 6, False),
    (t_sell_for, 4, False),
    (t_unsure, 3, False),
]
