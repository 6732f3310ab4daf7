"""Reading a fork's state ahead over JSON-RPC: one batch by block hash for what the cache lacks; an entry
the node answers with an error or out of its method's shape is left for the fork to read itself."""

from __future__ import annotations

import json

import httpx
import pytest

from watchers.upstreams.clients import ChainClients
from watchers.upstreams.fork_reads import Touched, read_ahead
from watchers.upstreams.jsonrpc import RpcError
from watchers.upstreams.state_cache import AccountState, StateCache

BLOCK = "0x" + "ab" * 32
TOKEN = "0x" + "11" * 20
HOLDER = "0x" + "22" * 20
WORD = "0x" + "00" * 31 + "2a"


def node(answers: dict[str, object], seen: list[list[dict]]) -> httpx.MockTransport:
    """A node answering each method of a batch from `answers` (an exception: a JSON-RPC error)."""

    def answer(request: httpx.Request) -> httpx.Response:
        batch = json.loads(request.content)
        seen.append(batch)
        replies = []
        for item in batch:
            found = answers[item["method"]]
            if isinstance(found, Exception):
                replies.append(
                    {"jsonrpc": "2.0", "id": item["id"], "error": {"code": -32000, "message": "no"}}
                )
            else:
                replies.append({"jsonrpc": "2.0", "id": item["id"], "result": found})
        return httpx.Response(200, json=replies)

    return httpx.MockTransport(answer)


async def test_what_the_cache_lacks_is_read_in_one_batch_at_the_block_hash() -> None:
    seen: list[list[dict]] = []
    answers = {
        "eth_getBalance": "0x5",
        "eth_getTransactionCount": "0x1",
        "eth_getCode": "0x6000",
        "eth_getStorageAt": WORD,
    }
    cache = StateCache()
    cache.put_account(BLOCK, HOLDER, AccountState(7, 0, b""))
    touched = Touched()
    touched.add(TOKEN, (1, 2))
    touched.add(HOLDER)
    async with ChainClients.open({"base": "http://node.test"}, transport=node(answers, seen)) as chains:
        ahead = await read_ahead(chains.rpc("base"), cache, BLOCK, touched)
    assert len(seen) == 1  # one request: the token's account and its two slots, the holder from the cache
    assert sorted(item["method"] for item in seen[0]) == [
        "eth_getBalance",
        "eth_getCode",
        "eth_getStorageAt",
        "eth_getStorageAt",
        "eth_getTransactionCount",
    ]
    assert all(item["params"][-1] == {"blockHash": BLOCK} for item in seen[0])
    assert ahead.accounts == {TOKEN: AccountState(5, 1, b"\x60\x00"), HOLDER: AccountState(7, 0, b"")}
    assert ahead.storage == {(TOKEN, 1): 42, (TOKEN, 2): 42}
    assert cache.slot(BLOCK, TOKEN, 2) == 42 and cache.account(BLOCK, TOKEN) == AccountState(
        5, 1, b"\x60\x00"
    )


async def test_entries_the_node_fails_or_misshapes_are_left_out_and_not_cached() -> None:
    seen: list[list[dict]] = []
    answers: dict[str, object] = {
        "eth_getBalance": "0x5",
        "eth_getTransactionCount": "0x1",
        "eth_getCode": "6000",  # not 0x-hex data
        "eth_getStorageAt": RpcError(-32000, "no"),
    }
    cache = StateCache()
    touched = Touched()
    touched.add(TOKEN, (1,))
    async with ChainClients.open({"base": "http://node.test"}, transport=node(answers, seen)) as chains:
        ahead = await read_ahead(chains.rpc("base"), cache, BLOCK, touched)
    assert ahead.accounts == {} and ahead.storage == {}
    assert len(cache) == 0


async def test_a_node_refusing_the_whole_batch_raises() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, json={"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no"}}
        )

    touched = Touched()
    touched.add(TOKEN, (1,))
    async with ChainClients.open(
        {"base": "http://node.test"}, transport=httpx.MockTransport(refuse)
    ) as chains:
        with pytest.raises(RpcError):
            await read_ahead(chains.rpc("base"), StateCache(), BLOCK, touched)


def test_a_prestate_trace_names_accounts_and_slots_and_anything_else_is_ignored() -> None:
    touched = Touched()
    touched.add_prestate(
        {
            TOKEN: {"balance": "0x0", "storage": {"0x01": WORD, "0x" + "00" * 31 + "02": WORD}},
            HOLDER.upper().replace("0X", "0x"): {"balance": "0x5"},
            "0x" + "33" * 20: {"storage": {"not hex": WORD}},
            "not an address": {"balance": "0x1"},
        }
    )
    touched.add_prestate(["not", "a", "prestate"])
    assert touched.accounts == {TOKEN, HOLDER, "0x" + "33" * 20}
    assert touched.slots[TOKEN] == {1, 2}
