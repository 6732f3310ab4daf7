"""One round trip per EVM chain for a planning round: the gas price and every eth_call the round needs
(native and token balances, allowances, the swap quotes of every fee tier) go out as one JSON-RPC batch
whose eth_call is a single Multicall3 aggregate3 with allowFailure on each call."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from eth_abi import encode

from engine.encoders import quote_exact_input_single
from engine.planner import AllowanceKey, BalanceKey, Facts, GasPriceKey, SwapQuote, SwapQuoteKey
from engine.registry import Registry
from watchers.upstreams.evm import from_data, from_quantity
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcUnavailable
from watchers.upstreams.multicall import (
    ALLOWANCE_SELECTOR,
    BALANCE_OF_SELECTOR,
    DEFAULT_CHUNK,
    GET_ETH_BALANCE_SELECTOR,
    Call3,
    CallResult,
    decode_aggregate3,
    encode_aggregate3,
)
from watchers.upstreams.uniswap_quotes import UNISWAP_V3_FEE_TIERS, PoolUnavailable, UniswapQuote, read_quote


def _uint(result: CallResult) -> int | None:
    if not result.success or len(result.return_data) < 32:
        return None
    return int.from_bytes(result.return_data[:32], "big")


@dataclass
class ChainRound:
    """The reads of one chain for one round, and how each answer lands in Facts."""

    registry: Registry
    chain: str
    facts: Facts
    calls: list[Call3] = field(default_factory=list)
    readers: list[Callable[[CallResult], None]] = field(default_factory=list)
    after: list[Callable[[], None]] = field(default_factory=list)

    def add(self, call: Call3, reader: Callable[[CallResult], None]) -> None:
        self.calls.append(call)
        self.readers.append(reader)

    def balance(self, key: BalanceKey) -> None:
        native = self.registry.native(self.chain).symbol
        if key.symbol == native:
            multicall = self.registry.multicall3(self.chain)
            data = GET_ETH_BALANCE_SELECTOR + encode(["address"], [key.owner])
            self.add(Call3(multicall, data), lambda r: self._set_uint(key, r, "getEthBalance"))
            return
        token = self.registry.token(self.chain, key.symbol).address or ""
        data = BALANCE_OF_SELECTOR + encode(["address"], [key.owner])
        self.add(
            Call3(token, data), lambda r: self._set_uint(key, r, f"the {key.symbol} contract's balanceOf")
        )

    def allowance(self, key: AllowanceKey) -> None:
        data = ALLOWANCE_SELECTOR + encode(["address", "address"], [key.owner, key.spender])
        self.add(Call3(key.token, data), lambda r: self.facts.values.__setitem__(key, _uint(r) or 0))

    def swap(self, key: SwapQuoteKey) -> None:
        quoter = self.registry.deployment(self.chain, "uniswap", "quoter_v2")
        tiers = (key.fee_tier,) if key.fee_tier is not None else UNISWAP_V3_FEE_TIERS
        answers: dict[int, UniswapQuote | PoolUnavailable] = {}
        for tier in tiers:
            call = quote_exact_input_single(quoter, key.token_in, key.token_out, key.amount_in, tier)

            def read(result: CallResult, tier: int = tier) -> None:
                if not result.success:
                    answers[tier] = PoolUnavailable(tier, "reverted")
                    return
                try:
                    answers[tier] = read_quote(tier, key.amount_in, result.return_data)
                except PoolUnavailable as missing:
                    answers[tier] = missing

            self.add(Call3(quoter, bytes.fromhex(call.data[2:])), read)

        def settle() -> None:
            quotes = [a for a in answers.values() if isinstance(a, UniswapQuote)]
            if quotes:
                best = max(quotes, key=lambda q: q.amount_out)
                self.facts.values[key] = SwapQuote(amount_out=best.amount_out, fee_tier=best.fee)
            else:
                reasons = "; ".join(str(a) for a in answers.values())
                self.facts.failed[key] = f"no Uniswap v3 fee tier quotes this pair ({reasons})"

        self.after.append(settle)

    def _set_uint(self, key: BalanceKey, result: CallResult, what: str) -> None:
        value = _uint(result)
        if value is None:
            self.facts.failed[key] = f"{what} did not answer"
        else:
            self.facts.values[key] = value

    async def run(self, rpc: JsonRpcClient, gas: Sequence[GasPriceKey]) -> None:
        """Send the round as one batch and write every answer into the facts. Raises RpcUnavailable or
        RpcError when the node fails, SourceUnavailable when a quote does not decode."""
        multicall = self.registry.multicall3(self.chain)
        requests: list[tuple[str, list[object]]] = []
        chunks = [self.calls[i : i + DEFAULT_CHUNK] for i in range(0, len(self.calls), DEFAULT_CHUNK)]
        for chunk in chunks:
            requests.append(
                ("eth_call", [{"to": multicall, "data": "0x" + encode_aggregate3(chunk).hex()}, "latest"])
            )
        if gas:
            requests.append(("eth_gasPrice", []))
        results = await rpc.batch(requests)
        decoded: list[CallResult] = []
        for chunk, raw in zip(chunks, results, strict=False):
            answers = decode_aggregate3(from_data(raw))
            if len(answers) != len(chunk):
                raise RpcUnavailable(
                    self.chain, "eth_call", "aggregate3 answered the wrong number of results"
                )
            decoded.extend(answers)
        for reader, result in zip(self.readers, decoded, strict=True):
            reader(result)
        for settle in self.after:
            settle()
        if gas:
            price = from_quantity(results[-1])
            for key in gas:
                self.facts.values[key] = price
