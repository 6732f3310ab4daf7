"""Aave v3 on the devnet: the real protocol from @aave/core-v3 1.19.3's build artifacts (package.json pins it),
deployed as Aave's own deployment scripts do, with the registry's addresses holding the real code.

One market per AaveMarket: a PoolAddressesProvider (at the registry's provider address), an ACLManager, the
Pool implementation linked to its seven logic libraries behind the provider's proxy (the proxy's code and
storage then moved to the registry's Pool address, which the provider is pointed at), the PoolConfigurator
behind its proxy, AaveProtocolDataProvider (at the registry's address), an AaveOracle reading one
MockAggregator per asset, and per reserve the real AToken, VariableDebtToken and StableDebtToken proxies the
configurator creates, an interest rate strategy, collateral and borrowing settings, and the admin's supply
as the reserve's liquidity. The aggregators are the devnet's price feeds: devnet.price_feeds writes them
when the market feed moves, so the oracle and the feed agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector, keccak, to_checksum_address

from devnet.aave_rewards import ARTIFACTS as REWARDS_ARTIFACTS
from devnet.aave_rewards import INCENTIVES_ID, AaveRewards, configure_emissions, controller_code
from devnet.real_contracts import creation_code, deploy_at, linked_code, move_created
from devnet.rpc import AnvilRpc, TransactionFailed

CORE = "@aave/core-v3/artifacts/contracts/"
PROVIDER_ARTIFACT = CORE + "protocol/configuration/PoolAddressesProvider.sol/PoolAddressesProvider.json"
ACL_ARTIFACT = CORE + "protocol/configuration/ACLManager.sol/ACLManager.json"
POOL_ARTIFACT = CORE + "protocol/pool/Pool.sol/Pool.json"
CONFIGURATOR_ARTIFACT = CORE + "protocol/pool/PoolConfigurator.sol/PoolConfigurator.json"
ORACLE_ARTIFACT = CORE + "misc/AaveOracle.sol/AaveOracle.json"
DATA_PROVIDER_ARTIFACT = CORE + "misc/AaveProtocolDataProvider.sol/AaveProtocolDataProvider.json"
STRATEGY_ARTIFACT = (
    CORE + "protocol/pool/DefaultReserveInterestRateStrategy.sol/DefaultReserveInterestRateStrategy.json"
)
A_TOKEN_ARTIFACT = CORE + "protocol/tokenization/AToken.sol/AToken.json"
VARIABLE_DEBT_ARTIFACT = CORE + "protocol/tokenization/VariableDebtToken.sol/VariableDebtToken.json"
STABLE_DEBT_ARTIFACT = CORE + "protocol/tokenization/StableDebtToken.sol/StableDebtToken.json"
AGGREGATOR_ARTIFACT = CORE + "mocks/oracle/CLAggregators/MockAggregator.sol/MockAggregator.json"
# The libraries the Pool and the PoolConfigurator link (their artifacts' linkReferences), each after the
# ones it links itself (FlashLoanLogic links BorrowLogic).
LIBRARIES = tuple(
    f"{CORE}protocol/libraries/logic/{name}.sol/{name}.json"
    for name in (
        "BorrowLogic",
        "BridgeLogic",
        "EModeLogic",
        "FlashLoanLogic",
        "LiquidationLogic",
        "PoolLogic",
        "SupplyLogic",
        "ConfiguratorLogic",
    )
)
# Every artifact above: what a bundle must carry under node_modules (scripts/intentgate.spec).
ARTIFACTS = (
    PROVIDER_ARTIFACT,
    ACL_ARTIFACT,
    POOL_ARTIFACT,
    CONFIGURATOR_ARTIFACT,
    ORACLE_ARTIFACT,
    DATA_PROVIDER_ARTIFACT,
    STRATEGY_ARTIFACT,
    A_TOKEN_ARTIFACT,
    VARIABLE_DEBT_ARTIFACT,
    STABLE_DEBT_ARTIFACT,
    AGGREGATOR_ARTIFACT,
    *LIBRARIES,
    *REWARDS_ARTIFACTS,
)
# PoolAddressesProvider's id of the Pool (keccak-free: the bytes32 of the string 'POOL').
POOL_ID = b"POOL".ljust(32, b"\0")
RAY = 10**27
# Interest rate strategies (rays, DefaultReserveInterestRateStrategy's constructor order after the provider):
# optimal usage, base variable rate, variable slopes 1 and 2, stable slopes 1 and 2, base stable offset,
# stable excess offset, optimal stable-to-total ratio. Devnet values of the order Aave lists for its
# stablecoin and volatile reserves, chosen for demos, not copied facts.
STABLE_RATES = (RAY * 90 // 100, 0, RAY * 4 // 100, RAY * 60 // 100, 0, 0, 0, 0, RAY * 20 // 100)
VOLATILE_RATES = (RAY * 80 // 100, 0, RAY * 4 // 100, RAY * 80 // 100, 0, 0, 0, 0, RAY * 20 // 100)
# The bonus a liquidator gets (bps over 100 %); the configurator requires threshold * bonus <= 100 %.
LIQUIDATION_BONUS_BPS = 10500
# The share of interest the treasury keeps (bps).
RESERVE_FACTOR_BPS = 1000
# Gas for each set-up transaction: initReserves creates three proxies and stays well under this.
SETUP_GAS = 8_000_000
ZERO = "0x" + "00" * 20
# How many of a provider's first nonces are tried for the one that created the registry's Pool address.
NONCE_SEARCH = 16


@dataclass(frozen=True)
class AaveReserve:
    """A reserve to list: the token, its oracle feed, risk settings (bps) and the admin's supply (raw)."""

    symbol: str
    asset: str
    decimals: int
    feed: str
    ltv_bps: int
    threshold_bps: int
    stable: bool
    liquidity: int


@dataclass(frozen=True)
class AaveMarket:
    """Where one market's contracts go and what it lists.

    `provider` and `data_provider` are the registry's addresses (None: a derived devnet address the caller
    chose); the Pool proxy's code and storage are moved to `pool`."""

    market_id: str
    pool: str
    provider: str
    data_provider: str
    treasury: str
    reserves: Sequence[AaveReserve]
    prefix: str = ""  # the world roles' prefix: "" for Aave, "spark:" for SparkLend
    # The market's real RewardsController (devnet.aave_rewards), or None: no incentives controller.
    rewards: AaveRewards | None = None


@dataclass
class AaveDeployment:
    """What deploy_aave left on the chain beyond the given addresses."""

    acl_manager: str = ""
    configurator: str = ""
    oracle: str = ""
    a_tokens: dict[str, str] = field(default_factory=dict)
    variable_debt_tokens: dict[str, str] = field(default_factory=dict)


def price_answer(price_usd: Decimal) -> int:
    """A USD price as the aggregators answer it: 8 decimals (AaveOracle's BASE_CURRENCY_UNIT is 1e8)."""
    return int(price_usd * 10**8)


async def create(anvil: AnvilRpc, sender: str, initcode: bytes) -> tuple[str, str]:
    """Run a contract creation from `sender`; (the new contract's address, the transaction hash)."""
    tx = {"from": sender, "data": "0x" + initcode.hex(), "gas": hex(SETUP_GAS * 2)}
    tx_hash = str(await anvil.rpc.call("eth_sendTransaction", [tx]))
    receipt = await anvil.receipt(tx_hash)
    if int(receipt["status"], 16) != 1 or not receipt.get("contractAddress"):
        raise TransactionFailed("deploying an Aave v3 contract reverted")
    return to_checksum_address(receipt["contractAddress"]), tx_hash


async def deploy_feeds(anvil: AnvilRpc, admin: str, feeds: Mapping[str, Decimal]) -> None:
    """A MockAggregator (Chainlink's latestAnswer, 8 decimals) at each address, answering its USD price."""
    for address, price in feeds.items():
        await deploy_at(
            anvil, admin, address, creation_code(AGGREGATOR_ARTIFACT, ["int256"], [price_answer(price)])
        )


async def deploy_libraries(anvil: AnvilRpc, admin: str) -> dict[str, str]:
    """The logic libraries, deployed once per chain and shared by every market on it; name -> address."""
    found: dict[str, str] = {}
    for relative in LIBRARIES:
        name = relative.rsplit("/", 1)[1].removesuffix(".json")
        found[name], _ = await create(anvil, admin, linked_code(relative, found))
    return found


async def deploy_markets(
    anvil: AnvilRpc, admin: str, feeds: Mapping[str, Decimal], markets: Sequence[AaveMarket]
) -> list[AaveDeployment]:
    """The price feeds (address -> USD price), the libraries once, then every market, in order."""
    await deploy_feeds(anvil, admin, feeds)
    libraries = await deploy_libraries(anvil, admin)
    return [await deploy_aave(anvil, admin, market, libraries) for market in markets]


async def deploy_aave(
    anvil: AnvilRpc, admin: str, market: AaveMarket, libraries: Mapping[str, str]
) -> AaveDeployment:
    """Deploy and configure `market` from `admin` (who must hold each reserve's liquidity); the feeds and
    the libraries must already be deployed. Raises TransactionFailed naming the step that reverted."""
    done = AaveDeployment()

    async def call(to: str, signature: str, args: Sequence[object] = ()) -> None:
        await _setup(anvil, admin, to, signature, args)

    provider = market.provider
    code = creation_code(PROVIDER_ARTIFACT, ["string", "address"], [market.market_id, admin])
    await deploy_at(anvil, admin, provider, code)
    await call(provider, "setACLAdmin(address)", [admin])
    done.acl_manager, _ = await create(anvil, admin, creation_code(ACL_ARTIFACT, ["address"], [provider]))
    await call(provider, "setACLManager(address)", [done.acl_manager])
    await call(done.acl_manager, "addPoolAdmin(address)", [admin])

    pool_impl, _ = await create(
        anvil, admin, linked_code(POOL_ARTIFACT, libraries) + encode(["address"], [provider])
    )
    await _provider_proxy(anvil, admin, provider, POOL_ID, market.pool, "setPoolImpl(address)", [pool_impl])

    configurator_impl, _ = await create(anvil, admin, linked_code(CONFIGURATOR_ARTIFACT, libraries))
    # The configurator proxy must not land on an address the devnet already filled (a registry address
    # the real provider did not create, given to another contract).
    await _set_nonce(anvil, provider, await _free_nonce(anvil, provider))
    await call(provider, "setPoolConfiguratorImpl(address)", [configurator_impl])
    done.configurator = await _address_of(anvil, provider, "getPoolConfigurator()")
    if market.rewards is not None:
        # After the configurator, as Aave deployed it (on Ethereum, Base and BNB Chain the provider's
        # nonce 3 created the registry's RewardsController proxy); before the reserves, whose tokens
        # take it as their incentives controller.
        impl, _ = await create(anvil, admin, controller_code(admin))
        setter = "setAddressAsProxy(bytes32,address)"
        await _provider_proxy(
            anvil, admin, provider, INCENTIVES_ID, market.rewards.controller, setter, [INCENTIVES_ID, impl]
        )

    assets = [reserve.asset for reserve in market.reserves]
    feeds = [reserve.feed for reserve in market.reserves]
    oracle_args = [provider, assets, feeds, ZERO, ZERO, 10**8]
    oracle_types = ["address", "address[]", "address[]", "address", "address", "uint256"]
    done.oracle, _ = await create(anvil, admin, creation_code(ORACLE_ARTIFACT, oracle_types, oracle_args))
    await call(provider, "setPriceOracle(address)", [done.oracle])
    await deploy_at(
        anvil, admin, market.data_provider, creation_code(DATA_PROVIDER_ARTIFACT, ["address"], [provider])
    )
    await call(provider, "setPoolDataProvider(address)", [market.data_provider])

    await _list_reserves(anvil, admin, market, done)
    if market.rewards is not None:
        debt = list(done.variable_debt_tokens.values())
        await configure_emissions(anvil, admin, market.rewards, [*done.a_tokens.values(), *debt])
    return done


async def _provider_proxy(
    anvil: AnvilRpc,
    admin: str,
    provider: str,
    proxy_id: bytes,
    target: str,
    setter: str,
    args: Sequence[object],
) -> None:
    """Have the provider create the proxy it files under `proxy_id` (`setter(args)`) and leave it at
    `target`. Where the real chain's provider created it with a nonce it can still be given (Aave's own
    deployments: the Pool with nonce 1), the proxy lands there itself; otherwise its code and storage are
    moved there and the provider pointed at it."""
    target = to_checksum_address(target)
    landing = next((n for n in range(NONCE_SEARCH) if created_address(provider, n) == target), None)
    await _set_nonce(anvil, provider, landing if landing is not None else await _free_nonce(anvil, provider))
    receipt = await anvil.call_as(admin, provider, setter, args, gas=SETUP_GAS)
    proxy = await _address_of(anvil, provider, "getAddress(bytes32)", proxy_id)
    if proxy != to_checksum_address(target):
        await move_created(anvil, receipt["transactionHash"], proxy, target)
        await _setup(anvil, admin, provider, "setAddress(bytes32,address)", [proxy_id, target])


async def _list_reserves(anvil: AnvilRpc, admin: str, market: AaveMarket, done: AaveDeployment) -> None:
    impls = []
    for artifact in (A_TOKEN_ARTIFACT, STABLE_DEBT_ARTIFACT, VARIABLE_DEBT_ARTIFACT):
        address, _ = await create(anvil, admin, creation_code(artifact, ["address"], [market.pool]))
        impls.append(address)
    strategies = {}
    for stable, rates in ((True, STABLE_RATES), (False, VOLATILE_RATES)):
        types = ["address"] + ["uint256"] * len(rates)
        strategies[stable], _ = await create(
            anvil, admin, creation_code(STRATEGY_ARTIFACT, types, [market.provider, *rates])
        )
    for reserve in market.reserves:
        symbol = reserve.symbol
        names = (f"Aave {symbol}", f"a{symbol}", f"Aave Variable Debt {symbol}", f"variableDebt{symbol}")
        stable_names = (f"Aave Stable Debt {symbol}", f"stableDebt{symbol}")
        row = (
            *impls,
            reserve.decimals,
            strategies[reserve.stable],
            reserve.asset,
            market.treasury,
            market.rewards.controller if market.rewards else ZERO,
            *names,
            *stable_names,
            b"",
        )
        init = "(address,address,address,uint8,address,address,address,address,string,string,string,string,string,string,bytes)[]"
        data = function_signature_to_4byte_selector(f"initReserves({init})") + encode([init], [[row]])
        await anvil.transact(admin, done.configurator, data, gas=SETUP_GAS)
        configure = "configureReserveAsCollateral(address,uint256,uint256,uint256)"
        bonus = LIQUIDATION_BONUS_BPS
        await _setup(
            anvil,
            admin,
            done.configurator,
            configure,
            [reserve.asset, reserve.ltv_bps, reserve.threshold_bps, bonus],
        )
        await _setup(
            anvil, admin, done.configurator, "setReserveBorrowing(address,bool)", [reserve.asset, True]
        )
        await _setup(
            anvil,
            admin,
            done.configurator,
            "setReserveFactor(address,uint256)",
            [reserve.asset, RESERVE_FACTOR_BPS],
        )
        tokens = await _reserve_tokens(anvil, market.pool, reserve.asset)
        done.a_tokens[symbol], done.variable_debt_tokens[symbol] = tokens
        if reserve.liquidity:
            await _setup(
                anvil, admin, reserve.asset, "approve(address,uint256)", [market.pool, reserve.liquidity]
            )
            supply = "supply(address,uint256,address,uint16)"
            await _setup(anvil, admin, market.pool, supply, [reserve.asset, reserve.liquidity, admin, 0])


def created_address(creator: str, nonce: int) -> str:
    """Where CREATE from `creator` at `nonce` puts a contract: keccak(rlp([creator, nonce]))[12:]."""
    if nonce == 0:
        encoded_nonce = b"\x80"
    elif nonce < 0x80:
        encoded_nonce = bytes([nonce])
    else:
        raw = nonce.to_bytes((nonce.bit_length() + 7) // 8, "big")
        encoded_nonce = bytes([0x80 + len(raw)]) + raw
    payload = b"\x94" + bytes.fromhex(creator[2:]) + encoded_nonce
    return to_checksum_address(keccak(bytes([0xC0 + len(payload)]) + payload)[-20:])


async def _set_nonce(anvil: AnvilRpc, address: str, nonce: int) -> None:
    await anvil.rpc.call("anvil_setNonce", [address, hex(nonce)])


async def _free_nonce(anvil: AnvilRpc, creator: str) -> int:
    """The creator's nonce, or the first one after it whose CREATE address holds no code."""
    nonce = int(str(await anvil.rpc.call("eth_getTransactionCount", [creator, "latest"])), 16)
    while str(await anvil.rpc.call("eth_getCode", [created_address(creator, nonce), "latest"])) not in (
        "0x",
        "",
    ):
        nonce += 1
    return nonce


async def _setup(anvil: AnvilRpc, admin: str, to: str, signature: str, args: Sequence[object]) -> None:
    """A set-up call with a fixed gas limit: no estimate round trip per call, none to fall short."""
    await anvil.call_as(admin, to, signature, args, gas=SETUP_GAS)


async def _address_of(anvil: AnvilRpc, to: str, signature: str, args: bytes = b"") -> str:
    data = "0x" + (function_signature_to_4byte_selector(signature) + args).hex()
    returned = str(await anvil.rpc.call("eth_call", [{"to": to, "data": data}, "latest"]))
    return to_checksum_address("0x" + returned[2:][24:64])


async def _reserve_tokens(anvil: AnvilRpc, pool: str, asset: str) -> tuple[str, str]:
    """(aToken, variable debt token) from the Pool's getReserveData: words 8 and 10 of the struct."""
    data = (
        "0x"
        + (
            function_signature_to_4byte_selector("getReserveData(address)") + encode(["address"], [asset])
        ).hex()
    )
    returned = bytes.fromhex(
        str(await anvil.rpc.call("eth_call", [{"to": pool, "data": data}, "latest"]))[2:]
    )
    words = [returned[i : i + 32] for i in range(0, len(returned), 32)]
    return to_checksum_address(words[8][12:]), to_checksum_address(words[10][12:])
