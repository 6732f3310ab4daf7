"""The devnet world built from the registry: stand-ins at the registry's real addresses on every EVM chain."""

from __future__ import annotations

from functools import partial

import httpx
import pytest

from devnet import open_devnet_chain, world_from_registry
from devnet.from_registry import REGISTRY_ROLES
from devnet.rpc import AnvilRpc, TransactionFailed
from devnet.state_cache import StateCache, default_cache_dir
from engine.registry import load_registry
from tests.devnet.helpers import balance_of, call_data, pool_address, read_address, read_uint
from watchers.upstreams import EvmClient, JsonRpcClient, erc20_balances

pytestmark = pytest.mark.anvil

REGISTRY = load_registry()
EVM_CHAINS = [chain.slug for chain in REGISTRY.evm_chains()]


@pytest.mark.parametrize("slug", EVM_CHAINS)
async def test_registry_world_puts_stand_ins_and_tokens_at_the_registry_addresses(slug: str) -> None:
    chain = REGISTRY.chain(slug)
    assert chain.chain_id is not None
    async with (
        open_devnet_chain(chain.chain_id, partial(world_from_registry, REGISTRY, slug)) as devnet,
        httpx.AsyncClient(timeout=None) as http,
    ):
        evm = EvmClient(JsonRpcClient(devnet.url, http=http))
        assert await evm.chain_id() == chain.chain_id
        for deployment in (
            d for protocol in REGISTRY.protocols() for d in REGISTRY.deployments(slug, protocol.name)
        ):
            if (deployment.protocol, deployment.role) in REGISTRY_ROLES:
                assert await evm.get_code(deployment.address), (
                    f"{deployment.protocol} {deployment.role} has no code"
                )
        tokens = [token for token in REGISTRY.tokens(slug) if not token.is_native]
        for token in tokens:
            assert await read_uint(evm, token.address, "decimals") == token.decimals, token.symbol
        wallet = "0x" + "3c" * 20
        await devnet.faucet(http).ensure_funded(wallet)
        balances = await erc20_balances(
            evm, [(token.address, wallet) for token in tokens], multicall=REGISTRY.multicall3(slug)
        )
        assert all(balance for balance in balances)


async def test_registry_usdt_on_ethereum_keeps_the_approve_reset_rule() -> None:
    usdt = REGISTRY.token("ethereum", "USDT")
    assert usdt.approve_reset_required
    # What the deployed chain does, not the deploy (the test above deploys ethereum): the saved state of the
    # same world, keyed by everything that decides it, saves a deploy when `serve --devnet` or a test saved it.
    directory = default_cache_dir()
    cache = StateCache(directory) if directory is not None else None
    async with (
        open_devnet_chain(1, partial(world_from_registry, REGISTRY, "ethereum"), state_cache=cache) as devnet,
        httpx.AsyncClient(timeout=None) as http,
    ):
        anvil = AnvilRpc(JsonRpcClient(devnet.url, http=http))
        owner, spender = (await anvil.accounts())[1:3]
        approve = "approve(address,uint256)"
        await anvil.call_as(owner, usdt.address, approve, (spender, 1))
        with pytest.raises(TransactionFailed):
            await anvil.call_as(owner, usdt.address, approve, (spender, 2))
        weth = REGISTRY.token("ethereum", "WETH").address
        quoter = REGISTRY.deployment("ethereum", "uniswap", "quoter_v2")
        evm = EvmClient(anvil.rpc)
        quote = call_data(
            "quoteExactInputSingle",
            ["(address,address,uint256,uint24,uint160)"],
            [(weth, usdt.address, 10**18, 500, 0)],
        )
        assert await evm.eth_call(quoter, quote)
        # The real factory at the registry's address put the pool where the periphery computes it.
        factory = REGISTRY.deployment("ethereum", "uniswap", "factory")
        pool = await read_address(evm, factory, "getPool(address,address,uint24)", (weth, usdt.address, 500))
        assert pool == pool_address(factory, weth, usdt.address, 500)
        assert await balance_of(evm, usdt.address, pool) > 0
