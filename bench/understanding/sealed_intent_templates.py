"""/intent templates of the sealed sets: each draws one request and the one answer its words call for
(the amount templates are in sealed_amount_templates.py).

The answers follow the contract and the reading rules in docs/decisions.md ("Understanding requests"),
never the parser's output. `held_out` adds forms only the sealed held-out set uses; templates marked
held-out only in SEALED_INTENT_TEMPLATES never reach the sealed dev set.
"""

from __future__ import annotations

import random

from bench.understanding.forms import RECIPIENT, Row
from bench.understanding.sealed_amount_templates import (
    s_all,
    s_all_but,
    s_dollars,
    s_ether_sign,
    s_position,
    s_share,
    s_zero,
)
from bench.understanding.sealed_forms import (
    AAVE_CHAINS,
    ETH_CHAINS,
    SOL_RECIPIENT,
    STABLES,
    SealedTemplate,
    amounts,
    bridge_intent,
    chain_word,
    dress,
    intent_row,
)

EVM = ("ethereum", "base", "arbitrum", "optimism", "polygon", "bsc")


def s_transfer(rng: random.Random, held_out: bool) -> Row:
    if rng.random() < 0.2:
        chain, asset, to = "solana", rng.choice(("USDC", "SOL")), SOL_RECIPIENT
    else:
        chain = rng.choice(EVM)
        asset, to = rng.choice(STABLES[chain]), RECIPIENT
    text, value = rng.choice(amounts(held_out))
    verb = rng.choice(["send", "transfer", "pay"] + (["send over", "tip"] if held_out else []))
    where = chain_word(rng, chain, held_out)
    shapes = [
        f"{verb} {text} {asset.lower()} to {to} on {where}",
        f"on {where}, {verb} {text} {asset.lower()} to {to}",
    ]
    if held_out:
        shapes.append(f"pay {to} {text} {asset.lower()} on {where}")
    intent = {"action": "transfer", "asset": asset, "chain": chain, "amount": value, "recipient": to}
    prompt = rng.choice(shapes)
    prompt = dress(rng, prompt, held_out, framing=not prompt.startswith("on "))
    return intent_row("transfer", prompt, (chain,), {"intents": [intent]})


def s_swap(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("ethereum", "base", "arbitrum", "optimism", "polygon", "bsc"))
    pool = STABLES[chain] + (("ETH",) if chain in ETH_CHAINS else ())
    asset, to = rng.sample(pool, 2)
    text, value = rng.choice(amounts(held_out))
    verb = rng.choice(["swap", "trade", "convert", "exchange"] + (["switch", "change"] if held_out else []))
    link = rng.choice(["for", "to", "into"] + (["->"] if held_out else []))
    where = chain_word(rng, chain, held_out)
    a, t = asset.lower(), to.lower()
    shapes = [f"{verb} {text} {a} {link} {t} on {where}", f"on {where}, {verb} {text} {a} {link} {t}"]
    if held_out:
        shapes += [f"{verb} {text} {a} on {where} {link} {t}", f"turn {text} {a} into {t} on {where}"]
    intent = {"action": "swap", "asset": asset, "to_asset": to, "chain": chain, "amount": value}
    prompt = rng.choice(shapes)
    prompt = dress(rng, prompt, held_out, framing=not prompt.startswith("on "))
    return intent_row("swap", prompt, (chain,), {"intents": [intent]})


def s_slang(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism"))
    asset = rng.choice(("USDC", "DAI"))
    text, value = rng.choice(amounts(held_out))
    where = chain_word(rng, chain, held_out)
    # Each names what is spent (the amount's asset) and what is received (ETH): docs, "Slang verbs".
    shapes = [
        "grab some eth with {a} {s} on {c}",
        "yeet {a} {s} into eth on {c}",
        "offload {a} {s} for eth on {c}",
    ]
    if held_out:
        shapes += [
            "pick up some eth with {a} {s} on {c}",
            "buy {a} {s} worth of eth on {c}",
            "gimme eth for {a} {s} on {c}",
        ]
    prompt = rng.choice(shapes).format(a=text, s=asset.lower(), c=where)
    intent = {"action": "swap", "asset": asset, "to_asset": "ETH", "chain": chain, "amount": value}
    return intent_row("slang", dress(rng, prompt, held_out), (chain,), {"intents": [intent]})


def s_bridge(rng: random.Random, held_out: bool) -> Row:
    if rng.random() < 0.25:
        other = rng.choice(("ethereum", "base", "arbitrum", "optimism", "polygon"))
        src, dst = rng.sample(("solana", other), 2)
        asset = "USDC"
    else:
        src, dst = rng.sample(EVM, 2)
        asset = "USDC" if {src, dst} & {"polygon", "bsc"} else rng.choice(("USDC", "ETH"))
    text, value = rng.choice(amounts(held_out))
    verb = rng.choice(["bridge", "move", "send"] + (["shift", "transfer"] if held_out else []))
    a, s, d = asset.lower(), chain_word(rng, src, held_out), chain_word(rng, dst, held_out)
    shapes = [f"{verb} {text} {a} from {s} to {d}", f"from {s} to {d}, {verb} {text} {a}"]
    if held_out:
        shapes += [f"{verb} {text} {a} {s} -> {d}", f"{verb} {text} {a} over to {d} from {s}"]
    expect: dict[str, object] = {"intents": [bridge_intent(asset, src, dst, value)]}
    prompt = rng.choice(shapes)
    prompt = dress(rng, prompt, held_out, framing=not prompt.startswith("from "))
    return intent_row("bridge", prompt, (src, dst), expect)


def s_lending(rng: random.Random, held_out: bool) -> Row:
    text, value = rng.choice(amounts(held_out))
    if rng.random() < 0.2:
        # Spark lends on Ethereum only: the one chain the protocol and the wallet share.
        chain, protocol, asset = "ethereum", "spark", "DAI"
        deposit = rng.random() < 0.5
        prompt = f"deposit {text} dai into spark" if deposit else f"withdraw {text} dai from spark"
    else:
        chain, protocol = rng.choice(AAVE_CHAINS), "aave"
        asset = rng.choice(STABLES[chain])
        deposit = rng.random() < 0.5
        where, s = chain_word(rng, chain, held_out), asset.lower()
        if deposit:
            shapes = [f"deposit {text} {s} into aave on {where}", f"supply {text} {s} to aave on {where}"]
            shapes += [f"put {text} {s} into aave on {where}"] if held_out else []
        else:
            shapes = [f"withdraw {text} {s} from aave on {where}", f"pull {text} {s} out of aave on {where}"]
            shapes += [f"take {text} {s} out of aave on {where}"] if held_out else []
        prompt = rng.choice(shapes)
    intent = {
        "action": "deposit" if deposit else "withdraw",
        "asset": asset,
        "chain": chain,
        "amount": value,
        "protocol": protocol,
    }
    return intent_row("lending", dress(rng, prompt, held_out), (chain,), {"intents": [intent]})


def s_correction(rng: random.Random, held_out: bool) -> Row:
    chain, other = rng.sample(("base", "arbitrum", "optimism"), 2)
    # Plain amounts with distinct values, so the correction always changes the number.
    plain = [a for a in amounts(False) if "," not in a[0] and not a[0].startswith(("about", "~"))]
    (first, _), (second, second_value) = rng.sample(plain, 2)
    marker = rng.choice(
        ["no wait,", "actually", "sorry,"] + (["wait no,", "correction:", "rather"] if held_out else [])
    )
    swap = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": chain, "amount": second_value}
    base = f"swap {first} usdc for eth on {chain}"
    shapes: list[tuple[str, list[dict[str, str]]]] = [
        (f"{base}, {marker} {second}", [swap]),
        (f"swap {second} usdc for eth on {other}, {marker} on {chain}", [swap]),
        (
            f"{base}. scratch that, bridge {second} usdc from {chain} to {other}",
            [bridge_intent("USDC", chain, other, second_value)],
        ),
    ]
    if held_out:
        deposit = {
            "action": "deposit",
            "asset": "USDC",
            "chain": other,
            "amount": "chained",
            "protocol": "aave",
        }
        shapes += [
            (f"swap {second} usdc for eth on {chain}, {marker} for dai", [{**swap, "to_asset": "DAI"}]),
            (
                f"{base}. never mind, bridge {second} usdc from {chain} to {other}",
                [bridge_intent("USDC", chain, other, second_value)],
            ),
            (
                f"bridge {second} usdc from {chain} to {other} then swap it for eth, no wait, deposit it into aave",
                [bridge_intent("USDC", chain, other, second_value), deposit],
            ),
        ]
    prompt, intents = rng.choice(shapes)
    return intent_row("correction", dress(rng, prompt, held_out), (chain, other), {"intents": intents})


def s_link(rng: random.Random, held_out: bool) -> Row:
    src, dst = rng.sample(ETH_CHAINS, 2)
    text, value = rng.choice(amounts(held_out))
    bridge = bridge_intent("USDC", src, dst, value)
    swap_after = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": dst, "amount": "chained"}
    deposit_after = {
        "action": "deposit",
        "asset": "USDC",
        "chain": dst,
        "amount": "chained",
        "protocol": "aave",
    }
    swap_first = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": src, "amount": value}
    shapes: list[tuple[str, list[dict[str, str]]]] = [
        (f"bridge {text} usdc from {src} to {dst} and swap it for eth", [bridge, swap_after]),
        (
            f"swap {text} usdc for eth on {src} then bridge it to {dst}",
            [swap_first, bridge_intent("ETH", src, dst, "chained")],
        ),
    ]
    if held_out:
        shapes += [
            (
                f"after bridging {text} usdc from {src} to {dst}, deposit it into aave",
                [bridge, deposit_after],
            ),
            (f"deposit into aave after bridging {text} usdc from {src} to {dst}", [bridge, deposit_after]),
            (f"bridge {text} usdc from {src} to {dst}, once it lands swap it to eth", [bridge, swap_after]),
        ]
    prompt, intents = rng.choice(shapes)
    return intent_row("link", dress(rng, prompt, held_out), (src, dst), {"intents": intents})


def s_wait(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum"))
    core = rng.choice(
        [
            f"swap 1 eth to usdc on {chain}",
            f"bridge 200 usdc from {chain} to optimism",
            f"send 50 usdc to {RECIPIENT} on {chain}",
        ]
    )
    # (phrase, is it a condition or a repeat, for which an agent fits and the refusal says so)
    waits = [
        ("tomorrow morning", False),
        ("tonight", False),
        ("at 6pm", False),
        ("on friday", False),
        ("every day", True),
        ("if eth goes above 4k", True),
        ("when btc hits 100k", True),
        ("once gas is under 10 gwei", True),
    ]
    if held_out:
        waits += [
            ("this weekend", False),
            ("in 30 minutes", False),
            ("next week", False),
            ("every month", True),
            ("unless eth drops below 3k", True),
            ("as soon as eth dips under 3,500", True),
        ]
    phrase, agent = rng.choice(waits)
    first = rng.random() < 0.4
    prompt = dress(rng, f"{phrase}, {core}" if first else f"{core} {phrase}", held_out, framing=not first)
    expect: dict[str, object] = {"refuse": True, **({"mention": "agent"} if agent else {})}
    return intent_row("wait", prompt, (chain, "optimism"), expect)


def s_scope(rng: random.Random, held_out: bool) -> Row:
    asset = rng.choice(("eth", "btc", "sol"))
    chain = rng.choice(("base", "arbitrum", "ethereum"))
    n = rng.choice(("3", "5", "10", "20"))
    asks = [
        f"buy a {rng.choice(('punk', 'pudgy penguin', 'milady'))} nft",
        f"open a {n}x long on {asset}",
        f"place a limit order for {asset} at {rng.choice(('2500', '90k', '150'))}",
        f"dca {n}0 usdc into {asset} every week",
    ]
    questions = [
        f"what's my {asset} balance on {chain}",
        f"how much gas does a swap cost on {chain}",
        "what is aave",
    ]
    chat = ["lol", "gm", "who are you", "nice one", "ok cool"]
    if held_out:
        asks += [
            f"list my {rng.choice(('punk', 'azuki'))} on opensea",
            f"go {n}x short on {asset}",
            f"set a stop loss for my {asset} at {rng.choice(('2k', '80k', '120'))}",
        ]
        questions += [
            f"is {asset} going up",
            f"should i bridge to {chain}",
            f"what's the best yield for {asset}",
        ]
        chat += ["wen moon", "haha ok", "you're the best", "thanks for the help", "hello?"]
    # Out of scope: no intents and no question that treats chit-chat as a transaction. Requests get the
    # usual filler; a question keeps its opening word, as people write one.
    draw = rng.random()
    if draw < 0.2:
        prompt = rng.choice(chat)
    elif draw < 0.55:
        prompt = rng.choice(questions) + rng.choice(["", "?", "??", " pls", " ser"])
    else:
        prompt = dress(rng, rng.choice(asks), held_out)
    return intent_row("scope", prompt, (chain,), {"refuse": True})


def s_typo(rng: random.Random, held_out: bool) -> Row:
    text, value = rng.choice(amounts(False)[:7])
    swap = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": "arbitrum", "amount": value}
    send = {"action": "transfer", "asset": "USDC", "chain": "base", "amount": value, "recipient": RECIPIENT}
    deposit = {"action": "deposit", "asset": "USDC", "chain": "ethereum", "amount": value, "protocol": "aave"}
    # Misspellings a reader of English still reads; a reader may also ask, never read another word.
    shapes: list[tuple[str, dict[str, str]]] = [
        (f"sned {text} usdc to {RECIPIENT} on base", send),
        (f"depost {text} usdc into aave on etherium", deposit),
        (f"brigde {text} usdc from base to arbitrum", bridge_intent("USDC", "base", "arbitrum", value)),
    ]
    if held_out:
        shapes += [
            (f"tranfer {text} usdc to {RECIPIENT} on base", send),
            (f"swap {text} usdc for eth on arbitrm", swap),
            (f"swapp {text} usdc for eth on arbitrum", swap),
            (f"brige {text} usdc from base to optimsm", bridge_intent("USDC", "base", "optimism", value)),
        ]
    prompt, intent = rng.choice(shapes)
    chains = ("base", "arbitrum", "ethereum", "optimism")
    return intent_row("typo", dress(rng, prompt, held_out), chains, {"intents": [intent], "ask_ok": True})


def s_ask(rng: random.Random, held_out: bool) -> Row:
    text, _ = rng.choice(amounts(False)[:7])
    shapes = [
        ("swap usdc for eth on base", "amount", ("base",)),
        (f"send {text} usdc to {RECIPIENT}", "chain", ("base", "arbitrum")),
        (f"bridge {text} usdc to optimism", "chain", ("base", "arbitrum", "optimism")),
        (f"bridge {text} usdc from base", "chain", ("base", "arbitrum")),
        (f"swap {text} usdc for {rng.choice(('xqzt', 'plonkcoin', 'ffrr'))} on base", "asset", ("base",)),
    ]
    if held_out:
        shapes += [
            ("swap some usdc for eth on arbitrum", "amount", ("arbitrum",)),
            ("deposit a bit of dai into aave on base", "amount", ("base",)),
            (f"send usdc to {RECIPIENT} on base", "amount", ("base",)),
        ]
    prompt, kind, chains = rng.choice(shapes)
    return intent_row("ask", dress(rng, prompt, held_out), chains, {"clarify": [kind]})


def s_polite_question(rng: random.Random, held_out: bool) -> Row:
    """A request framed as a question is a request ("can you", "could I", "would you" open requests)."""
    chain = rng.choice(("base", "arbitrum", "optimism"))
    text, value = rng.choice(amounts(held_out))
    opener = rng.choice(["can i", "can you", "could i", "would you", "could you please"])
    prompt = f"{opener} swap {text} usdc for eth on {chain}?"
    intent = {"action": "swap", "asset": "USDC", "to_asset": "ETH", "chain": chain, "amount": value}
    return intent_row("request-question", prompt, (chain,), {"intents": [intent]})


SEALED_INTENT_TEMPLATES: list[tuple[SealedTemplate, int, bool]] = [  # (template, weight, held-out only)
    (s_transfer, 9, False),
    (s_swap, 10, False),
    (s_slang, 5, False),
    (s_bridge, 9, False),
    (s_lending, 7, False),
    (s_share, 6, False),
    (s_all, 4, False),
    (s_all_but, 3, False),
    (s_dollars, 5, False),
    (s_ether_sign, 3, False),
    (s_position, 4, False),
    (s_correction, 6, False),
    (s_link, 6, False),
    (s_wait, 6, False),
    (s_scope, 5, False),
    (s_zero, 3, False),
    (s_typo, 3, False),
    (s_ask, 4, False),
    (s_polite_question, 3, True),
]
