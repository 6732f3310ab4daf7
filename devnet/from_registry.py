"""The devnet world for one chain of the registry: stand-ins at the registry's real addresses.

Every planned transaction then targets the same addresses on the devnet as on the real chain, so calldata
built from the registry executes against the stand-ins unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from devnet import world as w
from devnet.deploy import Standin
from devnet.world import DevnetToken, DevnetVault, DevnetWorld, build_world
from engine.registry import Registry

# World role of the SparkLend pool stand-in (an AavePool at the registry's SparkLend pool address).
SPARK_POOL = "spark_pool"
# (registry protocol, registry role) -> devnet world role, for every contract a stand-in exists for.
REGISTRY_ROLES = {
    ("multicall3", "multicall3"): w.MULTICALL3,
    ("aave", "pool"): w.AAVE_POOL,
    ("aave", "rewards_controller"): w.AAVE_REWARDS,
    ("uniswap", "factory"): w.UNISWAP_FACTORY,
    ("uniswap", "swap_router02"): w.UNISWAP_ROUTER,
    ("uniswap", "quoter_v2"): w.UNISWAP_QUOTER,
    ("uniswap", "position_manager"): w.UNISWAP_POSITIONS,
    ("across", "spoke_pool"): w.ACROSS_SPOKE_POOL,
    ("lido", "withdrawal_queue"): w.LIDO_WITHDRAWAL_QUEUE,
    ("cctp", "token_messenger"): w.CCTP_TOKEN_MESSENGER,
    ("spark", "pool"): SPARK_POOL,
}
# Round demo prices in USD by symbol (not market data); stablecoins are 1. Tokens without a price are
# still installed (balances, transfers, approvals work) but get no Aave reserve and no swap rates.
DEVNET_PRICES_USD = {
    "WETH": Decimal(3000),
    "stETH": Decimal(3000),
    "wstETH": Decimal(3600),
    "WBTC": Decimal(60000),
    "BTCB": Decimal(60000),
    "WPOL": Decimal("0.5"),
    "WBNB": Decimal(600),
    "AAVE": Decimal(100),
}
# The Lido stETH token symbol (the steth stand-in serves it; registry tokens.json).
STETH_SYMBOL = "stETH"


def devnet_tokens(registry: Registry, chain: str) -> list[DevnetToken]:
    """The registry's tokens on `chain` (natives excluded: anvil holds those) as devnet tokens."""
    wrapped = registry.chain(chain).wrapped_native_symbol
    tokens = []
    for token in registry.tokens(chain):
        if token.is_native or token.address is None:
            continue
        if token.symbol == wrapped:
            kind = "wrapped_native"
        elif token.symbol == STETH_SYMBOL:
            kind = "steth"
        elif token.approve_reset_required:
            kind = "tether"
        else:
            kind = "erc20"
        price = Decimal(1) if token.stable else DEVNET_PRICES_USD.get(token.symbol)
        tokens.append(DevnetToken(token.symbol, token.name, token.decimals, kind, price, token.address))
    return tokens


def registry_addresses(registry: Registry, chain: str) -> dict[str, str]:
    """World role -> address for every stand-in-backed contract the registry lists on `chain`."""
    found = {}
    for (protocol, role), world_role in REGISTRY_ROLES.items():
        for deployment in registry.deployments(chain, protocol):
            if deployment.role == role:
                found[world_role] = deployment.address
    return found


def world_from_registry(registry: Registry, chain: str, admin: str) -> DevnetWorld:
    """The devnet world of an EVM `chain`: its tokens and the stand-ins of the protocols deployed there,
    at the registry's addresses, plus a vault stand-in at each trusted ERC-4626 vault's address.

    Raises the registry's UnknownChain for an unknown slug.
    """
    addresses = registry_addresses(registry, chain)
    tokens = devnet_tokens(registry, chain)
    symbols = {token.symbol for token in tokens}
    vaults = [
        DevnetVault(f"vault:{vault.symbol}", vault.name, vault.symbol, vault.underlying, vault.address)
        for vault in registry.vaults(chain)
        if vault.underlying in symbols
    ]
    reward = "AAVE" if "AAVE" in symbols else registry.chain(chain).wrapped_native_symbol
    world = build_world(
        admin, tokens=tokens, addresses=addresses, reward_token=reward, vaults=vaults, roles=set(addresses)
    )
    if SPARK_POOL in addresses:
        add_spark_market(world, admin, addresses[SPARK_POOL])
    return world


def add_spark_market(world: DevnetWorld, admin: str, pool: str) -> None:
    """Install a SparkLend market on `world`: the AavePool stand-in at `pool` (SparkLend is an Aave v3 fork
    with the same Pool ABI, registry protocols.json), with its own reserves, aTokens and debt tokens over the
    world's priced tokens, and its own liquidity. Its roles are the Aave ones prefixed "spark:" (the pool's
    is SPARK_POOL); every address but the pool's is derived from its role."""

    def place(
        role: str, artifact: str, init: Sequence[tuple[str, Sequence[object]]] = (), native: int = 0
    ) -> str:
        spark_role = SPARK_POOL if role == w.AAVE_POOL else f"spark:{role}"
        address = pool if role == w.AAVE_POOL else w.devnet_address(spark_role)
        world.addresses[spark_role] = address
        world.standins[address] = Standin(artifact, init, native)
        return address

    # The world's own Aave market builder, filing what it places under the Spark roles; no rewards
    # controller (the registry lists none for SparkLend).
    w.add_aave_market(world, place, admin, list(world.tokens.values()), None)
