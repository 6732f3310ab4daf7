"""The devnet world for one chain of the registry: stand-ins at the registry's real addresses.

Every planned transaction then targets the same addresses on the devnet as on the real chain, so calldata
built from the registry executes against the stand-ins unchanged.
"""

from __future__ import annotations

from decimal import Decimal

from devnet import world as w
from devnet.world import DevnetToken, DevnetVault, DevnetWorld, build_world
from engine.registry import Registry

# World role of the SparkLend Pool (the real Aave v3 Pool at the registry's SparkLend pool address).
SPARK_POOL = "spark_pool"
SPARK_PROVIDER = "spark_addresses_provider"
# (registry protocol, registry role) -> devnet world role, for every contract a stand-in exists for.
REGISTRY_ROLES = {
    ("multicall3", "multicall3"): w.MULTICALL3,
    ("aave", "pool"): w.AAVE_POOL,
    ("aave", "rewards_controller"): w.AAVE_REWARDS,
    ("aave", "pool_addresses_provider"): w.AAVE_PROVIDER,
    ("aave", "protocol_data_provider"): w.AAVE_DATA_PROVIDER,
    ("uniswap", "factory"): w.UNISWAP_FACTORY,
    ("uniswap", "swap_router02"): w.UNISWAP_ROUTER,
    ("uniswap", "quoter_v2"): w.UNISWAP_QUOTER,
    ("uniswap", "position_manager"): w.UNISWAP_POSITIONS,
    ("across", "spoke_pool"): w.ACROSS_SPOKE_POOL,
    ("lido", "withdrawal_queue"): w.LIDO_WITHDRAWAL_QUEUE,
    ("cctp", "token_messenger"): w.CCTP_TOKEN_MESSENGER,
    ("spark", "pool"): SPARK_POOL,
    ("spark", "pool_addresses_provider"): SPARK_PROVIDER,
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
# The symbol of Circle's USDC (the real FiatToken serves it where Circle issues it).
CIRCLE_USDC = "USDC"
# The Lido stETH token symbol (the steth stand-in serves it; registry tokens.json).
STETH_SYMBOL = "stETH"


def devnet_tokens(registry: Registry, chain: str) -> list[DevnetToken]:
    """The registry's tokens on `chain` (natives excluded: anvil holds those) as devnet tokens."""
    wrapped = registry.chain(chain).wrapped_native_symbol
    # Circle issues USDC itself where CCTP runs; elsewhere "USDC" is another issuer's token (BNB Chain's
    # is Binance-Peg, 18 decimals), which stays a plain stand-in.
    circle_issues = bool(registry.deployments(chain, "cctp"))
    tokens = []
    for token in registry.tokens(chain):
        if token.is_native or token.address is None:
            continue
        if token.symbol == wrapped:
            kind = "wrapped_native"
        elif token.symbol == CIRCLE_USDC and circle_issues:
            kind = w.FIAT_TOKEN
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
        add_spark_market(world, admin, addresses[SPARK_POOL], addresses.get(SPARK_PROVIDER))
    return world


def add_spark_market(world: DevnetWorld, admin: str, pool: str, provider: str | None = None) -> None:
    """Install a SparkLend market on `world`: the same real Aave v3 bytecode (SparkLend is an Aave v3 fork
    with the same Pool ABI, registry protocols.json) with its Pool at `pool` and its provider at
    `provider`, with its own reserves, tokens and liquidity over the world's priced tokens, reading the
    chain's price feeds. Its roles are the Aave ones prefixed "spark:" (the pool's is also SPARK_POOL);
    every address but the pool's and the provider's is derived from its role."""
    given = {w.AAVE_POOL: pool} | ({w.AAVE_PROVIDER: provider} if provider else {})

    def address_of(role: str) -> str:
        return given.get(role) or w.devnet_address(f"spark:{role}")

    w.add_aave_market(world, admin, list(world.tokens.values()), address_of, prefix="spark:")
    world.addresses[SPARK_POOL] = pool
