"""The standard devnet: which stand-in goes at which address, and the liquidity and settings it starts with.

build_world() turns token descriptions and protocol addresses into the plain mapping the deployer takes.
Addresses not given are derived deterministically from a label, so a devnet without the registry is
still stable across runs; the registry's real addresses are passed in through `tokens` and `addresses`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from eth_utils import keccak, to_checksum_address

from devnet.aave_rewards import AaveRewards
from devnet.aave_v3 import AaveDeployment, AaveMarket, AaveReserve
from devnet.across_spoke import SpokeSetup
from devnet.deploy import SetupCall, Standin
from devnet.multicall3 import CANONICAL_ADDRESS
from devnet.uniswap_v3 import PoolToken, UniswapSetup

# Protocol roles: the keys of DevnetWorld.addresses for the protocol stand-ins.
MULTICALL3 = "multicall3"
AAVE_POOL = "aave_pool"
AAVE_REWARDS = "aave_rewards"
AAVE_PROVIDER = "aave_addresses_provider"
AAVE_DATA_PROVIDER = "aave_data_provider"
# Role prefix of an asset's price feed (the aggregator the chain's Aave oracles read): "price_feed:<SYM>".
PRICE_FEED = "price_feed"
UNISWAP_FACTORY = "uniswap_factory"
UNISWAP_ROUTER = "uniswap_swap_router02"
UNISWAP_QUOTER = "uniswap_quoter_v2"
UNISWAP_POSITIONS = "uniswap_position_manager"
ACROSS_SPOKE_POOL = "across_spoke_pool"
LIDO_WITHDRAWAL_QUEUE = "lido_withdrawal_queue"
CCTP_TOKEN_MESSENGER = "cctp_token_messenger"
ERC4626_VAULT = "erc4626_vault"

# Canonical Multicall3 address, where its published deployment creates it (devnet.multicall3).
MULTICALL3_ADDRESS = CANONICAL_ADDRESS
# Circle CCTP domain ids (developers.circle.com/stablecoins/supported-domains): Ethereum 0, Avalanche 1,
# OP Mainnet 2, Arbitrum 3, Solana 5, Base 6, Polygon PoS 7. The messenger stand-in accepts burns towards each.
CCTP_DOMAINS = (0, 1, 2, 3, 5, 6, 7)
# Aave quotes prices in base currency units with 8 decimals (IPriceOracleGetter BASE_CURRENCY_UNIT 1e8).
PRICE_DECIMALS = 8
# Liquidity each venue (Aave reserve, swap router) starts with, in USD; enough for any demo amount.
LIQUIDITY_USD = 1_000_000
# Native wei the admin keeps beyond what setup wraps: gas and the faucet's first wraps (1000 coins).
ADMIN_NATIVE_RESERVE = 1000 * 10**18
# The reward value each aToken and debt token emits in a year, as a share of a reserve's starting liquidity
# (a devnet figure of the order of Aave's incentive programmes, not a copied fact).
REWARD_APR = Decimal("0.05")
SECONDS_PER_YEAR = 365 * 24 * 3600
# Native wei the Lido withdrawal queue holds to pay claims (it has no oracle-fed buffer on the devnet).
WITHDRAWAL_QUEUE_ETH = 10_000 * 10**18
# Token kinds: which stand-in artifact serves a token. The wrapped native token is the real WETH9
# (devnet.weth) and Circle's USDC the real FiatToken (devnet.fiat_token), not stand-ins.
WRAPPED_NATIVE = "wrapped_native"
FIAT_TOKEN = "fiat_token"
TOKEN_ARTIFACTS = {
    "erc20": "StandinERC20",
    "tether": "TetherToken",
    "steth": "Lido",
}
# Aave reserve risk settings in basis points (ltv, liquidation threshold): devnet values of the same order
# as Aave v3 Ethereum's listed parameters, chosen for demos, not copied facts.
RISK_BPS = {"stable": (7500, 7800), "WETH": (8050, 8300), "WBTC": (7300, 7800)}


@dataclass(frozen=True)
class DevnetToken:
    """A token on the devnet: where it lives, its decimals, which stand-in serves it and its USD price."""

    symbol: str
    name: str
    decimals: int
    kind: str  # a key of TOKEN_ARTIFACTS, WRAPPED_NATIVE or FIAT_TOKEN
    price_usd: Decimal | None  # None: the token exists but has no Aave reserve and no swap rates
    address: str
    reserve: bool = True  # a reserve of the Aave markets (when it has a price)

    @property
    def priced(self) -> bool:
        return self.price_usd is not None

    @property
    def price_base(self) -> int:
        """The USD price in Aave base currency units (8 decimals); raises ValueError when unpriced."""
        if self.price_usd is None:
            raise ValueError(f"{self.symbol} has no devnet price")
        return int(self.price_usd * 10**PRICE_DECIMALS)

    def raw(self, amount: Decimal) -> int:
        """Whole-token `amount` in raw units."""
        return int(amount * 10**self.decimals)


@dataclass(frozen=True)
class DevnetVault:
    """An ERC-4626 vault stand-in over one of the world's tokens, placed at `address` (or derived from role)."""

    role: str
    name: str
    symbol: str
    underlying: str  # token symbol
    address: str | None = None


# The vault the default world offers: a plain ERC-4626 vault over USDC.
DEFAULT_VAULTS = (DevnetVault(ERC4626_VAULT, "Devnet USDC Vault", "dvUSDC", "USDC"),)


@dataclass
class DevnetWorld:
    """Everything the deployer needs, plus the addresses and tokens tests and the faucet use."""

    tokens: dict[str, DevnetToken]
    addresses: dict[str, str]
    standins: dict[str, Standin] = field(default_factory=dict)
    setup: list[SetupCall] = field(default_factory=list)
    # Native wei the admin must hold before setup: what it wraps into liquidity, plus a reserve for gas.
    admin_native_wei: int = ADMIN_NATIVE_RESERVE
    # The real Uniswap v3 contracts to deploy and pools to seed once the stand-ins are set up.
    uniswap: UniswapSetup | None = None
    # The real Aave v3 markets to deploy (devnet.aave_v3), and the price feed of each asset they list.
    aave: list[AaveMarket] = field(default_factory=list)
    price_feeds: dict[str, str] = field(default_factory=dict)
    # The real Across SpokePool to deploy behind its proxy (devnet.across_spoke).
    across: SpokeSetup | None = None
    # Where the real Multicall3 goes (devnet.multicall3), or None: no Multicall3.
    multicall3: str | None = None

    def fiat_tokens(self) -> list[DevnetToken]:
        """Circle's USDC, served by the real FiatToken (devnet.fiat_token) rather than a stand-in."""
        return [token for token in self.tokens.values() if token.kind == FIAT_TOKEN]

    def wrapped_natives(self) -> list[DevnetToken]:
        """The wrapped native tokens, served by the real WETH9 (devnet.weth) rather than a stand-in."""
        return [token for token in self.tokens.values() if token.kind == WRAPPED_NATIVE]

    def a_token(self, symbol: str) -> str:
        """The aToken of a reserve of the Aave market (known once the market is deployed)."""
        return self.addresses[f"aave_atoken:{symbol}"]

    def debt_token(self, symbol: str) -> str:
        """The variable debt token of a reserve of the Aave market (known once the market is deployed)."""
        return self.addresses[f"aave_variable_debt:{symbol}"]

    def record(self, market: AaveMarket, deployed: AaveDeployment) -> None:
        """File the addresses the market's deployment created under the market's roles."""
        prefix = market.prefix
        self.addresses[f"{prefix}aave_configurator"] = deployed.configurator
        self.addresses[f"{prefix}aave_oracle"] = deployed.oracle
        for symbol, a_token in deployed.a_tokens.items():
            self.addresses[f"{prefix}aave_atoken:{symbol}"] = a_token
            self.addresses[f"{prefix}aave_variable_debt:{symbol}"] = deployed.variable_debt_tokens[symbol]


def devnet_address(label: str) -> str:
    """A stable, checksummed address for a devnet-only contract, derived from a label."""
    return to_checksum_address(keccak(text=f"intentgate devnet {label}")[-20:])


def default_tokens() -> list[DevnetToken]:
    """The devnet token set: 6-, 8- and 18-decimal tokens, a USDT-style token, WETH9, stETH, a reward token.

    Prices are round demo figures, not market data.
    """
    rows = [
        ("USDC", "USD Coin", 6, FIAT_TOKEN, "1", True),
        ("USDT", "Tether USD", 6, "tether", "1", True),
        ("DAI", "Dai Stablecoin", 18, "erc20", "1", True),
        ("WBTC", "Wrapped BTC", 8, "erc20", "60000", True),
        ("WETH", "Wrapped Ether", 18, "wrapped_native", "3000", True),
        ("stETH", "Liquid staked Ether 2.0", 18, "steth", "3000", False),
        ("AAVE", "Aave Token", 18, "erc20", "100", False),
    ]
    return [
        DevnetToken(symbol, name, decimals, kind, Decimal(price), devnet_address(f"token {symbol}"), reserve)
        for symbol, name, decimals, kind, price, reserve in rows
    ]


def build_world(
    admin: str,
    *,
    tokens: Sequence[DevnetToken] | None = None,
    addresses: Mapping[str, str] | None = None,
    reward_token: str = "AAVE",
    vaults: Sequence[DevnetVault] = DEFAULT_VAULTS,
    roles: Collection[str] | None = None,
) -> DevnetWorld:
    """The standard devnet: every token, Multicall3, Aave Pool/aTokens/RewardsController, SwapRouter02 and
    QuoterV2, the position manager, the Across SpokePool, Lido stETH and its withdrawal queue, the CCTP
    TokenMessenger and an ERC-4626 vault over USDC, with `admin` as the devnet admin.

    `addresses` overrides any role's address (role keys above; "aave_atoken:<SYM>",
    "aave_variable_debt:<SYM>"); roles not given get devnet_address(role). `roles`, when given, limits the
    protocol stand-ins to those roles (tokens and vaults are always installed).
    """
    token_list = list(tokens) if tokens is not None else default_tokens()
    world = DevnetWorld(tokens={token.symbol: token for token in token_list}, addresses={})
    given = dict(addresses or {})

    def address_of(role: str) -> str:
        return given.get(role) or (MULTICALL3_ADDRESS if role == MULTICALL3 else devnet_address(role))

    def place(
        role: str, artifact: str, init: Sequence[tuple[str, Sequence[object]]] = (), native: int = 0
    ) -> str:
        address = address_of(role)
        world.addresses[role] = address
        world.standins[address] = Standin(artifact, init, native)
        return address

    for token in token_list:
        init: list[tuple[str, Sequence[object]]] = []
        if token.kind in ("erc20", "tether", "steth"):
            minter = token.address if token.kind == "steth" else "0x" + "00" * 20
            init.append(
                (
                    "initialize(string,string,uint8,address)",
                    (token.name, token.symbol, token.decimals, minter),
                )
            )
        if token.kind in TOKEN_ARTIFACTS:
            world.standins[token.address] = Standin(TOKEN_ARTIFACTS[token.kind], init)

    def wanted(role: str) -> bool:
        return roles is None or role in roles

    if wanted(MULTICALL3):
        world.addresses[MULTICALL3] = world.multicall3 = address_of(MULTICALL3)
    if wanted(AAVE_POOL):
        market = add_aave_market(world, admin, token_list, address_of)
        if wanted(AAVE_REWARDS) and reward_token is not None:
            _rewards(world, market, admin, reward_token, address_of(AAVE_REWARDS))
    if wanted(UNISWAP_ROUTER):
        _uniswap(
            world,
            admin,
            token_list,
            with_quoter=wanted(UNISWAP_QUOTER),
            with_positions=wanted(UNISWAP_POSITIONS),
            given=given,
        )
    weth = _first_of_kind(token_list, "wrapped_native")
    if weth is not None and wanted(ACROSS_SPOKE_POOL):
        world.addresses[ACROSS_SPOKE_POOL] = address_of(ACROSS_SPOKE_POOL)
        world.across = SpokeSetup(world.addresses[ACROSS_SPOKE_POOL], weth.address)
    steth = _first_of_kind(token_list, "steth")
    if steth is not None and wanted(LIDO_WITHDRAWAL_QUEUE):
        place(
            LIDO_WITHDRAWAL_QUEUE,
            "WithdrawalQueueERC721",
            [("initialize(address)", (steth.address,))],
            WITHDRAWAL_QUEUE_ETH,
        )
    if wanted(CCTP_TOKEN_MESSENGER):
        messenger = place(CCTP_TOKEN_MESSENGER, "TokenMessenger", [("initialize(address)", (admin,))])
        for domain in CCTP_DOMAINS:
            remote = bytes.fromhex(messenger[2:]).rjust(32, b"\0")
            world.setup.append(
                SetupCall(messenger, "addRemoteTokenMessenger(uint32,bytes32)", (domain, remote))
            )
    for vault in vaults:
        if vault.underlying not in world.tokens:
            continue
        asset = world.tokens[vault.underlying]
        if vault.address:
            given.setdefault(vault.role, vault.address)
        share = address_of(vault.role)
        shares = (
            "initialize(string,string,uint8,address)",
            (vault.name, vault.symbol, asset.decimals, share),
        )
        place(vault.role, "ERC4626Vault", [shares, ("setAsset(address)", (asset.address,))])
    return world


def _first_of_kind(tokens: Sequence[DevnetToken], kind: str) -> DevnetToken | None:
    return next((token for token in tokens if token.kind == kind), None)


def _fund(world: DevnetWorld, token: DevnetToken, to: str, amount: int) -> None:
    """Setup calls that leave `amount` raw units of `token` at `to`, whatever kind of token it is."""
    if token.kind in ("wrapped_native", "steth"):
        world.admin_native_wei += amount
    if token.kind == "wrapped_native":
        world.setup.append(SetupCall(token.address, "deposit()", (), amount))
        world.setup.append(SetupCall(token.address, "transfer(address,uint256)", (to, amount)))
    elif token.kind == "steth":
        world.setup.append(SetupCall(token.address, "submit(address)", ("0x" + "00" * 20,), amount))
        world.setup.append(SetupCall(token.address, "transfer(address,uint256)", (to, amount)))
    else:
        world.setup.append(SetupCall(token.address, "mint(address,uint256)", (to, amount)))


def _liquidity(token: DevnetToken) -> int:
    return token.raw(Decimal(LIQUIDITY_USD) / (token.price_usd or Decimal(1)))


def add_aave_market(
    world: DevnetWorld,
    admin: str,
    tokens: Sequence[DevnetToken],
    address_of: Callable[[str], str],
    prefix: str = "",
) -> AaveMarket:
    """Record a real Aave v3 market (devnet.aave_v3) over the priced reserve tokens, its contracts at
    `address_of(role)` for the pool, provider and data provider roles (filed under `prefix` + role), one
    price feed per asset shared by every market of the chain, and fund the admin with each reserve's
    liquidity, which it supplies once the market is listed."""
    roles = (AAVE_POOL, AAVE_PROVIDER, AAVE_DATA_PROVIDER)
    pool, provider, data_provider = (address_of(role) for role in roles)
    for role, address in zip(roles, (pool, provider, data_provider), strict=True):
        world.addresses[prefix + role] = address
    reserves = []
    for token in tokens:
        if not token.reserve or token.price_usd is None:
            continue
        feed = world.price_feeds.setdefault(token.symbol, devnet_address(f"price feed {token.symbol}"))
        world.addresses[f"{PRICE_FEED}:{token.symbol}"] = feed
        ltv, threshold = RISK_BPS.get(token.symbol, RISK_BPS["stable"])
        liquidity = _liquidity(token)
        _fund(world, token, admin, liquidity)
        stable = token.price_usd == 1
        reserves.append(
            AaveReserve(token.symbol, token.address, token.decimals, feed, ltv, threshold, stable, liquidity)
        )
    market = AaveMarket(
        market_id=f"intentgate devnet {prefix}aave",
        pool=pool,
        provider=provider,
        data_provider=data_provider,
        treasury=devnet_address(f"{prefix}aave treasury"),
        reserves=reserves,
        prefix=prefix,
    )
    world.aave.append(market)
    return market


def _rewards(world: DevnetWorld, market: AaveMarket, admin: str, reward_token: str, controller: str) -> None:
    """Give `market` the real RewardsController (devnet.aave_rewards) at `controller`, emitting
    `reward_token` on every aToken and debt token at REWARD_APR of a reserve's starting liquidity, and fund
    the admin (its rewards vault) with the budget claims are paid from. A reward without a price has no
    oracle the controller would accept: the market then has no incentives controller."""
    token = world.tokens.get(reward_token)
    if token is None or token.price_usd is None:
        return
    oracle = world.price_feeds.setdefault(token.symbol, devnet_address(f"price feed {token.symbol}"))
    world.addresses[f"{PRICE_FEED}:{token.symbol}"] = oracle
    per_second = token.raw(Decimal(LIQUIDITY_USD) * REWARD_APR / token.price_usd / SECONDS_PER_YEAR)
    budget = _liquidity(token)
    _fund(world, token, admin, budget)
    rewards = AaveRewards(controller, token.address, oracle, per_second, budget)
    world.aave[world.aave.index(market)] = replace(market, rewards=rewards)
    world.addresses[AAVE_REWARDS] = controller


def _uniswap(
    world: DevnetWorld,
    admin: str,
    tokens: Sequence[DevnetToken],
    *,
    with_quoter: bool,
    with_positions: bool,
    given: Mapping[str, str],
) -> None:
    """Record the real Uniswap v3 deployment (devnet.uniswap_v3) and fund the admin to seed its pools."""
    weth = _first_of_kind(tokens, "wrapped_native")
    roles = [UNISWAP_FACTORY, UNISWAP_ROUTER]
    roles += [UNISWAP_QUOTER] if with_quoter else []
    roles += [UNISWAP_POSITIONS] if with_positions else []
    for role in roles:
        world.addresses[role] = given.get(role) or devnet_address(role)
    pooled = [
        PoolToken(token.symbol, token.address, token.decimals, token.price_usd, token.price_usd == 1)
        for token in tokens
        if token.price_usd is not None
    ]
    world.uniswap = UniswapSetup(
        factory=world.addresses[UNISWAP_FACTORY],
        router=world.addresses[UNISWAP_ROUTER],
        quoter=world.addresses.get(UNISWAP_QUOTER),
        positions=world.addresses.get(UNISWAP_POSITIONS),
        weth=weth.address if weth else "0x" + "00" * 20,
        tokens=pooled if with_positions else [],
        depth_usd=Decimal(LIQUIDITY_USD),
    )
    for symbol, amount in world.uniswap.needed().items():
        _fund(world, world.tokens[symbol], admin, amount)
