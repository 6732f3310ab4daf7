"""The dev2 set: requests typed the way people write in chat apps, invented for tuning (a dev set: read it,
print its failures, fix the reader by class). Its forms and templates are its own: dollar and Ξ amounts,
shares and whole balances, BNB Chain and Solana, slang verbs, chat openers and closers, corrections,
questions and talk, timed requests, and agents with motion verbs, portfolios, schedules and follow-ons.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from bench.understanding.forms import RECIPIENT, WALLET, Row, Template

SOLANA_WALLET = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
SOLANA_RECIPIENT = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
CHAINS = {"base": ("base",), "arbitrum": ("arbitrum", "arb"), "optimism": ("optimism", "op")}

OPENERS = [
    "",
    "",
    "",
    "heyy ",
    "yo yo ",
    "sup, ",
    "ok ",
    "pls could u ",
    "can u ",
    "i need to ",
    "lemme ",
    "hello! ",
    "gm fam, ",
    "so basically ",
    "alright, ",
    "quick q, ",
]
CLOSERS = [
    "",
    "",
    "",
    " thx fam",
    " tyyy",
    " \U0001f64f\U0001f3fc",
    " pls n thx",
    " cheers mate",
    " rn",
    " \U0001f4b8",
    " asap!!",
    " ty in advance",
    " much love",
    " 🔥🔥",
]
AMOUNTS = [
    ("75", "75"),
    ("1.5k", "1500"),
    ("1k", "1000"),
    ("two fifty", None),  # "two fifty" may be 250 or 2.50: asked, never guessed
    ("a hundred and fifty", "150"),
    ("0.75", "0.75"),
    ("2,000", "2000"),
    ("five hundred", "500"),
    ("1 000", None),  # a space inside a number is not one amount: asked
]


def chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPENERS) + text + rng.choice(CLOSERS)


def evm(*chains: str) -> list[dict[str, str]]:
    return [{"address": WALLET, "chain": chain} for chain in dict.fromkeys(chains)]


def swap_row(tag: str, prompt: str, chain: str, asset: str, to: str, value: str | None, **extra: Any) -> Row:
    if value is None:
        expect: dict[str, Any] = {"clarify": ["amount"]}
    else:
        expect = {
            "intents": [{"action": "swap", "asset": asset, "to_asset": to, "chain": chain, "amount": value}]
        }
    return {"tag": tag, "prompt": prompt, "wallets": evm(chain), "expect": expect, **extra}


def t_chat_swap(rng: random.Random, _: int) -> Row:
    chain = rng.choice(list(CHAINS))
    where = rng.choice(CHAINS[chain])
    asset, to = rng.choice((("USDC", "ETH"), ("DAI", "ETH"), ("ETH", "USDC")))
    text, value = rng.choice(AMOUNTS)
    pattern = rng.choice(
        [
            "swap {a} {s} to {t} on {c}",
            "on {c} swap {a} {s} for {t}",
            "over on {c}, trade {a} {s} for {t}",
            "{a} {s} -> {t} on {c}",
            "convert {a} {s} into {t} on {c}",
            "swap {s} {a} for {t} on {c}",
        ]
    )
    prompt = pattern.format(a=text, s=asset.lower(), t=to.lower(), c=where)
    return swap_row("chat-swap", chat(rng, prompt), chain, asset, to, value)


def t_usd(rng: random.Random, _: int) -> Row:
    chain = rng.choice(list(CHAINS))
    usd, eth = rng.choice((("250", "0.1"), ("500", "0.2"), ("1,000", "0.4"), ("1.25k", "0.5")))
    pattern = rng.choice(
        [
            "swap ${u} of eth for usdc on {c}",
            "sell ${u} worth of eth for usdc on {c}",
            "dump ${u} of my eth into usdc on {c}",
        ]
    )
    prices = [{"chain": chain, "asset": "ETH", "usd": "2500"}, {"chain": chain, "asset": "USDC", "usd": "1"}]
    prompt = chat(rng, pattern.format(u=usd, c=chain))
    return swap_row("usd", prompt, chain, "ETH", "USDC", eth, prices=prices)


def t_ether_sign(rng: random.Random, _: int) -> Row:
    chain = rng.choice(list(CHAINS))
    text, value = rng.choice((("\u039e0.25", "0.25"), ("0.5\u039e", "0.5"), ("\u039e 1.2", "1.2")))
    if rng.random() < 0.5:
        prompt = chat(rng, f"send {text} to {RECIPIENT} on {chain}")
        intent = {
            "action": "transfer",
            "asset": "ETH",
            "chain": chain,
            "amount": value,
            "recipient": RECIPIENT,
        }
        return {"tag": "ether-sign", "prompt": prompt, "wallets": evm(chain), "expect": {"intents": [intent]}}
    return swap_row("ether-sign", chat(rng, f"swap {text} for usdc on {chain}"), chain, "ETH", "USDC", value)


def t_share(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum"))
    asset = rng.choice(("USDC", "DAI"))
    words, share = rng.choice(
        (
            ("20% of my", "0.2"),
            ("50 percent of my", "0.5"),
            ("a quarter of my", "0.25"),
            ("half of my", "0.5"),
        )
    )
    balance = Decimal("800")
    amount = f"{(balance * Decimal(share)).normalize():f}"
    if rng.random() < 0.5:
        prompt = chat(rng, f"put {words} {asset.lower()} into aave on {chain}")
        intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": amount, "protocol": "aave"}
        expect: dict[str, Any] = {"intents": [intent]}
        tag = "share-deposit"
    else:
        prompt = chat(rng, f"swap {words} {asset.lower()} for eth on {chain}")
        expect = {
            "intents": [
                {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": amount}
            ]
        }
        tag = "share-swap"
    balances = [{"chain": chain, "asset": asset, "amount": str(balance)}]
    return {"tag": tag, "prompt": prompt, "wallets": evm(chain), "balances": balances, "expect": expect}


def t_whole(rng: random.Random, _: int) -> Row:
    chain = rng.choice(list(CHAINS))
    asset = rng.choice(("USDC", "DAI"))
    s = asset.lower()
    forms = [
        (f"swap all my {s} for eth on {chain}", "swap"),
        (f"swap every last {s} to eth on {chain}", "swap"),
        (f"dump my whole {s} balance into eth on {chain}", "swap"),
        (f"deposit all of my {s} into aave on {chain}", "deposit"),
        (f"max deposit {s} into aave on {chain}", "deposit"),
        (f"withdraw all my {s} from aave on {chain}", "withdraw"),
    ]
    prompt, action = rng.choice(forms)
    intent: dict[str, Any] = {"action": action, "asset": asset, "chain": chain, "amount": "max"}
    if action == "swap":
        intent["to_asset"] = "ETH"
    else:
        intent["protocol"] = "aave"
    return {
        "tag": f"whole-{action}",
        "prompt": chat(rng, prompt),
        "wallets": evm(chain),
        "expect": {"intents": [intent]},
    }


def t_bsc(rng: random.Random, _: int) -> Row:
    where = rng.choice(("bsc", "bnb chain", "BNB Chain", "binance smart chain"))
    text, value = rng.choice((("1", "1"), ("0.5", "0.5"), ("two", "2")))
    if rng.random() < 0.5:
        prompt = chat(rng, f"swap {text} bnb for usdt on {where}")
        return swap_row("bsc-swap", prompt, "bsc", "BNB", "USDT", value)
    text, amount = rng.choice((("100", "100"), ("two hundred", "200"), ("1.2k", "1200")))
    prompt = chat(rng, f"bridge {text} usdt from {where} to arbitrum")
    intent = {
        "action": "bridge",
        "asset": "USDT",
        "from_chain": "bsc",
        "to_chain": "arbitrum",
        "amount": amount,
    }
    return {
        "tag": "bsc-bridge",
        "prompt": prompt,
        "wallets": evm("bsc", "arbitrum"),
        "expect": {"intents": [intent]},
    }


def t_solana(rng: random.Random, _: int) -> Row:
    sol = {"address": SOLANA_WALLET, "chain": "solana"}
    choice = rng.randrange(3)
    if choice == 0:
        prompt = chat(rng, f"send 1.5 sol to {SOLANA_RECIPIENT} on solana")
        intent = {
            "action": "transfer",
            "asset": "SOL",
            "chain": "solana",
            "amount": "1.5",
            "recipient": SOLANA_RECIPIENT,
        }
        wallets = [sol]
    elif choice == 1:
        prompt = chat(
            rng, rng.choice(("bridge 100 usdc from base to solana", "move 100 usdc from base over to solana"))
        )
        intent = {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "base",
            "to_chain": "solana",
            "amount": "100",
        }
        wallets = [*evm("base"), sol]
    else:
        prompt = chat(rng, "bridge 40 usdc from solana to arbitrum")
        intent = {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": "solana",
            "to_chain": "arbitrum",
            "amount": "40",
        }
        wallets = [sol, *evm("arbitrum")]
    return {"tag": "solana", "prompt": prompt, "wallets": wallets, "expect": {"intents": [intent]}}


def t_slang(rng: random.Random, _: int) -> Row:
    chain = rng.choice(list(CHAINS))
    text, value = rng.choice((("75", "75"), ("1.5k", "1500"), ("five hundred", "500")))
    pattern = rng.choice(
        [
            "bag some eth with {a} usdc on {c}",
            "cop some eth w/ {a} usdc on {c}",
            "yeet {a} usdc into eth on {c}",
            "aping {a} usdc into eth on {c}",
            "flip {a} usdc into eth on {c}",
            "grab me some eth using {a} usdc on {c}",
        ]
    )
    return swap_row("slang", chat(rng, pattern.format(a=text, c=chain)), chain, "USDC", "ETH", value)


def t_correction(rng: random.Random, _: int) -> Row:
    chain = rng.choice(list(CHAINS))
    marker = rng.choice(
        ["wait, make that", "oops, make it", "nvm,", "no sorry", "errr actually", "hmm no,", "wait wait,"]
    )
    prompt = f"swap 100 usdc for eth on {chain}, {marker} 300"
    return swap_row("correction", chat(rng, prompt), chain, "USDC", "ETH", "300")


def t_talk(rng: random.Random, _: int) -> Row:
    prompt = rng.choice(
        [
            "what can you do",
            "is now a good time to buy eth?",
            "whats my usdc balance on base",
            "do you support solana",
            "wen moon",
            "gm fam",
            "ser what's the best yield rn",
            "can you explain bridging to me",
            "who made you",
            "ok cool",
            "hahaha",
            "you're the best",
            "thank you so much!",
            "buy me a lambo",
        ]
    )
    return {"tag": "talk", "prompt": prompt, "wallets": evm("base"), "expect": {"refuse": True}}


def t_timed(rng: random.Random, _: int) -> Row:
    core = "swap 1 eth to usdc on base"
    prompt, mention = rng.choice(
        [
            (f"{core} tmrw", "later"),
            (f"{core} at 5pm", "later"),
            (f"{core} every friday", "schedule"),
            (f"{core} when gas is low", "agent"),
            (f"once gas drops below 10 gwei {core}", "agent"),
            (f"{core} in an hour", "later"),
            (f"{core} if eth goes above 4k", "agent"),
        ]
    )
    return {
        "tag": "timed",
        "prompt": chat(rng, prompt),
        "wallets": evm("base"),
        "expect": {"refuse": True, "mention": mention},
    }


def t_multi(rng: random.Random, _: int) -> Row:
    src, dst = rng.sample(("base", "arbitrum", "optimism"), 2)
    link = rng.choice(
        [
            "then ape it into aave",
            "and once it lands, deposit it in aave",
            "; then supply it to aave",
            "& put it all in aave",
        ]
    )
    prompt = chat(rng, f"bridge 200 usdc from {src} to {dst} {link}")
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": src, "to_chain": dst, "amount": "200"},
        {"action": "deposit", "asset": "USDC", "chain": dst, "amount": "chained", "protocol": "aave"},
    ]
    return {"tag": "multi", "prompt": prompt, "wallets": evm(src, dst), "expect": {"intents": intents}}


INTENT_TEMPLATES_DEV2: list[tuple[Template, int, bool]] = [
    (t_chat_swap, 10, False),
    (t_usd, 5, False),
    (t_ether_sign, 4, False),
    (t_share, 5, False),
    (t_whole, 5, False),
    (t_bsc, 4, False),
    (t_solana, 4, False),
    (t_slang, 6, False),
    (t_correction, 5, False),
    (t_talk, 5, False),
    (t_timed, 5, False),
    (t_multi, 5, False),
]
