"""A JSON-RPC node answering what the health watchers ask of it: eth_call of Multicall3.aggregate3 whose
inner calls are Aave v3 / SparkLend Pool.getUserAccountData(user), each answered from a table of health
factors by wallet, in the real ABI encodings (a wallet not in the table has no position: the pool
answers the maximum uint256 health factor, as Aave v3 does with no debt). Used as an httpx transport, so
the reader pays for the request's encoding and decoding but not for a network."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
import simplejson
from eth_abi import decode, encode
from eth_utils import function_signature_to_4byte_selector

from watchers.upstreams.multicall import AGGREGATE3_SELECTOR

GET_USER_ACCOUNT_DATA = function_signature_to_4byte_selector("getUserAccountData(address)")
WAD = 10**18
NO_DEBT = 2**256 - 1


@dataclass
class AaveNode:
    """Health factors by lower-case wallet; `down` answers 503; `calls` counts eth_calls (aggregate3
    round trips) and `inner` the getUserAccountData calls inside them."""

    health: dict[str, Decimal] = field(default_factory=dict)
    down: bool = False
    calls: int = 0
    inner: int = 0
    # With replay, each aggregate3 answer is encoded once per health table (by identity) and calldata,
    # then replayed: encoding it is the node's work, not the reader's (as bench/watchers' Feed does).
    replay: bool = False
    _answers: dict[tuple[int, bytes], str] = field(default_factory=dict)

    def _account(self, data: bytes) -> tuple[bool, bytes]:
        if data[:4] != GET_USER_ACCOUNT_DATA:
            return False, b""
        (user,) = decode(["address"], data[4:])
        self.inner += 1
        factor = self.health.get(user.lower())
        hf = NO_DEBT if factor is None else int(factor * WAD)
        # totalCollateralBase, totalDebtBase, availableBorrowsBase, currentLiquidationThreshold, ltv, hf
        return True, encode(["uint256"] * 6, [3000 * 10**8, 1500 * 10**8, 0, 8300, 8000, hf])

    def _answer(self, call: dict[str, Any]) -> dict[str, Any]:
        if call.get("method") != "eth_call":
            return {"jsonrpc": "2.0", "id": call.get("id"), "error": {"code": -32601, "message": "no method"}}
        data = bytes.fromhex(call["params"][0]["data"][2:])
        if data[:4] != AGGREGATE3_SELECTOR:
            return {
                "jsonrpc": "2.0",
                "id": call.get("id"),
                "error": {"code": 3, "message": "execution reverted"},
            }
        self.calls += 1
        key = (id(self.health), data)
        result = self._answers.get(key) if self.replay else None
        if result is None:
            (calls,) = decode(["(address,bool,bytes)[]"], data[4:])
            results = [self._account(bytes(inner)) for _, _, inner in calls]
            result = "0x" + encode(["(bool,bytes)[]"], [results]).hex()
            if self.replay:
                self._answers[key] = result
        return {"jsonrpc": "2.0", "id": call.get("id"), "result": result}

    def handler(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            return httpx.Response(503, text="node down")
        body = simplejson.loads(request.content)
        answer: Any = [self._answer(c) for c in body] if isinstance(body, list) else self._answer(body)
        return httpx.Response(200, content=simplejson.dumps(answer))

    def transport(self, *, replay: bool = False) -> httpx.AsyncBaseTransport:
        self.replay = replay
        return httpx.MockTransport(self.handler)
