"""Across deposits as a user gets them: planned by /plan from the devnet Across API's quote, executed on
the real SpokePool (behind its proxy, on the devnet's Ethereum), with the balance effect and the
FundsDeposited event the plan intended; a quote gone stale before signing reverts with the pool's error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from eth_abi import decode
from eth_utils import keccak

from devnet.across_api import fee_of
from devnet.rpc import AnvilRpc, TransactionFailed, calldata
from engine.planner.labels import GAS_UNITS
from engine.registry import load_registry
from gateway.config import Settings
from tests.devnet.helpers import word
from tests.support.server import Running, running_service
from watchers.upstreams.evm import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil

REG = load_registry()
WALLET = "0xacc055ac1055e0000000000000000000000000a1"  # used by no other test
FUNDS_DEPOSITED = keccak(
    text="FundsDeposited(bytes32,bytes32,uint256,uint256,uint256,uint256,uint32,uint32,uint32,bytes32,bytes32,bytes32,bytes)"
)
FUNDS_DEPOSITED_DATA = [
    "bytes32", "bytes32", "uint256", "uint256", "uint32", "uint32", "uint32", "bytes32", "bytes32", "bytes",
]  # fmt: skip
SPOKE = REG.deployment("ethereum", "across", "spoke_pool")


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Running]:
    async with running_service(settings.model_copy(update={"devnet": True})) as running:
        yield running


async def planned(service: Running, asset: str, amount: str, to_chain: str) -> list[dict[str, Any]]:
    intent = {
        "action": "bridge",
        "asset": asset,
        "from_chain": "ethereum",
        "to_chain": to_chain,
        "amount": amount,
        "protocol": "across",
    }
    async with service.client() as client:
        response = await client.post(
            "/plan", json={"intents": [intent], "wallets": [{"address": WALLET, "chain": "ethereum"}]}
        )
    assert response.status_code == 200, response.text
    return list(response.json()["steps"])


async def execute(anvil: AnvilRpc, step: dict[str, Any]) -> dict[str, Any]:
    data = bytes.fromhex(step["data"][2:])
    return await anvil.transact(step["wallet"], step["to"], data, int(step.get("value") or 0))


def deposit_event(receipt: dict[str, Any]) -> tuple[int, tuple[Any, ...]]:
    """(destinationChainId, decoded data) of the receipt's one FundsDeposited log."""
    (log,) = [entry for entry in receipt["logs"] if entry["topics"][0] == "0x" + FUNDS_DEPOSITED.hex()]
    assert log["address"].lower() == SPOKE.lower() and log["topics"][3] == "0x" + word(WALLET).hex()
    return int(log["topics"][1], 16), decode(FUNDS_DEPOSITED_DATA, bytes.fromhex(log["data"][2:]))


async def token_balance(evm: EvmClient, token: str, owner: str) -> int:
    return int.from_bytes((await evm.eth_call(token, calldata("balanceOf(address)", [owner])))[:32], "big")


async def test_planned_usdc_and_native_deposits_execute_on_the_real_spoke_pool(service: Running) -> None:
    usdc, weth = REG.token("ethereum", "USDC").address, REG.token("ethereum", "WETH").address
    assert usdc is not None and weth is not None
    async with httpx.AsyncClient(timeout=30) as http:
        rpc = JsonRpcClient(service.services.settings.rpc_urls["ethereum"], http=http)
        anvil, evm = AnvilRpc(rpc), EvmClient(rpc)
        await rpc.call("anvil_impersonateAccount", [WALLET])

        # 100 USDC to Arbitrum: approve, then depositV3 pulls exactly 100 USDC into the pool.
        approve, bridge = await planned(service, "USDC", "100", "arbitrum")
        assert (approve["type"], bridge["type"], bridge["to"]) == ("approve", "bridge", SPOKE)
        await execute(anvil, approve)
        held, pooled = await token_balance(evm, usdc, WALLET), await token_balance(evm, usdc, SPOKE)
        receipt = await execute(anvil, bridge)
        assert await token_balance(evm, usdc, WALLET) == held - 100 * 10**6
        assert await token_balance(evm, usdc, SPOKE) == pooled + 100 * 10**6
        destination, fields = deposit_event(receipt)
        arbitrum_usdc = REG.token("arbitrum", "USDC").address
        assert arbitrum_usdc is not None and destination == 42161
        assert fields[0] == word(usdc) and fields[1] == word(arbitrum_usdc)
        assert fields[2:4] == (100 * 10**6, 100 * 10**6 - fee_of(100 * 10**6))  # the quote's output
        assert fields[7] == word(WALLET) and fields[8] == bytes(32)  # recipient, no exclusive relayer
        assert int(receipt["gasUsed"], 16) <= GAS_UNITS["across_deposit"]

        # 0.5 ETH to Base: one step whose value the pool wraps into the real WETH9.
        (native,) = await planned(service, "ETH", "0.5", "base")
        assert int(native["value"]) == 5 * 10**17
        ether, wrapped = await evm.get_balance(WALLET), await token_balance(evm, weth, SPOKE)
        receipt = await execute(anvil, native)
        gas = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
        assert await evm.get_balance(WALLET) == ether - 5 * 10**17 - gas
        assert await token_balance(evm, weth, SPOKE) == wrapped + 5 * 10**17
        destination, fields = deposit_event(receipt)
        base_weth = REG.token("base", "WETH").address
        assert base_weth is not None and destination == 8453
        assert fields[0] == word(weth) and fields[1] == word(base_weth) and fields[2] == 5 * 10**17


async def test_a_planned_deposit_signed_after_its_quote_expired_reverts(service: Running) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        rpc = JsonRpcClient(service.services.settings.rpc_urls["ethereum"], http=http)
        anvil = AnvilRpc(rpc)
        await rpc.call("anvil_impersonateAccount", [WALLET])
        (native,) = await planned(service, "ETH", "0.1", "optimism")
        # Signed an hour and ten minutes later: past the pool's one-hour quote window.
        await rpc.call("evm_increaseTime", [70 * 60])
        with pytest.raises(TransactionFailed) as caught:
            await execute(anvil, native)
        assert (caught.value.revert_data or b"")[:4] == keccak(text="InvalidQuoteTimestamp()")[:4]
