"""The dev7i set's shared parts: chains, chat openers and closers, amounts as typed, and the row builders
its templates use (bench/understanding/dev7_templates.py)."""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.forms import WALLET, Row

CHAINS = {
    "base": ("base", "Base", "base chain"),
    "arbitrum": ("arbitrum", "arb", "Arbitrum"),
    "optimism": ("optimism", "op", "OP"),
    "polygon": ("polygon", "matic", "Polygon"),
    "ethereum": ("ethereum", "mainnet", "eth mainnet"),
}
L2 = ("base", "arbitrum", "optimism")
OPEN = ["", "", "", "yo ", "hey, ", "ok so ", "bro ", "gm! ", "alr ", "hiii ", "umm ", "right, "]
CLOSE = ["", "", "", " ty", " thx!", " 🙏", " pls", " lol", " 🚀🚀", " k thx", " xx", " ok?", "!!"]

# (text, value): amounts as typed; None where the words do not fix one number (asked, never guessed).
AMOUNTS = [
    ("two hundred", "200"),
    ("a thousand", "1000"),
    ("one and a half", "1.5"),
    ("0,5", "0.5"),
    ("1,000", "1000"),
    ("1.5k", "1500"),
    ("2m", "2000000"),
    ("2 mil", "2000000"),
    ("3 thousand", "3000"),
    ("100 grand", "100000"),
    ("seventy five", "75"),
    ("twelve hundred", "1200"),
    ("3,500", "3500"),
    ("0.05", "0.05"),
    ("a few hundred", None),
    ("some", None),
]


def chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPEN) + text + rng.choice(CLOSE)


def evm(*chains: str) -> list[dict[str, str]]:
    return [{"address": WALLET, "chain": chain} for chain in dict.fromkeys(chains)]


def swap(asset: str, to: str, chain: str, amount: str) -> dict[str, Any]:
    return {"action": "swap", "asset": asset, "to_asset": to, "chain": chain, "amount": amount}


def row(
    tag: str, prompt: str, chains: tuple[str, ...], intents: list[dict[str, Any]] | None, **extra: Any
) -> Row:
    expect: dict[str, Any] = {"intents": intents} if intents is not None else {"clarify": ["amount"]}
    return {"tag": tag, "prompt": prompt, "wallets": evm(*chains), "expect": expect, **extra}


def prices(chain: str) -> list[dict[str, str]]:
    return [
        {"chain": chain, "asset": "ETH", "usd": "2500"},
        {"chain": chain, "asset": "USDC", "usd": "1"},
        {"chain": chain, "asset": "DAI", "usd": "1"},
    ]
