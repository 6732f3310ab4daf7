"""The third sealed set's /intent templates for what must not be planned now, and for slips of the fingers.

Waiting transactions (a time or a condition), out-of-scope requests, questions and chit-chat get no intents;
zero, negative and over-100 % amounts are refused; a request with a typo in its verb is still the request
(a question about the typo is also accepted).
"""

from __future__ import annotations

import random

from bench.understanding.sealed3_forms import Row, amount_for, say_asset, say_chain, typo, wallets_on, wrap
from bench.understanding.sealed3_intents import pair, row, swap, with_amount


def t_timed(rng: random.Random, held_out: int) -> Row:
    """A one-off time: not plannable now (no agent fits, so no pointer is required)."""
    chain, a, b = pair(rng)
    text, _ = amount_for(rng, a)
    when = rng.choice(
        ("tomorrow", "tmrw morning", "at 9pm", "in 2 hours", "on friday", "tonight", "next week")
    )
    core = f"swap {with_amount(text, say_asset(rng, a))} to {say_asset(rng, b)} on {say_chain(rng, chain)}"
    body = f"{core} {when}" if rng.random() < 0.6 else f"{when} {core}"
    return row(
        "one-off time", wrap(rng, body, lead=body.startswith("swap")), wallets_on(chain), {"refuse": True}
    )


def t_repeating(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    text, _ = amount_for(rng, a)
    when = rng.choice(("every monday", "every day", "each week", "every 2 weeks", "daily at noon"))
    body = f"{when} swap {with_amount(text, say_asset(rng, a))} into {say_asset(rng, b)} on {say_chain(rng, chain)}"
    return row(
        "repeating time", wrap(rng, body, lead=False), wallets_on(chain), {"refuse": True, "mention": "agent"}
    )


def t_conditional(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    text, _ = amount_for(rng, a)
    cond = rng.choice(
        (
            "if eth drops below 2k",
            "once btc hits 100k",
            "when eth is above 4,000",
            "if gas is under 5 gwei",
            "as soon as eth dips 10%",
        )
    )
    core = f"swap {with_amount(text, say_asset(rng, a))} for {say_asset(rng, b)} on {say_chain(rng, chain)}"
    body = f"{cond}, {core}" if rng.random() < 0.5 else f"{core} {cond}"
    return row(
        "conditional",
        wrap(rng, body, lead=body.startswith("swap")),
        wallets_on(chain),
        {"refuse": True, "mention": "agent"},
    )


OUT_OF_SCOPE = (
    "mint me that new pudgy penguin nft",
    "open a 20x long on eth with 500 usdc",
    "short btc 5x on arbitrum",
    "place a limit order to buy eth at 2800",
    "set a stop loss on my eth at 2500",
    "dca 100 usdc into eth every week",
    "buy the bored ape floor for 10 eth",
    "put 1k usdc into a perp long sol 10x",
)
QUESTIONS = (
    "what's the apy on aave usdc rn?",
    "how much eth do i have on base",
    "what is a bridge lol",
    "which chain has the cheapest gas today?",
    "is usdc safer than usdt?",
    "how does aave even work",
    "why did my swap fail yesterday",
    "should i bridge to base or arbitrum?",
    "where can i see my balance",
    "whats the price of eth",
)
CHAT = (
    "gm frens ☀️",
    "lol eth is pumping 🚀🚀",
    "thx for the help earlier!!",
    "wen moon",
    "ngl this bear market is brutal",
    "ok cool",
    "hahaha nice",
    "good night everyone 😴",
    "i'm so rekt rn 😭",
    "you're the best bot",
)


def t_out_of_scope(rng: random.Random, held_out: int) -> Row:
    text = rng.choice(OUT_OF_SCOPE)
    return row("out of scope", wrap(rng, text), wallets_on("ethereum", "arbitrum"), {"refuse": True})


def t_question(rng: random.Random, held_out: int) -> Row:
    text = rng.choice(QUESTIONS)
    return row("question", rng.choice(("", "hey ", "quick q: ")) + text, wallets_on("base"), {"refuse": True})


def t_chat(rng: random.Random, held_out: int) -> Row:
    text = rng.choice(CHAT)
    return row("chit-chat", text, wallets_on(rng.choice(("base", "ethereum"))), {"refuse": True})


def t_bad_amount(rng: random.Random, held_out: int) -> Row:
    """Zero, a negative number or more than the whole balance: refused with a reason."""
    chain, a, b = pair(rng)
    amount = rng.choice(("0", "0.0", "-50", "-0.5", "150% of my", "zero", "200% of my"))
    body = f"swap {amount} {say_asset(rng, a)} to {say_asset(rng, b)} on {say_chain(rng, chain)}"
    balances = [{"chain": chain, "asset": a, "amount": "1000"}]
    return row(
        "zero, negative or over 100 %",
        wrap(rng, body),
        wallets_on(chain),
        {"refuse": True},
        balances=balances,
    )


def t_typo(rng: random.Random, held_out: int) -> Row:
    """A slip in the verb; the amount, tokens and chain are written right."""
    chain, a, b = pair(rng)
    text, value = amount_for(rng, a)
    verb = typo(rng, rng.choice(("swap", "convert", "exchange")))
    body = f"{verb} {with_amount(text, say_asset(rng, a))} to {say_asset(rng, b)} on {say_chain(rng, chain)}"
    expect = {"intents": [swap(chain, a, b, value)], "ask_ok": True}
    return row("typo", wrap(rng, body), wallets_on(chain), expect)
