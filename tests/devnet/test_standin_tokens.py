"""Token stand-ins executing real-ABI calldata: EIP-20, the USDT approve rule, WETH9; and the faucet."""

from __future__ import annotations

import httpx
import pytest

from devnet.faucet import Faucet
from devnet.rpc import AnvilRpc, TransactionFailed
from tests.devnet.helpers import approve, balance_of, call_data, mint, read_uint, send
from tests.support.anvil import Devnet
from watchers.upstreams import EvmClient
from watchers.upstreams.jsonrpc import JsonRpcClient

pytestmark = pytest.mark.anvil


async def test_erc20_transfer_and_transfer_from_move_balances(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    alice, bob, carol = devnet.accounts[1:4]
    dai = devnet.token("DAI")
    await mint(anvil, devnet.admin, dai, alice, 10 * 10**18)
    await send(anvil, alice, dai, call_data("transfer", ["address", "uint256"], [bob, 3 * 10**18]))
    await approve(anvil, alice, dai, carol, 2 * 10**18)
    await send(
        anvil,
        carol,
        dai,
        call_data("transferFrom", ["address", "address", "uint256"], [alice, carol, 2 * 10**18]),
    )
    assert [await balance_of(evm, dai, who) for who in (alice, bob, carol)] == [
        5 * 10**18,
        3 * 10**18,
        2 * 10**18,
    ]
    with pytest.raises(TransactionFailed, match="insufficient allowance"):
        await send(
            anvil, carol, dai, call_data("transferFrom", ["address", "address", "uint256"], [alice, carol, 1])
        )


async def test_tokens_report_the_decimals_they_were_initialised_with(devnet: Devnet, evm: EvmClient) -> None:
    decimals = {
        symbol: await read_uint(evm, devnet.token(symbol), "decimals")
        for symbol in ("USDC", "WBTC", "DAI", "USDT")
    }
    assert decimals == {"USDC": 6, "WBTC": 8, "DAI": 18, "USDT": 6}


async def test_usdt_style_approve_reverts_when_changing_a_nonzero_allowance_to_nonzero(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    owner, spender = devnet.accounts[1], devnet.accounts[2]
    usdt = devnet.token("USDT")
    await approve(anvil, owner, usdt, spender, 100)
    with pytest.raises(TransactionFailed):
        await approve(anvil, owner, usdt, spender, 200)
    await approve(anvil, owner, usdt, spender, 0)
    await approve(anvil, owner, usdt, spender, 200)
    assert await read_uint(evm, usdt, "allowance", ["address", "address"], [owner, spender]) == 200


async def test_usdt_style_transfer_returns_no_value(devnet: Devnet, anvil: AnvilRpc, evm: EvmClient) -> None:
    owner, other = devnet.accounts[1], devnet.accounts[2]
    usdt = devnet.token("USDT")
    await mint(anvil, devnet.admin, usdt, owner, 50)
    data = call_data("transfer", ["address", "uint256"], [other, 20])
    assert await evm.eth_call(usdt, data, from_=owner) == b""
    await send(anvil, owner, usdt, data)
    assert await balance_of(evm, usdt, other) == 20


async def test_weth9_deposit_and_withdraw_wrap_and_unwrap_ether(
    devnet: Devnet, anvil: AnvilRpc, evm: EvmClient
) -> None:
    user = devnet.accounts[1]
    weth = devnet.token("WETH")
    await send(anvil, user, weth, call_data("deposit", [], []), value=2 * 10**18)
    assert await balance_of(evm, weth, user) == 2 * 10**18
    before = await evm.get_balance(user)
    receipt = await send(anvil, user, weth, call_data("withdraw", ["uint256"], [10**18]))
    gas = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
    assert await balance_of(evm, weth, user) == 10**18
    assert await evm.get_balance(user) == before + 10**18 - gas


async def test_faucet_funds_a_new_wallet_once_with_the_documented_balances(
    devnet: Devnet, rpc: JsonRpcClient, evm: EvmClient
) -> None:
    wallet = "0x" + "5a" * 20
    async with httpx.AsyncClient(timeout=None) as http:
        faucet = Faucet(AnvilRpc(JsonRpcClient(devnet.url, http=http)), devnet.admin, devnet.world.tokens)
        assert await faucet.ensure_funded(wallet) is True
        usdc, weth, wbtc = (devnet.world.tokens[s] for s in ("USDC", "WETH", "WBTC"))
        assert await evm.get_balance(wallet) == 100 * 10**18
        assert await balance_of(evm, usdc.address, wallet) == 10_000 * 10**6
        assert await balance_of(evm, weth.address, wallet) == 5 * 10**18
        assert await balance_of(evm, wbtc.address, wallet) == 25 * 10**6
        assert await balance_of(evm, devnet.token("stETH"), wallet) == 5 * 10**18
        assert await faucet.ensure_funded(wallet.upper().replace("0X", "0x")) is False
        await faucet.top_up(wallet)  # topping up an already funded wallet changes nothing
        assert await balance_of(evm, usdc.address, wallet) == 10_000 * 10**6
