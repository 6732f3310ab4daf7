"""The /intent templates: each draws one request and the exact answer it must get."""

from __future__ import annotations

import random
from decimal import Decimal

from bench.understanding.forms import (
    CHAIN_WORDS,
    DIGITS,
    EVM_CHAINS,
    RECIPIENT,
    STABLES,
    SUFFIXED,
    SWAPPABLE,
    WORDS,
    Row,
    Template,
    amount_forms,
    wallets_on,
    wrap,
)


def t_transfer(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(EVM_CHAINS)
    asset = rng.choice([a for a in SWAPPABLE[chain] if a in STABLES])
    text, value = rng.choice(amount_forms(held_out))
    verb = rng.choice(["send", "transfer", "pay"] + (["shoot", "wire"] if held_out else []))
    prompt = f"{verb} {text} {asset.lower()} to {RECIPIENT} on {rng.choice(CHAIN_WORDS[chain])}"
    intent = {"action": "transfer", "asset": asset, "chain": chain, "amount": value, "recipient": RECIPIENT}
    return {
        "tag": "transfer",
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "expect": {"intents": [intent]},
    }


def t_swap(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(EVM_CHAINS)
    asset, to = rng.sample(SWAPPABLE[chain], 2)
    text, value = rng.choice(amount_forms(held_out))
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
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "expect": {"intents": [intent]},
    }


def t_slang_swap(rng: random.Random, held_out: int) -> Row:
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
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "expect": {"intents": [intent]},
    }


def t_bridge(rng: random.Random, held_out: int) -> Row:
    src, dst = rng.sample(EVM_CHAINS, 2)
    asset = rng.choice(("USDC", "ETH") if "polygon" not in (src, dst) else ("USDC",))
    text, value = rng.choice(amount_forms(held_out))
    verb = rng.choice(["bridge", "move", "send"] + (["port", "carry"] if held_out else []))
    prompt = f"{verb} {text} {asset.lower()} from {src} to {dst}"
    intent = {"action": "bridge", "asset": asset, "from_chain": src, "to_chain": dst, "amount": value}
    return {
        "tag": "bridge",
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(src, dst),
        "expect": {"intents": [intent]},
    }


def t_deposit(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism", "polygon"))
    asset = rng.choice(("USDC", "DAI"))
    text, value = rng.choice(amount_forms(held_out))
    verb = rng.choice(
        ["deposit {a} {s} into aave", "supply {a} {s} to aave", "lend {a} {s} on aave"]
        + (["throw {a} {s} into aave", "park {a} {s} in aave"] if held_out else [])
    )
    prompt = verb.format(a=text, s=asset.lower()) + f" on {chain}"
    intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": value, "protocol": "aave"}
    return {
        "tag": "deposit",
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "expect": {"intents": [intent]},
    }


def t_bridge_then_deposit(rng: random.Random, held_out: int) -> Row:
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
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(src, dst),
        "expect": {"intents": intents},
    }


def t_share_of_balance(rng: random.Random, held_out: int) -> Row:
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
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "balances": [{"chain": chain, "asset": asset, "amount": str(balance)}],
    }
    amount = (balance * share).quantize(Decimal("0.000001")).normalize()
    intent = {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": f"{amount:f}"}
    row["expect"] = {"intents": [intent]}
    return row


def t_all_but(rng: random.Random, held_out: int) -> Row:
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
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "balances": [{"chain": chain, "asset": "USDC", "amount": balance}],
        "expect": {"intents": [intent]},
    }


def t_correction(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    first, second = rng.sample([d for d in DIGITS if "," not in d[0]], 2)
    marker = rng.choice(
        ["no wait,", "actually", "i mean"] + (["scratch that,", "sorry, make it"] if held_out else [])
    )
    prompt = f"swap {first[0]} usdc for eth on {chain}, {marker} {second[0]}"
    intent = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": chain, "amount": second[1]}
    return {
        "tag": "correction",
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on(chain),
        "expect": {"intents": [intent]},
    }


def t_timed_or_conditional(rng: random.Random, held_out: int) -> Row:
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
        "prompt": wrap(rng, rng.choice(forms), held_out),
        "wallets": wallets_on(chain),
        "expect": {"refuse": True},
    }


def t_out_of_scope(rng: random.Random, held_out: int) -> Row:
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
        "wallets": wallets_on("base"),
        "expect": {"refuse": True},
    }


def t_zero_or_negative(rng: random.Random, held_out: int) -> Row:
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
        "wallets": wallets_on("base", "arbitrum"),
        "expect": {"refuse": True},
    }


def t_missing(rng: random.Random, held_out: int) -> Row:
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
        "prompt": wrap(rng, prompt, held_out),
        "wallets": wallets_on("ethereum", "base"),
        "expect": {"clarify": [kind]},
    }


def t_typo(rng: random.Random, held_out: int) -> Row:
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
        wallets = wallets_on(chain)
    else:
        intent = {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "base",
            "to_chain": "arbitrum",
            "amount": value,
        }
        wallets = wallets_on("base", "arbitrum")
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
