"""Surface forms of the sealed sets: amounts, filler, casing and chain names as people type them in chats.

Each list has a part both sealed sets draw and a HELD_OUT part only the sealed held-out set draws, so a
reader tuned on the sealed dev set meets words it was never shown. Chain words are registry aliases (the
test checks each one resolves to its chain); they are written out here so that a registry edit cannot
silently rewrite a set that has already been measured.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from bench.understanding.forms import RECIPIENT, WALLET, Row

SEED = 713_2026
# Base58 keys from tests/data/intent_corpus.jsonl: one wallet the caller holds, one recipient.
SOL_WALLET = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
SOL_RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

CHAIN_WORDS = {
    "ethereum": ("ethereum", "mainnet"),
    "base": ("base",),
    "arbitrum": ("arbitrum", "arb"),
    "optimism": ("optimism", "op"),
    "polygon": ("polygon",),
    "bsc": ("bsc", "bnb chain"),
    "solana": ("solana",),
}
HELD_OUT_CHAIN_WORDS = {
    "ethereum": ("ethereum mainnet",),
    "base": ("base mainnet",),
    "arbitrum": ("arbitrum one",),
    "optimism": ("op mainnet",),
    "polygon": ("polygon pos",),
    "bsc": ("binance smart chain",),
    "solana": ("solana mainnet",),
}
# Stablecoins each chain lists in the registry under the plain symbol (bridged variants left out: a
# reader may rightly ask which USDC is meant).
STABLES = {
    "ethereum": ("USDC", "USDT", "DAI"),
    "base": ("USDC", "DAI"),
    "arbitrum": ("USDC", "USDT", "DAI"),
    "optimism": ("USDC", "USDT", "DAI"),
    "polygon": ("USDC", "USDT", "DAI"),
    "bsc": ("USDC", "USDT"),
}
ETH_CHAINS = ("ethereum", "base", "arbitrum", "optimism")  # ETH is the native coin
AAVE_CHAINS = ("ethereum", "base", "arbitrum", "optimism", "polygon", "bsc")

# (text, value): the value is what the words mean, exactly.
AMOUNTS = [
    ("75", "75"),
    ("0.3", "0.3"),
    ("2,000", "2000"),
    ("1,500.25", "1500.25"),
    ("8.5", "8.5"),
    ("4k", "4000"),
    ("1.2m", "1200000"),
    ("three hundred", "300"),
    ("forty-five", "45"),
    ("ten", "10"),
    ("1,5", "1.5"),
    ("0,25", "0.25"),
    ("about 300", "300"),  # an approximation is filler: the written number is planned
    ("~75", "75"),
]
HELD_OUT_AMOUNTS = [
    ("2 mil", "2000000"),
    ("3 grand", "3000"),
    ("twelve hundred", "1200"),
    ("0,75", "0.75"),
    ("around 60", "60"),
    ("six hundred and fifty", "650"),
    ("2.75k", "2750"),
    ("seven", "7"),
]

# Greetings go before any sentence; framings ("can you ...") only before one that opens with its verb.
GREETINGS = ["", "", "", "", "hey, ", "gm! ", "hello, "]
FRAMINGS = ["pls ", "can you ", "could u ", "i wanna ", "i need to ", "hello, please "]
END = ["", "", "", " pls", " thx", " ty", " 🙏", " 🔥", " !!", " please and thank you"]
HELD_OUT_GREETINGS = ["sup, ", "hey bot, "]
HELD_OUT_FRAMINGS = ["ok can you ", "i'd love to ", "so basically i need to "]
HELD_OUT_END = [" thx!!", " 🙏🏼", " cheers mate", " much appreciated", " 👍"]

# A sealed template draws one row; its flag says whether held-out-only forms may be used.
SealedTemplate = Callable[[random.Random, bool], Row]

_TICKERS = re.compile(r"\b(usdc|usdt|dai|eth|wbtc|sol|pol)\b")
_ADDRESSES = (RECIPIENT, WALLET, SOL_WALLET, SOL_RECIPIENT)


def amounts(held_out: bool) -> list[tuple[str, str]]:
    return AMOUNTS + HELD_OUT_AMOUNTS if held_out else AMOUNTS


def chain_word(rng: random.Random, chain: str, held_out: bool) -> str:
    return rng.choice(CHAIN_WORDS[chain] + (HELD_OUT_CHAIN_WORDS[chain] if held_out else ()))


def wallets(*chains: str) -> list[dict[str, str]]:
    """One wallet per chain: the EVM address on EVM chains, the base58 key on Solana."""
    return [
        {"address": SOL_WALLET if chain == "solana" else WALLET, "chain": chain}
        for chain in dict.fromkeys(chains)
    ]


def dress(rng: random.Random, text: str, held_out: bool, framing: bool = True) -> str:
    """Filler around the request and the casing phones and people give it; addresses keep their case.
    `framing` False: the sentence opens with a chain or a time, so it takes a greeting, not "can you"."""
    starts = GREETINGS + (HELD_OUT_GREETINGS if held_out else [])
    if framing:
        starts += FRAMINGS + (HELD_OUT_FRAMINGS if held_out else [])
    out = rng.choice(starts) + text
    out += rng.choice(END + (HELD_OUT_END if held_out else []))
    style = rng.random()
    if style < 0.15:  # a phone capitalises the first letter
        out = out[:1].upper() + out[1:]
    elif style < 0.3:  # tickers in capitals, as exchanges print them
        out = _TICKERS.sub(lambda m: m.group(1).upper(), out)
    elif style < 0.32:
        out = out.upper()
    for address in _ADDRESSES:
        out = out.replace(address.upper(), address)
    return out


def intent_row(
    tag: str, prompt: str, chains: tuple[str, ...], expect: dict[str, object], **extra: object
) -> Row:
    """An /intent row with a wallet on each chain the request may touch."""
    return {"tag": tag, "prompt": prompt, "wallets": wallets(*chains), **extra, "expect": expect}


def bridge_intent(asset: str, src: str, dst: str, amount: str) -> dict[str, str]:
    """The bridge intent the words call for, with the documented routing default: USDC with Solana at
    either end goes by CCTP, everything else by Across."""
    protocol = "cctp" if asset == "USDC" and "solana" in (src, dst) else "across"
    return {
        "action": "bridge",
        "asset": asset,
        "from_chain": src,
        "to_chain": dst,
        "amount": amount,
        "protocol": protocol,
    }
