"""The fork's state read ahead on the devnet's real Aave v3 (anvil): a fork started from what the node's
traces named answers exactly as one that reads everything itself; the per-chain cache of the node's
answers serves a block's answers only to forks of that block, and what a fork writes (a step's storage, a
bridge fill's credit) never reaches it."""

from __future__ import annotations

import dataclasses
import json

import httpx
import trio
from eth_abi import encode
from eth_utils import keccak, to_checksum_address

from engine.encoders import erc20_transfer
from engine.registry import load_registry
from engine.simulate import Credit, EvmCall, EvmOutcome
from tests.simulate.conftest import PROBE, SimWorld
from tests.simulate.test_simulate_evm import USDC, lending_steps
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.evm import from_data, from_quantity
from watchers.upstreams.fork_reads import ForkBlock, ReadAhead
from watchers.upstreams.simulation import PyrevmExecutor, _run_fork
from watchers.upstreams.state_cache import AccountState, StateCache

REG = load_registry()
BASE_ID = REG.chain("base").chain_id or 0
# FiatTokenV2_2 (the devnet's USDC) keeps balances in the mapping at storage slot 9.
USDC_BALANCES_SLOT = 9
ELSEWHERE = "0x000000000000000000000000000000000000dEaD"


def calls_of(steps: list[dict]) -> list[EvmCall]:
    return [EvmCall(s["to"], bytes.fromhex(s["data"][2:]), int(s["value"])) for s in steps]


def balance_key(holder: str) -> int:
    return int.from_bytes(keccak(encode(["address", "uint256"], [holder, USDC_BALANCES_SLOT])), "big")


async def fork_of_latest(sim: SimWorld) -> ForkBlock:
    """The block the executor forks (with a clock of 0: the block's own time plus one second)."""
    block = await sim.rpc("base", "eth_getBlockByNumber", ["latest", False])
    assert isinstance(block, dict)
    return ForkBlock(
        number=from_quantity(block["number"]),
        hash=block["hash"],
        timestamp=from_quantity(block["timestamp"]) + 1,
        gas_limit=from_quantity(block["gasLimit"]),
        coinbase=block["miner"],
        prevrandao=from_data(block.get("mixHash") or "0x" + "00" * 32),
    )


def usdc_before(outcome: EvmOutcome, holder: str) -> int:
    assert outcome.observed is not None
    return next(
        h.before
        for h in outcome.observed.holdings
        if h.token is not None and h.token.lower() == USDC.lower() and h.holder.lower() == holder.lower()
    )


async def node_answers(sim: SimWorld, cache: StateCache) -> dict[tuple, object]:
    """Every entry of `cache`, as the node answers it at the entry's block."""
    answers: dict[tuple, object] = {}
    for key in cache.held():
        at = {"blockHash": key[0]}
        if len(key) == 2:
            answers[key] = AccountState(
                balance=int(await sim.rpc("base", "eth_getBalance", [key[1], at]), 16),
                nonce=int(await sim.rpc("base", "eth_getTransactionCount", [key[1], at]), 16),
                code=from_data(await sim.rpc("base", "eth_getCode", [key[1], at])),
            )
        else:
            answers[key] = int(await sim.rpc("base", "eth_getStorageAt", [key[1], hex(key[2]), at]), 16)
    return answers


def cached(cache: StateCache, key: tuple) -> object:
    return cache.account(*key) if len(key) == 2 else cache.slot(*key)


async def test_a_fork_read_ahead_answers_as_one_that_reads_everything_itself(sim: SimWorld) -> None:
    calls = calls_of(lending_steps(sim.wallet))
    url = sim.chains["base"].url
    async with ChainClients.open({"base": url}) as chains:
        executor = PyrevmExecutor(chains, clock=lambda: 0.0)
        fork = await fork_of_latest(sim)
        ahead = await executor.run("base", BASE_ID, sim.wallet, calls)
        # The traces named the plan's accounts and slots, and they were read ahead at the fork's block.
        cache = executor.state["base"]
        assert len({key[1] for key in cache.held()}) >= 10 and len(cache) >= 60
        assert {key[0] for key in cache.held()} == {fork.hash.lower()}
        cold = await trio.to_thread.run_sync(
            _run_fork, url, "anvil", BASE_ID, fork, sim.wallet, calls, {}, ReadAhead()
        )
    assert all(outcome.success for outcome in ahead)
    # The same gas to the unit (every account starts cold either way) and the same balances seen.
    assert [dataclasses.replace(outcome, nested=None) for outcome in ahead] == cold
    assert [outcome.gas_used for outcome in ahead] == [outcome.gas_used for outcome in cold]


async def test_state_read_at_one_block_is_never_served_for_another(sim: SimWorld) -> None:
    calls = calls_of(lending_steps(sim.wallet))
    key = balance_key(sim.wallet)
    async with ChainClients.open({"base": sim.chains["base"].url}) as chains:
        executor = PyrevmExecutor(chains)
        first = await fork_of_latest(sim)
        before = await executor.run("base", BASE_ID, sim.wallet, calls)
        # A real transfer on the node: a new block in which the wallet holds 250 USDC less.
        sent = erc20_transfer(USDC, ELSEWHERE, 250 * 10**6)
        await sim.anvil("base").transact(sim.wallet, sent.to, bytes.fromhex(sent.data[2:]))
        second = await fork_of_latest(sim)
        after = await executor.run("base", BASE_ID, sim.wallet, calls)
    cache = executor.state["base"]
    held = int(await sim.rpc("base", "eth_getStorageAt", [USDC, hex(key), {"blockHash": first.hash}]), 16)
    assert cache.slot(first.hash, USDC, key) == held
    assert cache.slot(second.hash, USDC, key) == held - 250 * 10**6
    # The supply saw each block's own balance, not the other's.
    assert usdc_before(before[1], sim.wallet) == held
    assert usdc_before(after[1], sim.wallet) == held - 250 * 10**6


async def test_what_a_fork_writes_never_reaches_the_state_cache(sim: SimWorld) -> None:
    """A bridge fill's credit (written into the token's balance slot on the fork) and the steps' own
    writes (the approval, the supply) stay in their fork: every cached entry is the node's answer."""
    steps = calls_of(lending_steps(sim.wallet, supply="1500"))
    credit = EvmCall(sim.wallet, b"", 0, credit=Credit(sim.wallet, USDC, 1000 * 10**6))
    calls = [credit, *(dataclasses.replace(call, needs=(0,)) for call in steps)]
    async with ChainClients.open({"base": sim.chains["base"].url}) as chains:
        executor = PyrevmExecutor(chains)
        fork = await fork_of_latest(sim)
        # The first run finds the balance slot by probing; the second reads it ahead, then writes it.
        for _ in range(2):
            outcomes = await executor.run("base", BASE_ID, sim.wallet, calls)
            assert all(outcome.success for outcome in outcomes), outcomes
    cache = executor.state["base"]
    landed = outcomes[0].credited
    assert landed is not None and landed.storage_key is not None
    key = int.from_bytes(landed.storage_key, "big")
    held = int(await sim.rpc("base", "eth_getStorageAt", [USDC, hex(key), {"blockHash": fork.hash}]), 16)
    assert landed.balance == held + 1000 * 10**6
    assert cache.slot(fork.hash, USDC, key) == held
    answers = await node_answers(sim, cache)
    assert len(answers) >= 60
    assert {key: cached(cache, key) for key in answers} == answers


class CountingTransport(httpx.AsyncBaseTransport):
    """The real network, counting the debug_traceCall entries sent."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.traces = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        items = body if isinstance(body, list) else [body]
        self.traces += sum(item.get("method") == "debug_traceCall" for item in items)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_a_fill_landed_as_traced_keeps_the_traces_taken_before_the_fork(sim: SimWorld) -> None:
    """Once the token's balance slot is known, the node traces the steps after a fill on the fill as the
    fork will land it: the same outcomes, nested revert included, without tracing them a second time."""
    fresh = to_checksum_address(
        "0x00000000000000000000000000000000f111ed01"
    )  # nothing on base: the fill funds it
    inner = keccak(text="fail(string)")[:4] + encode(["string"], ["inner says no"])
    steps = calls_of(lending_steps(fresh, supply="1000")[:2]) + [
        EvmCall(
            PROBE, keccak(text="tryCall(address,bytes)")[:4] + encode(["address", "bytes"], [PROBE, inner]), 0
        )
    ]
    credit = EvmCall(fresh, b"", 0, credit=Credit(fresh, USDC, 1000 * 10**6))
    calls = [credit, *(dataclasses.replace(call, needs=(0,)) for call in steps)]
    counting = CountingTransport()
    runs = []
    async with ChainClients.open({"base": sim.chains["base"].url}, transport=counting) as chains:
        executor = PyrevmExecutor(chains, clock=lambda: 0.0)
        for _ in range(2):
            before = counting.traces
            runs.append((await executor.run("base", BASE_ID, fresh, calls), counting.traces - before))
    (first, first_traces), (second, second_traces) = runs
    assert all(outcome.success for outcome in second), second
    assert second[3].nested is not None and second[3].nested.to.lower() == PROBE.lower()
    assert second == first
    # 3 steps with 3 tracers each before the fork; the first run (the slot not yet known) traces them again
    # after it, with the 2 that say nested reverts and state.
    assert (first_traces, second_traces) == (9 + 6, 9)
