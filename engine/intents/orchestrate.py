"""Running a parse with progress events (contract: the SSE events of POST /intent).

Events go through a handed-in async `emit(event, data)`: `reasoning` (progress prose while working),
`tool-start` / `tool-end` (data carries `tool`, named after the real lookup: resolve_assets,
lookup_protocols, fetch_balances, fetch_prices), `delta` (the reasoning prose of the answer, sentence by
sentence) and `final` (the IntentResponse as plain data, Decimal amounts kept).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from decimal import Decimal
from typing import Any, Final, Protocol

import trio

from engine.intents.amounts import Facts, address_key
from engine.intents.models import IntentRequest, IntentResponse
from engine.intents.parser import IntentParser, Reading, facts_from_request
from engine.intents.steps import Outcome

Emit = Callable[[str, dict[str, Any]], Awaitable[None]]

# How long one balance or price lookup may take before it counts as failed (seconds). The gateway passes
# its configured upstream timeout; this default matches a typical JSON-RPC read budget.
DEFAULT_LOOKUP_TIMEOUT: Final = 10.0

_SENTENCE: Final = re.compile(r"(?<=[.?!])\s+")


class BalanceSource(Protocol):
    """Balances of one address on one chain (the lead wires it to the JSON-RPC client)."""

    async def balances(self, address: str, chain: str) -> Mapping[str, Decimal]:
        """Asset symbol -> amount in token units for the registry's assets on that chain.

        Raises any Exception when the chain cannot be read; the parser then asks or explains.
        """
        ...


class PriceSource(Protocol):
    """USD prices (the lead wires it to the market-data client)."""

    async def usd_price(self, chain: str, asset: str) -> Decimal:
        """The USD price of one token; raises any Exception when no price is available."""
        ...


async def run_intent(
    request: IntentRequest,
    parser: IntentParser,
    emit: Emit,
    *,
    balances: BalanceSource | None = None,
    prices: PriceSource | None = None,
    lookup_timeout: float = DEFAULT_LOOKUP_TIMEOUT,
) -> IntentResponse:
    """Parse the request, fetching balances and prices it needs, and report progress through `emit`.

    Returns the IntentResponse also sent as the `final` event. Lookup failures never raise: the answer
    then asks how much or explains. Exceptions raised by `emit` propagate (the stream is gone).
    """
    facts = facts_from_request(request)
    await emit("reasoning", {"text": "Reading the request and resolving the assets and chains it names."})
    await emit("tool-start", {"tool": "resolve_assets"})
    reading = parser.read(request)
    await emit("tool-end", {"tool": "resolve_assets", **_named(reading)})
    outcome = await _resolve(parser, reading, facts, emit)
    fetched = False
    if outcome.balance_needs and outcome.refusal is None:
        fetched |= await _fetch_balances(outcome, facts, balances, emit, lookup_timeout)
    if outcome.price_needs and outcome.refusal is None:
        fetched |= await _fetch_prices(outcome, facts, prices, emit, lookup_timeout)
    if fetched:
        await emit("reasoning", {"text": "Settling the amounts with what the lookups returned."})
        outcome = await _resolve(parser, reading, facts, emit)
    response = parser.answer(request, outcome, facts)
    for sentence in _SENTENCE.split(response.reasoning):
        if sentence:
            await emit("delta", {"text": sentence + " "})
    await emit("final", response.wire())
    return response


def _exact(value: object, *, positive: bool = False) -> Decimal:
    """A source's number as an exact Decimal; floats and non-finite or negative values are refused."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise TypeError(f"expected a Decimal, got {type(value).__name__}")
    exact = Decimal(value)
    if not exact.is_finite() or exact < 0 or (positive and exact == 0):
        raise ValueError(f"unusable value {exact}")
    return exact


def _named(reading: Reading) -> dict[str, Any]:
    assets: list[str] = []
    chains: list[str] = []
    for draft in reading.drafts:
        assets.extend(asset for asset in [*draft.assets, draft.to_asset] if asset and asset not in assets)
        named = [draft.on_chain, draft.from_chain, draft.to_chain, *draft.bare_chains]
        chains.extend(chain for chain in named if chain and chain not in chains)
    return {"assets": assets, "chains": chains}


async def _resolve(parser: IntentParser, reading: Reading, facts: Facts, emit: Emit) -> Outcome:
    await emit("tool-start", {"tool": "lookup_protocols"})
    outcome = parser.resolve(reading, facts)
    protocols = sorted({step.protocol for step in outcome.steps if step.protocol})
    await emit("tool-end", {"tool": "lookup_protocols", "protocols": protocols})
    return outcome


async def _fetch_balances(
    outcome: Outcome, facts: Facts, source: BalanceSource | None, emit: Emit, per_lookup: float
) -> bool:
    """Fetch the balances the outcome wants; failures are recorded in facts. True when anything was tried."""
    if source is None:
        return False
    await emit("tool-start", {"tool": "fetch_balances"})
    failed: list[str] = []

    async def fetch(address: str, chain: str) -> None:
        key = (address_key(address), chain)
        try:
            with trio.fail_after(per_lookup):
                found = await source.balances(address, chain)
            facts.balances[key] = {symbol: _exact(amount) for symbol, amount in found.items()}
        except Exception:  # a lookup boundary: any failure of the source means "unknown", never a guess
            facts.failed_balances.add(key)
            failed.append(chain)

    async with trio.open_nursery() as nursery:
        for address, chain in outcome.balance_needs:
            nursery.start_soon(fetch, address, chain)
    await emit("tool-end", {"tool": "fetch_balances", "ok": not failed, "failed_chains": sorted(failed)})
    return True


async def _fetch_prices(
    outcome: Outcome, facts: Facts, source: PriceSource | None, emit: Emit, per_lookup: float
) -> bool:
    """Fetch the USD prices the outcome wants; failures are recorded in facts. True when anything was tried."""
    if source is None:
        return False
    await emit("tool-start", {"tool": "fetch_prices"})
    failed: list[str] = []

    async def fetch(chain: str, asset: str) -> None:
        try:
            with trio.fail_after(per_lookup):
                price = await source.usd_price(chain, asset)
            facts.prices[(chain, asset)] = _exact(price, positive=True)
        except Exception:  # a lookup boundary: a missing price is asked about, never guessed
            facts.failed_prices.add((chain, asset))
            failed.append(asset)

    async with trio.open_nursery() as nursery:
        for chain, asset in outcome.price_needs:
            nursery.start_soon(fetch, chain, asset)
    await emit("tool-end", {"tool": "fetch_prices", "ok": not failed, "failed_assets": sorted(failed)})
    return True
