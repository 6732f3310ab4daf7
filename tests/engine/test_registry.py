"""The registry: sourced addresses and decimals, lookups, aliases and exact amount conversion."""

import copy
import json
from decimal import Decimal
from importlib import resources
from typing import Any

import pytest
from eth_utils import is_checksum_address
from hypothesis import given
from hypothesis import strategies as st
from solders.pubkey import Pubkey

import engine.registry as registry_pkg
from engine.registry import (
    InvalidAmount,
    Registry,
    RegistryDataError,
    RegistryError,
    UnknownChain,
    UnknownProtocol,
    UnknownToken,
    Unsupported,
    build_registry,
    load_registry,
)

MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11"


@pytest.fixture(scope="module")
def reg() -> Registry:
    return load_registry()


def _data(name: str) -> dict[str, Any]:
    text = resources.files("engine.registry.data").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def _all_data() -> dict[str, dict[str, Any]]:
    return {n: _data(f"{n}.json") for n in ("chains", "tokens", "protocols", "vaults")}


def _addresses(reg: Registry) -> list[tuple[str, str, str]]:
    """(chain, what, address) for every address the registry holds."""
    found = [(t.chain, f"token {t.symbol}", t.address) for c in reg.chains() for t in reg.tokens(c.slug)]
    for c in reg.chains():
        for p in reg.protocols():
            found += [(c.slug, f"{p.name}.{d.role}", d.address) for d in reg.deployments(c.slug, p.name)]
    found += [(v.chain, f"vault {v.symbol}", v.address) for v in reg.vaults()]
    return [(chain, what, a) for chain, what, a in found if a is not None]


def test_every_evm_address_carries_its_eip55_checksum(reg: Registry) -> None:
    evm = [(c, w, a) for c, w, a in _addresses(reg) if reg.chain(c).is_evm]
    assert len(evm) > 100
    bad = [(c, w, a) for c, w, a in evm if not is_checksum_address(a)]
    assert bad == []


def test_every_solana_address_parses_as_a_pubkey(reg: Registry) -> None:
    solana = [(w, a) for c, w, a in _addresses(reg) if c == "solana"]
    assert {w for w, _ in solana} >= {"token USDC", "cctp.token_messenger", "across.spoke_pool"}
    for _, address in solana:
        assert str(Pubkey.from_string(address)) == address


def test_every_record_in_the_data_files_names_a_source() -> None:
    data = _all_data()
    records: list[dict[str, Any]] = list(data["chains"]["chains"]) + list(data["vaults"]["vaults"])
    records += [t for tokens in data["tokens"]["tokens"].values() for t in tokens]
    for protocol in data["protocols"]["protocols"].values():
        records += [d for roles in protocol["deployments"].values() for d in roles.values()]
    assert len(records) > 100
    for record in records:
        assert record["source"], record
        assert all(isinstance(s, str) and s.strip() for s in record["source"]), record


def test_chain_ids_are_the_real_eip155_ids(reg: Registry) -> None:
    ids = {c.slug: c.chain_id for c in reg.chains()}
    assert ids == {
        "ethereum": 1,
        "base": 8453,
        "arbitrum": 42161,
        "optimism": 10,
        "polygon": 137,
        "bsc": 56,
        "solana": None,
    }
    assert reg.chain("solana").cluster == "mainnet-beta"
    assert reg.chain_by_id(42161).slug == "arbitrum"


def test_bsc_is_the_seventh_chain_plannable_but_absent_from_simulate(reg: Registry) -> None:
    assert len(reg.chains()) == 7
    assert {c.slug for c in reg.simulate_chains()} == {
        "ethereum",
        "base",
        "arbitrum",
        "optimism",
        "polygon",
        "solana",
    }
    assert reg.chain("bsc").is_evm


def test_cctp_domains_are_circles_and_match_cctp_deployments(reg: Registry) -> None:
    domains = {c.slug: c.cctp_domain for c in reg.chains()}
    assert domains == {
        "ethereum": 0,
        "optimism": 2,
        "arbitrum": 3,
        "solana": 5,
        "base": 6,
        "polygon": 7,
        "bsc": None,
    }
    for chain in reg.chains():
        assert reg.supports(chain.slug, "cctp", "bridge") == (chain.cctp_domain is not None)


def test_native_assets_and_their_wrapped_forms(reg: Registry) -> None:
    natives = {c.slug: (reg.native(c.slug).symbol, reg.native(c.slug).decimals) for c in reg.chains()}
    assert natives == {
        "ethereum": ("ETH", 18),
        "base": ("ETH", 18),
        "arbitrum": ("ETH", 18),
        "optimism": ("ETH", 18),
        "polygon": ("POL", 18),
        "bsc": ("BNB", 18),
        "solana": ("SOL", 9),
    }
    assert reg.native("ethereum").address is None
    assert reg.wrapped_native("polygon").symbol == "WPOL"
    assert reg.wrapped_native("bsc").address == "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c"
    assert reg.wrapped_native("solana").address == "So11111111111111111111111111111111111111112"
    assert reg.wrapped_native("base").address == reg.wrapped_native("optimism").address


@pytest.mark.parametrize(
    ("chain", "decimals"),
    [
        ("ethereum", 6),
        ("base", 6),
        ("arbitrum", 6),
        ("optimism", 6),
        ("polygon", 6),
        ("solana", 6),
        ("bsc", 18),
    ],
)
def test_usdc_decimals_per_chain_with_binance_peg_at_18(reg: Registry, chain: str, decimals: int) -> None:
    usdc = reg.token(chain, "USDC")
    assert usdc.decimals == decimals
    assert usdc.stable


def test_binance_peg_usdt_has_18_decimals_and_ethereum_usdt_6(reg: Registry) -> None:
    assert reg.token("bsc", "USDT").decimals == 18
    assert reg.token("ethereum", "USDT").decimals == 6
    assert reg.token("solana", "USDT").decimals == 6


def test_native_usdc_is_circles_and_bridged_usdc_has_its_own_symbol(reg: Registry) -> None:
    assert reg.token("arbitrum", "USDC").address == "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
    assert reg.token("arbitrum", "USDC.e").address == "0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8"
    assert reg.token("optimism", "USDC").address == "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"
    assert reg.token("polygon", "USDC").address == "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"
    assert reg.token("base", "USDC").address == "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
    assert reg.token("solana", "USDC").address == "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"


def test_only_ethereum_usdt_needs_its_allowance_reset_before_approve(reg: Registry) -> None:
    needing = {
        (t.chain, t.symbol) for c in reg.chains() for t in reg.tokens(c.slug) if t.approve_reset_required
    }
    assert needing == {("ethereum", "USDT")}


def test_token_kinds_follow_the_chain_family(reg: Registry) -> None:
    for chain in reg.chains():
        kinds = {t.kind for t in reg.tokens(chain.slug)}
        assert kinds <= ({"native", "erc20"} if chain.is_evm else {"native", "spl"})


def test_lido_tokens_and_contracts_on_ethereum(reg: Registry) -> None:
    assert reg.token("ethereum", "stETH").address == reg.deployment("ethereum", "lido", "steth")
    assert reg.token("ethereum", "wstETH").decimals == 18
    assert reg.contract_for("ethereum", "lido", "unstake").role == "withdrawal_queue"


def test_token_lookup_is_case_insensitive_and_unknown_names_raise(reg: Registry) -> None:
    assert reg.token("ethereum", "usdc") is reg.token("ethereum", "USDC")
    assert reg.token("ETHEREUM", "wsteth").symbol == "wstETH"
    with pytest.raises(UnknownToken, match="DOGE"):
        reg.token("ethereum", "DOGE")
    with pytest.raises(UnknownChain, match="goerli"):
        reg.chain("goerli")
    with pytest.raises(UnknownChain):
        reg.tokens("fantom")
    with pytest.raises(UnknownProtocol):
        reg.protocol("compound")
    for error in (UnknownToken, UnknownChain, UnknownProtocol, Unsupported, InvalidAmount):
        assert issubclass(error, RegistryError)


def test_token_by_address_ignores_evm_case_but_not_base58_case(reg: Registry) -> None:
    lower = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
    assert reg.token_by_address("ethereum", lower).symbol == "USDC"
    assert reg.token_by_address("ethereum", lower.upper().replace("0X", "0x")).symbol == "USDC"
    mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
    assert reg.token_by_address("solana", mint).symbol == "USDC"
    with pytest.raises(UnknownToken):
        reg.token_by_address("solana", mint.lower())
    with pytest.raises(UnknownToken):
        reg.token_by_address("base", lower)


@pytest.mark.parametrize(
    ("chain", "protocol", "action", "supported"),
    [
        ("ethereum", "aave", "deposit", True),
        ("bsc", "aave", "borrow", True),
        ("base", "aave", "claim", True),
        ("solana", "aave", "deposit", False),
        ("ethereum", "spark", "repay", True),
        ("arbitrum", "spark", "deposit", False),
        ("ethereum", "spark", "claim", False),
        ("ethereum", "lido", "stake", True),
        ("arbitrum", "lido", "stake", False),
        ("ethereum", "lido", "claim", True),
        ("bsc", "uniswap", "swap", True),
        ("base", "uniswap", "lp-add", True),
        ("polygon", "uniswap", "lp-collect", True),
        ("solana", "uniswap", "swap", False),
        ("bsc", "across", "bridge", True),
        ("solana", "across", "bridge", True),
        ("bsc", "cctp", "bridge", False),
        ("solana", "cctp", "bridge", True),
        ("ethereum", "uniswap", "bridge", False),
        ("ethereum", "multicall3", "transfer", False),
    ],
)
def test_supports_matrix(reg: Registry, chain: str, protocol: str, action: str, supported: bool) -> None:
    assert reg.supports(chain, protocol, action) is supported


def test_contract_for_answers_the_role_and_address_in_one_lookup(reg: Registry) -> None:
    pool = reg.contract_for("optimism", "aave", "withdraw")
    assert (pool.role, pool.address) == ("pool", "0x794a61358D6845594F94dc1DB02A252b5b4814aD")
    router = reg.contract_for("base", "uniswap", "swap")
    assert (router.role, router.address) == ("swap_router02", "0x2626664c2603336E57B271c5C0b26F421741e481")
    messenger = reg.contract_for("polygon", "cctp", "bridge")
    assert messenger.address == "0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d"
    assert reg.protocol("cctp").version == "v2"


def test_unsupported_says_what_is_missing(reg: Registry) -> None:
    with pytest.raises(Unsupported, match="no token_messenger on bsc"):
        reg.contract_for("bsc", "cctp", "bridge")
    with pytest.raises(Unsupported, match="does not serve 'swap'"):
        reg.contract_for("ethereum", "aave", "swap")
    with pytest.raises(Unsupported, match="no 'quoter_v2' contract on solana"):
        reg.deployment("solana", "uniswap", "quoter_v2")
    with pytest.raises(Unsupported, match="its roles there: .*pool_addresses_provider"):
        reg.deployment("ethereum", "spark", "rewards_controller")


def test_deployment_returns_each_role_address(reg: Registry) -> None:
    assert reg.deployment("ethereum", "aave", "pool_addresses_provider") == (
        "0x2f39d218133AFaB8F2B819B1066c7E434Ad94E9e"
    )
    assert reg.deployment("bsc", "uniswap", "quoter_v2") == "0x78D78E420Da98ad378D7799bE8f4AF69033EB077"
    assert reg.deployment("ethereum", "spark", "pool") == "0xC13e21B648A5Ee794902342038FF3aDAB66BE987"
    assert (
        reg.deployment("solana", "cctp", "message_transmitter")
        == "CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC"
    )


def test_multicall3_is_at_the_same_address_on_every_evm_chain(reg: Registry) -> None:
    for chain in reg.evm_chains():
        assert reg.multicall3(chain.slug) == MULTICALL3
    with pytest.raises(Unsupported):
        reg.multicall3("solana")


def test_protocols_for_lists_who_serves_an_action_and_token_actions_need_none(reg: Registry) -> None:
    assert reg.protocols_for("ethereum", "deposit") == ("aave", "spark")
    assert reg.protocols_for("arbitrum", "bridge") == ("across", "cctp")
    assert reg.protocols_for("solana", "swap") == ()
    for action in ("transfer", "sweep", "approve"):
        assert reg.is_token_action(action)
        assert reg.protocols_for("ethereum", action) == ()
    assert not reg.is_token_action("swap")


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("eth", "ethereum"),
        ("Mainnet", "ethereum"),
        ("arb", "arbitrum"),
        ("Arbitrum One", "arbitrum"),
        ("op", "optimism"),
        ("matic", "polygon"),
        ("BNB  Chain", "bsc"),
        ("Binance Smart Chain", "bsc"),
        ("bsc", "bsc"),
        ("sol", "solana"),
        ("base", "base"),
    ],
)
def test_chain_aliases_resolve_to_slugs(reg: Registry, name: str, slug: str) -> None:
    assert reg.resolve_chain(name) == slug


@pytest.mark.parametrize(
    ("chain", "name", "symbol"),
    [
        ("ethereum", "ether", "ETH"),
        ("ethereum", "Tether", "USDT"),
        ("ethereum", "Dai Stablecoin", "DAI"),
        ("ethereum", "wrapped bitcoin", "WBTC"),
        ("ethereum", "staked ether", "stETH"),
        ("polygon", "matic", "POL"),
        ("polygon", "wmatic", "WPOL"),
        ("bsc", "wrapped bnb", "WBNB"),
        ("solana", "wrapped sol", "WSOL"),
        ("arbitrum", "bridged usdc", "USDC.e"),
        ("base", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "USDC"),
    ],
)
def test_token_aliases_resolve_to_symbols(reg: Registry, chain: str, name: str, symbol: str) -> None:
    assert reg.resolve_token(chain, name) == symbol


def test_unknown_aliases_raise(reg: Registry) -> None:
    with pytest.raises(UnknownChain):
        reg.resolve_chain("avalanche")
    with pytest.raises(UnknownToken):
        reg.resolve_token("ethereum", "dogecoin")


def test_trusted_vaults_are_erc4626_over_registry_tokens(reg: Registry) -> None:
    sdai = reg.vault("ethereum", "0x83f20f44975d03b1b09e64809b757c47f942beea")
    assert sdai is not None
    assert (sdai.symbol, sdai.underlying, sdai.share_decimals) == ("sDAI", "DAI", 18)
    assert reg.vault("ethereum", "0x0000000000000000000000000000000000000001") is None
    assert reg.vault("base", sdai.address) is None
    for vault in reg.vaults():
        assert vault.standard == "erc4626"
        assert reg.token(vault.chain, vault.underlying)


@pytest.mark.parametrize(
    ("chain", "symbol", "amount", "raw"),
    [
        ("ethereum", "USDC", "1.5", 1_500_000),
        ("ethereum", "USDC", "1.500000000", 1_500_000),
        ("ethereum", "USDC", "0.000001", 1),
        ("ethereum", "USDC", "0", 0),
        ("bsc", "USDC", "1.5", 1_500_000_000_000_000_000),
        ("ethereum", "WBTC", "21000000", 2_100_000_000_000_000),
        ("solana", "SOL", "0.000000001", 1),
        (
            "ethereum",
            "ETH",
            "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
            2**256 - 1,
        ),
        ("ethereum", "ETH", "1E+3", 10**21),
    ],
)
def test_to_raw_is_exact(reg: Registry, chain: str, symbol: str, amount: str, raw: int) -> None:
    assert reg.to_raw(reg.token(chain, symbol), Decimal(amount)) == raw


def test_to_raw_refuses_more_decimals_than_the_token_has(reg: Registry) -> None:
    with pytest.raises(InvalidAmount, match="more than 6 decimal places"):
        reg.to_raw(reg.token("ethereum", "USDC"), Decimal("0.0000001"))
    with pytest.raises(InvalidAmount, match="more than 8 decimal places"):
        reg.to_raw(reg.token("ethereum", "WBTC"), Decimal("1.000000001"))


@pytest.mark.parametrize("bad", [Decimal("-1"), Decimal("NaN"), Decimal("Infinity"), 1.5, "1.5", 1])
def test_to_raw_refuses_negative_non_finite_and_non_decimal_amounts(reg: Registry, bad: Any) -> None:
    with pytest.raises(InvalidAmount):
        reg.to_raw(reg.token("ethereum", "USDC"), bad)


def test_from_raw_is_exact_and_refuses_bad_input(reg: Registry) -> None:
    usdc = reg.token("ethereum", "USDC")
    assert reg.from_raw(usdc, 1_500_000) == Decimal("1.5")
    assert str(reg.from_raw(usdc, 1)) == "0.000001"
    weth = reg.token("ethereum", "WETH")
    assert reg.from_raw(weth, 2**256 - 1) == Decimal(
        "115792089237316195423570985008687907853269984665640564039457.584007913129639935"
    )
    for bad in (-1, True, 1.0, "1"):
        with pytest.raises(InvalidAmount):
            reg.from_raw(usdc, bad)  # type: ignore[arg-type]


@given(raw=st.integers(min_value=0, max_value=2**256), decimals=st.sampled_from([0, 6, 8, 9, 18]))
def test_from_raw_then_to_raw_round_trips(raw: int, decimals: int) -> None:
    assert registry_pkg.to_raw(registry_pkg.from_raw(raw, decimals), decimals) == raw


def test_load_registry_reads_the_data_once() -> None:
    assert load_registry() is load_registry()


def _broken(mutate: Any) -> dict[str, dict[str, Any]]:
    data = copy.deepcopy(_all_data())
    mutate(data)
    return data


def _build(data: dict[str, dict[str, Any]]) -> Registry:
    return build_registry(data["chains"], data["tokens"], data["protocols"], data["vaults"])


def test_build_registry_from_the_packaged_data_matches_load_registry(reg: Registry) -> None:
    built = _build(_all_data())
    assert [c.slug for c in built.chains()] == [c.slug for c in reg.chains()]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["tokens"]["tokens"]["ethereum"][2].update(
                address="0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
            ),
            "EIP-55",
        ),
        (lambda d: d["tokens"]["tokens"]["solana"][2].update(address="not-a-mint"), "base58"),
        (lambda d: d["tokens"]["tokens"]["ethereum"][1].update(source=[]), "source"),
        (lambda d: d["tokens"]["tokens"]["ethereum"][1].pop("source"), "source"),
        (lambda d: d["tokens"]["tokens"]["bsc"][2].update(kind="spl"), "kind"),
        (
            lambda d: d["protocols"]["protocols"]["aave"]["actions"].update(fly="pool"),
            "not a protocol action",
        ),
        (lambda d: d["protocols"]["protocols"]["aave"]["deployments"].update(avalanche={}), "unknown chain"),
        (lambda d: d["tokens"]["tokens"]["ethereum"][1].update(symbol="USDC"), "duplicate"),
        (lambda d: d["chains"]["chains"][1]["aliases"].append("ETH"), "duplicate chain alias"),
        (lambda d: d["vaults"]["vaults"][0].update(underlying="FRAX"), "underlying"),
        (lambda d: d["chains"]["chains"][0].pop("native_symbol"), "malformed"),
    ],
)
def test_build_registry_rejects_malformed_data(mutate: Any, message: str) -> None:
    with pytest.raises(RegistryDataError, match=message):
        _build(_broken(mutate))


def test_package_exports_what_it_declares() -> None:
    for name in registry_pkg.__all__:
        assert hasattr(registry_pkg, name), name
