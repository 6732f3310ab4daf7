"""/agents templates of the sealed sets: each draws one plain-English agent request and what it must become.

Kinds and fields follow the contract's /agents section and tests/data/agent_requests.jsonl: a price level
or move, a yield, a health factor, a portfolio move, a schedule (plain-English schedules fire at 12:00
UTC), a gas or ETH/BTC condition; a follow-on action compiles the watch and is reported dropped; a request
that leaves the direction, chain, protocol or time open is asked; one nothing can watch is unwatchable.
`held_out` adds forms only the sealed held-out set uses.
"""

from __future__ import annotations

import random
from typing import Any

from bench.understanding.forms import Row
from bench.understanding.sealed_forms import SealedTemplate

COINS = {"eth": "ethereum", "ethereum": "ethereum", "btc": "bitcoin", "bitcoin": "bitcoin", "sol": "solana"}
FILLER_END = ["", "", " pls", " thx", " 🙏", " asap"]
HELD_OUT_FILLER_END = [" ty!", " cheers", " 🙏🏼"]


def _compiled(tag: str, request: str, kind: str, fields: dict[str, Any], **extra: Any) -> Row:
    return {"tag": tag, "request": request, "expect": "compiled", "kind": kind, "fields": fields, **extra}


def _tail(rng: random.Random, held_out: bool) -> str:
    return rng.choice(FILLER_END + (HELD_OUT_FILLER_END if held_out else []))


def _level(rng: random.Random, held_out: bool) -> tuple[str, str, str]:
    """(coin word, threshold as written, threshold's value)."""
    name = rng.choice(list(COINS))
    forms = [("4,200", "4200"), ("95k", "95000"), ("3.8k", "3800"), ("two thousand", "2000"), ("$150", "150")]
    if held_out:
        forms += [("100 grand", "100000"), ("ninety thousand", "90000"), ("$3,750", "3750")]
    text, value = rng.choice(forms)
    return name, text, value


def p_price_level(rng: random.Random, held_out: bool) -> Row:
    name, text, value = _level(rng, held_out)
    up = rng.random() < 0.5
    verbs = (
        ["goes over", "is above", "moves above", "crosses above"]
        if up
        else ["goes under", "falls under", "is below"]
    )
    if held_out:
        verbs += ["breaks above", "rallies above"] if up else ["slides below", "tanks below"]
    shapes = [
        "alert me when {n} {v} {t}",
        "ping me if {n} {v} {t}",
        "can you tell me when {n} {v} {t}",
        "{n} {v} {t} notify me",
    ]
    if held_out:
        shapes += [
            "yo, {n} {v} {t}? let me know",
            "hey bot, shout when {n} {v} {t}",
            "i want an alert if {n} {v} {t}",
        ]
    request = rng.choice(shapes).format(n=name, v=rng.choice(verbs), t=text) + _tail(rng, held_out)
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    return _compiled("price-level", request, "price", fields)


def p_price_move(rng: random.Random, held_out: bool) -> Row:
    name = rng.choice(("eth", "btc", "sol"))
    pct, pct_text = rng.choice(
        (("5", "5%"), ("10", "10%"), ("12", "12%"), ("25", "25 percent"), ("10", "ten percent"))
    )
    down = rng.random() < 0.5
    if down:
        shapes = [
            f"alert if {name} drops {pct_text}",
            f"let me know if {name} falls {pct_text}",
            f"{name} -{pct}% lmk",
        ]
        shapes += (
            [f"{name} craters {pct_text}, alert me", f"ping me on a {pct}% drop in {name}"]
            if held_out
            else []
        )
    else:
        shapes = [f"{name} up {pct_text} ping me", f"alert if {name} rises {pct_text}", f"{name} +{pct}% lmk"]
        shapes += (
            [f"if {name} rips {pct_text} tell me", f"ping me on a {pct}% pump in {name}"] if held_out else []
        )
    fields = {"coingecko_id": COINS[name], "condition": "below" if down else "above", "pct_change": pct}
    return _compiled("price-move", rng.choice(shapes) + _tail(rng, held_out), "price", fields)


def p_follow_on(rng: random.Random, held_out: bool) -> Row:
    name, text, value = _level(rng, held_out)
    up = rng.random() < 0.5
    if up:
        shapes = [f"take profit when {name} goes over {text}", f"when {name} is above {text} sell some"]
        shapes += [f"once {name} is above {text}, swap half to usdc"] if held_out else []
    else:
        shapes = [f"if {name} falls under {text} buy the dip", f"buy more {name} when it goes under {text}"]
        shapes += [f"alert me when {name} is below {text} so i can buy more"] if held_out else []
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    # Agents only notify: the action is dropped and said so, the watch still compiles.
    return _compiled("follow-on", rng.choice(shapes), "price", fields, dropped_action=True)


def p_portfolio(rng: random.Random, held_out: bool) -> Row:
    pct, pct_text = rng.choice((("5", "5%"), ("10", "10%"), ("15", "15%"), ("20", "twenty percent")))
    asset = rng.choice(("ETH", "SOL", None, None))
    week = rng.random() < 0.4
    window, span = ("7d", rng.choice([" in a week", " this week"])) if week else ("24h", "")
    whole = "my portfolio"
    if held_out:
        whole = rng.choice(["my portfolio", "my whole portfolio", "my bag"])
    holder = f"my {asset.lower()} holdings" if asset else whole
    shapes = [
        f"tell me if {holder} moves {pct_text}{span}",
        f"alert me when {holder} swings {pct_text}{span}",
    ]
    if held_out:
        shapes += [
            f"lmk if {holder} changes by {pct_text}{span}",
            f"heads up if {holder} moves more than {pct_text}{span}",
        ]
    # Portfolio alerts fire on a move either way (contract), so only moves that name no direction are used.
    fields = {"threshold": pct, "movement_window": window, "asset_symbol": asset}
    return _compiled("portfolio", rng.choice(shapes) + _tail(rng, held_out), "portfolio", fields)


DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
LABELS = ("check my positions", "claim rewards", "review my loans", "top up gas", "pay back my loan")


def p_schedule(rng: random.Random, held_out: bool) -> Row:
    day, label = rng.choice(DAYS), rng.choice(LABELS)
    nth, nth_text = rng.choice(((1, "1st"), (2, "2nd"), (15, "15th"), (20, "20th"), (28, "28th")))
    noon = {"hour": 12, "minute": 0, "timezone": "UTC"}
    weekly = {"cadence": "weekly", "day_of_week": day, **noon}
    monthly = {"cadence": "monthly", "day_of_month": nth, **noon}
    daily = {"cadence": "daily", **noon}
    shapes: list[tuple[str, dict[str, Any] | None]] = [
        (f"remind me every {day} to {label}", weekly),
        (f"remind me every day to {label}", daily),
        (f"remind me on the {nth_text} of every month to {label}", monthly),
        (f"remind me every {day} at 9am to {label}", None),  # plain-English schedules fire at noon UTC: asked
    ]
    if held_out:
        shapes += [
            (f"every {day} remind me to {label} pls", weekly),
            (f"can you remind me each {day} to {label}", weekly),
            (f"on the {nth_text} of each month remind me to {label}", monthly),
            (f"daily reminder to {label}", daily),
            (f"remind me monthly to {label}", None),  # which day of the month: asked
            (f"remind me every {day} at 18:00 to {label}", None),
        ]
    request, fields = rng.choice(shapes)
    # The label is display text, so it is not judged; cadence, day and time are.
    if fields is None:
        return {"tag": "schedule", "request": request, "expect": "clarification"}
    return _compiled("schedule", request, "schedule", fields)


def p_condition(rng: random.Random, held_out: bool) -> Row:
    if rng.random() < 0.5:
        value = rng.choice(("0.03", "0.035", "0.05", "0.025"))
        up = rng.random() < 0.5
        word = rng.choice(["above", "over"] if up else ["below", "under"])
        shapes = [f"tell me when eth/btc goes {word} {value}", f"eth/btc {word} {value} alert"]
        shapes += [f"ping me if the eth/btc ratio goes {word} {value}"] if held_out else []
        fields = {
            "comparator": "above" if up else "below",
            "threshold": value,
            "metric.type": "price_ratio",
            "metric.base_id": "ethereum",
            "metric.quote_id": "bitcoin",
        }
        return _compiled("ratio", rng.choice(shapes) + _tail(rng, held_out), "condition", fields)
    chain, where = rng.choice(
        (("ethereum", "mainnet"), ("ethereum", "ethereum"), ("base", "base"), ("arbitrum", "arbitrum"))
    )
    value = rng.choice(("10", "5", "0.1", "25"))
    shapes = [
        f"tell me when gas on {where} is below {value} gwei",
        f"gas on {where} under {value} gwei alert",
    ]
    shapes += (
        [
            f"ping me when {where} gas drops below {value} gwei",
            f"lmk if gas on {where} goes under {value} gwei",
        ]
        if held_out
        else []
    )
    fields = {"comparator": "below", "threshold": value, "metric.type": "gas_price", "metric.chain": chain}
    return _compiled("gas", rng.choice(shapes) + _tail(rng, held_out), "condition", fields)


def p_health(rng: random.Random, held_out: bool) -> Row:
    value = rng.choice(("1.1", "1.25", "1.5", "1.3"))
    if rng.random() < 0.25:
        protocol, chain, where = "spark", "ethereum", rng.choice(("ethereum", "mainnet"))
    else:
        protocol = "aave"
        chain, where = rng.choice(
            (("base", "base"), ("arbitrum", "arb"), ("ethereum", "mainnet"), ("optimism", "optimism"))
        )
    shapes = [
        f"alert me if my {protocol} health factor on {where} drops below {value}",
        f"my {protocol} health factor on {where} below {value}",
    ]
    if held_out:
        shapes += [
            f"warn me before i get liquidated on {protocol} {where}, hf {value}",
            f"my {protocol} hf on {where} dips under {value} lmk",
        ]
    fields = {"protocol": protocol, "chain": chain, "threshold": value}
    return _compiled("health", rng.choice(shapes) + _tail(rng, held_out), f"{protocol}-health", fields)


def p_yield(rng: random.Random, held_out: bool) -> Row:
    chain = rng.choice(("base", "arbitrum", "ethereum"))
    pct = rng.choice(("4", "5.5", "7", "3.25"))
    up = rng.random() < 0.5
    word = rng.choice(["goes above", "is over"] if up else ["drops under", "falls below"])
    shapes = [
        f"alert me if the aave usdc rate on {chain} {word} {pct}%",
        f"lmk when usdc apy on aave {chain} {word} {pct}%",
    ]
    shapes += [f"tell me if aave's usdc yield on {chain} {word} {pct}%"] if held_out else []
    fields = {
        "comparator": "above" if up else "below",
        "threshold": pct,
        "metric.type": "yield",
        "metric.chain": chain,
        "metric.project": "aave-v3",
    }
    return _compiled("yield", rng.choice(shapes) + _tail(rng, held_out), "condition", fields)


def p_open(rng: random.Random, held_out: bool) -> Row:
    """Requests that leave something open (asked) or that nothing can watch (unwatchable)."""
    name, text, _ = _level(rng, held_out)
    asked = [
        f"{name} hits {text}",
        f"tell me when {name} moves {rng.choice(('5%', '10%'))}",
        f"gas under {rng.choice(('10', '20'))} gwei",
        "alert me if my health factor drops",
    ]
    unwatchable = [
        f"tell me when {rng.choice(('vitalik', 'elon', 'cz'))} tweets",
        "alert me when my landlord texts",
        f"let me know when {name} feels bullish",
    ]
    if held_out:
        asked += [f"{name} reaches {text}", "ping me if my health factor gets low"]
        unwatchable += [
            f"notify me when {name} is trending on twitter",
            f"tell me when it's a good time to buy {name}",
            f"alert me when eth is above {text} and btc is below 50k",
            f"don't tell me when {name} is above {text}",
        ]
    tail = _tail(rng, held_out)
    if rng.random() < 0.55:
        return {"tag": "ask", "request": rng.choice(asked) + tail, "expect": "clarification"}
    return {"tag": "unwatchable", "request": rng.choice(unwatchable) + tail, "expect": "unwatchable"}


SEALED_AGENT_TEMPLATES: list[tuple[SealedTemplate, int, bool]] = [  # (template, weight, held-out only)
    (p_price_level, 10, False),
    (p_price_move, 7, False),
    (p_follow_on, 5, False),
    (p_portfolio, 5, False),
    (p_schedule, 6, False),
    (p_condition, 5, False),
    (p_health, 4, False),
    (p_yield, 4, False),
    (p_open, 5, False),
]
