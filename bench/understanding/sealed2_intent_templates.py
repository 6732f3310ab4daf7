"""/intent templates of the second sealed set. Each draws one request and the one answer the registry and
docs/decisions.md make right: exact intents, a clarification, or a refusal (with `mention` when the refusal
must point to an agent)."""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from bench.understanding.sealed2_forms import (
    AAVE_LENDS,
    CHAIN_NAMES,
    DECIMAL_COMMAS,
    NUMBER_WORDS,
    PAYEE,
    SEPARATED,
    STABLE,
    SUFFIXES,
    TRADABLE,
    Row,
    amount,
    chain_word,
    chat,
    exact,
    other_chain,
    wallets,
)

CHAINS = tuple(CHAIN_NAMES)


def swap(asset: str, to: str, chain: str, value: str) -> Row:
    return {"action": "swap", "asset": asset, "to_asset": to, "chain": chain, "amount": value}


def deposit(asset: str, chain: str, value: str, protocol: str = "aave") -> Row:
    return {"action": "deposit", "asset": asset, "chain": chain, "amount": value, "protocol": protocol}


def send(asset: str, chain: str, value: str) -> Row:
    return {"action": "transfer", "asset": asset, "chain": chain, "amount": value, "recipient": PAYEE}


def bridge(asset: str, source: str, target: str, value: str) -> Row:
    return {
        "action": "bridge",
        "asset": asset,
        "from_chain": source,
        "to_chain": target,
        "amount": value,
        "protocol": "across",  # EVM to EVM: across (cctp only with Solana at an end)
    }


def row(tag: str, prompt: str, chains: tuple[str, ...], expect: dict[str, Any], **extra: Any) -> Row:
    return {"tag": tag, "prompt": prompt, "wallets": wallets(*chains), **extra, "expect": expect}


def stable_on(rng: random.Random, chain: str) -> str:
    return rng.choice([s for s in STABLE if s in TRADABLE[chain]])


def one_step(rng: random.Random, forms: list[tuple[str, str]], eth_sized: bool) -> tuple[str, Row]:
    """A swap, transfer or deposit with an amount in one of `forms`: (body, intent)."""
    chain = rng.choice(CHAINS)
    text, value = amount(rng, forms)
    cw = chain_word(rng, chain)
    kind = rng.choice(("swap", "send", "deposit"))
    if eth_sized:
        if kind == "swap":
            to = stable_on(rng, chain)
            verb = rng.choice(("swap", "sell", "convert"))
            return f"{verb} {text} eth {rng.choice(('for', 'to', 'into'))} {to.lower()} on {cw}", swap(
                "ETH", to, chain, value
            )
        return f"send {text} eth to {PAYEE} on {cw}", send("ETH", chain, value)
    if kind == "deposit":
        chain, asset = rng.choice(AAVE_LENDS)
        return f"deposit {text} {asset.lower()} into aave on {chain_word(rng, chain)}", deposit(
            asset, chain, value
        )
    asset = stable_on(rng, chain)
    if kind == "send":
        return f"send {text} {asset.lower()} to {PAYEE} on {cw}", send(asset, chain, value)
    verb = rng.choice(("swap", "trade", "exchange", "convert"))
    return f"{verb} {text} {asset.lower()} for eth on {cw}", swap(asset, "ETH", chain, value)


def _chain_of(intent: Row) -> tuple[str, ...]:
    return tuple(c for c in (intent.get("chain"), intent.get("from_chain"), intent.get("to_chain")) if c)


def t_number_words(rng: random.Random, _: Any) -> Row:
    body, intent = one_step(rng, NUMBER_WORDS, eth_sized=False)
    return row("number-words", chat(rng, body), _chain_of(intent), {"intents": [intent]})


def t_decimal_comma(rng: random.Random, _: Any) -> Row:
    body, intent = one_step(rng, DECIMAL_COMMAS, eth_sized=True)
    return row("decimal-comma", chat(rng, body), _chain_of(intent), {"intents": [intent]})


def t_suffix(rng: random.Random, _: Any) -> Row:
    if rng.random() < 0.3:
        source = rng.choice(CHAINS)
        target = other_chain(rng, source)
        text, value = amount(rng, SUFFIXES + SEPARATED)
        body = f"bridge {text} usdc from {chain_word(rng, source)} over to {chain_word(rng, target)}"
        return row(
            "suffix", chat(rng, body), (source, target), {"intents": [bridge("USDC", source, target, value)]}
        )
    body, intent = one_step(rng, SUFFIXES + SEPARATED, eth_sized=False)
    return row("suffix", chat(rng, body), _chain_of(intent), {"intents": [intent]})


SHARES = [
    ("half my", 1, 2),
    ("half of my", 1, 2),
    ("a third of my", 1, 3),
    ("3/4 of my", 3, 4),
    ("25% of my", 1, 4),
    ("two thirds of my", 2, 3),
    ("a quarter of my", 1, 4),
    ("10% of my", 1, 10),
    ("60 % of my", 3, 5),
]


def t_fraction(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    pick = rng.random()
    if pick < 0.2:  # a written ratio or "half an" right before the asset is a quantity
        text = rng.choice(("1/2 eth", "half an eth", "1/4 eth"))
        value = "0.25" if text.startswith("1/4") else "0.5"
        to = stable_on(rng, chain)
        return row(
            "fraction",
            chat(rng, f"swap {text} for {to.lower()} on {cw}"),
            (chain,),
            {"intents": [swap("ETH", to, chain, value)]},
        )
    words, num, den = rng.choice(SHARES)
    if rng.random() < 0.5:
        asset, to = "ETH", stable_on(rng, chain)
        balance = rng.choice(("1.2", "3.6", "6", "0.6"))
    else:
        asset, to = stable_on(rng, chain), "ETH"
        balance = rng.choice(("240", "600", "1200", "3600", "9000"))
    body = f"{rng.choice(('swap', 'sell', 'convert'))} {words} {asset.lower()} for {to.lower()} on {cw}"
    if pick < 0.35:  # no balance known: the share cannot be sized, so it is asked
        return row("fraction", chat(rng, body), (chain,), {"clarify": ["amount"]})
    value = exact(Decimal(balance) * num / den)
    held = [{"chain": chain, "asset": asset, "amount": balance}]
    return row(
        "fraction", chat(rng, body), (chain,), {"intents": [swap(asset, to, chain, value)]}, balances=held
    )


def t_dollars(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    usd, dollars = rng.choice(
        (("$100", "100"), ("$250", "250"), ("$500", "500"), ("$1,000", "1000"), ("$1k", "1000"))
    )
    price = rng.choice(("2000", "2500", "4000"))
    of = rng.choice(("of eth", "worth of eth", "in eth", "of ether"))
    value = exact(Decimal(dollars) / Decimal(price))
    kind = rng.choice(("swap", "send", "bridge"))
    chains: tuple[str, ...]
    if kind == "bridge":
        target = other_chain(rng, chain)
        body = f"bridge {usd} {of} from {cw} to {chain_word(rng, target)}"
        intent, chains = bridge("ETH", chain, target, value), (chain, target)
    elif kind == "send":
        body, intent, chains = f"send {usd} {of} to {PAYEE} on {cw}", send("ETH", chain, value), (chain,)
    else:
        to = stable_on(rng, chain)
        body, intent, chains = (
            f"sell {usd} {of} for {to.lower()} on {cw}",
            swap("ETH", to, chain, value),
            (chain,),
        )
    if rng.random() < 0.2:  # no price known: the dollars cannot be sized, so they are asked
        return row("dollars", chat(rng, body), chains, {"clarify": ["amount"]})
    prices = [{"chain": c, "asset": "ETH", "usd": price} for c in chains]
    return row("dollars", chat(rng, body), chains, {"intents": [intent]}, prices=prices)


def t_all_but(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    asset = stable_on(rng, chain)
    keep_text, keep = rng.choice(
        (("50", "50"), ("100", "100"), ("twenty", "20"), ("1k", "1000"), ("12.5", "12.5"))
    )
    a = asset.lower()
    cw = chain_word(rng, chain)
    body = rng.choice(
        (
            f"swap all but {keep_text} {a} for eth on {cw}",
            f"swap everything except {keep_text} {a} for eth on {cw}",
            f"swap all my {a} for eth on {cw} but keep {keep_text}",
        )
    )
    pick = rng.random()
    if pick < 0.2:
        return row("all-but", chat(rng, body), (chain,), {"clarify": ["amount"]})
    balance = rng.choice(("1500", "2400.5", "5000")) if pick > 0.35 else exact(Decimal(keep) / 2)
    held = [{"chain": chain, "asset": asset, "amount": balance}]
    left = Decimal(balance) - Decimal(keep)
    if left <= 0:  # nothing would be left to swap: refused
        return row("all-but", chat(rng, body), (chain,), {"refuse": True}, balances=held)
    return row(
        "all-but",
        chat(rng, body),
        (chain,),
        {"intents": [swap(asset, "ETH", chain, exact(left))]},
        balances=held,
    )


def t_all(rng: random.Random, _: Any) -> Row:
    chain, asset = rng.choice(AAVE_LENDS)
    a = asset.lower()
    whole = rng.choice((f"all my {a}", f"all of my {a}", f"all the {a} i have", f"every {a} i've got"))
    pick = rng.random()
    if pick < 0.35:  # the destination must list the asset too (base has no USDT)
        target = rng.choice([c for c in CHAINS if c != chain and asset in TRADABLE[c]])
        body = f"bridge {whole} from {chain_word(rng, chain)} to {chain_word(rng, target)}"
        return row(
            "all", chat(rng, body), (chain, target), {"intents": [bridge(asset, chain, target, "max")]}
        )
    if pick < 0.7:
        body = f"put {whole} into aave on {chain_word(rng, chain)}"
        return row("all", chat(rng, body), (chain,), {"intents": [deposit(asset, chain, "max")]})
    body = f"swap {whole} to eth on {chain_word(rng, chain)}"
    return row("all", chat(rng, body), (chain,), {"intents": [swap(asset, "ETH", chain, "max")]})


TemplateFn = Callable[[random.Random, Any], Row]
