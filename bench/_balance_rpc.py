"""A JSON-RPC node answering what portfolio reads ask of it: eth_call of Multicall3.aggregate3 whose inner
calls are Multicall3.getEthBalance(owner) and ERC-20 balanceOf(owner), in the real ABI encodings, from
tables of balances. Used as an httpx transport (tests, bench/kinds --kind portfolio)."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
import simplejson
from eth_utils import function_signature_to_4byte_selector

from bench._aave_rpc import encode_results, inner_calls
from watchers.upstreams.multicall import AGGREGATE3_SELECTOR

GET_ETH_BALANCE = function_signature_to_4byte_selector("getEthBalance(address)")


@dataclass
class BalanceNode:
    """Answers aggregate3 of getEthBalance and balanceOf from `native` (wei by owner) and `tokens` (raw by
    (lower-case token, owner)); a token in `broken` reverts; `calls` counts aggregate3 round trips."""

    native: dict[str, int] = field(default_factory=dict)
    tokens: dict[tuple[str, str], int] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    calls: int = 0

    def _inner(self, target: str, data: bytes) -> tuple[bool, bytes]:
        owner = "0x" + data[16:36].hex()
        if data[:4] == GET_ETH_BALANCE:
            return True, self.native.get(owner, 0).to_bytes(32, "big")
        if target in self.broken:
            return False, b""
        return True, self.tokens.get((target, owner), 0).to_bytes(32, "big")

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = simplejson.loads(request.content)
        data = bytes.fromhex(body["params"][0]["data"][2:])
        assert data[:4] == AGGREGATE3_SELECTOR
        self.calls += 1
        # The targets sit in the first word of each call tuple; read them alongside the inner calldata.
        args = data[4:]
        start = int.from_bytes(args[:32], "big")
        base = start + 32
        targets = []
        for index in range(int.from_bytes(args[start : start + 32], "big")):
            at = base + int.from_bytes(args[base + 32 * index : base + 32 * index + 32], "big")
            targets.append("0x" + args[at + 12 : at + 32].hex())
        results = [self._inner(t, d) for t, d in zip(targets, inner_calls(args), strict=True)]
        answer = {"jsonrpc": "2.0", "id": body["id"], "result": "0x" + encode_results(results).hex()}
        return httpx.Response(200, content=simplejson.dumps(answer))

    def transport(self) -> httpx.AsyncBaseTransport:
        return httpx.MockTransport(self.handler)
