"""/intent templates of the sealed sets about amounts as people write them: shares of a balance, "all",
"all but N", dollar and Ξ amounts, whole positions, zero and negative amounts.

The answers follow the reading rules in docs/decisions.md ("Understanding requests", "Number forms",
"Fractions", "All but N"), never the parser's output; `held_out` adds forms only the sealed held-out set
uses.
"""

from __future__ import annotations

import random
from decimal import Decimal

from bench.understanding.forms import RECIPIENT, Row
from bench.understanding.sealed_forms import ETH_CHAINS, amounts, bridge_intent, chain_word, dress, intent_row


def s_share(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    asset = rng.choice(("USDC", "DAI"))
    balance = Decimal(rng.choice(("600", "1200", "2400", "90")))
    shares: list[tuple[str, Decimal | None]] = [
        ("half my", Decimal("0.5")),
        ("10% of my", Decimal("0.1")),
        ("50% of my", Decimal("0.5")),
        ("a quarter of my", Decimal("0.25")),
        ("100% of my", None),  # the whole balance is `max` (docs: 100% is max)
    ]
    if held_out:
        shares += [
            ("two thirds of my", Decimal(2) / 3),
            ("20 % of my", Decimal("0.2")),
            ("ten percent of my", Decimal("0.1")),
            ("150% of my", Decimal("1.5")),  # more than the whole: refused
        ]
    words, share = rng.choice(shares)
    s = asset.lower()
    verb = rng.choice([f"swap {words} {s} for eth on {chain}", f"deposit {words} {s} into aave on {chain}"])
    # Shares with no exact decimal form are applied as a ratio: 2/3 of 600 is 400.
    amount = "max" if share is None else f"{(balance * share).quantize(Decimal('0.000001')).normalize():f}"
    if verb.startswith("swap"):
        intent = {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": amount}
    else:
        intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": amount, "protocol": "aave"}
    expect: dict[str, object] = {"refuse": True} if share and share > 1 else {"intents": [intent]}
    balances = [{"chain": chain, "asset": asset, "amount": str(balance)}]
    return intent_row("share", dress(rng, verb, held_out), (chain,), expect, balances=balances)


def s_all(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    other = rng.choice([c for c in ("base", "arbitrum", "optimism") if c != chain])
    asset = rng.choice(("USDC", "DAI"))
    s = asset.lower()
    shapes = [
        (f"swap all my {s} for eth on {chain}", "swap"),
        (f"deposit all of my {s} into aave on {chain}", "deposit"),
        (f"bridge all my usdc from {chain} to {other}", "bridge"),
    ]
    if held_out:
        shapes += [
            (f"swap my entire {s} balance for eth on {chain}", "swap"),
            (f"bridge everything i have in usdc from {chain} to {other}", "bridge"),
        ]
    prompt, action = rng.choice(shapes)
    if action == "swap":
        intent = {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": "max"}
    elif action == "deposit":
        intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": "max", "protocol": "aave"}
    else:
        intent = bridge_intent("USDC", chain, other, "max")
    return intent_row("all", dress(rng, prompt, held_out), (chain, other), {"intents": [intent]})


def s_all_but(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    balance, keep = rng.choice((("800", "100"), ("1500", "250"), ("60", "15"), ("100", "100")))
    shapes = [f"swap all but {keep} usdc for eth on {chain}"]
    if held_out:
        shapes.append(f"swap all my usdc except {keep} for eth on {chain}")
    known = rng.random() < 0.8
    left = Decimal(balance) - Decimal(keep)
    intent = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": chain, "amount": f"{left:f}"}
    # Without the balance the remainder is not known, so it is asked; keeping all of it leaves nothing.
    expect: dict[str, object] = {"intents": [intent]} if known else {"clarify": ["amount"]}
    if known and left <= 0:
        expect = {"refuse": True}
    extra = {"balances": [{"chain": chain, "asset": "USDC", "amount": balance}]} if known else {}
    return intent_row("all-but", dress(rng, rng.choice(shapes), held_out), (chain,), expect, **extra)


def s_dollars(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(ETH_CHAINS)
    other = rng.choice([c for c in ETH_CHAINS if c != chain])
    usd_text, usd = rng.choice((("$500", 500), ("$1,000", 1000), ("$2k", 2000), ("$250", 250), ("$100", 100)))
    price = rng.choice((2000, 2500, 4000))
    of = rng.choice(["of", "worth of"])
    money = f"{usd_text} {of} eth"
    if held_out and rng.random() < 0.4:
        money = rng.choice([f"{usd} dollars of eth", f"{usd} bucks worth of eth"])
    shapes = [
        (f"send {money} to {RECIPIENT} on {chain}", "transfer"),
        (f"swap {money} for usdc on {chain}", "swap"),
        (f"bridge {money} from {chain} to {other}", "bridge"),
    ]
    prompt, action = rng.choice(shapes)
    amount = f"{(Decimal(usd) / Decimal(price)).normalize():f}"
    if action == "transfer":
        intent = {
            "action": "transfer",
            "asset": "ETH",
            "chain": chain,
            "amount": amount,
            "recipient": RECIPIENT,
        }
    elif action == "swap":
        intent = {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": chain, "amount": amount}
    else:
        intent = bridge_intent("ETH", chain, other, amount)
    # A dollar amount is sized with a price the service knows; with none it is asked, never guessed.
    if rng.random() < 0.2:
        return intent_row("dollars", dress(rng, prompt, held_out), (chain, other), {"clarify": ["amount"]})
    prices = [{"chain": c, "asset": "ETH", "usd": str(price)} for c in (chain, other)]
    return intent_row(
        "dollars", dress(rng, prompt, held_out), (chain, other), {"intents": [intent]}, prices=prices
    )


def s_ether_sign(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(ETH_CHAINS)
    other = rng.choice([c for c in ETH_CHAINS if c != chain])
    text, value = rng.choice((("Ξ0.5", "0.5"), ("Ξ1.25", "1.25"), ("Ξ3", "3"), ("Ξ0.05", "0.05")))
    if held_out and rng.random() < 0.4:
        text, value = rng.choice((("Ξ 2", "2"), ("Ξ0.75", "0.75")))
    shapes = [
        (f"send {text} to {RECIPIENT} on {chain}", "transfer"),
        (f"bridge {text} from {chain} to {other}", "bridge"),
        (f"swap {text} for usdc on {chain}", "swap"),
    ]
    prompt, action = rng.choice(shapes)
    if action == "transfer":
        intent = {
            "action": "transfer",
            "asset": "ETH",
            "chain": chain,
            "amount": value,
            "recipient": RECIPIENT,
        }
    elif action == "swap":
        intent = {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": chain, "amount": value}
    else:
        intent = bridge_intent("ETH", chain, other, value)
    return intent_row("ether-sign", dress(rng, prompt, held_out), (chain, other), {"intents": [intent]})


def s_position(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("ethereum", "base", "arbitrum", "optimism"))
    asset = rng.choice(("USDC", "DAI"))
    s, where = asset.lower(), chain_word(rng, chain, held_out)
    withdraw = {"action": "withdraw", "asset": asset, "chain": chain, "amount": "max", "protocol": "aave"}
    cash_all = {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": chain, "amount": "max"}
    # exit, close and cash out take the whole position when no amount is written; "cash out" names a swap
    # unless a protocol is named (docs, "Slang verbs").
    shapes: list[tuple[str, dict[str, str]]] = [
        (f"exit my aave {s} position on {where}", withdraw),
        (f"cash out my eth to usdc on {where}", cash_all),
        (f"cash out my {s} from aave on {where}", withdraw),
    ]
    if held_out:
        text, value = rng.choice(amounts(held_out))
        shapes += [
            (f"close my aave {s} position on {where}", withdraw),
            (f"get out of my aave {s} position on {where}", withdraw),
            (f"cash out {text} eth into usdc on {where}", {**cash_all, "amount": value}),
        ]
    prompt, intent = rng.choice(shapes)
    return intent_row("position", dress(rng, prompt, held_out), (chain,), {"intents": [intent]})


def s_zero(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    asset = rng.choice(("usdc", "dai"))
    text = rng.choice(["0", "0.0", "-5", "zero"] + (["−3", "-0.25", "0,00"] if held_out else []))
    prompt = rng.choice(
        [
            f"send {text} {asset} to {RECIPIENT} on {chain}",
            f"swap {text} {asset} for eth on {chain}",
            f"deposit {text} {asset} into aave on {chain}",
        ]
    )
    return intent_row("zero", dress(rng, prompt, held_out), (chain,), {"refuse": True})
