"""The dev8i set: /intent requests in chat-app phrasing for the classes the sealed3 held-out run still missed
after the fifth round (its class names and counts only; its rows were not read): corrections, questions
that are really requests beside real questions, transfers, out-of-scope asks, deposits, amount forms,
bridges, slang verbs and swaps in every word order. Written before the reader was changed for them, so its
first run is the "before" figure. The /agents half of the split is empty: that reader is tuned elsewhere.
"""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.forms import RECIPIENT, WALLET, Row, Template

CHAINS = {
    "base": ("base", "Base", "base mainnet"),
    "arbitrum": ("arbitrum", "arb", "arbitrum one"),
    "optimism": ("optimism", "op", "Optimism"),
    "polygon": ("polygon", "Polygon", "polygon pos"),
    "ethereum": ("ethereum", "mainnet", "L1"),
}
L2 = ("base", "arbitrum", "optimism")
OPEN = ["", "", "", "sup ", "heyy ", "ok ", "fam ", "quick q, ", "so ", "hello! ", "gm ser, ", "right so "]
CLOSE = ["", "", "", " ty!", " thanks", " 🙏🏼", " plz", " lmao", " 🔥", " cheers", " ok", " 🙂"]

# (text, value): amounts as typed; None where the words leave the number open (asked, never guessed).
AMOUNTS = [
    ("four hundred", "400"),
    ("a hundred and fifty", "150"),
    ("two and a half", "2.5"),
    ("1,5", "1.5"),
    ("2,000", "2000"),
    ("2.5k", "2500"),
    ("1m", "1000000"),
    ("5 grand", "5000"),
    ("ten thousand", "10000"),
    ("half a k", "500"),
    ("eighty", "80"),
    ("1 500", "1500"),
    ("0.75", "0.75"),
    (".5", "0.5"),
    ("a couple hundred", None),
    ("a bit of", None),
    ("a bunch of", None),
]
EXACT = [(text, value) for text, value in AMOUNTS if value is not None]


def chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPEN) + text + rng.choice(CLOSE)


def evm(*chains: str) -> list[dict[str, str]]:
    return [{"address": WALLET, "chain": chain} for chain in dict.fromkeys(chains)]


def swap(asset: str, to: str, chain: str, amount: str) -> dict[str, Any]:
    return {"action": "swap", "asset": asset, "to_asset": to, "chain": chain, "amount": amount}


def row(
    tag: str, prompt: str, chains: tuple[str, ...], intents: list[dict[str, Any]] | None, **extra: Any
) -> Row:
    expect: dict[str, Any] = {"intents": intents} if intents is not None else {"clarify": ["amount"]}
    return {"tag": tag, "prompt": prompt, "wallets": evm(*chains), "expect": expect, **extra}


def t_swap_orders(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice(EXACT)
    sold, bought = rng.choice((("USDC", "ETH"), ("ETH", "USDC"), ("DAI", "ETH"), ("USDC", "DAI")))
    pattern = rng.choice(
        [
            "convert {a} {s} to {b} on {c}",
            "exchange {a} {s} for {b} on {c}",
            "{c}: swap {a} {s} -> {b}",
            "swap {s} to {b}, {a} of it, on {c}",
            "i'd like {b} for {a} {s} on {c}",
            "turn {a} {s} into {b} on {c}",
            "{a} {s} => {b} on {c}",
            "on {c} i wanna swap {a} {s} for {b}",
            "make {a} {s} into {b} on {c}",
            "swap out {a} {s} for {b} on {c}",
            "{s} to {b} on {c}, {a}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=sold.lower(), b=bought.lower(), c=c))
    return row("swap-order", prompt, (chain,), [swap(sold, bought, chain, value)])


def t_amount_forms(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "swap {a} usdc to eth on {c}",
            "trade {a} usdc for eth on {c}",
            "sell {a} usdc for eth on {c}",
            "swap {a} usdc into dai on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, c=rng.choice(CHAINS[chain])))
    bought = "DAI" if "dai" in pattern else "ETH"
    intents = None if value is None else [swap("USDC", bought, chain, value)]
    return row("amount-form", prompt, (chain,), intents)


def t_bridge(rng: random.Random, _: int) -> Row:
    src, dst = rng.sample(list(CHAINS), 2)
    f, t = rng.choice(CHAINS[src]), rng.choice(CHAINS[dst])
    asset = rng.choice(("USDC", "DAI"))
    text, value = rng.choice(EXACT[:10])
    pattern = rng.choice(
        [
            "bridge {a} {s} from {f} to {t}",
            "port {a} {s} from {f} to {t}",
            "shift {a} {s} from {f} over to {t}",
            "{a} {s} {f} => {t}",
            "transfer {a} {s} from {f} to {t}",
            "need {a} {s} bridged from {f} to {t}",
            "bridge {a} {s} to {t} (it's on {f})",
            "from {f} to {t} bridge {a} {s}",
            "carry {a} {s} across to {t} from {f}",
            "can u bridge {a} {s} {f} to {t}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=asset.lower(), f=f, t=t))
    intent = {"action": "bridge", "asset": asset, "from_chain": src, "to_chain": dst, "amount": value}
    return row("bridge", prompt, (src, dst), [intent])


def t_correction(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    kind = rng.randrange(3)
    if kind == 0:
        marker = rng.choice(
            [
                "correction: {n}",
                "oops {n}",
                "my bad, {n}",
                "wait make that {n}",
                "err {n}",
                "nvm, {n} instead",
                "change that to {n}",
                "no sorry {n}",
                "sorry i meant {n}",
                "edit: {n}",
            ]
        )
        n, value = rng.choice((("300", "300"), ("75", "75"), ("2k", "2000"), ("40", "40")))
        prompt = f"swap 100 usdc for eth on {c}, {marker.format(n=n)}"
        return row("correction", chat(rng, prompt), (chain,), [swap("USDC", "ETH", chain, value)])
    if kind == 1:
        other = rng.choice([x for x in L2 if x != chain])
        o = rng.choice(CHAINS[other])
        marker = rng.choice(
            ["oops, on {o}", "my bad - {o}", "wait, {o} not {c}", "correction: on {o}", "err {o}"]
        )
        prompt = f"swap 100 usdc for eth on {c}. {marker.format(o=o, c=c)}"
        return row("correction", chat(rng, prompt), (chain, other), [swap("USDC", "ETH", other, "100")])
    old, new, asset = rng.choice((("dai", "eth", "ETH"), ("eth", "dai", "DAI")))
    marker = rng.choice(["i mean {n}", "sorry, {n} not {o}", "no wait {n}", "oops {n}", "actually {n}"])
    prompt = f"swap 100 usdc for {old} on {c} {marker.format(n=new, o=old)}"
    return row("correction", chat(rng, prompt), (chain,), [swap("USDC", asset, chain, "100")])


def t_question_request(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    pattern = rng.choice(
        [
            "can you please swap 60 usdc for eth on {c}?",
            "could u swap 60 usdc to eth on {c}",
            "would you swap 60 usdc into eth on {c}?",
            "can we swap 60 usdc for eth on {c}",
            "any way to swap 60 usdc to eth on {c}?",
            "is there a way to swap 60 usdc for eth on {c}?",
            "how do i swap 60 usdc to eth on {c}",
            "how can i swap 60 usdc for eth on {c}?",
            "am i able to swap 60 usdc to eth on {c}?",
            "can you do a swap of 60 usdc to eth on {c}?",
            "could you help me swap 60 usdc for eth on {c}?",
            "what if i swap 60 usdc to eth on {c}? do it",
        ]
    )
    return row(
        "question-request", chat(rng, pattern.format(c=c)), (chain,), [swap("USDC", "ETH", chain, "60")]
    )


def t_real_question(rng: random.Random, _: int) -> Row:
    prompt = rng.choice(
        [
            "what's the apy on aave",
            "whats the apy on aave for usdc on base?",
            "how much is eth right now",
            "what's the gas on arbitrum atm",
            "is aave safe?",
            "which chain has the cheapest fees?",
            "how long does a bridge from base to arbitrum take?",
            "what's my usdc balance on base",
            "how does bridging work",
            "why did my last swap fail?",
            "what is the eth price on base",
            "what rate does aave pay on dai?",
            "do you support solana?",
            "how much would i get for 1 eth in usdc?",
        ]
    )
    return {
        "tag": "question",
        "prompt": prompt,
        "wallets": evm("base"),
        "expect": {"refuse": True, "mention": "swap"},
    }


def t_transfer(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice(
        (("40", "40"), ("1,5", "1.5"), ("eighty", "80"), ("2.5k", "2500"), ("0.75", "0.75"))
    )
    pattern = rng.choice(
        [
            "transfer {a} usdc to {r} on {c}",
            "send over {a} usdc to {r} on {c}",
            "shoot {r} {a} usdc on {c}",
            "zap {a} usdc to {r} on {c}",
            "{r} gets {a} usdc on {c}",
            "pls send {r} {a} usdc, {c}",
            "wire {a} usdc to {r} on {c}",
            "move {a} usdc to {r} on {c}",
            "send {a} usdc on {c} -> {r}",
            "venmo {r} {a} usdc on {c}",
            "on {c}, pay {a} usdc to {r}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, r=RECIPIENT, c=c))
    intent = {"action": "transfer", "asset": "USDC", "chain": chain, "amount": value, "recipient": RECIPIENT}
    return row("transfer", prompt, (chain,), [intent])


def t_out_of_scope(rng: random.Random, _: int) -> Row:
    prompt = rng.choice(
        [
            "buy that bored ape nft for me",
            "list my nft on opensea",
            "mint 2 nfts from the new collection on base",
            "open a perp long on eth",
            "go 10x long eth on arbitrum",
            "short eth with 3x leverage",
            "open a leveraged position on btc",
            "set a limit order: sell 1 eth at 4000",
            "buy eth when it hits 2000 with a limit order",
            "set up a dca of 50 usdc into eth daily",
            "dca into eth with 200 usdc a month",
            "place a stop loss on my eth at 1800",
            "margin trade eth for me",
            "set up a trailing stop on my eth",
        ]
    )
    expect = {"refuse": True, "mention": "swap"}
    return {"tag": "out-of-scope", "prompt": prompt, "wallets": evm("base"), "expect": expect}


def t_deposit(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("400", "400"), ("2.5k", "2500"), ("two hundred", "200"), ("1,5", "1.5")))
    asset = "USDC" if chain == "base" else rng.choice(("USDC", "DAI"))
    pattern = rng.choice(
        [
            "deposit {a} {s} to aave on {c}",
            "park {a} {s} in aave on {c}",
            "add {a} {s} to aave on {c}",
            "stake {a} {s} on aave on {c}",
            "put {a} {s} to work on aave on {c}",
            "on {c}, lend out {a} {s} via aave",
            "aave deposit {a} {s} on {c}",
            "drop {a} {s} into aave on {c}",
            "supply aave with {a} {s} on {c}",
            "i wanna earn on {a} {s} in aave on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=asset.lower(), c=c))
    intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": value, "protocol": "aave"}
    return row("deposit", prompt, (chain,), [intent])


def t_slang(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("250", "250"), ("2k", "2000"), ("four hundred", "400")))
    buying = rng.random() < 0.6
    if buying:
        pattern = rng.choice(
            [
                "aping {a} usdc into eth on {c}",
                "smash {a} usdc into eth on {c}",
                "chuck {a} usdc into eth on {c}",
                "bag some eth with {a} usdc on {c}",
                "scoop eth with {a} usdc on {c}",
                "snag eth with {a} usdc on {c}",
                "fomo {a} usdc into eth on {c}",
                "send it: {a} usdc into eth on {c}",
                "full port {a} usdc into eth on {c}",
            ]
        )
        prompt = chat(rng, pattern.format(a=text, c=c))
        return row("slang", prompt, (chain,), [swap("USDC", "ETH", chain, value)])
    pattern = rng.choice(
        [
            "offload {e} eth for usdc on {c}",
            "bail out of {e} eth into usdc on {c}",
            "take profit on {e} eth into usdc on {c}",
            "unload {e} eth to usdc on {c}",
            "liquidate {e} eth into usdc on {c}",
        ]
    )
    amount = rng.choice(("0.5", "1", "2"))
    prompt = chat(rng, pattern.format(e=amount, c=c))
    return row("slang", prompt, (chain,), [swap("ETH", "USDC", chain, amount)])


INTENT_TEMPLATES_DEV8: list[tuple[Template, int, bool]] = [
    (t_swap_orders, 7, False),
    (t_amount_forms, 6, False),
    (t_bridge, 6, False),
    (t_correction, 6, False),
    (t_question_request, 4, False),
    (t_real_question, 3, False),
    (t_transfer, 5, False),
    (t_out_of_scope, 3, False),
    (t_deposit, 5, False),
    (t_slang, 5, False),
]
