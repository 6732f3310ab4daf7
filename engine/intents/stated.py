"""Balances a message states: a pasted wallet screen (a token and its amount per line, under a chain
heading or with the chain beside it), a CSV table with token, chain and balance columns, and a balance
the writer tells ("I have 2000 usdc on optimism"). A share of a stated balance is a share of it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Final

from engine.intents.found import Block, Names
from engine.limits import MAX_TOKEN_AMOUNT

# A wallet screen line: a token and its amount, maybe its value and chain ("USDC 2,310.00 $2,310.00").
_HOLDING: Final = re.compile(
    r"^(?P<symbol>[A-Za-z][A-Za-z0-9.]{1,9})\s+(?P<amount>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s+\$[\d,]+(?:\.\d+)?)?(?:\s+\((?P<chain>[A-Za-z][\w ]{1,20})\))?$"
)


def holding(text: str, universe: Names) -> tuple[str, Decimal, str | None] | None:
    match = _HOLDING.match(text.strip())
    if match is None:
        return None
    symbol = match.group("symbol")
    if symbol.lower() not in universe.asset_aliases():
        return None
    try:
        amount = Decimal(match.group("amount").replace(",", ""))
    except InvalidOperation:
        return None
    chain = match.group("chain")
    return (symbol, amount, chain) if _bounded(amount) else None


def screen(blocks: Sequence[Block], universe: Names) -> dict[str, dict[str, Decimal]]:
    """Balances a pasted wallet screen states, by chain: under a chain heading ("Base", then "USDC 2,310")
    or with the chain beside the token ("USDC 1,900.00 (Ethereum)")."""
    stated: dict[str, dict[str, Decimal]] = {}
    aliases = universe.chain_aliases()
    for block in blocks:
        _table(block, universe, stated)
        heading: str | None = None
        for line, kind in zip(block.lines, block.kinds, strict=True):
            if kind != "screen":
                continue
            name = " ".join(line.text.lower().split())
            if name in aliases:
                heading = aliases[name]
                continue
            found = holding(line.text, universe)
            if found is None:
                continue
            symbol, amount, beside = found
            chain = aliases.get(" ".join(beside.lower().split())) if beside else heading
            if chain is None:
                continue
            canonical = universe.asset_on(chain, symbol)
            if canonical is not None:
                stated.setdefault(chain, {})[canonical] = amount
    return stated


# Column names of a pasted balance table ("token,chain,balance").
_TOKEN_COLUMNS: Final = ("token", "asset", "symbol", "coin", "currency")
_CHAIN_COLUMNS: Final = ("chain", "network")
_AMOUNT_COLUMNS: Final = ("balance", "amount", "holding", "holdings", "qty", "quantity")


def _table(block: Block, universe: Names, stated: dict[str, dict[str, Decimal]]) -> None:
    """Balances a pasted CSV table states, one row per token and chain ("token,chain,balance" then
    "DAI,base,3000")."""
    rows = [line.text for line, kind in zip(block.lines, block.kinds, strict=True) if kind == "data"]
    if len(rows) < 2 or "," not in rows[0]:
        return
    header = [cell.strip().lower() for cell in rows[0].split(",")]
    columns = [
        next((header.index(n) for n in names if n in header), None)
        for names in (_TOKEN_COLUMNS, _CHAIN_COLUMNS, _AMOUNT_COLUMNS)
    ]
    token_at, chain_at, amount_at = columns
    if token_at is None or chain_at is None or amount_at is None:
        return
    aliases = universe.chain_aliases()
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.split(",")]
        if len(cells) != len(header):
            continue
        chain = aliases.get(" ".join(cells[chain_at].lower().split()))
        symbol = universe.asset_on(chain, cells[token_at]) if chain is not None else None
        try:
            amount = Decimal(cells[amount_at])
        except InvalidOperation:
            continue
        if chain is not None and symbol is not None and _bounded(amount):
            stated.setdefault(chain, {})[symbol] = amount


# "I have 2000 usdc on optimism", "i've got 1.3 ETH there", "holding 5k dai on base": a balance told.
_TOLD: Final = re.compile(
    r"\b(?:i\s+have|i've\s+got|i\s+got|ive\s+got|i\s+hold|i'm\s+holding|im\s+holding|holding|i\s+own|"
    r"i\s+am\s+having|i'm\s+having|there(?:'s|\s+is)|i\s+still\s+have)\s+(?:about\s+|around\s+|like\s+)?"
    r"(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>k|m)?\s+(?P<asset>[a-z][a-z0-9.]*)"
    r"(?:\s+(?:sitting\s+|left\s+)?(?:on|in)\s+(?P<chain>[a-z][a-z ]{1,20}?))?(?=[\s.,;!?)]|$)",
    re.IGNORECASE,
)


def told(text: str, universe: Names, stated: dict[str, dict[str, Decimal]]) -> None:
    """Balances the request tells ("I have 2000 usdc on optimism"), as a wallet screen states them: a
    share of that token on that chain ("half to eth and the other half to wbtc") is a share of it."""
    aliases = universe.chain_aliases()
    for match in _TOLD.finditer(text):
        chain_words = (match.group("chain") or "").lower().split()
        chain = next(
            (
                aliases[" ".join(chain_words[:size])]
                for size in (3, 2, 1)
                if " ".join(chain_words[:size]) in aliases
            ),
            None,
        )
        if chain is None:
            continue
        asset = universe.asset_on(chain, match.group("asset"))
        if asset is None:
            continue
        try:
            amount = Decimal(match.group("amount").replace(",", ""))
        except InvalidOperation:
            continue
        scale = (match.group("scale") or "").lower()
        amount *= {"k": 1000, "m": 1_000_000}.get(scale, 1)
        if _bounded(amount):
            stated.setdefault(chain, {}).setdefault(asset, amount)


def _bounded(amount: Decimal) -> bool:
    """A stated balance any token could have: finite, not negative, within the parser's amount bound."""
    return amount.is_finite() and 0 <= amount <= MAX_TOKEN_AMOUNT
