"""Solana batches on litesvm: the accounts the messages touch come from the RPC (getMultipleAccounts), the
fee from getFeeForMessage, compute units are the gas, and a failing instruction's log is the error."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Awaitable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

import httpx
import pytest
from solders.pubkey import Pubkey

from engine.encoders.solana import sol_transfer_message
from engine.registry import load_registry
from engine.simulate import SimulateRequest
from gateway.errors import ApiError, envelope_for
from gateway.usecases.planning import Planning
from gateway.usecases.simulation import Simulation
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prefetch import Prefetcher
from watchers.upstreams.simulation import LiteSvmExecutor, PyrevmExecutor

REG = load_registry()
SYSTEM_PROGRAM = "11111111111111111111111111111111"
NATIVE_LOADER = "NativeLoader1111111111111111111111111111111"
ALICE = str(Pubkey.from_bytes(bytes([1] * 32)))
BOB = str(Pubkey.from_bytes(bytes([2] * 32)))
BLOCKHASH = str(Pubkey.from_bytes(bytes([9] * 32)))  # any 32 bytes in base58 (a Hash's wire form)
SOL = 10**9
# The Solana fee schedule's base fee per signature (solana.com/docs/core/fees: 5000 lamports).
FEE_PER_SIGNATURE = 5000


@dataclass
class Cluster:
    """A Solana JSON-RPC node answering from a table of accounts (the RPC reference's response shapes)."""

    lamports: dict[str, int]
    quote_fees: bool = True
    asked: list[str] = field(default_factory=list)

    def handle(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        replies = [self.answer(item) for item in body] if isinstance(body, list) else self.answer(body)
        return httpx.Response(200, json=replies)

    def answer(self, item: dict) -> dict:
        method, params = item["method"], item["params"]
        self.asked.append(method)
        if method == "getMultipleAccounts":
            value = [self.account(key) for key in params[0]]
        elif method == "getFeeForMessage":
            value = FEE_PER_SIGNATURE if self.quote_fees else None
        else:
            return {
                "jsonrpc": "2.0",
                "id": item["id"],
                "error": {"code": -32601, "message": "Method not found"},
            }
        return {"jsonrpc": "2.0", "id": item["id"], "result": {"context": {"slot": 1}, "value": value}}

    def account(self, key: str) -> dict | None:
        if key == SYSTEM_PROGRAM:
            # As mainnet's RPC answers it: a builtin, executable and owned by the native loader.
            data = base64.b64encode(b"system_program").decode()
            return {"lamports": 1, "owner": NATIVE_LOADER, "data": [data, "base64"], "executable": True}
        if key not in self.lamports:
            return None
        return {
            "lamports": self.lamports[key],
            "owner": SYSTEM_PROGRAM,
            "data": [base64.b64encode(b"").decode(), "base64"],
            "executable": False,
            "rentEpoch": 0,
            "space": 0,
        }


class FixedPrices:
    async def prices(self, coingecko_ids: Iterable[str]) -> dict[str, Decimal | None]:
        return {i: Decimal(150) if i == "solana" else None for i in coingecko_ids}


@pytest.fixture
def cluster() -> Cluster:
    return Cluster({ALICE: 2 * SOL})


@pytest.fixture
async def simulation(cluster: Cluster) -> AsyncIterator[Simulation]:
    transport = httpx.MockTransport(cluster.handle)
    async with ChainClients.open({"solana": "http://solana.invalid"}, transport=transport) as chains:
        planning = Planning(REG, Prefetcher(REG, chains))
        yield Simulation(
            REG, chains, planning, PyrevmExecutor(chains), LiteSvmExecutor(chains), FixedPrices()
        )


def transfer(order: int, sender: str, recipient: str, lamports: int, **extra: object) -> dict:
    message = sol_transfer_message(sender, recipient, lamports, BLOCKHASH)
    return {
        "order": order,
        "type": "transfer",
        "chain": "solana",
        "protocol": "system",
        "action_type": "Transfer",
        "asset": "SOL",
        "amount": Decimal(lamports) / SOL,
        "description": "transfer SOL",
        "solana_tx": message.solana_tx,
        "solana_format": message.solana_format,
        **extra,
    }


def request(*steps: dict, sender: str = ALICE) -> SimulateRequest:
    return SimulateRequest.model_validate({"chain": "solana", "sender": sender, "steps": list(steps)})


async def test_transfer_succeeds_with_compute_units_as_gas_and_the_rpc_fee(
    simulation: Simulation, cluster: Cluster
) -> None:
    result = await simulation.simulate(request(transfer(1, ALICE, BOB, SOL)))
    assert result.success is True and result.error is None
    (step,) = result.steps
    assert (step.success, step.status, step.status_code, step.action, step.asset) == (
        True,
        "✓",
        1,
        "transfer",
        "SOL",
    )
    assert int(step.gas.replace(",", "")) > 0 and result.gas_used == step.gas
    assert result.gas_price == "5,000 lamports" and result.gas_price_source == "rpc"
    assert result.total_cost == "<$0.01"  # 5000 lamports at $150 is $0.00075
    assert "getMultipleAccounts" in cluster.asked


async def test_transfer_above_the_balance_fails_with_the_instruction_log(simulation: Simulation) -> None:
    result = await simulation.simulate(request(transfer(1, ALICE, BOB, 5 * SOL)))
    assert result.success is False
    (step,) = result.steps
    assert step.success is False and step.status == "✗" and step.status_code == 0
    assert step.error is not None
    assert step.error.startswith("instruction 0 failed: Transfer: insufficient lamports"), step.error
    assert step.error.endswith("(custom program error: 0x1)"), step.error
    assert result.error == f"step 1 (transfer): {step.error}"


async def test_state_carries_from_one_message_to_the_next(simulation: Simulation) -> None:
    result = await simulation.simulate(
        request(transfer(1, ALICE, BOB, int(1.5 * SOL)), transfer(2, ALICE, BOB, int(1.5 * SOL)))
    )
    assert [s.success for s in result.steps] == [True, False]


async def test_fee_falls_back_to_the_runtime_when_the_rpc_cannot_quote(
    simulation: Simulation, cluster: Cluster
) -> None:
    cluster.quote_fees = False
    result = await simulation.simulate(request(transfer(1, ALICE, BOB, SOL)))
    assert result.success is True
    assert result.gas_price == "5,000 lamports" and result.gas_price_source == "litesvm"


async def test_sender_is_the_wallet_of_steps_without_one(simulation: Simulation) -> None:
    result = await simulation.simulate(request(transfer(1, ALICE, BOB, SOL), sender=BOB))
    (step,) = result.steps
    assert step.success is False and step.error == f"the message is not signed by the step's wallet {BOB}"
    signed = await simulation.simulate(request(transfer(1, ALICE, BOB, SOL, wallet=ALICE), sender=BOB))
    assert signed.success is True


async def envelope_of(work: Awaitable[object]) -> ApiError:
    """The envelope the service answers when `work` (a use case) refuses."""
    with pytest.raises(Exception) as caught:
        await work
    envelope = envelope_for(caught.value)
    assert envelope is not None, caught.value
    return envelope


async def test_evm_sender_on_solana_is_400(simulation: Simulation) -> None:
    refused = await envelope_of(
        simulation.simulate(request(transfer(1, ALICE, BOB, SOL), sender="0x" + "11" * 20))
    )
    assert refused.status == 400 and [i.field for i in refused.issues] == ["sender"]


async def test_garbage_message_is_400_naming_the_step(simulation: Simulation) -> None:
    step = {**transfer(1, ALICE, BOB, SOL), "solana_tx": "bm90IGEgbWVzc2FnZQ=="}
    refused = await envelope_of(simulation.simulate(request(step)))
    assert refused.status == 400 and [i.field for i in refused.issues] == ["steps[0].solana_tx"]
