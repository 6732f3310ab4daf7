"""Surface forms of the third sealed set, written from scratch: how people type in crypto chat apps.

Every (text, value) pair states what the words mean, exactly; the value is what a careful reader would
plan. Amount forms are split by size so that a form fits the asset it is written beside (nobody sends
"2 mil" ETH, and 18-decimal and 6-decimal tokens take every form listed).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

SEED = 20261311
Row = dict[str, Any]

ME = "0x9c4e7b1d2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d"
FRIENDS = (
    "0x5f1d3b9a0c7e2d4f6a8b1c3e5d7f9a2b4c6d8e0f",
    "0xa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9",
    "0x00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee",
)
CHAIN_SAY = {
    "ethereum": ("mainnet", "ethereum", "eth mainnet", "L1 ethereum"),
    "base": ("base", "Base"),
    "arbitrum": ("arbitrum", "arbitrum one", "Arbitrum"),
    "optimism": ("optimism", "Optimism"),
    "polygon": ("polygon", "Polygon"),
}
# The tokens each chain lists in the registry that a swap on it can take or give.
TRADE = {
    "ethereum": ("ETH", "USDC", "USDT", "DAI"),
    "base": ("ETH", "USDC", "DAI"),
    "arbitrum": ("ETH", "USDC", "USDT", "DAI"),
    "optimism": ("ETH", "USDC", "USDT", "DAI"),
}
# Aave v3 reserves that the registry lists on each chain (deposits go only where the market has the token).
AAVE = {
    "ethereum": ("USDC", "USDT", "DAI"),
    "base": ("USDC",),
    "arbitrum": ("USDC", "USDT", "DAI"),
    "optimism": ("USDC", "USDT", "DAI"),
    "polygon": ("USDC", "DAI"),
}
BRIDGEABLE = ("ETH", "USDC", "USDT", "DAI")
BRIDGE_CHAINS = ("ethereum", "base", "arbitrum", "optimism")
STABLE = frozenset({"USDC", "USDT", "DAI"})

# Amounts for stablecoins (hundreds to millions of units).
BIG = [
    ("three hundred", "300"),
    ("six hundred and fifty", "650"),
    ("twelve hundred", "1200"),
    ("forty-five", "45"),
    ("a grand", "1000"),
    ("2 grand", "2000"),
    ("4.2k", "4200"),
    ("750k", "750000"),
    ("1 mil", "1000000"),
    ("3,750", "3750"),
    ("12,000.5", "12000.5"),
    ("99,99", "99.99"),
    ("18,5", "18.5"),
    ("777", "777"),
    ("62.125", "62.125"),
    ("eighty", "80"),
]
# Amounts for ETH (a fraction to a few units).
SMALL = [
    ("0,35", "0.35"),
    ("1,25", "1.25"),
    ("0.075", "0.075"),
    ("three", "3"),
    ("two and a half", "2.5"),
    ("one point five", "1.5"),
    ("half an", "0.5"),
    ("1/4", "0.25"),
    ("Ξ0.4", "0.4"),
    (".6", "0.6"),
    ("0.015", "0.015"),
    ("seven", "7"),
]
EXTRA_START = [
    "",
    "",
    "",
    "yo ser ",
    "gm anon, ",
    "bro ",
    "hey fam can u ",
    "okay so uh ",
    "lemme ",
    "pls pls ",
    "hello sir, please ",
    "hi team 👋 ",
    "fren, ",
    "sup, ",
    "quick favour - ",
    "kindly ",
    "i would like to ",
]
EXTRA_END = [
    "",
    "",
    "",
    " thx fren",
    " 🙏🏼",
    " ser",
    " ty ty",
    " 😅",
    " 🔥🔥",
    " pls and ty",
    " cheers mate",
    " thanks in advance",
    " .",
    "!!",
    " 💸",
]


def say_chain(rng: random.Random, chain: str) -> str:
    return rng.choice(CHAIN_SAY[chain])


def say_asset(rng: random.Random, asset: str) -> str:
    """A token as typed: mostly lower case, sometimes as written on the exchange, sometimes with a $."""
    roll = rng.random()
    if roll < 0.55:
        return asset.lower()
    if roll < 0.85:
        return asset
    return "$" + asset.lower() if asset != "ETH" else "eth"


def amount_for(rng: random.Random, asset: str) -> tuple[str, str]:
    return rng.choice(BIG if asset in STABLE else SMALL)


def with_amount(text: str, asset_word: str) -> str:
    """The amount and the token as written together; "Ξ" already names ETH."""
    return text if text.startswith("Ξ") else f"{text} {asset_word}"


def wallets_on(*chains: str) -> list[dict[str, str]]:
    return [{"address": ME, "chain": chain} for chain in dict.fromkeys(chains)]


def wrap(rng: random.Random, text: str, lead: bool = True) -> str:
    """Chat filler around a request; `lead=False` when the request opens with a chain or a time, which
    nobody puts after "i would like to"."""
    out = (rng.choice(EXTRA_START) if lead else "") + text + rng.choice(EXTRA_END)
    if rng.random() > 0.04:
        return out
    # Some people shout; an address keeps its own spelling (0X... is not an address).
    shouted = out.upper()
    for address in FRIENDS:
        shouted = shouted.replace(address.upper(), address)
    return shouted


def exact(value: Decimal) -> str:
    """A Decimal as the plain string a row states (no exponent, no trailing zeros)."""
    return format(value.normalize(), "f")


def typo(rng: random.Random, word: str) -> str:
    """One slip of the fingers on a word of four or more letters: two letters swapped or one doubled."""
    i = rng.randrange(1, len(word) - 2)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[: i + 1] + word[i] + word[i + 1 :]
