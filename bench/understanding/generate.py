"""Requests written the way people type in chat apps, each with the one answer it must get.

Templates x surface forms, drawn with a fixed seed. Every row says what is right: `intents` (exact
values), `clarify` (a question is the right answer: the words leave something open) or `refuse` (no intents
and no question: out of scope, a time or condition, a zero amount). Agent rows say `compiled` (kind and
fields), `clarification` or `unwatchable`. Templates and forms marked HELD_OUT_ONLY never reach the dev set.

    python -m bench.understanding.generate   # rewrites bench/understanding/data/*.jsonl
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from decimal import Decimal
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


def _amount_forms(held_out: bool) -> list[tuple[str, str]]:
    forms = DIGITS + SUFFIXED + WORDS + COMMA_DECIMAL
    return forms + HELD_OUT_WORDS + HELD_OUT_SUFFIXED if held_out else forms


def _wallets(*chains: str) -> list[dict[str, str]]:
    return [{"address": WALLET, "chain": chain} for chain in dict.fromkeys(chains)]


def _wrap(rng: random.Random, text: str, held_out: bool) -> str:
    starts = FILLER_START + (HELD_OUT_START if held_out else [])
    ends = FILLER_END + (HELD_OUT_END if held_out else [])
    out = rng.choice(starts) + text + rng.choice(ends)
    # Some people shout; an address keeps its own spelling (0X... is not an address).
    return out.upper().replace(RECIPIENT.upper(), RECIPIENT) if rng.random() < 0.03 else out


Row = dict[str, Any]
Template = Callable[[random.Random, bool], Row]


def t_transfer(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(EVM_CHAINS)
    asset = rng.choice([a for a in SWAPPABLE[chain] if a in STABLES])
    text, value = rng.choice(_amount_forms(held_out))
    verb = rng.choice(["send", "transfer", "pay"] + (["shoot", "wire"] if held_out else []))
    prompt = f"{verb} {text} {asset.lower()} to {RECIPIENT} on {rng.choice(CHAIN_WORDS[chain])}"
    intent = {"action": "transfer", "asset": asset, "chain": chain, "amount": value, "recipient": RECIPIENT}
    return {
        "tag": "transfer",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "expect": {"intents": [intent]},
    }


def t_swap(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(EVM_CHAINS)
    asset, to = rng.sample(SWAPPABLE[chain], 2)
    text, value = rng.choice(_amount_forms(held_out))
    verb, link = rng.choice(
        [("swap", "for"), ("swap", "to"), ("trade", "for"), ("convert", "to"), ("exchange", "for")]
    )
    front = held_out and rng.random() < 0.5
    if front:
        prompt = f"on {rng.choice(CHAIN_WORDS[chain])}, {verb} {text} {asset.lower()} {link} {to.lower()}"
    else:
        prompt = f"{verb} {text} {asset.lower()} {link} {to.lower()} on {rng.choice(CHAIN_WORDS[chain])}"
    intent = {"action": "swap", "asset": asset, "to_asset": to, "chain": chain, "amount": value}
    return {
        "tag": "swap-front" if front else "swap",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "expect": {"intents": [intent]},
    }


def t_slang_swap(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    asset = rng.choice(("USDC", "DAI"))
    text, value = rng.choice(DIGITS + SUFFIXED)
    pattern = rng.choice(
        ["ape {a} {s} into eth on {c}", "flip {a} {s} to eth on {c}", "dump {a} {s} for eth on {c}"]
        + (
            [
                "load up on eth with {a} {s} on {c}",
                "get me some eth with {a} {s} on {c}",
                "rotate {a} {s} into eth on {c}",
            ]
            if held_out
            else []
        )
    )
    prompt = pattern.format(a=text, s=asset.lower(), c=chain)
    intent = {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": value}
    return {
        "tag": "slang",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "expect": {"intents": [intent]},
    }


def t_bridge(rng: random.Random, held_out: bool) -> Row:
    src, dst = rng.sample(EVM_CHAINS, 2)
    asset = rng.choice(("USDC", "ETH") if "polygon" not in (src, dst) else ("USDC",))
    text, value = rng.choice(_amount_forms(held_out))
    verb = rng.choice(["bridge", "move", "send"] + (["port", "carry"] if held_out else []))
    prompt = f"{verb} {text} {asset.lower()} from {src} to {dst}"
    intent = {"action": "bridge", "asset": asset, "from_chain": src, "to_chain": dst, "amount": value}
    return {
        "tag": "bridge",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(src, dst),
        "expect": {"intents": [intent]},
    }


def t_deposit(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism", "polygon"))
    asset = rng.choice(("USDC", "DAI"))
    text, value = rng.choice(_amount_forms(held_out))
    verb = rng.choice(
        ["deposit {a} {s} into aave", "supply {a} {s} to aave", "lend {a} {s} on aave"]
        + (["throw {a} {s} into aave", "park {a} {s} in aave"] if held_out else [])
    )
    prompt = verb.format(a=text, s=asset.lower()) + f" on {chain}"
    intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": value, "protocol": "aave"}
    return {
        "tag": "deposit",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "expect": {"intents": [intent]},
    }


def t_bridge_then_deposit(rng: random.Random, held_out: bool) -> Row:
    src, dst = rng.sample(("ethereum", "base", "arbitrum", "optimism"), 2)
    text, value = rng.choice(DIGITS + WORDS)
    link = rng.choice(
        ["and deposit it into aave", "then deposit it into aave", "and put it in aave"]
        + (["then throw it into aave", "; after that supply it to aave"] if held_out else [])
    )
    prompt = f"bridge {text} usdc from {src} to {dst} {link}"
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": src, "to_chain": dst, "amount": value},
        {"action": "deposit", "asset": "USDC", "chain": dst, "amount": "chained", "protocol": "aave"},
    ]
    return {
        "tag": "bridge+deposit",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(src, dst),
        "expect": {"intents": intents},
    }


def t_share_of_balance(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum"))
    asset = rng.choice(("USDC", "DAI"))
    balance = Decimal(rng.choice(("600", "1200", "96", "2400")))  # divisible by 3 and 4
    shares = [("half my", Decimal("0.5")), ("25% of my", Decimal("0.25")), ("3/4 of my", Decimal("0.75"))]
    if held_out:
        shares += [
            ("a quarter of my", Decimal("0.25")),
            ("a third of my", Decimal(1) / 3),
            ("1/2 of my", Decimal("0.5")),
        ]
    words, share = rng.choice(shares)
    prompt = f"swap {words} {asset.lower()} for eth on {chain}"
    row: Row = {
        "tag": "share",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "balances": [{"chain": chain, "asset": asset, "amount": str(balance)}],
    }
    amount = (balance * share).quantize(Decimal("0.000001")).normalize()
    intent = {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": f"{amount:f}"}
    row["expect"] = {"intents": [intent]}
    return row


def t_all_but(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "optimism"))
    balance, keep = rng.choice((("500", "50"), ("1200", "200"), ("75", "25")))
    prompt = f"deposit all but {keep} usdc into aave on {chain}"
    amount = Decimal(balance) - Decimal(keep)
    intent = {
        "action": "deposit",
        "asset": "USDC",
        "chain": chain,
        "amount": f"{amount:f}",
        "protocol": "aave",
    }
    return {
        "tag": "all-but",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "balances": [{"chain": chain, "asset": "USDC", "amount": balance}],
        "expect": {"intents": [intent]},
    }


def t_correction(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    first, second = rng.sample([d for d in DIGITS if "," not in d[0]], 2)
    marker = rng.choice(
        ["no wait,", "actually", "i mean"] + (["scratch that,", "sorry, make it"] if held_out else [])
    )
    prompt = f"swap {first[0]} usdc for eth on {chain}, {marker} {second[0]}"
    intent = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": chain, "amount": second[1]}
    return {
        "tag": "correction",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets(chain),
        "expect": {"intents": [intent]},
    }


def t_timed_or_conditional(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum"))
    core = f"swap 1 eth to usdc on {chain}"
    forms = [
        f"{core} tomorrow",
        f"{core} at 9am",
        f"{core} every week",
        f"if eth drops below 3000 {core}",
        f"when eth hits 4000 {core}",
    ]
    if held_out:
        forms += [f"{core} next monday", f"once eth is above 5k {core}", f"{core} in 2 hours"]
    return {
        "tag": "timed",
        "prompt": _wrap(rng, rng.choice(forms), held_out),
        "wallets": _wallets(chain),
        "expect": {"refuse": True},
    }


def t_out_of_scope(rng: random.Random, held_out: bool) -> Row:
    forms = [
        "buy a bored ape nft",
        "open a 10x long on eth",
        "short btc with 5x leverage",
        "set a limit order to buy eth at 2500",
        "dca 100 usdc into eth every week",
        "what is my balance",
        "what's the apy on aave",
        "what is a bridge",
        "how are you",
        "lol",
        "thanks!",
    ]
    if held_out:
        forms += [
            "mint me an nft on base",
            "open a perp on eth",
            "what's the price of eth",
            "tell me a joke",
            "good morning",
        ]
    return {
        "tag": "out-of-scope",
        "prompt": rng.choice(forms),
        "wallets": _wallets("base"),
        "expect": {"refuse": True},
    }


def t_zero_or_negative(rng: random.Random, held_out: bool) -> Row:
    forms = [
        "send 0 usdc to {r} on base",
        "swap -5 usdc for eth on base",
        "bridge 0 usdc from base to arbitrum",
    ]
    if held_out:
        forms += ["deposit 0.0 dai into aave on base", "transfer -10 usdc to {r} on base"]
    return {
        "tag": "zero",
        "prompt": rng.choice(forms).format(r=RECIPIENT),
        "wallets": _wallets("base", "arbitrum"),
        "expect": {"refuse": True},
    }


def t_missing(rng: random.Random, held_out: bool) -> Row:
    forms = [
        ("swap usdc for eth on base", "amount"),
        ("send 50 usdc to " + RECIPIENT, "chain"),
        ("deposit some dai into aave on base", "amount"),
    ]
    if held_out:
        forms += [("bridge usdc to arbitrum", "amount"), ("swap a few usdc for eth on base", "amount")]
    prompt, kind = rng.choice(forms)
    return {
        "tag": "ask",
        "prompt": _wrap(rng, prompt, held_out),
        "wallets": _wallets("ethereum", "base"),
        "expect": {"clarify": [kind]},
    }


def t_typo(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum"))
    text, value = rng.choice(DIGITS)
    forms = [
        ("swpa {a} usdc for eth on {c}", "swap"),
        ("swap {a} usdc fro eth on {c}", "swap"),
        ("bridge {a} usdc form base to arbitrum", "bridge"),
    ]
    if held_out:
        forms += [
            ("swap {a} usdc for eht on {c}", "swap"),
            ("brdge {a} usdc from base to arbitrum", "bridge"),
        ]
    pattern, action = rng.choice(forms)
    prompt = pattern.format(a=text, c=chain)
    if action == "swap":
        intent = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": chain, "amount": value}
        wallets = _wallets(chain)
    else:
        intent = {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "base",
            "to_chain": "arbitrum",
            "amount": value,
        }
        wallets = _wallets("base", "arbitrum")
    # A reader may read a typo or ask about it; it must never read it as something else.
    return {
        "tag": "typo",
        "prompt": prompt,
        "wallets": wallets,
        "expect": {"intents": [intent], "ask_ok": True},
    }


INTENT_TEMPLATES: list[tuple[Template, int, bool]] = [  # (template, weight, held-out only)
    (t_transfer, 10, False),
    (t_swap, 12, False),
    (t_slang_swap, 6, False),
    (t_bridge, 10, False),
    (t_deposit, 8, False),
    (t_bridge_then_deposit, 6, False),
    (t_share_of_balance, 6, False),
    (t_all_but, 3, True),
    (t_correction, 5, False),
    (t_timed_or_conditional, 5, False),
    (t_out_of_scope, 5, False),
    (t_zero_or_negative, 3, False),
    (t_missing, 4, False),
    (t_typo, 3, False),
]

# Agents ------------------------------------------------------------------------------------------------

ASSETS_CG = {
    "eth": ("ETH", "ethereum"),
    "btc": ("BTC", "bitcoin"),
    "sol": ("SOL", "solana"),
    "ethereum": ("ETH", "ethereum"),
    "bitcoin": ("BTC", "bitcoin"),
}
AGENT_WALLETS = ["0x" + "ab" * 20]


def a_price_level(rng: random.Random, held_out: bool) -> Row:
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
    pattern = rng.choice(
        [
            "tell me when {n} {v} {t}",
            "alert me if {n} {v} {t}",
            "ping me when {n} {v} ${t}",
            "{n} {v} {t} alert pls",
        ]
        + (["lmk if {n} {v} {t}", "heads up when {n} {v} {t}"] if held_out else [])
    )
    request = pattern.format(n=name, v=rng.choice(verbs), t=text)
    fields = {"coingecko_id": cg, "condition": "above" if up else "below", "threshold": value}
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_price_move(rng: random.Random, held_out: bool) -> Row:
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


def a_follow_on(rng: random.Random, held_out: bool) -> Row:
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
    fields: dict[str, Any] = {"coingecko_id": cg, "condition": condition}
    if threshold:
        fields["threshold"] = threshold
    if pct:
        fields["pct_change"] = pct
    return {
        "tag": "follow-on",
        "request": request,
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
        "dropped_action": True,
    }


def a_yield(rng: random.Random, held_out: bool) -> Row:
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


def a_gas(rng: random.Random, held_out: bool) -> Row:
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


def a_health(rng: random.Random, held_out: bool) -> Row:
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


def a_unwatchable(rng: random.Random, held_out: bool) -> Row:
    forms = ["tell me when elon tweets", "when will I be rich", "alert me when my crush texts back"]
    if held_out:
        forms += ["notify me when it rains in paris", "tell me when the fed cuts rates"]
    return {"tag": "unwatchable", "request": rng.choice(forms), "expect": "unwatchable"}


def a_ambiguous(rng: random.Random, held_out: bool) -> Row:
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


def _draw(
    templates: list[tuple[Template, int, bool]],
    count: int,
    held_out: bool,
    rng: random.Random,
    exclude: set[str],
) -> list[Row]:
    """`count` distinct rows; none of them is in `exclude` (the held-out set shares no request with dev)."""
    usable = [(t, w) for t, w, only in templates if held_out or not only]
    rows: list[Row] = []
    seen: set[str] = set(exclude)
    attempts = 0
    while len(rows) < count and attempts < count * 50:
        attempts += 1
        (template,) = rng.choices([t for t, _ in usable], weights=[w for _, w in usable])
        row = template(rng, held_out)
        key = row.get("prompt") or row["request"]
        if key in seen:
            continue
        seen.add(key)
        rows.append(row)
    return rows


def generate() -> dict[str, list[Row]]:
    sets: dict[str, list[Row]] = {}
    used: set[str] = set()
    for split, held_out, seed in (("dev", False, SEED), ("heldout", True, SEED + 1)):
        rng = random.Random(seed)
        intents = _draw(INTENT_TEMPLATES, 2000 if not held_out else 1200, held_out, rng, used)
        agents = _draw(AGENT_TEMPLATES, 600 if not held_out else 400, held_out, rng, used)
        used |= {row.get("prompt") or row["request"] for row in intents + agents}
        for index, row in enumerate(intents):
            row["id"] = f"{split}-i{index:04d}"
        for index, row in enumerate(agents):
            row["id"] = f"{split}-a{index:04d}"
        sets[f"{split}_intent"] = intents
        sets[f"{split}_agents"] = agents
    return sets


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for name, rows in generate().items():
        with (DATA / f"{name}.jsonl").open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{name}: {len(rows)} rows")


if __name__ == "__main__":
    main()
