"""/simulate when its upstreams fail: the envelope's 503s, and provider URLs (which carry API keys) never
leak into an error."""

from __future__ import annotations

import json
import socket

import httpx
import pytest

from engine.simulate import EvmCall
from tests.simulate.conftest import SimWorld
from tests.simulate.test_simulate_evm import lending_steps
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.simulation import ForkUnavailable, PyrevmExecutor


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_chain_without_an_rpc_is_503_service_not_configured(sim: SimWorld) -> None:
    steps = lending_steps(sim.wallet)
    for step in steps:
        step["chain"] = "arbitrum"
    status, body = await sim.simulate({"chain": "arbitrum", "sender": sim.wallet, "steps": steps})
    assert status == 503 and body["error"] == "service_not_configured"


async def test_fork_that_cannot_reach_the_node_is_unavailable_without_the_url() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v2/secret-provider-key"
    block = {"number": "0x5", "timestamp": "0x1", "gasLimit": "0x1c9c380", "miner": "0x" + "00" * 20}

    def answer(request: httpx.Request) -> httpx.Response:
        item = json.loads(request.content)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": item["id"], "result": block})

    async with ChainClients.open({"base": url}, transport=httpx.MockTransport(answer)) as chains:
        executor = PyrevmExecutor(chains)
        with pytest.raises(ForkUnavailable) as caught:
            await executor.run("base", 8453, "0x" + "11" * 20, [EvmCall("0x" + "22" * 20, b"", 1)])
    assert "secret-provider-key" not in str(caught.value)
    assert str(caught.value).endswith("at http://127.0.0.1:" + url.split(":")[2].split("/")[0])
