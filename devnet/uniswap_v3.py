"""Uniswap v3 on the devnet: the real factory, SwapRouter02, QuoterV2 and NonfungiblePositionManager from
their npm artifacts (package.json pins @uniswap/v3-core 1.0.1, @uniswap/v3-periphery 1.4.4,
@uniswap/swap-router-contracts 1.3.1) at the registry's addresses, and real pools seeded at the devnet prices.

Pools are created by the real factory placed at the registry's factory address, so each sits where the
factory address and the pool init code hash put it on the real chain, which is where the periphery looks.
Every pair of priced tokens gets a deep pool in its main tier and a pool a tenth as deep in the next tier,
so a swap's tier choice and price impact come from real pool maths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from itertools import combinations

from devnet.real_contracts import creation_code, deploy_at
from devnet.rpc import AnvilRpc

FACTORY_ARTIFACT = "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"
ROUTER_ARTIFACT = "@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json"
QUOTER_ARTIFACT = "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json"
POSITIONS_ARTIFACT = (
    "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json"
)
# Every artifact above: what a bundle must carry under node_modules (scripts/intentgate.spec).
ARTIFACTS = (FACTORY_ARTIFACT, ROUTER_ARTIFACT, QUOTER_ARTIFACT, POSITIONS_ARTIFACT)
ZERO = "0x" + "00" * 20
# Tick spacing of each fee tier the factory enables (UniswapV3Factory constructor and enableFeeAmount;
# the 100 tier is enabled by governance on the real chains, done here by the admin as owner).
TICK_SPACING = {100: 1, 500: 10, 3000: 60, 10000: 200}
MAX_TICK = 887272  # TickMath.MAX_TICK
# The deep tier of a pair and the shallower one beside it: stable pairs trade in 0.01 %, others in 0.05 %.
STABLE_TIERS = (100, 500)
VOLATILE_TIERS = (500, 3000)
# The second tier's depth as a fraction of the main one's.
SHALLOW_FRACTION = Decimal("0.1")
# A deadline far in the future for the seeding mints (seconds since the epoch).
SEED_DEADLINE = 2**40
# Gas for each seeding transaction: above a pool creation's ~5M, set so no estimate can fall short.
SEED_GAS = 8_000_000


@dataclass(frozen=True)
class PoolToken:
    """A token pooled on the devnet: its address, decimals, USD price and whether it is a stablecoin."""

    symbol: str
    address: str
    decimals: int
    price_usd: Decimal
    stable: bool


@dataclass(frozen=True)
class UniswapSetup:
    """Where the real contracts go, the wrapped native token, the tokens to pool and the USD depth."""

    factory: str
    router: str | None
    quoter: str | None
    positions: str | None
    weth: str
    tokens: Sequence[PoolToken]
    depth_usd: Decimal

    def pools(self) -> list[tuple[PoolToken, PoolToken, int, Decimal]]:
        """(token0, token1, fee, USD per side) for every pool seeded; token0 has the lower address."""
        found = []
        for a, b in combinations(self.tokens, 2):
            token0, token1 = sorted((a, b), key=lambda token: int(token.address, 16))
            deep, shallow = STABLE_TIERS if a.stable and b.stable else VOLATILE_TIERS
            found.append((token0, token1, deep, self.depth_usd))
            found.append((token0, token1, shallow, self.depth_usd * SHALLOW_FRACTION))
        return found

    def needed(self) -> dict[str, int]:
        """Raw units of each token the admin must hold to seed every pool."""
        total: dict[str, int] = {}
        for token0, token1, _fee, usd in self.pools():
            for token in (token0, token1):
                total[token.symbol] = total.get(token.symbol, 0) + raw_amount(token, usd) + 1
        return total


def raw_amount(token: PoolToken, usd: Decimal) -> int:
    """Raw units of `token` worth `usd`."""
    return int(usd / token.price_usd * 10**token.decimals)


def sqrt_price_x96(token0: PoolToken, token1: PoolToken) -> int:
    """The pool's sqrtPriceX96 for the devnet prices: sqrt(raw token1 per raw token0) * 2**96."""
    with localcontext() as context:
        context.prec = 80
        price = token0.price_usd / token1.price_usd * Decimal(10) ** (token1.decimals - token0.decimals)
        return int(price.sqrt() * Decimal(2**96))


async def deploy_uniswap(anvil: AnvilRpc, admin: str, setup: UniswapSetup) -> None:
    """Deploy the real contracts at their addresses and seed every pool from `admin`'s balances."""
    await deploy_at(anvil, admin, setup.factory, creation_code(FACTORY_ARTIFACT))
    await anvil.call_as(admin, setup.factory, "enableFeeAmount(uint24,int24)", (100, TICK_SPACING[100]))
    positions = setup.positions or ZERO
    if setup.router:
        args = (ZERO, setup.factory, positions, setup.weth)
        code = creation_code(ROUTER_ARTIFACT, ["address"] * 4, args)
        await deploy_at(anvil, admin, setup.router, code)
    if setup.quoter:
        code = creation_code(QUOTER_ARTIFACT, ["address", "address"], (setup.factory, setup.weth))
        await deploy_at(anvil, admin, setup.quoter, code)
    if setup.positions is None:
        return
    code = creation_code(POSITIONS_ARTIFACT, ["address"] * 3, (setup.factory, setup.weth, ZERO))
    await deploy_at(anvil, admin, setup.positions, code)
    for token in setup.tokens:
        await anvil.call_as(admin, token.address, "approve(address,uint256)", (setup.positions, 2**256 - 1))
    for token0, token1, fee, usd in setup.pools():
        await _seed_pool(anvil, admin, setup.positions, token0, token1, fee, usd)


async def _seed_pool(
    anvil: AnvilRpc, admin: str, positions: str, token0: PoolToken, token1: PoolToken, fee: int, usd: Decimal
) -> None:
    await anvil.call_as(
        admin,
        positions,
        "createAndInitializePoolIfNecessary(address,address,uint24,uint160)",
        (token0.address, token1.address, fee, sqrt_price_x96(token0, token1)),
        gas=SEED_GAS,
    )
    edge = MAX_TICK // TICK_SPACING[fee] * TICK_SPACING[fee]
    params = (
        token0.address,
        token1.address,
        fee,
        -edge,
        edge,
        raw_amount(token0, usd),
        raw_amount(token1, usd),
        0,
        0,
        admin,
        SEED_DEADLINE,
    )
    signature = "mint((address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256))"
    await anvil.call_as(admin, positions, signature, (params,), gas=SEED_GAS)
