"""The dev7 set's /agents templates: chat-style alerts for the classes the third held-out run missed most,
in phrasings none of the earlier dev sets used. Follow-on actions after (and before) price levels, percent
moves, health factors, gas and yields; portfolio moves either way (with their window, or scoped to one
holding); price levels and percent moves with slang, emoji and shorthand numbers. Written for the fifth
understanding round before the compiler was changed; a dev set: read it freely."""

from __future__ import annotations

import random

from bench.understanding.agent_templates import price_fields
from bench.understanding.forms import Row, Template

COINS = {
    "eth": "ethereum",
    "Eth": "ethereum",
    "btc": "bitcoin",
    "BTC": "bitcoin",
    "sol": "solana",
    "SOL": "solana",
    "ethereum": "ethereum",
    "link": "chainlink",
    "doge": "dogecoin",
}
# (text, value): exactly what the words mean.
LEVELS = [
    ("3800", "3800"),
    ("4k", "4000"),
    ("$4,100", "4100"),
    ("95k", "95000"),
    ("$1.9k", "1900"),
    ("2.5", "2.5"),
    ("four thousand", "4000"),
    ("thirty five hundred", "3500"),
    ("$150", "150"),
    ("100k", "100000"),
    ("3.2k", "3200"),
    ("180 dollars", "180"),
]
PCTS = [
    ("10%", "10"),
    ("5 %", "5"),
    ("15 percent", "15"),
    ("7.5%", "7.5"),
    ("twenty percent", "20"),
    ("8 pct", "8"),
]
OPENERS = ["", "", "", "hey ", "yo ", "ok so ", "bot: ", "gm, ", "plz ", "hi! ", "quick: "]
CLOSERS = ["", "", "", " thanks", " 🙏", " pls", " !", " ok?", " 👀", " cheers", " 🔔"]


def _chat(rng: random.Random, text: str) -> str:
    return rng.choice(OPENERS) + text + rng.choice(CLOSERS)


def _level_words(rng: random.Random, up: bool) -> str:
    return rng.choice(
        [
            "climbs above",
            "rises to above",
            "breaks above",
            "pushes past",
            "is over",
            "trades above",
            "goes above",
            "gets over",
            "pumps above",
            "runs past",
        ]
        if up
        else [
            "dips under",
            "dips below",
            "drops below",
            "sinks below",
            "is under",
            "trades below",
            "goes below",
            "dumps below",
            "slips under",
            "crashes below",
        ]
    )


def a_level(rng: random.Random, _: int) -> Row:
    name = rng.choice(list(COINS))
    text, value = rng.choice(LEVELS)
    up = rng.random() < 0.5
    pattern = rng.choice(
        [
            "let me know if {n} {v} {t}",
            "can u ping me when {n} {v} {t}",
            "i wanna know when {n} {v} {t}",
            "set an alert for when {n} {v} {t}",
            "alert me the moment {n} {v} {t}",
            "{n} {v} {t}? tell me",
            "if {n} {v} {t} send a notification",
            "watch {n} and tell me if it {v} {t}",
            "notify me once {n} {v} {t}",
            "make an alert: {n} {v} {t}",
        ]
    )
    request = _chat(rng, pattern.format(n=name, v=_level_words(rng, up), t=text))
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "threshold": value}
    return {"tag": "price-level", "request": request, "expect": "compiled", "kind": "price", "fields": fields}


def a_move(rng: random.Random, _: int) -> Row:
    """A percent move whose side the words say: a sign, a move verb, or "up"/"down"."""
    name = rng.choice(list(COINS))
    text, pct = rng.choice(PCTS)
    up = rng.random() < 0.5
    if text[0].isdigit() and rng.random() < 0.3:
        sign_forms = [
            f"{name} {'+' if up else '-'}{text} alert",
            f"alert me on {name} {'+' if up else '-'}{text}",
        ]
        request = rng.choice(sign_forms)
    else:
        verb = rng.choice(
            ["pumps", "jumps", "is up", "goes up", "rallies", "climbs", "rises", "spikes"]
            if up
            else ["dumps", "drops", "is down", "goes down", "tanks", "falls", "dips", "crashes"]
        )
        pattern = rng.choice(
            [
                "tell me if {n} {v} {p}",
                "lmk when {n} {v} {p}",
                "if {n} {v} {p} ping me",
                "alert when {n} {v} {p} or more",
                "warn me if {n} {v} by {p}",
                "{n} {v} {p} -> notify",
                "notify me in case {n} {v} {p}",
            ]
        )
        request = pattern.format(n=name, v=verb, p=text)
    fields = {"coingecko_id": COINS[name], "condition": "above" if up else "below", "pct_change": pct}
    return {
        "tag": "price-move",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
    }


def a_portfolio_move(rng: random.Random, _: int) -> Row:
    """A portfolio move says "either way" (or "up or down", "in either direction"): it compiles. A move
    with one side is asked, as the portfolio kind fires either way."""
    text, pct = rng.choice((("10%", "10"), ("15 percent", "15"), ("5%", "5"), ("twelve percent", "12")))
    either = rng.random() < 0.8
    if not either:
        request = rng.choice(
            [
                f"tell me if my portfolio tanks {text}",
                f"if my bags are down {text} lmk",
                f"my net worth drops {text}, alert",
            ]
        )
        return {"tag": "portfolio-move", "request": _chat(rng, request), "expect": "clarification"}
    week = rng.random() < 0.4
    span = (
        rng.choice(["in a week", "over 7 days", "within a week"])
        if week
        else rng.choice(["in a day", "in 24h", "within 24 hours", "over a day", ""])
    )
    side = rng.choice(["either way", "up or down", "in either direction", "either direction"])
    pattern = rng.choice(
        [
            "let me know if my portfolio moves {p} {s} {w}",
            "alert me when my wallet value changes {p} {s} {w}",
            "my bags swing {p} {s} {w}? ping me",
            "notify me if my holdings move {s} by {p} {w}",
            "ping me when my total balance moves {p} {s} {w}",
            "watch my portfolio for a {p} move {s} {w}",
        ]
    )
    request = " ".join(pattern.format(p=text, s=side, w=span).split())
    fields = {"threshold": pct, "movement_window": "7d" if week else "24h"}
    return {
        "tag": "portfolio-move",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "portfolio",
        "fields": fields,
    }


def a_follow_on_price(rng: random.Random, _: int) -> Row:
    """A price condition with an action after it (or before it): the watch compiles, the action is kept
    (a remedy when the gateway can plan it, else reported dropped)."""
    name = rng.choice(("eth", "btc", "sol"))
    text, value = rng.choice(LEVELS[:8])
    ptext, pct = rng.choice(PCTS[:4])
    up = rng.random() < 0.5
    up_actions = ["take profit", "sell 25%", "swap 1 eth to usdc on base", "sell half", "move it all to usdc"]
    down_actions = [
        "buy the dip",
        "buy more",
        "repay my aave loan",
        "swap 500 usdc to eth on arbitrum",
        "dca in",
    ]
    action = rng.choice(up_actions if up else down_actions)
    level = rng.random() < 0.6
    if level:
        cond = f"{name} {_level_words(rng, up)} {text}"
    else:
        cond = (
            f"{name} {rng.choice(['pumps', 'rips', 'jumps'] if up else ['dumps', 'drops', 'bleeds'])} {ptext}"
        )
    pattern = rng.choice(
        [
            "if {c} {a}",
            "if {c}, {a}",
            "when {c} then {a}",
            "once {c} i want to {a}",
            "{a} if {c}",
            "{a} when {c}",
            "if {c} then {a} and ping me",
            "when {c} -> {a}",
        ]
    )
    request = pattern.format(c=cond, a=action)
    fields = price_fields(
        COINS[name], "above" if up else "below", value if level else None, None if level else pct
    )
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "price",
        "fields": fields,
        "dropped_action": True,
    }


def a_follow_on_health(rng: random.Random, _: int) -> Row:
    chain = rng.choice(("base", "arbitrum", "ethereum"))
    value = rng.choice(("1.3", "1.25", "1.5", "1.15"))
    action = rng.choice(
        [
            "repay 500 usdc",
            "repay 200 dai",
            "add 0.5 eth as collateral",
            "top up collateral",
            "repay some debt",
        ]
    )
    cond = rng.choice(
        [
            f"my aave health on {chain} drops below {value}",
            f"my aave hf on {chain} dips under {value}",
            f"aave health factor on {chain} falls below {value}",
            f"my health factor on aave {chain} goes under {value}",
        ]
    )
    pattern = rng.choice(["if {c}, {a}", "when {c} {a}", "{a} if {c}", "if {c} then {a} pls"])
    return {
        "tag": "follow-on",
        "request": _chat(rng, pattern.format(c=cond, a=action)),
        "expect": "compiled",
        "kind": "aave-health",
        "fields": {"chain": chain, "threshold": value},
        "dropped_action": True,
    }


def a_follow_on_other(rng: random.Random, _: int) -> Row:
    """Gas and yield conditions with an action after them."""
    if rng.random() < 0.5:
        value = rng.choice(("8", "15", "5"))
        request = rng.choice(
            [
                f"when gas on ethereum is below {value} gwei, bridge 100 usdc to base",
                f"if eth gas drops under {value} gwei then swap my dai to usdc",
                f"once mainnet gas dips below {value} gwei i'll rebalance",
            ]
        )
        fields = {"comparator": "below", "threshold": value, "metric.type": "gas_price"}
    else:
        chain = rng.choice(("base", "arbitrum"))
        pct = rng.choice(("6", "4", "8"))
        request = rng.choice(
            [
                f"if the aave usdc rate on {chain} goes above {pct}% deposit 1000 usdc",
                f"when aave usdc apy on {chain} climbs over {pct}%, supply 500 usdc",
            ]
        )
        fields = {
            "comparator": "above",
            "threshold": pct,
            "metric.type": "yield",
            "metric.chain": chain,
            "metric.project": "aave-v3",
        }
    return {
        "tag": "follow-on",
        "request": _chat(rng, request),
        "expect": "compiled",
        "kind": "condition",
        "fields": fields,
        "dropped_action": True,
    }


def a_ask(rng: random.Random, _: int) -> Row:
    """Words that leave the side open: asked, and every option offered must compile."""
    name = rng.choice(("eth", "btc", "sol"))
    request = rng.choice(
        [
            f"tell me when {name} touches 4k",
            f"{name} moves 10%, tell me",
            f"if {name} hits 90k sell",
            f"ping me when {name} gets to 3500",
            f"alert on {name} around 150",
        ]
    )
    return {"tag": "ask", "request": _chat(rng, request), "expect": "clarification"}


AGENT_TEMPLATES_DEV7: list[tuple[Template, int, bool]] = [
    (a_level, 8, False),
    (a_move, 7, False),
    (a_portfolio_move, 5, False),
    (a_follow_on_price, 9, False),
    (a_follow_on_health, 4, False),
    (a_follow_on_other, 3, False),
    (a_ask, 2, False),
]
