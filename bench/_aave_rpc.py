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
from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector

from watchers.upstreams.multicall import AGGREGATE3_SELECTOR

GET_USER_ACCOUNT_DATA = function_signature_to_4byte_selector("getUserAccountData(address)")
WAD = 10**18
NO_DEBT = 2**256 - 1


def _word(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 32], "big")


def inner_calls(args: bytes) -> list[bytes]:
    """The inner calldata of aggregate3's argument, (address,bool,bytes)[], read directly (a node answers
    a hundred thousand a pass; eth_abi's generic decoder would be most of the bench's time)."""
    start = _word(args, 0)
    count = _word(args, start)
    base = start + 32
    found = []
    for index in range(count):
        at = base + _word(args, base + 32 * index)
        data_at = at + _word(args, at + 64)
        found.append(args[data_at + 32 : data_at + 32 + _word(args, data_at)])
    return found


def encode_results(results: list[tuple[bool, bytes]]) -> bytes:
    """aggregate3's return data, (bool,bytes)[], written directly."""
    heads, bodies, offset = [], [], 32 * len(results)
    for success, data in results:
        body = b"".join(
            (int(success).to_bytes(32, "big"), (64).to_bytes(32, "big"), len(data).to_bytes(32, "big"),
             data, bytes(-len(data) % 32))
        )  # fmt: skip
        heads.append(offset.to_bytes(32, "big"))
        bodies.append(body)
        offset += len(body)
    count = len(results).to_bytes(32, "big")
    return (32).to_bytes(32, "big") + count + b"".join(heads) + b"".join(bodies)


@dataclass
class AaveNode:
    """Health factors by lower-case wallet (callers key it so); `down` answers 503; `calls` counts eth_calls (aggregate3
    round trips) and `inner` the getUserAccountData calls inside them."""

    health: dict[str, Decimal] = field(default_factory=dict)
    down: bool = False
    calls: int = 0
    inner: int = 0
    # With replay, each aggregate3 answer is encoded once per health table (by identity) and calldata,
    # then replayed: encoding it is the node's work, not the reader's (as bench/watchers' Feed does).
    replay: bool = False
    _answers: dict[tuple[int, bytes], str] = field(default_factory=dict)
    _accounts: dict[int, bytes] = field(default_factory=dict)

    def _account(self, data: bytes) -> tuple[bool, bytes]:
        if data[:4] != GET_USER_ACCOUNT_DATA or len(data) != 36:
            return False, b""
        user = "0x" + data[16:36].hex()
        self.inner += 1
        factor = self.health.get(user)
        hf = NO_DEBT if factor is None else int(factor * WAD)
        answer = self._accounts.get(hf)
        if answer is None:
            # totalCollateralBase, totalDebtBase, availableBorrowsBase, currentLiquidationThreshold, ltv, hf
            values = [3000 * 10**8, 1500 * 10**8, 0, 8300, 8000, hf]
            answer = self._accounts[hf] = encode(["uint256"] * 6, values)
        return True, answer

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
            results = [self._account(inner) for inner in inner_calls(data[4:])]
            result = "0x" + encode_results(results).hex()
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
