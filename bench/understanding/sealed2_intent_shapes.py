"""/intent templates of the second sealed set for sentence shape: slang verbs, front-loaded chains and
run-ons, corrections, multi-step links, transfers in several word orders, waits, out-of-scope talk,
requests that must be asked about or refused, and typos."""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.sealed2_forms import (
    AAVE_LENDS,
    CLOSERS,
    OPENERS,
    PAYEE,
    PLAIN,
    SMALL,
    TRADABLE,
    Row,
    amount,
    chain_word,
    chat,
    other,
    other_chain,
)
from bench.understanding.sealed2_intent_templates import (
    CHAINS,
    TemplateFn,
    bridge,
    deposit,
    row,
    send,
    stable_on,
    swap,
)


def t_slang(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    s = stable_on(rng, chain)
    a, value = amount(rng, PLAIN)
    e, eth = amount(rng, SMALL)
    pick = rng.randrange(9)
    if pick == 0:
        return row(
            "slang",
            chat(rng, f"flip {a} {s.lower()} to eth on {cw}"),
            (chain,),
            {"intents": [swap(s, "ETH", chain, value)]},
        )
    if pick == 1:
        s2 = other(rng, tuple(t for t in TRADABLE[chain] if t != "ETH"), s)
        body = f"rotate {a} {s.lower()} into {s2.lower()} on {cw}"
        return row("slang", chat(rng, body), (chain,), {"intents": [swap(s, s2, chain, value)]})
    if pick == 2:
        return row(
            "slang",
            chat(rng, f"dump {e} eth for {s.lower()} on {cw}"),
            (chain,),
            {"intents": [swap("ETH", s, chain, eth)]},
        )
    if pick == 3:
        return row(
            "slang",
            chat(rng, f"ape {a} {s.lower()} into eth on {cw}"),
            (chain,),
            {"intents": [swap(s, "ETH", chain, value)]},
        )
    if pick == 4:
        body = f"load up on eth with {a} {s.lower()} on {cw}"
        return row("slang", chat(rng, body), (chain,), {"intents": [swap(s, "ETH", chain, value)]})
    if pick == 5:
        return row(
            "slang",
            chat(rng, f"cash out {e} eth to {s.lower()} on {cw}"),
            (chain,),
            {"intents": [swap("ETH", s, chain, eth)]},
        )
    if pick == 6:
        lend_chain, asset = rng.choice(AAVE_LENDS)
        body = f"throw {a} {asset.lower()} into aave on {chain_word(rng, lend_chain)}"
        return row("slang", chat(rng, body), (lend_chain,), {"intents": [deposit(asset, lend_chain, value)]})
    if pick == 7:  # spark lends DAI on ethereum only, the one wallet chain
        return row(
            "slang",
            chat(rng, f"park {a} dai in spark"),
            ("ethereum",),
            {"intents": [deposit("DAI", "ethereum", value, "spark")]},
        )
    lend_chain, asset = rng.choice(AAVE_LENDS)
    body = f"exit my aave {asset.lower()} position on {chain_word(rng, lend_chain)}"
    withdraw = {
        "action": "withdraw",
        "asset": asset,
        "chain": lend_chain,
        "amount": "max",
        "protocol": "aave",
    }
    return row("slang", chat(rng, body), (lend_chain,), {"intents": [withdraw]})


def t_shape(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    s = stable_on(rng, chain)
    a, value = amount(rng, PLAIN)
    pick = rng.randrange(5)
    if pick == 0:
        body, intent = f"on {cw}, swap {a} {s.lower()} for eth", swap(s, "ETH", chain, value)
    elif pick == 1:
        body, intent = f"on {cw} pls send {a} {s.lower()} to {PAYEE}", send(s, chain, value)
    elif pick == 2:
        body, intent = f"can i swap {a} {s.lower()} to eth on {cw}?", swap(s, "ETH", chain, value)
    elif pick == 3:
        body = f"so i got some {s.lower()} on {cw} and i wanna swap {a} of it for eth"
        intent = swap(s, "ETH", chain, value)
    else:
        target = other_chain(rng, chain)
        body = f"over on {cw}, bridge {a} usdc to {chain_word(rng, target)} for me"
        intent = bridge("USDC", chain, target, value)
    chains = tuple(dict.fromkeys(c for c in (chain, intent.get("to_chain")) if c))
    return row("shape", chat(rng, body, frame=False), chains, {"intents": [intent]})


def t_correction(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    s = stable_on(rng, chain)
    (a, value), (b, later) = rng.sample(PLAIN, 2)
    pick = rng.randrange(5)
    if pick == 0:
        fix = rng.choice((", no wait {}", " - actually {}", ", sorry make it {}", "... i mean {}")).format(b)
        body = f"swap {a} {s.lower()} for eth on {cw}{fix}"
        return row("correction", chat(rng, body), (chain,), {"intents": [swap(s, "ETH", chain, later)]})
    if pick == 1:
        second = other_chain(rng, chain)
        body = f"swap {a} usdc for eth on {cw}, actually on {chain_word(rng, second)}"
        return row(
            "correction", chat(rng, body), (chain, second), {"intents": [swap("USDC", "ETH", second, value)]}
        )
    if pick == 2:
        body = f"send {a} {s.lower()} to {PAYEE} on {cw}. no wait, {b}"
        return row("correction", chat(rng, body), (chain,), {"intents": [send(s, chain, later)]})
    lend_chain, asset = rng.choice(AAVE_LENDS)
    lw = chain_word(rng, lend_chain)
    x = asset.lower()
    if pick == 3:
        body = f"deposit {a} {x} into aave on {lw}. scratch that, swap {a} {x} for eth on {lw}"
        return row(
            "correction", chat(rng, body), (lend_chain,), {"intents": [swap(asset, "ETH", lend_chain, value)]}
        )
    source = other_chain(rng, lend_chain)
    body = f"bridge {a} usdc from {chain_word(rng, source)} to {lw}, then stake it... no wait, deposit it into aave"
    steps = [bridge("USDC", source, lend_chain, value), deposit("USDC", lend_chain, "chained")]
    return row("correction", chat(rng, body), (source, lend_chain), {"intents": steps})


def t_link(rng: random.Random, _: Any) -> Row:
    source, target = rng.sample(CHAINS, 2)
    sw, tw = chain_word(rng, source), chain_word(rng, target)
    a, value = amount(rng, PLAIN)
    moved = bridge("USDC", source, target, value)
    pick = rng.randrange(5)
    if pick == 0:
        body = f"bridge {a} usdc from {sw} to {tw} then throw it into aave"
        return row(
            "link",
            chat(rng, body),
            (source, target),
            {"intents": [moved, deposit("USDC", target, "chained")]},
        )
    if pick == 1:
        body = f"bridge {a} usdc from {sw} to {tw}; after that swap it to eth"
        steps = [moved, swap("USDC", "ETH", target, "chained")]
        return row("link", chat(rng, body), (source, target), {"intents": steps})
    if pick == 2:
        body = f"put it into aave after bridging {a} usdc from {sw} to {tw}"
        return row(
            "link",
            chat(rng, body),
            (source, target),
            {"intents": [moved, deposit("USDC", target, "chained")]},
        )
    e, eth = amount(rng, SMALL)
    if pick == 3:
        body = f"swap {e} eth for usdc on {tw} and then deposit it in aave"
        steps = [swap("ETH", "USDC", target, eth), deposit("USDC", target, "chained")]
        return row("link", chat(rng, body), (target,), {"intents": steps})
    body = f"sell {e} eth for usdc on {sw} and bridge it to {tw}"
    steps = [swap("ETH", "USDC", source, eth), bridge("USDC", source, target, "chained")]
    return row("link", chat(rng, body), (source, target), {"intents": steps})


def t_transfer(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    if rng.random() < 0.4:
        (text, value), asset = amount(rng, SMALL), "ETH"
    else:
        (text, value), asset = amount(rng, PLAIN), stable_on(rng, chain)
    x = asset.lower()
    body = rng.choice(
        (
            f"pay {PAYEE} {text} {x} on {cw}",
            f"transfer {text} {x} on {cw} to {PAYEE}",
            f"tip {PAYEE} {text} {x} on {cw}",
            f"send {text} {x} over to {PAYEE} on {cw}",
        )
    )
    return row("transfer", chat(rng, body), (chain,), {"intents": [send(asset, chain, value)]})


CONDITIONS = (
    "when eth hits 4k",
    "if btc dips under 60k",
    "once gas is below 5 gwei",
    "as soon as eth flips 3,500",
)
ONE_OFF = ("tonight", "tomorrow at noon", "next friday", "in 3 hours", "at 9 pm")
REPEATS = ("every friday", "each week", "every morning", "every month on the 1st")


def t_wait(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    s = stable_on(rng, chain)
    a, _value = amount(rng, PLAIN)
    act = rng.choice(
        (
            f"swap {a} {s.lower()} for eth on {chain_word(rng, chain)}",
            f"send {a} {s.lower()} to {PAYEE} on {chain_word(rng, chain)}",
        )
    )
    kind = rng.randrange(3)
    when = rng.choice((CONDITIONS, ONE_OFF, REPEATS)[kind])
    body = f"{when}, {act}" if rng.random() < 0.5 else f"{act} {when}"
    # a condition fits an alert agent and a repeating time a schedule agent; a one-off time fits none
    expect: dict[str, Any] = {"refuse": True, "mention": "agent"} if kind != 1 else {"refuse": True}
    return row("wait", chat(rng, body, frame=False), (chain,), expect)


SCOPE = (
    "mint me a pudgy penguin nft",
    "can you buy that bored ape for me",
    "list my nft on opensea for 2 eth",
    "open a 20x long on eth",
    "short btc with 5x leverage",
    "go long sol perps on hyperliquid",
    "place a limit order to buy eth at 2,800",
    "set a stop loss on my eth at 2k",
    "dca 100 usdc into eth every week",
    "what's the usdc apy on aave rn",
    "how do bridges even work",
    "is arbitrum cheaper than base?",
    "which chain has the lowest fees",
    "why did my swap fail yesterday",
    "what is a bridge",
    "gm fam",
    "lol this bot is actually cool",
    "tell me a joke",
    "who built you",
    "wen moon",
    "thanks for the help earlier!",
    "how much eth do i have on base",
)


def t_scope(rng: random.Random, _: Any) -> Row:
    text = rng.choice(OPENERS) + rng.choice(SCOPE) + rng.choice(CLOSERS)
    return row("scope", text, (rng.choice(CHAINS),), {"refuse": True})


def t_ask(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    a, _value = amount(rng, PLAIN)
    pick = rng.randrange(5)
    if pick == 0:
        body = f"swap {rng.choice(('some', 'a bit of', 'a little'))} usdc for eth on {cw}"
        return row("ask", chat(rng, body), (chain,), {"clarify": ["amount"]})
    if pick == 1:  # two wallet chains where the swap runs and none named
        second = other_chain(rng, chain)
        return row("ask", chat(rng, f"swap {a} usdc for eth"), (chain, second), {"clarify": ["chain"]})
    if pick == 2:  # a bridge destination is always asked
        second = other_chain(rng, chain)
        return row("ask", chat(rng, f"bridge {a} usdc from {cw}"), (chain, second), {"clarify": ["chain"]})
    if pick == 3:
        return row("ask", chat(rng, f"send {a} usdc on {cw}"), (chain,), {"clarify": ["recipient"]})
    # a spelled share right before an asset is a quantity or a share: asked
    return row("ask", chat(rng, f"swap half eth for usdc on {cw}"), (chain,), {"clarify": ["amount"]})


def t_bad(rng: random.Random, _: Any) -> Row:
    chain = rng.choice(CHAINS)
    cw = chain_word(rng, chain)
    pick = rng.randrange(3)
    if pick == 0:
        zero = rng.choice(("0", "0.00", "zero", "0,0"))
        return row("bad-amount", chat(rng, f"swap {zero} usdc for eth on {cw}"), (chain,), {"refuse": True})
    if pick == 1:
        minus = rng.choice(("-50", "-0.5", "-1k"))
        return row(
            "bad-amount", chat(rng, f"send {minus} usdc to {PAYEE} on {cw}"), (chain,), {"refuse": True}
        )
    over = rng.choice(("150%", "120 %", "200% of"))
    held = [{"chain": chain, "asset": "USDC", "amount": "600"}]
    body = f"swap {over.removesuffix(' of')} of my usdc for eth on {cw}"
    return row("bad-amount", chat(rng, body), (chain,), {"refuse": True}, balances=held)


TYPO_VERBS = {"swap": ("swpa", "sawp", "swapp"), "deposit": ("depsoit", "deposti"), "send": ("sned", "semd")}


def t_typo(rng: random.Random, _: Any) -> Row:
    chain, asset = rng.choice(AAVE_LENDS)
    cw = chain_word(rng, chain)
    a, value = amount(rng, PLAIN)
    x = asset.lower()
    verb = rng.choice(tuple(TYPO_VERBS))
    typo = rng.choice(TYPO_VERBS[verb])
    if verb == "swap":
        body, intent = f"{typo} {a} {x} for eth on {cw}", swap(asset, "ETH", chain, value)
    elif verb == "deposit":
        body, intent = f"{typo} {a} {x} into aave on {cw}", deposit(asset, chain, value)
    else:
        body, intent = f"{typo} {a} {x} to {PAYEE} on {cw}", send(asset, chain, value)
    return row("typo", chat(rng, body), (chain,), {"intents": [intent], "ask_ok": True})


SHAPE_TEMPLATES: tuple[TemplateFn, ...] = (
    t_slang,
    t_shape,
    t_correction,
    t_link,
    t_transfer,
    t_wait,
    t_scope,
    t_ask,
    t_bad,
)
