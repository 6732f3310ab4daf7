"""The dev7i set: /intent requests in chat-app phrasing for the classes the sealed3 held-out run missed (its
class names and counts only; its rows were not read). Written before the reader was changed for them, so
its first run is the "before" figure. Amounts as people type them (number words, fractions, decimal commas,
suffixes, dollars, "all but N", shares of a balance the user states), sentences led by their chain or
target, requests put as questions, slang verbs, corrections and "*word" fixes, multi-step links, and talk
the service does not do. The /agents half of the split is empty: that reader is tuned elsewhere.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from bench.understanding.dev7_forms import AMOUNTS, CHAINS, L2, chat, prices, row, swap
from bench.understanding.dev7_talk import t_bad_amount, t_question_request, t_talk, t_transfer
from bench.understanding.forms import RECIPIENT, Row, Template


def t_amount_forms(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    text, value = rng.choice(AMOUNTS)
    sold, bought = rng.choice((("USDC", "ETH"), ("DAI", "USDC"), ("USDC", "DAI")))
    pattern = rng.choice(
        [
            "swap {a} {s} to {b} on {c}",
            "trade {a} {s} for {b} on {c} pls",
            "{a} {s} into {b}, {c}",
            "change {a} {s} into {b} on {c}",
            "need {a} {s} swapped to {b} on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=sold.lower(), b=bought.lower(), c=rng.choice(CHAINS[chain])))
    intents = None if value is None else [swap(sold, bought, chain, value)]
    return row("amount-form", prompt, (chain,), intents)


def t_dollars(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    usd, eth = rng.choice((("500", "0.2"), ("1k", "0.4"), ("250", "0.1"), ("1,250", "0.5"), ("50", "0.02")))
    where = rng.choice(CHAINS[chain])
    kind = rng.randrange(3)
    if kind == 0:
        pattern = rng.choice(
            [
                "sell ${u} of eth for usdc on {c}",
                "swap {u}$ worth of eth to usdc on {c}",
                "{u} usd of eth -> usdc on {c}",
                "cash out ${u} of my eth into usdc on {c}",
                "swap {u} dollars of eth for usdc on {c}",
                "dump {u} bucks of eth for usdc on {c}",
            ]
        )
        return row(
            "dollars",
            chat(rng, pattern.format(u=usd, c=where)),
            (chain,),
            [swap("ETH", "USDC", chain, eth)],
            prices=prices(chain),
        )
    if kind == 1:
        pattern = rng.choice(
            [
                "buy ${u} of eth with usdc on {c}",
                "get me ${u} worth of eth using usdc on {c}",
                "grab {u} dollars of eth with my usdc on {c}",
            ]
        )
        spent = usd.replace(",", "").replace("1k", "1000")
        return row(
            "dollars",
            chat(rng, pattern.format(u=usd, c=where)),
            (chain,),
            [swap("USDC", "ETH", chain, spent)],
            prices=prices(chain),
        )
    intent = {"action": "transfer", "asset": "ETH", "chain": chain, "amount": eth, "recipient": RECIPIENT}
    pattern = rng.choice(
        ["send ${u} of eth to {r} on {c}", "send {r} ${u} in eth on {c}", "pay {r} {u}$ worth of eth on {c}"]
    )
    return row(
        "dollars",
        chat(rng, pattern.format(u=usd, r=RECIPIENT, c=where)),
        (chain,),
        [intent],
        prices=prices(chain),
    )


def t_bridge(rng: random.Random, _: int) -> Row:
    src, dst = rng.sample(list(CHAINS), 2)
    f, t = rng.choice(CHAINS[src]), rng.choice(CHAINS[dst])
    asset = rng.choice(("USDC", "DAI"))
    text, value = rng.choice([a for a in AMOUNTS if a[1] is not None][:10])
    pattern = rng.choice(
        [
            "get {a} {s} from {f} over to {t}",
            "hop {a} {s} from {f} to {t}",
            "bridge {a} {s} {f} -> {t}",
            "{f} to {t}: {a} {s}",
            "move my {a} {s} from {f} onto {t}",
            "bring {a} {s} over from {f} to {t}",
            "i want {a} {s} on {t}, take it from {f}",
            "bridge {a} {s} over to {t} from {f}",
            "take {a} {s} off {f} and put it on {t}",
            "send {a} {s} across from {f} to {t}",
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
                "no wait, {n}",
                "actually {n}",
                "i mean {n}",
                "sry {n} not 100",
                "soz, meant {n}",
                "typo, {n}",
                "on second thought make it {n}",
                "hmm actually do {n}",
                "wait no {n} pls",
            ]
        )
        n, value = rng.choice((("200", "200"), ("250", "250"), ("50", "50"), ("1k", "1000")))
        prompt = f"swap 100 usdc for eth on {c} {marker.format(n=n)}"
        return row("correction", chat(rng, prompt), (chain,), [swap("USDC", "ETH", chain, value)])
    if kind == 1:
        other = rng.choice([x for x in L2 if x != chain])
        marker = rng.choice(["no wait, on {o}", "actually on {o}", "i mean {o}", "sry, {o} not {c}", "*{o}"])
        prompt = f"swap 100 usdc for eth on {c} {marker.format(o=other, c=c)}"
        return row("correction", chat(rng, prompt), (chain, other), [swap("USDC", "ETH", other, "100")])
    typo, fixed, asset = rng.choice((("eht", "eth", "ETH"), ("dia", "dai", "DAI"), ("etj", "eth", "ETH")))
    prompt = rng.choice(
        [f"swap 100 usdc for {typo} on {c}\n*{fixed}", f"swap 100 usdc for {typo} on {c} *{fixed}"]
    )
    return row("correction", chat(rng, prompt), (chain,), [swap("USDC", asset, chain, "100")])


def t_scratch(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    marker = rng.choice(
        ["scratch that", "scratch that,", "forget that.", "nah scratch that", "ignore that,", "cancel that -"]
    )
    first = rng.choice(
        [
            f"bridge 50 usdc from {c} to mainnet",
            f"swap 1 eth for usdc on {c}",
            f"send 20 usdc to {RECIPIENT} on {c}",
        ]
    )
    prompt = f"{first} {marker} swap 300 dai for eth on {c}"
    return row("scratch", chat(rng, prompt), (chain, "ethereum"), [swap("DAI", "ETH", chain, "300")])


def t_all_but(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    keep, value = rng.choice((("100", "800"), ("50", "850"), ("250", "650"), ("a hundred", "800")))
    pattern = rng.choice(
        [
            "swap all but {k} usdc for eth on {c}",
            "swap everything except {k} usdc to eth on {c}",
            "swap all my usdc minus {k} for eth on {c}",
            "swap all my usdc to eth on {c} but leave {k}",
            "all my usdc into eth on {c} except {k}",
            "swap my usdc for eth on {c}, keep {k} tho",
            "put all but {k} usdc into aave on {c}",
            "deposit everything but {k} usdc in aave on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(k=keep, c=c))
    balances = [{"chain": chain, "asset": "USDC", "amount": "900"}]
    if "aave" in pattern:
        intent = {"action": "deposit", "asset": "USDC", "chain": chain, "amount": value, "protocol": "aave"}
    else:
        intent = swap("USDC", "ETH", chain, value)
    return row("all-but", prompt, (chain,), [intent], balances=balances)


def t_buy_with(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("500", "500"), ("1.5k", "1500"), ("two hundred", "200"), ("0,5", "0.5")))
    spend = "ETH" if value == "0.5" else rng.choice(("USDC", "DAI"))
    target = "USDC" if spend == "ETH" else "ETH"
    pattern = rng.choice(
        [
            "buy {b} with {a} {s} on {c}",
            "buy some {b} using {a} {s} on {c}",
            "buy {b} w {a} {s} on {c}",
            "use {a} {s} to buy {b} on {c}",
            "pick up some {b} with {a} {s} on {c}",
            "on {c} buy {b} with {a} {s}",
            "buy {b} on {c} with {a} {s}",
            "spend {a} {s} on {b} on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=spend.lower(), b=target.lower(), c=c))
    return row("buy-with", prompt, (chain,), [swap(spend, target, chain, value)])


def t_front(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("100", "100"), ("2k", "2000"), ("one and a half", "1.5"), ("0,5", "0.5")))
    pattern = rng.choice(
        [
            "on {c}, swap {a} usdc for dai",
            "{c}: {a} usdc to dai",
            "over on {c} - swap {a} usdc into dai",
            "{c} pls, {a} usdc -> dai",
            "on {c} can you swap {a} usdc to dai",
            "into dai on {c}: {a} usdc",
            "for dai, swap {a} usdc on {c}",
            "on {c}: deposit {a} usdc into aave",
            "{c} - put {a} usdc in aave",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, c=c))
    if "aave" in pattern:
        intent = {"action": "deposit", "asset": "USDC", "chain": chain, "amount": value, "protocol": "aave"}
    else:
        intent = swap("USDC", "DAI", chain, value)
    return row("front-loaded", prompt, (chain,), [intent])


def t_slang(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("300", "300"), ("1k", "1000"), ("two hundred", "200")))
    pattern = rng.choice(
        [
            "ape {a} usdc into eth on {c}",
            "throw {a} usdc into eth on {c}",
            "flip {a} usdc to eth on {c}",
            "rotate {a} usdc into eth on {c}",
            "load up on eth with {a} usdc on {c}",
            "get me some eth with {a} usdc on {c}",
            "aped {a} usdc into eth on {c} pls",
            "yolo {a} usdc into eth on {c}",
        ]
    )
    if rng.random() < 0.35:
        sell = rng.choice(
            [
                ("cash out {e} eth to usdc on {c}", "0.4", "0.4"),
                ("dump {e} eth for usdc on {c}", "2", "2"),
                ("exit my eth position into usdc on {c}", "", "max"),
                ("cash out all my eth to usdc on {c}", "", "max"),
                ("dump all my eth into usdc on {c}", "", "max"),
            ]
        )
        prompt = chat(rng, sell[0].format(e=sell[1], c=c))
        return row("slang", prompt, (chain,), [swap("ETH", "USDC", chain, sell[2])])
    return row("slang", chat(rng, pattern.format(a=text, c=c)), (chain,), [swap("USDC", "ETH", chain, value)])


def t_stated_share(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    held, words, value = rng.choice(
        (
            ("1200", "a third", "400"),
            ("1200", "half", "600"),
            ("1,200", "1/2", "600"),
            ("800", "25%", "200"),
            ("800", "3/4", "600"),
            ("2k", "10 percent", "200"),
            ("1200", "a quarter", "300"),
        )
    )
    pattern = rng.choice(
        [
            "i have {h} usdc on {c}, swap {w} of it for eth",
            "got {h} usdc on {c}. swap {w} of it to eth",
            "i've got {h} usdc sitting on {c}, put {w} of it in aave",
            "out of my {h} usdc on {c} swap {w} into eth",
            "so i have {h} usdc on {c} - can you swap {w} of that to eth",
        ]
    )
    prompt = chat(rng, pattern.format(h=held, w=words, c=c))
    if "aave" in pattern:
        intent = {"action": "deposit", "asset": "USDC", "chain": chain, "amount": value, "protocol": "aave"}
    else:
        intent = swap("USDC", "ETH", chain, value)
    return row("stated-share", prompt, (chain,), [intent])


def t_share(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    words, share = rng.choice(
        (
            ("1/2 of my", "0.5"),
            ("half my", "0.5"),
            ("a third of my", "1/3"),
            ("3/4 of my", "0.75"),
            ("25 % of my", "0.25"),
            ("two thirds of my", "2/3"),
            ("10 percent of my", "0.1"),
        )
    )
    num, _slash, den = share.partition("/")
    amount = f"{(Decimal(900) * Decimal(num) / Decimal(den or 1)).normalize():f}"
    pattern = rng.choice(
        [
            "swap {w} usdc for eth on {c}",
            "put {w} usdc into aave on {c}",
            "bridge {w} usdc from {c} to mainnet",
        ]
    )
    prompt = chat(rng, pattern.format(w=words, c=c))
    balances = [{"chain": chain, "asset": "USDC", "amount": "900"}]
    if "aave" in pattern:
        intent: dict[str, Any] = {
            "action": "deposit",
            "asset": "USDC",
            "chain": chain,
            "amount": amount,
            "protocol": "aave",
        }
    elif "bridge" in pattern:
        intent = {
            "action": "bridge",
            "asset": "USDC",
            "from_chain": chain,
            "to_chain": "ethereum",
            "amount": amount,
        }
    else:
        intent = swap("USDC", "ETH", chain, amount)
    return row("share", prompt, (chain, "ethereum"), [intent], balances=balances)


def t_multi(rng: random.Random, _: int) -> Row:
    src, dst = rng.sample(L2, 2)
    f, t = rng.choice(CHAINS[src]), rng.choice(CHAINS[dst])
    link = rng.choice(
        [
            "bridge 400 usdc from {f} to {t} then throw it into aave",
            "bridge 400 usdc from {f} to {t}; after that deposit it in aave",
            "after bridging 400 usdc from {f} to {t}, put it in aave",
            "bridge 400 usdc {f} -> {t} and supply it to aave",
            "bridge 400 usdc from {f} to {t} and with it deposit into aave",
            "move 400 usdc from {f} to {t}, then lend it on aave",
        ]
    )
    intents = [
        {"action": "bridge", "asset": "USDC", "from_chain": src, "to_chain": dst, "amount": "400"},
        {"action": "deposit", "asset": "USDC", "chain": dst, "amount": "chained", "protocol": "aave"},
    ]
    if rng.random() < 0.3:
        link = rng.choice(
            [
                "bridge 400 usdc from {f} to {t} then bridge it back",
                "bridge 400 usdc from {f} to {t}, then bridge it back to {f}",
            ]
        )
        intents = [
            intents[0],
            {"action": "bridge", "asset": "USDC", "from_chain": dst, "to_chain": src, "amount": "chained"},
        ]
    prompt = chat(rng, link.format(f=f, t=t))
    return row("multi", prompt, (src, dst), intents)


def t_deposit(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    text, value = rng.choice((("500", "500"), ("1.5k", "1500"), ("a thousand", "1000"), ("250", "250")))
    asset = rng.choice(("USDC", "DAI")) if chain != "base" else "USDC"
    pattern = rng.choice(
        [
            "put {a} {s} into aave on {c}",
            "supply {a} {s} to aave on {c}",
            "lend {a} {s} on aave ({c})",
            "deposit {a} {s} into aave over on {c}",
            "stick {a} {s} in aave on {c}",
            "throw {a} {s} into aave on {c}",
            "earn yield on {a} {s} with aave on {c}",
        ]
    )
    prompt = chat(rng, pattern.format(a=text, s=asset.lower(), c=c))
    intent = {"action": "deposit", "asset": asset, "chain": chain, "amount": value, "protocol": "aave"}
    return row("deposit", prompt, (chain,), [intent])


def t_whole(rng: random.Random, _: int) -> Row:
    chain = rng.choice(L2)
    c = rng.choice(CHAINS[chain])
    pattern, action = rng.choice(
        [
            ("swap my entire usdc stack for eth on {c}", "swap"),
            ("swap every bit of my usdc to eth on {c}", "swap"),
            ("swap the whole bag of usdc into eth on {c}", "swap"),
            ("all of my usdc -> eth on {c}", "swap"),
            ("swap 100% of my usdc for eth on {c}", "swap"),
            ("put all my usdc into aave on {c}", "deposit"),
            ("deposit my full usdc balance into aave on {c}", "deposit"),
            ("take all my usdc out of aave on {c}", "withdraw"),
            ("pull everything out of aave on {c}, my usdc", "withdraw"),
        ]
    )
    intent: dict[str, Any] = {"action": action, "asset": "USDC", "chain": chain, "amount": "max"}
    if action == "swap":
        intent["to_asset"] = "ETH"
    else:
        intent["protocol"] = "aave"
    return row("whole", chat(rng, pattern.format(c=c)), (chain,), [intent])


INTENT_TEMPLATES_DEV7: list[tuple[Template, int, bool]] = [
    (t_dollars, 8, False),
    (t_amount_forms, 8, False),
    (t_bridge, 6, False),
    (t_correction, 5, False),
    (t_all_but, 4, False),
    (t_buy_with, 4, False),
    (t_front, 4, False),
    (t_slang, 4, False),
    (t_stated_share, 3, False),
    (t_share, 3, False),
    (t_multi, 3, False),
    (t_deposit, 3, False),
    (t_whole, 3, False),
    (t_question_request, 3, False),
    (t_transfer, 2, False),
    (t_scratch, 2, False),
    (t_talk, 2, False),
    (t_bad_amount, 1, False),
]
