"""Building the devnet world: plain data for the deployer, no node needed."""

from __future__ import annotations

from decimal import Decimal

from devnet import artifact_names, build_world, default_tokens, devnet_address, world_from_registry
from devnet.world import (
    AAVE_POOL,
    MULTICALL3,
    MULTICALL3_ADDRESS,
    UNISWAP_ROUTER,
    DevnetToken,
    DevnetVault,
)
from engine.registry import load_registry

ADMIN = "0x" + "ad" * 20


def test_default_world_names_only_compiled_artifacts_and_puts_multicall3_at_its_canonical_address() -> None:
    world = build_world(ADMIN)
    assert {standin.artifact for standin in world.standins.values()} <= set(artifact_names())
    assert world.addresses[MULTICALL3] == MULTICALL3_ADDRESS
    assert world.addresses[AAVE_POOL] == devnet_address(AAVE_POOL)


def test_unpriced_tokens_are_installed_without_reserve_or_swap_rate() -> None:
    odd = DevnetToken("ODD", "Odd", 18, "erc20", None, devnet_address("token ODD"))
    world = build_world(ADMIN, tokens=[*default_tokens(), odd])
    assert odd.address in world.standins
    assert f"aave_atoken:{odd.symbol}" not in world.addresses
    router = world.addresses[UNISWAP_ROUTER]
    assert not [c for c in world.setup if c.to == router and odd.address in c.args]


def test_roles_limit_the_protocol_stand_ins_and_vaults_go_where_given() -> None:
    vault_at = "0x" + "4b" * 20
    vault = DevnetVault("vault:sUSDC", "Savings USDC", "sUSDC", "USDC", vault_at)
    world = build_world(ADMIN, roles={MULTICALL3}, vaults=[vault])
    assert AAVE_POOL not in world.addresses and UNISWAP_ROUTER not in world.addresses
    assert world.standins[vault_at].artifact == "ERC4626Vault"


def test_registry_world_maps_token_kinds_and_funds_the_admin_for_wrapped_liquidity() -> None:
    registry = load_registry()
    world = world_from_registry(registry, "ethereum", ADMIN)
    kinds = {symbol: token.kind for symbol, token in world.tokens.items()}
    assert kinds["USDT"] == "tether" and kinds["WETH"] == "wrapped_native" and kinds["stETH"] == "steth"
    assert world.tokens["USDC"].address == registry.token("ethereum", "USDC").address
    assert world.addresses[AAVE_POOL] == registry.deployment("ethereum", "aave", "pool")
    polygon = world_from_registry(registry, "polygon", ADMIN)
    wrapped = sum(c.value for c in polygon.setup if c.signature == "deposit()")
    assert polygon.tokens["WPOL"].price_usd == Decimal("0.5") and polygon.admin_native_wei > wrapped
