"""Uniswap v3 swap quotes from QuoterV2 over eth_call, one fee tier at a time or the best of all tiers.

QuoterV2.quoteExactInputSingle is not a view function (it runs the swap and reverts inside to read the
result), so it is called with eth_call, never sent. A tier whose quote reverts has no pool or no liquidity
for the pair (the pool address has no code, or the swap cannot fill), and is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import trio

from engine.encoders import EncodingError, decode_quote_exact_input_single, quote_exact_input_single
from watchers.upstreams.evm import EvmClient, decode_revert, revert_data
from watchers.upstreams.jsonrpc import RpcError, RpcUnavailable
from watchers.upstreams.quote_errors import NoRoute, SourceUnavailable

__all__ = [
    "UNISWAP_V3_FEE_TIERS",
    "PoolUnavailable",
    "UniswapQuote",
    "best_quote",
    "quote_exact_input_single_on",
    "read_quote",
]

# Fee tiers in hundredths of a bip: 500, 3000 and 10000 are enabled in Uniswap v3-core's
# UniswapV3Factory.sol constructor; 100 (0.01%, tick spacing 1) was enabled later through the factory's
# enableFeeAmount (docs.uniswap.org/contracts/v3/reference/core/interfaces/IUniswapV3Factory).
UNISWAP_V3_FEE_TIERS = (100, 500, 3000, 10000)
SOURCE = "uniswap-v3"


@dataclass(frozen=True, slots=True)
class UniswapQuote:
    """QuoterV2's answer for swapping `amount_in` raw units in the pool of fee tier `fee`."""

    fee: int
    amount_in: int
    amount_out: int
    sqrt_price_x96_after: int
    initialized_ticks_crossed: int
    gas_estimate: int


class PoolUnavailable(Exception):
    """The quote for one fee tier reverted or came back empty: no pool or no liquidity in that tier."""

    def __init__(self, fee: int, reason: str) -> None:
        super().__init__(f"fee tier {fee}: {reason}")
        self.fee = fee
        self.reason = reason


def read_quote(fee: int, amount_in: int, returned: bytes) -> UniswapQuote:
    """Interpret QuoterV2's return data for one tier. Raises PoolUnavailable when it carries no quote
    (an address without code answers empty data) or quotes zero, SourceUnavailable when it does not decode."""
    if not returned:
        raise PoolUnavailable(fee, "the quoter returned no data")
    try:
        decoded = decode_quote_exact_input_single(returned)
    except EncodingError as error:
        raise SourceUnavailable(SOURCE, f"QuoterV2 answer does not decode: {error}") from None
    if decoded.amount_out == 0:
        raise PoolUnavailable(fee, "quotes zero output (no liquidity)")
    return UniswapQuote(
        fee=fee,
        amount_in=amount_in,
        amount_out=decoded.amount_out,
        sqrt_price_x96_after=decoded.sqrt_price_x96_after,
        initialized_ticks_crossed=decoded.initialized_ticks_crossed,
        gas_estimate=decoded.gas_estimate,
    )


async def quote_exact_input_single_on(
    evm: EvmClient, quoter: str, token_in: str, token_out: str, amount_in: int, fee: int
) -> UniswapQuote:
    """Quote swapping raw `amount_in` of `token_in` for `token_out` in the `fee` tier, by eth_call to the
    QuoterV2 at `quoter`.

    Raises PoolUnavailable when the quote reverts or quotes nothing, SourceUnavailable when the node cannot
    be reached in time (the RPC client's settings) or answers something that is not a quote, and
    EncodingError for malformed arguments.
    """
    call = quote_exact_input_single(quoter, token_in, token_out, amount_in, fee)
    try:
        raw = await evm.eth_call(call.to, bytes.fromhex(call.data[2:]))
    except RpcUnavailable as error:
        raise SourceUnavailable(SOURCE, str(error)) from None
    except RpcError as error:
        if not _is_revert(error):
            raise SourceUnavailable(SOURCE, f"eth_call refused: {error}") from None
        payload = revert_data(error)
        reason = (decode_revert(payload) if payload else None) or "reverted"
        raise PoolUnavailable(fee, reason) from None
    return read_quote(fee, amount_in, raw)


async def best_quote(
    evm: EvmClient,
    quoter: str,
    token_in: str,
    token_out: str,
    amount_in: int,
    *,
    fee_tiers: Sequence[int] = UNISWAP_V3_FEE_TIERS,
) -> UniswapQuote:
    """Quote every tier of `fee_tiers` concurrently (one nursery) and return the largest amount_out; on a
    tie, the tier listed first (the lower fee in the default order).

    Raises NoRoute when every tier is PoolUnavailable (its reason lists each tier's), SourceUnavailable as
    soon as one tier's quote finds the node unavailable (the other quotes are cancelled), and EncodingError
    for malformed arguments.
    """
    if not fee_tiers:
        raise ValueError("fee_tiers must name at least one tier")
    results: dict[int, UniswapQuote | PoolUnavailable] = {}

    async def quote_tier(fee: int) -> None:
        try:
            results[fee] = await quote_exact_input_single_on(evm, quoter, token_in, token_out, amount_in, fee)
        except PoolUnavailable as missing:
            results[fee] = missing

    try:
        async with trio.open_nursery() as nursery:
            for fee in dict.fromkeys(fee_tiers):
                nursery.start_soon(quote_tier, fee)
    except BaseExceptionGroup as group:
        # Tasks fail only with SourceUnavailable or EncodingError; surface the first, not a group.
        raise group.exceptions[0] from None
    # In fee_tiers order (tasks finish in any order), so max() breaks ties towards the tier listed first.
    answers = [results[fee] for fee in dict.fromkeys(fee_tiers)]
    quotes = [answer for answer in answers if isinstance(answer, UniswapQuote)]
    if not quotes:
        reasons = "; ".join(str(answer) for answer in answers)
        raise NoRoute(SOURCE, f"no fee tier quotes {token_in} -> {token_out} ({reasons})")
    return max(quotes, key=lambda q: q.amount_out)


def _is_revert(error: RpcError) -> bool:
    # Nodes answer a reverted eth_call as code 3 "execution reverted" with the payload in data (geth, anvil),
    # or as -32000/-32015 with "revert" in the message (older geth, Nethermind, Erigon, Besu).
    return error.code == 3 or "revert" in error.message.lower() or revert_data(error) is not None
