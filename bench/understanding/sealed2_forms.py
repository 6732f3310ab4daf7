"""Surface forms of the second sealed set, written apart from the earlier sets' forms: how people type
in chat apps, Discord, Telegram and support tickets. Every amount form carries the exact value its words
mean; every asset and chain here is one the registry lists (tests/bench checks it)."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

Row = dict[str, Any]

SEED = 20261125_2
OWNER = "0x2222222222222222222222222222222222222222"
PAYEE = "0x4444444444444444444444444444444444444444"

# chain slug -> how people name it in chat
CHAIN_NAMES = {
    "ethereum": ("ethereum", "mainnet", "Ethereum"),
    "base": ("base", "Base"),
    "arbitrum": ("arbitrum", "arb", "Arbitrum"),
    "optimism": ("optimism", "op", "Optimism"),
}
# chain -> assets the registry lists there that the swap rows trade (no polygon: it has no native ETH)
TRADABLE = {
    "ethereum": ("ETH", "USDC", "USDT", "DAI", "WBTC"),
    "base": ("ETH", "USDC", "DAI"),
    "arbitrum": ("ETH", "USDC", "USDT", "DAI", "WBTC"),
    "optimism": ("ETH", "USDC", "USDT", "DAI"),
}
# (chain, asset) pairs Aave's registry entry lends on; Spark lends DAI on ethereum only
AAVE_LENDS = (
    ("ethereum", "USDC"),
    ("arbitrum", "USDC"),
    ("optimism", "USDC"),
    ("base", "USDC"),
    ("arbitrum", "USDT"),
    ("ethereum", "USDT"),
)
STABLE = ("USDC", "USDT", "DAI")

# (text, value): amounts as typed; the value is what the words mean
NUMBER_WORDS = [
    ("three hundred", "300"),
    ("forty", "40"),
    ("twelve", "12"),
    ("two thousand", "2000"),
    ("eighty five", "85"),
    ("six hundred", "600"),
    ("a hundred and twenty", "120"),
    ("fifteen", "15"),
    ("nine hundred", "900"),
    ("four thousand", "4000"),
]
DECIMAL_COMMAS = [("0,25", "0.25"), ("1,75", "1.75"), ("12,5", "12.5"), ("3,2", "3.2"), ("0,05", "0.05")]
SUFFIXES = [
    ("1.5k", "1500"),
    ("3k", "3000"),
    ("4.2k", "4200"),
    ("2 grand", "2000"),
    ("2 mil", "2000000"),
    ("1.25k", "1250"),
    ("20k", "20000"),
]
SEPARATED = [("1,200", "1200"), ("12,000", "12000"), ("2,345.67", "2345.67"), ("7,500", "7500")]
PLAIN = [("75", "75"), ("0.4", "0.4"), ("18.5", "18.5"), ("333", "333"), ("5", "5"), ("140", "140")]
SMALL = [("0.15", "0.15"), ("0.6", "0.6"), ("1.2", "1.2"), ("2", "2"), ("0.05", "0.05")]  # ETH-sized

OPENERS = [
    "",
    "",
    "",
    "yo ",
    "hiya, ",
    "ok so ",
    "quick one: ",
    "hey there, ",
    "morning! ",
    "hi team, ",
    "🙂 ",
    "hello hello, ",
]
ASKS = ["", "", "", "can u ", "could you ", "i'd like to ", "i want to ", "help me ", "please ", "i need to "]
CLOSERS = [
    "",
    "",
    "",
    " pls",
    " plz",
    " thanks!!",
    " 🙏🙏",
    " 🚀",
    " asap",
    " if possible",
    " cheers",
    " thx a lot",
    " ty",
]


def wallets(*chains: str) -> list[dict[str, str]]:
    return [{"address": OWNER, "chain": chain} for chain in chains]


def chat(rng: random.Random, body: str, frame: bool = True) -> str:
    """The request as someone types it: an opener, a request frame (unless the body opens with a chain or
    a condition), the body, a sign-off, and a case (never upper case over an address)."""
    text = rng.choice(OPENERS) + (rng.choice(ASKS) if frame else "") + body + rng.choice(CLOSERS)
    shape = rng.random()
    if shape < 0.1 and "0x" not in text:
        return text.upper()
    if shape < 0.25:
        return text[:1].upper() + text[1:]
    return text


def chain_word(rng: random.Random, chain: str) -> str:
    return rng.choice(CHAIN_NAMES[chain])


def amount(rng: random.Random, forms: list[tuple[str, str]]) -> tuple[str, str]:
    return rng.choice(forms)


def other(rng: random.Random, choices: tuple[str, ...], not_this: str) -> str:
    return rng.choice([c for c in choices if c != not_this])


def other_chain(rng: random.Random, chain: str) -> str:
    return other(rng, tuple(CHAIN_NAMES), chain)


def exact(value: Decimal) -> str:
    """A Decimal as the plain string a row states ("600", "0.5"), never with an exponent."""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
