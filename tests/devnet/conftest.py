"""Fixtures for the devnet suite: one anvil per session, each test on a snapshot it reverts."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from devnet.anvil import AnvilNotFound, find_anvil
from devnet.rpc import AnvilRpc
from tests.support.anvil import Devnet, running_devnet
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient


@pytest.fixture(scope="session")
def devnet() -> Iterator[Devnet]:
    try:
        find_anvil()
    except AnvilNotFound as error:
        pytest.fail(str(error))
    with running_devnet() as net:
        yield net


@pytest.fixture
async def rpc(devnet: Devnet) -> AsyncIterator[JsonRpcClient]:
    """A client on the session's anvil; the chain state the test leaves is rolled back afterwards."""
    async with httpx.AsyncClient(timeout=None) as http:
        client = JsonRpcClient(devnet.url, http=http)
        anvil = AnvilRpc(client)
        snapshot = await anvil.snapshot()
        try:
            yield client
        finally:
            await anvil.revert(snapshot)


@pytest.fixture
def anvil(rpc: JsonRpcClient) -> AnvilRpc:
    return AnvilRpc(rpc)


@pytest.fixture
def evm(rpc: JsonRpcClient) -> EvmClient:
    return EvmClient(rpc)
