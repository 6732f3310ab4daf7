"""The dev7i set's templates for requests that are not plain trades: requests put as questions, transfers,
talk the service does not do, and amounts it must refuse (bench/understanding/dev7_templates.py lists them)."""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.dev7_forms import CHAINS, L2, chat, evm, row, swap
from bench.understanding.forms import RECIPIENT, Row


def t_question_request(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    pattern = rng.choice(
        [
            "could you swap 150 usdc to eth on {c}?",
            "can i swap 150 usdc for eth on {c}?",
            "is it possible to swap 150 usdc into eth on {c}",
            "would you be able to swap 150 usdc for eth on {c}?",
            "help me swap 150 usdc to eth on {c}",
            "i want to swap 150 usdc for eth on {c}",
            "any chance you could swap 150 usdc to eth on {c}?",
            "mind swapping 150 usdc for eth on {c}?",
            "how about swapping 150 usdc to eth on {c}?",
        ]
    )
    return row(
        "question-request", chat(rng, pattern.format(c=c)), (chain,), [swap("USDC", "ETH", chain, "150")]
    )


def t_transfer(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("25", "25"), ("0,5", "0.5"), ("a hundred", "100"), ("1.5k", "1500")))
    pattern = rng.choice(
        [
            "send {a} usdc to {r} on {c}",
            "pay {r} {a} usdc on {c}",
            "tip {r} {a} usdc on {c}",
            "give {r} {a} usdc over on {c}",
            "{a} usdc to {r} on {c} pls",
            "on {c} send {r} {a} usdc",
            "can you send {a} usdc on {c} to {r}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, r=RECIPIENT, c=c))
    intent = {"action": "transfer", "asset": "USDC", "chain": chain, "amount": value, "recipient": RECIPIENT}
    return row("transfer", prompt, (chain,), [intent])


def t_talk(rng: random.Random, _: int) -> Row:
    prompt, mention = rng.choice(
        [
            ("what's the apy on aave usdc rn", "swap"),
            ("how much eth do i have on base", "swap"),
            ("whats my balance", "swap"),
            ("is arb cheaper than base for swaps?", "swap"),
            ("mint me that new nft drop", "swap"),
            ("open a 5x long on eth", "swap"),
            ("short btc with 20x leverage", "swap"),
            ("place a limit order to buy eth at 2000", "swap"),
            ("dca 100 usdc into eth every week", "schedule"),
            ("lol ok", ""),
            ("you there?", ""),
            ("what's the price of eth", "swap"),
        ]
    )
    expect: dict[str, Any] = {"refuse": True}
    if mention:
        expect["mention"] = mention
    return {"tag": "out-of-scope", "prompt": prompt, "wallets": evm("base"), "expect": expect}


def t_bad_amount(rng: random.Random, _: int) -> Row:
    prompt = rng.choice(
        [
            "swap 0 usdc for eth on base",
            "swap -20 usdc to eth on base",
            "bridge 0.0 usdc from base to arb",
            "swap 120% of my usdc for eth on base",
            "send minus 5 usdc to " + RECIPIENT + " on base",
            "deposit zero usdc into aave on base",
        ]
    )
    balances = [{"chain": "base", "asset": "USDC", "amount": "900"}]
    return {
        "tag": "zero-negative-over",
        "prompt": prompt,
        "wallets": evm("base", "arbitrum"),
        "balances": balances,
        "expect": {"refuse": True},
    }
