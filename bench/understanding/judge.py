"""Judging an answer against a hand-written case (the case format of bench/understanding/sets/README.md).

The rules are the writers': an /intent case expects exact intents (same actions in the same order; asset,
chain(s), amount, protocol when the case names one, swap target and recipient), a clarification, a refusal
or none of them; an /agents case lists the outcomes it accepts and the watch that must be created.
An answer with intents (or a created agent) that is not an accepted one is a confident wrong answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.registry import load_registry

Prices = Callable[[str], Decimal | None]


def _dec(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def _values(item: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for value in item.values():
        if isinstance(value, Mapping):
            out += _values(value)
        elif isinstance(value, str | int | Decimal) and not isinstance(value, bool):
            out.append(str(value).lower())
    return out


def _pool_parts(got: Mapping[str, Any]) -> list[str]:
    """The tokens of a liquidity intent's pool ("ETH-USDC" -> eth, usdc): writers name a pair's second
    token as `to` and a position by its pair."""
    return [part for part in re.split(r"[-/ ]", str(got.get("pool_id") or "").lower()) if part]


def _vault_address(name: str) -> str | None:
    """The address of the trusted vault a writer names as the protocol ("sdai"), or None."""
    for vault in load_registry().vaults():
        if name and name.lower() in (vault.symbol.lower(), vault.name.lower()):
            return vault.address
    return None


def _vault_symbol(address: str) -> str | None:
    """The symbol of the trusted vault at `address` ("sDAI"): a deposit into it is what a writer names
    with the vault's token as the target ("all my dai -> sDAI")."""
    for vault in load_registry().vaults():
        if address and vault.address.lower() == address.lower():
            return vault.symbol
    return None


def _amount(want: Any, got: Any, asset: str | None, prices: Prices) -> str | None:
    if isinstance(want, Mapping):
        value = _dec(got)
        if value is None or value <= 0:
            return f"amount {got!r} is not a positive number"
        if want.get("any_positive"):
            return None
        usd = Decimal(str(want["usd"]))
        price = prices(asset or "")
        if price is None:
            return f"no price for {asset} to check ${usd}"
        worth = value * price
        return (
            None
            if abs(worth - usd) <= usd * Decimal("0.03")
            else f"{got} {asset} is ${worth:.2f}, not ${usd}"
        )
    if isinstance(want, str):
        return None if str(got).lower() == want else f"amount {got!r} != {want!r}"
    return None if _dec(got) is not None and _dec(got) == _dec(want) else f"amount {got!r} != {want!r}"


def intent_mismatch(want: Mapping[str, Any], got: Mapping[str, Any], prices: Prices) -> str | None:
    """Why `got` is not the intent `want` describes, or None when it is."""
    if got.get("action") != want["action"]:
        return f"action {got.get('action')!r} != {want['action']!r}"
    assets = want.get("asset_any") or ([want["asset"]] if "asset" in want else None)
    pool = _pool_parts(got)
    if assets and got.get("asset") is None and pool and any(a.lower() in pool for a in assets):
        pass  # a liquidity position named by its pool ("pull all liq from my eth/usdc position")
    elif assets and got.get("action") == "claim" and got.get("asset") is None:
        pass  # a claim takes what has accrued: the contract's claim names no asset (a Lido withdrawal's ETH)
    elif assets and str(got.get("asset", "")).lower() not in [a.lower() for a in assets]:
        return f"asset {got.get('asset')!r} != {'|'.join(assets)}"
    # Claims and fee collections take what has accrued: the contract carries no amount for them.
    takes_accrued = got.get("action") in ("claim", "lp-collect") and got.get("amount") is None
    if ("amount" in want or "amount_any" in want) and not takes_accrued:
        reasons = [
            _amount(option, got.get("amount"), got.get("asset"), prices)
            for option in want.get("amount_any") or [want["amount"]]
        ]
        if all(reasons):
            return "; ".join(r for r in reasons if r)
    for key in ("chain", "from_chain", "to_chain"):
        if key in want and got.get(key) != want[key]:
            return f"{key} {got.get(key)!r} != {want[key]!r}"
    vault = _vault_address(str(want.get("protocol", "")))
    if vault is not None:
        if str(got.get("vault_address") or "").lower() != vault.lower():
            return f"vault {got.get('vault_address')!r} is not {want['protocol']} ({vault})"
    elif "protocol" in want and want["protocol"].lower() not in str(got.get("protocol") or "").lower():
        return f"protocol {got.get('protocol')!r} lacks {want['protocol']!r}"
    targets = want.get("to_any") or ([want["to"]] if "to" in want else None)
    if targets:
        lowered = [t.lower() for t in targets]
        if got.get("to_asset") is not None and str(got["to_asset"]).lower() not in lowered:
            return f"swap target {got.get('to_asset')!r} != {'|'.join(targets)}"
        vault = _vault_symbol(str(got.get("vault_address") or ""))
        values = [*_values(got), *pool, *([vault.lower()] if vault else [])]
        if got.get("to_asset") is None and not any(t in values for t in lowered):
            return f"swap target {'|'.join(targets)} not among the intent's values"
    if "recipient" in want and str(got.get("recipient") or "").lower() != want["recipient"].lower():
        return f"recipient {got.get('recipient')!r} != {want['recipient']!r}"
    return None


def _option(option: Mapping[str, Any], body: Mapping[str, Any], prices: Prices) -> str | None:
    intents, asked = body.get("intents") or [], body.get("clarifications") or []
    expect = option["expect"]
    if expect == "clarify":
        return None if asked and not intents else "expected a clarification"
    if expect == "none":
        return None if not intents else "expected no intents"
    if expect == "refuse":
        return None if not intents and not asked else "expected a refusal"
    if not intents:
        return "expected intents, got " + ("a clarification" if asked else "a refusal")
    want = option["intents"]
    if len(intents) != len(want):
        return f"{len(intents)} intents, expected {len(want)}"
    for index, (wanted, got) in enumerate(zip(want, intents, strict=True)):
        why = intent_mismatch(wanted, got, prices)
        if why:
            return f"intent {index}: {why}"
    return None


def judge_intent(case: Mapping[str, Any], body: Mapping[str, Any], prices: Prices) -> str | None:
    """None when the answer is one the case accepts; else why not."""
    options = [{"expect": case["expect"], "intents": case.get("intents")}, *case.get("alternatives", [])]
    first = None
    for option in options:
        why = _option(option, body, prices)
        if why is None:
            return None
        first = first or why
    return first


def watch_of(agent: Mapping[str, Any]) -> dict[str, Any]:
    """A created agent in the shape cases describe watches (type, asset, condition, threshold, ...)."""
    kind = str(agent.get("kind", ""))
    if kind == "price":
        if agent.get("pct_change") is not None:
            return {
                "type": "price_pct",
                "asset": agent.get("asset_symbol"),
                "condition": agent.get("condition"),
                "pct": agent.get("pct_change"),
                "base_price": agent.get("base_price"),
                "coingecko_id": agent.get("coingecko_id"),
            }
        return {
            "type": "price",
            "asset": agent.get("asset_symbol"),
            "condition": agent.get("condition"),
            "threshold": agent.get("threshold"),
            "coingecko_id": agent.get("coingecko_id"),
        }
    if kind == "health" or kind.endswith("-health"):
        return {
            "type": "health",
            "protocol": agent.get("protocol") or kind.split("-")[0],
            "chain": agent.get("chain"),
            "threshold": agent.get("threshold"),
            "target_wallet": agent.get("target_wallet"),
            # A health agent fires below its threshold (contract: a health factor floor).
            "condition": "below",
        }
    if kind == "portfolio":
        return {
            "type": "portfolio",
            "threshold": agent.get("threshold"),
            "pct": agent.get("threshold"),  # the size of the move, a percent
            "window": agent.get("movement_window", "24h"),
            "asset": agent.get("asset_symbol"),
            # Contract: a portfolio move is always the above direction (a move of that size either way).
            "condition": "above",
        }
    if kind == "schedule":
        keys = ("cadence", "day_of_week", "day_of_month", "hour", "minute", "timezone", "label")
        day = agent.get("day_of_week") if agent.get("day_of_week") is not None else agent.get("day_of_month")
        # Writers name the day as "day": a weekday's name or a day of the month.
        return {"type": "schedule", **{key: agent.get(key) for key in keys}, "day": day}
    if kind == "yield":
        return {
            "type": "yield",
            "asset": agent.get("asset"),
            "protocol": agent.get("protocol"),
            "chain": agent.get("chain"),
            "metric": agent.get("metric", "apy"),
            "condition": agent.get("condition"),
            "threshold": agent.get("threshold"),
        }
    if kind == "condition":
        check = agent.get("check") or {}
        metric = dict(check.get("metric") or {})
        name = str(metric.get("type", ""))
        mapped = next((m for m in ("yield", "gas", "ratio", "health", "price") if m in name), name)
        mapped = "portfolio_value" if "portfolio" in name else mapped
        out: dict[str, Any] = {
            "type": mapped,
            "condition": check.get("comparator"),
            "threshold": check.get("threshold"),
            "_metric": metric,
        }
        if mapped == "yield":
            out.update(
                asset=metric.get("asset"),
                protocol=metric.get("project") or metric.get("protocol"),
                chain=metric.get("chain"),
                metric=metric.get("metric"),
            )
        elif mapped == "gas":
            out["chain"] = metric.get("chain")
        elif mapped == "price":
            out["asset"] = metric.get("asset") or metric.get("symbol")
        return out
    return {"type": kind}


def watch_mismatch(want: Mapping[str, Any], got: Mapping[str, Any]) -> str | None:
    """Why the created watch `got` is not `want`, or None."""
    if got.get("type") != want["type"]:
        return f"watches {got.get('type')!r}, expected {want['type']!r}"
    for key, value in want.items():
        if key == "type":
            continue
        if key == "metric_any":
            if str(got.get("metric")) not in value:
                return f"metric {got.get('metric')!r} not in {value}"
        elif key in ("base", "quote"):
            if str(value).lower() not in _values(got.get("_metric") or {}) + _values(got):
                return f"{key} {value} not in the watched metric"
        elif isinstance(value, int | float | Decimal) and not isinstance(value, bool):
            if _dec(got.get(key)) != _dec(value):
                return f"{key} {got.get(key)!r} != {value!r}"
        elif key == "protocol":
            if str(value).lower() not in str(got.get(key) or "").lower():
                return f"protocol {got.get(key)!r} lacks {value!r}"
        elif str(got.get(key) or "").lower() != str(value).lower():
            return f"{key} {got.get(key)!r} != {value!r}"
    return None


def judge_agent(case: Mapping[str, Any], outcome: str, body: Mapping[str, Any]) -> str | None:
    """None when the outcome (create, clarify, unwatchable, or an HTTP status) is one the case accepts."""
    if outcome not in case["expect"]:
        return f"outcome {outcome}, expected {'|'.join(case['expect'])}"
    if outcome == "create" and (case.get("watch") or case.get("watch_any")):
        got = watch_of(body["agent"])
        reasons = [watch_mismatch(want, got) for want in case.get("watch_any") or [case["watch"]]]
        if all(reasons):
            return "; ".join(r for r in reasons if r)
    if outcome == "clarify":
        options = body.get("options", [])
        if len(options) > 4 or any(o.get("id") != f"opt_{i}" for i, o in enumerate(options)):
            return f"clarification options break the contract: {options}"
    return None
