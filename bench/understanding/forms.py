"""Surface forms shared by the templates: amounts as people write them, filler, chains and assets."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
SEED = 20261125
WALLET = "0x1111111111111111111111111111111111111111"
RECIPIENT = "0x3333333333333333333333333333333333333333"
EVM_CHAINS = ("ethereum", "base", "arbitrum", "optimism", "polygon")
CHAIN_WORDS = {
    "ethereum": ("ethereum", "eth mainnet", "mainnet"),
    "base": ("base",),
    "arbitrum": ("arbitrum", "arb"),
    "optimism": ("optimism", "op"),
    "polygon": ("polygon",),
}
STABLES = ("USDC", "USDT", "DAI")
SWAPPABLE = {
    "ethereum": ("ETH", "USDC", "USDT", "DAI", "WBTC"),
    "base": ("ETH", "USDC", "DAI"),
    "arbitrum": ("ETH", "USDC", "USDT", "DAI", "WBTC"),
    "optimism": ("ETH", "USDC", "USDT", "DAI"),
    "polygon": ("USDC", "USDT", "DAI", "WETH"),
}

# (text, value): how people write amounts. The value is what the words mean, exactly.
DIGITS = [
    ("250", "250"),
    ("40", "40"),
    ("0.5", "0.5"),
    ("1,000", "1000"),
    ("1,250.5", "1250.5"),
    ("12.75", "12.75"),
    ("3000", "3000"),
    ("0.25", "0.25"),
]
SUFFIXED = [("1.5k", "1500"), ("2k", "2000"), ("10k", "10000"), ("2.5k", "2500")]
WORDS = [
    ("two hundred", "200"),
    ("a thousand", "1000"),
    ("fifty", "50"),
    ("one and a half", "1.5"),
    ("twenty five", "25"),
    ("a hundred", "100"),
]
COMMA_DECIMAL = [("0,5", "0.5"), ("2,5", "2.5")]
HELD_OUT_WORDS = [
    ("three hundred and fifty", "350"),
    ("ten thousand", "10000"),
    ("seventy", "70"),
    ("two and a half", "2.5"),
]
HELD_OUT_SUFFIXED = [("2m", "2000000"), ("1.2k", "1200")]

FILLER_START = [
    "",
    "",
    "hey ",
    "pls ",
    "please ",
    "could you ",
    "can you please ",
    "i want to ",
    "yo ",
    "hi! ",
    "ok so ",
    "i'd like to ",
]
FILLER_END = ["", "", " pls", " please", " thx", " thanks", " 🙏", "!", " asap", " 🚀"]
HELD_OUT_START = ["help me ", "hey there, could you ", "gm, pls ", "quick one: "]
HELD_OUT_END = [" ty", " thank you!", " 🙏🙏", " if you can"]


# The second held-out set's own forms, written after the first held-out run and before any measurement of
# the second: phrasings neither the dev set nor the first held-out set uses.
SECOND_START = ["would you mind ", "real quick, ", "yo fam ", "ser pls ", "gm gm, "]
SECOND_END = [" when u get a sec", " plz and thx", " ty ser", " 🙂", " cheers", " if possible"]
SECOND_WORDS = [("a hundred and twenty", "120"), ("1.25k", "1250"), ("four hundred", "400"), ("eighty", "80")]


# The third held-out set's own forms, written after the second set's run had been read and before any
# measurement of the third.
THIRD_START = ["hiya, ", "kindly ", "ok fam ", "need you to ", "go ahead and "]
THIRD_END = [" thanks so much", " 🙌", " ta", " appreciate it", " asap pls"]
THIRD_WORDS = [("fifteen", "15"), ("one thousand five hundred", "1500"), ("3.5k", "3500"), ("ninety", "90")]


def amount_forms(held_out: int) -> list[tuple[str, str]]:
    forms = DIGITS + SUFFIXED + WORDS + COMMA_DECIMAL
    if held_out >= 2:
        forms = forms + SECOND_WORDS
    if held_out >= 3:
        forms = forms + THIRD_WORDS
    return forms + HELD_OUT_WORDS + HELD_OUT_SUFFIXED if held_out else forms


def wallets_on(*chains: str) -> list[dict[str, str]]:
    return [{"address": WALLET, "chain": chain} for chain in dict.fromkeys(chains)]


def wrap(rng: random.Random, text: str, held_out: int) -> str:
    starts = FILLER_START + (HELD_OUT_START if held_out else []) + (SECOND_START if held_out >= 2 else [])
    ends = FILLER_END + (HELD_OUT_END if held_out else []) + (SECOND_END if held_out >= 2 else [])
    starts = starts + (THIRD_START if held_out >= 3 else [])
    ends = ends + (THIRD_END if held_out >= 3 else [])
    out = rng.choice(starts) + text + rng.choice(ends)
    # Some people shout; an address keeps its own spelling (0X... is not an address).
    return out.upper().replace(RECIPIENT.upper(), RECIPIENT) if rng.random() < 0.03 else out


Row = dict[str, Any]
Template = Callable[[random.Random, int], Row]
