"""The third sealed set's /intent templates: amounts as typed, slang, word order, corrections and links.

Each template draws a request and states the one answer a careful reader would accept: the intents with
their exact values, a question where the words leave something open, or no intents at all.
"""

from __future__ import annotations

import random
from decimal import Decimal

from bench.understanding.sealed3_forms import (
    AAVE,
    BIG,
    BRIDGE_CHAINS,
    BRIDGEABLE,
    FRIENDS,
    SMALL,
    STABLE,
    TRADE,
    Row,
    amount_for,
    exact,
    say_asset,
    say_chain,
    wallets_on,
    with_amount,
    wrap,
)


def swap(chain: str, asset: str, to_asset: str, amount: str) -> Row:
    return {"action": "swap", "asset": asset, "to_asset": to_asset, "chain": chain, "amount": amount}


def bridge(asset: str, src: str, dst: str, amount: str) -> Row:
    return {
        "action": "bridge",
        "asset": asset,
        "from_chain": src,
        "to_chain": dst,
        "amount": amount,
        "protocol": "across",
    }


def deposit(chain: str, asset: str, amount: str) -> Row:
    return {"action": "deposit", "asset": asset, "chain": chain, "amount": amount, "protocol": "aave"}


def transfer(chain: str, asset: str, amount: str, to: str) -> Row:
    return {"action": "transfer", "asset": asset, "chain": chain, "amount": amount, "recipient": to}


def pair(rng: random.Random) -> tuple[str, str, str]:
    chain = rng.choice(sorted(TRADE))
    a, b = rng.sample(TRADE[chain], 2)
    return chain, a, b


def row(tag: str, prompt: str, wallets: list[dict[str, str]], expect: Row, **extra: object) -> Row:
    return {"tag": tag, "prompt": prompt, "wallets": wallets, **extra, "expect": expect}


def t_amount_forms(rng: random.Random, held_out: int) -> Row:
    """Number words, decimal commas, suffixes, separators, Ξ and ratios before a token."""
    chain, a, b = pair(rng)
    text, value = amount_for(rng, a)
    verb = rng.choice(("swap", "convert", "trade", "change"))
    joint = rng.choice(("to", "for", "into", "->"))
    body = f"{verb} {with_amount(text, say_asset(rng, a))} {joint} {say_asset(rng, b)} on {say_chain(rng, chain)}"
    return row("amount form", wrap(rng, body), wallets_on(chain), {"intents": [swap(chain, a, b, value)]})


def t_share(rng: random.Random, held_out: int) -> Row:
    """A share of a stated balance, sized exactly (balances chosen so the share is exact)."""
    chain, a, b = pair(rng)
    balance = Decimal(rng.choice(("2400", "1800", "960") if a in STABLE else ("3.6", "1.2", "7.2")))
    words, ratio = rng.choice(
        (
            ("3/4 of my", Decimal(3) / 4),
            ("half of my", Decimal(1) / 2),
            ("a quarter of my", Decimal(1) / 4),
            ("two thirds of my", Decimal(2) / 3),
            ("25% of my", Decimal(1) / 4),
            ("like 10 percent of my", Decimal(1) / 10),
            ("a third of the", Decimal(1) / 3),
        )
    )
    verb = rng.choice(("sell", "swap", "dump"))
    body = f"{verb} {words} {say_asset(rng, a)} for {say_asset(rng, b)} on {say_chain(rng, chain)}"
    amount = exact((balance * ratio).quantize(Decimal("0.000001")))
    balances = [{"chain": chain, "asset": a, "amount": str(balance)}]
    expect = {"intents": [swap(chain, a, b, amount)]}
    return row("share of balance", wrap(rng, body), wallets_on(chain), expect, balances=balances)


def t_share_unknown(rng: random.Random, held_out: int) -> Row:
    """A share with no balance known: the amount must be asked, never guessed."""
    chain, a, b = pair(rng)
    words = rng.choice(("half my", "3/4 of my", "a third of my", "40% of my"))
    body = f"swap {words} {say_asset(rng, a)} to {say_asset(rng, b)} on {say_chain(rng, chain)}"
    return row("share, balance unknown", wrap(rng, body), wallets_on(chain), {"clarify": True})


def t_all_but(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    stable = a in ("USDC", "USDT", "DAI")
    balance, keep = (Decimal("1520"), Decimal("20")) if stable else (Decimal("2.5"), Decimal("0.1"))
    if rng.random() < 0.3:
        keep = balance + (Decimal(5) if stable else Decimal("0.5"))
    words = rng.choice(("all but {k} {t}", "everything except {k} {t}", "all my {t} but keep {k}"))
    lead = words.format(k=exact(keep), t=say_asset(rng, a))
    body = f"swap {lead} into {say_asset(rng, b)} on {say_chain(rng, chain)}"
    left = balance - keep
    expect: Row = {"intents": [swap(chain, a, b, exact(left))]} if left > 0 else {"refuse": True}
    balances = [{"chain": chain, "asset": a, "amount": str(balance)}]
    return row("all but N", wrap(rng, body), wallets_on(chain), expect, balances=balances)


def t_dollars(rng: random.Random, held_out: int) -> Row:
    """ "$N of eth": dollars, sized with the stated ETH price."""
    chain = rng.choice(("base", "arbitrum", "optimism", "ethereum"))
    usd, price = rng.choice((("500", "2500"), ("300", "3000"), ("1,000", "4000"), ("150", "3000")))
    form = rng.choice(("${u} of eth", "${u} worth of eth", "{u} dollars of eth", "${u} in eth"))
    target = rng.choice(("USDC", "DAI"))
    body = f"sell {form.format(u=usd)} for {say_asset(rng, target)} on {say_chain(rng, chain)}"
    amount = exact(Decimal(usd.replace(",", "")) / Decimal(price))
    prices = [{"chain": chain, "asset": "ETH", "usd": price}]
    expect = {"intents": [swap(chain, "ETH", target, amount)]}
    return row("dollar amount", wrap(rng, body), wallets_on(chain), expect, prices=prices)


def t_whole(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    words = rng.choice(("all my", "my entire", "every last", "all of the", "my whole"))
    tail = rng.choice(("", " bag", " stack"))
    body = f"swap {words} {say_asset(rng, a)}{tail} to {say_asset(rng, b)} on {say_chain(rng, chain)}"
    return row("whole balance", wrap(rng, body), wallets_on(chain), {"intents": [swap(chain, a, b, "max")]})


def t_slang(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    text, value = amount_for(rng, a)
    amt, sb, sc = with_amount(text, say_asset(rng, a)), say_asset(rng, b), say_chain(rng, chain)
    body = rng.choice(
        (
            f"ape {amt} into {sb} on {sc}",
            f"flip {amt} to {sb} on {sc}",
            f"rotate {amt} into {sb} on {sc}",
            f"dump {amt} for {sb} on {sc}",
            f"offload {amt} for {sb} on {sc}",
            f"market sell {amt} for {sb} on {sc}",
        )
    )
    return row("slang verb", wrap(rng, body), wallets_on(chain), {"intents": [swap(chain, a, b, value)]})


def t_buy_with(rng: random.Random, held_out: int) -> Row:
    """What is received named first, what is paid after "with" / "using"."""
    chain, a, b = pair(rng)
    text, value = amount_for(rng, a)
    pay = with_amount(text, say_asset(rng, a))
    body = rng.choice(
        (
            f"buy {say_asset(rng, b)} with {pay} on {say_chain(rng, chain)}",
            f"load up on {say_asset(rng, b)} using {pay} on {say_chain(rng, chain)}",
            f"grab some {say_asset(rng, b)} with {pay} on {say_chain(rng, chain)}",
        )
    )
    return row("buy with", wrap(rng, body), wallets_on(chain), {"intents": [swap(chain, a, b, value)]})


def t_front_chain(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    text, value = amount_for(rng, a)
    lead = rng.choice(("on {c}, ", "{c}: ", "over on {c} ", "{c} pls - ", "while on {c}, "))
    body = (
        lead.format(c=say_chain(rng, chain))
        + f"swap {with_amount(text, say_asset(rng, a))} to {say_asset(rng, b)}"
    )
    other = rng.choice([c for c in TRADE if c != chain])
    expect = {"intents": [swap(chain, a, b, value)]}
    return row("front-loaded chain", wrap(rng, body, lead=False), wallets_on(chain, other), expect)


def t_question_request(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    text, value = amount_for(rng, a)
    core = f"swap {with_amount(text, say_asset(rng, a))} to {say_asset(rng, b)} on {say_chain(rng, chain)}"
    body = rng.choice(("can u {x}?", "could you {x} pls?", "is it possible to {x}?", "can i {x}??")).format(
        x=core
    )
    return row("request as question", body, wallets_on(chain), {"intents": [swap(chain, a, b, value)]})


def t_correction(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    pool = [(t, v) for t, v in (BIG if a in STABLE else SMALL) if not t.startswith(("Ξ", "half", "1/"))]
    (t1, _), (t2, v2) = rng.sample(pool, 2)
    fix = rng.choice(("no wait, {t}", "actually make it {t}", "sorry i mean {t}", "wait no - {t}"))
    body = f"swap {t1} {say_asset(rng, a)} to {say_asset(rng, b)} on {say_chain(rng, chain)}, " + fix.format(
        t=t2
    )
    return row("correction", wrap(rng, body), wallets_on(chain), {"intents": [swap(chain, a, b, v2)]})


def t_scratch(rng: random.Random, held_out: int) -> Row:
    chain, a, b = pair(rng)
    other, value = rng.choice(FRIENDS), rng.choice(("25", "60", "140"))
    stable = rng.choice(("USDC", "DAI"))
    body = (
        f"swap 1 {say_asset(rng, a)} for {say_asset(rng, b)} on {say_chain(rng, chain)}... scratch that, "
        f"send {value} {say_asset(rng, stable)} to {other} on {say_chain(rng, chain)}"
    )
    return row(
        "scratch that",
        wrap(rng, body),
        wallets_on(chain),
        {"intents": [transfer(chain, stable, value, other)]},
    )


def t_link(rng: random.Random, held_out: int) -> Row:
    """A bridge then a deposit of what arrived: the second amount is chained."""
    dst = rng.choice(("base", "arbitrum", "optimism"))
    src = rng.choice([c for c in BRIDGE_CHAINS if c != dst])
    value = rng.choice(("400", "1,500", "75"))
    link = rng.choice(
        ("then throw it into aave", "and after that put it in aave", "; then deposit it on aave")
    )
    body = f"bridge {value} usdc from {say_chain(rng, src)} to {say_chain(rng, dst)} {link}"
    amount = value.replace(",", "")
    expect = {"intents": [bridge("USDC", src, dst, amount), deposit(dst, "USDC", "chained")]}
    return row("multi-step link", wrap(rng, body), wallets_on(src, dst), expect)


def t_swap_then_bridge(rng: random.Random, held_out: int) -> Row:
    src = rng.choice(("arbitrum", "optimism", "base"))
    dst = rng.choice([c for c in BRIDGE_CHAINS if c != src])
    text, value = amount_for(rng, "ETH")
    link = rng.choice(("and bridge it to {d}", "then send it over to {d}", "after that move it to {d}"))
    body = f"swap {with_amount(text, 'eth')} to usdc on {say_chain(rng, src)} " + link.format(
        d=say_chain(rng, dst)
    )
    expect = {"intents": [swap(src, "ETH", "USDC", value), bridge("USDC", src, dst, "chained")]}
    return row("multi-step link", wrap(rng, body), wallets_on(src, dst), expect)


def t_bridge(rng: random.Random, held_out: int) -> Row:
    asset = rng.choice(BRIDGEABLE)
    src, dst = rng.sample([c for c in BRIDGE_CHAINS if asset in TRADE[c]], 2)  # no USDT on base
    text, value = amount_for(rng, asset)
    amt = with_amount(text, say_asset(rng, asset))
    s, d = say_chain(rng, src), say_chain(rng, dst)
    body = rng.choice(
        (f"bridge {amt} from {s} to {d}", f"move {amt} {s} -> {d}", f"from {s} bridge {amt} over to {d}")
    )
    return row(
        "bridge",
        wrap(rng, body, lead=not body.startswith("from")),
        wallets_on(src, dst),
        {"intents": [bridge(asset, src, dst, value)]},
    )


def t_deposit(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(sorted(AAVE))
    asset = rng.choice(AAVE[chain])
    text, value = amount_for(rng, asset)
    amt = with_amount(text, say_asset(rng, asset))
    verb = rng.choice(("deposit {a} into aave", "put {a} in aave", "supply {a} to aave", "park {a} on aave"))
    body = verb.format(a=amt) + f" on {say_chain(rng, chain)}"
    return row("deposit", wrap(rng, body), wallets_on(chain), {"intents": [deposit(chain, asset, value)]})


def t_transfer(rng: random.Random, held_out: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "optimism", "ethereum", "polygon"))
    asset = rng.choice(("USDC", "USDT", "DAI") if chain != "base" else ("USDC", "DAI"))
    text, value = amount_for(rng, asset)
    to, amt, c = rng.choice(FRIENDS), with_amount(text, say_asset(rng, asset)), say_chain(rng, chain)
    body = rng.choice(
        (
            f"send {amt} to {to} on {c}",
            f"pay {to} {amt} on {c}",
            f"transfer {amt} to {to}, {c}",
            f"send {to} {amt} ({c})",
        )
    )
    return row(
        "transfer", wrap(rng, body), wallets_on(chain), {"intents": [transfer(chain, asset, value, to)]}
    )


def t_ambiguous(rng: random.Random, held_out: int) -> Row:
    """Words that leave a slot open: the right answer is a question."""
    chain, a, b = pair(rng)
    two = rng.sample(sorted(TRADE), 2)
    choice = rng.randrange(4)
    if choice == 0:  # no chain, wallets on two chains that can both run it
        body, wallets = f"swap 100 {say_asset(rng, 'USDC')} for {say_asset(rng, 'ETH')}", wallets_on(*two)
    elif choice == 1:  # no recipient
        body, wallets = f"send 50 {say_asset(rng, 'USDC')} on {say_chain(rng, chain)}", wallets_on(chain)
    elif choice == 2:  # a bridge with no destination
        body, wallets = f"bridge 0.3 eth from {say_chain(rng, two[0])}", wallets_on(*two)
    else:  # a spelled share right before a token: half of the balance or half a token
        target = say_asset(rng, rng.choice(("USDC", "DAI")))
        body, wallets = f"swap half eth to {target} on {say_chain(rng, chain)}", wallets_on(chain)
    return row("must ask", wrap(rng, body), wallets, {"clarify": True})
