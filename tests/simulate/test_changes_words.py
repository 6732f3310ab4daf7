"""The pure parts of asset changes: logs read into holders, effects summed, amounts in the registry's
decimals, USD only where the price source has a price, addresses named after the registry's contracts, and
the sentences a wallet shows."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from eth_abi import encode

from engine.registry import load_registry
from engine.simulate import AllowanceSeen, Holding, NftMoved, Observed
from engine.simulate.assets import LendingToken, asset_of, label_of
from engine.simulate.changes import Describer, units, usd_text
from engine.simulate.effects import Delta, StepEffect, net, step_effect
from watchers.upstreams.fork_effects import APPROVAL, DEPOSIT, TRANSFER, read_logs

REG = load_registry()
USDC = REG.token("base", "USDC").address or ""
WETH = REG.token("base", "WETH").address or ""
POOL = REG.deployment("base", "aave", "pool")
ME = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
YOU = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
A_USDC = "0x4e65fE4DbA92790696d040ac24Aa414708F5c0AB"


@dataclass
class Log:
    """pyrevm's Log as fork_effects reads it: the emitter, and data = (topics, data)."""

    address: str
    data: tuple[list[bytes], bytes]


def word(address: str) -> bytes:
    return bytes(12) + bytes.fromhex(address[2:])


def test_logs_name_holders_flows_approvals_and_nfts() -> None:
    logs = [
        Log(USDC, ([TRANSFER, word(ME), word(YOU)], encode(["uint256"], [10**6]))),
        Log(USDC, ([APPROVAL, word(ME), word(POOL)], encode(["uint256"], [5]))),
        Log(WETH, ([DEPOSIT, word(ME)], encode(["uint256"], [7]))),
        Log(POOL, ([TRANSFER, word("0x" + "00" * 20), word(ME), (12).to_bytes(32, "big")], b"")),
    ]
    seen = read_logs(logs)
    assert seen.flows == {
        (USDC.lower(), ME.lower()): -(10**6),
        (USDC.lower(), YOU.lower()): 10**6,
        (WETH.lower(), ME.lower()): 7,
    }
    assert seen.approvals == {(USDC.lower(), ME.lower(), POOL.lower())}
    assert [(n.token_id, n.recipient) for n in seen.nfts] == [(12, ME.lower())]
    assert {USDC.lower(), WETH.lower(), POOL.lower(), ME.lower(), YOU.lower()} <= seen.addresses


def test_amounts_are_exact_in_the_registrys_decimals_and_raw_when_unknown() -> None:
    assert units(-100_000_000, 6) == "-100"
    assert units(1, 18) == "0.000000000000000001"
    assert units(123, None) is None
    assert asset_of(REG, "base", USDC).decimals == 6
    assert asset_of(REG, "base", None).symbol == "ETH"
    stranger = asset_of(REG, "base", "0x" + "ab" * 20)
    assert (stranger.kind, stranger.decimals, stranger.priced_as) == ("unknown", None, None)


def test_a_lending_pools_tokens_take_their_underlyings_decimals_and_a_debt_counts_against() -> None:
    lending = {
        A_USDC.lower(): LendingToken("aave", "receipt", "USDC"),
        YOU.lower(): LendingToken("aave", "debt", "USDC"),
    }
    receipt, debt = asset_of(REG, "base", A_USDC, lending), asset_of(REG, "base", YOU, lending)
    assert (receipt.symbol, receipt.decimals, receipt.priced_as, receipt.sign) == ("aUSDC", 6, "USDC", 1)
    assert (debt.symbol, debt.kind, debt.sign) == ("variableDebtUSDC", "debt", -1)


def test_usd_is_cents_half_up_keeping_a_figure_under_a_cent() -> None:
    assert usd_text(Decimal("-100.005")) == "-100.01"
    assert usd_text(Decimal("0.0001234")) == "0.000123"
    assert usd_text(None) is None


def test_registry_contracts_and_the_sender_are_named() -> None:
    assert label_of(REG, "base", POOL) == "Aave v3 pool"
    assert label_of(REG, "base", USDC.lower()) == "USDC token contract"
    assert label_of(REG, "base", ME, frozenset({ME.lower()})) == "sender"
    assert label_of(REG, "base", YOU) is None


def test_effects_net_per_holder_and_asset_dropping_what_nets_to_zero() -> None:
    first = StepEffect("base", ME, (Delta("base", ME, USDC, -5), Delta("base", YOU, USDC, 5)))
    back = StepEffect("base", ME, (Delta("base", YOU.lower(), USDC.lower(), -5, modelled=True),))
    assert [(d.holder, d.raw) for d in net([first, back])] == [(ME, -5)]


def test_a_step_reads_as_a_wallet_would_say_it() -> None:
    observed = Observed(
        holdings=(
            Holding(USDC, ME, 500 * 10**6, 400 * 10**6, -100 * 10**6),
            Holding(USDC, YOU, 0, 100 * 10**6, 100 * 10**6),
            Holding(None, ME, 10**18, 9 * 10**17),
        ),
        allowances=(AllowanceSeen(USDC, ME, POOL, 0, 2**256 - 1),),
        nfts=(NftMoved(POOL, 3, "0x" + "00" * 20, ME),),
        contracts=frozenset(),
    )
    effect = step_effect("base", ME, observed, fee_raw=21_000 * 10**9)
    describer = Describer(REG, {"ETH": Decimal(3000), "USDC": None}, frozenset({ME}))
    step = describer.step(effect)
    assert [(b.label, b.asset, b.amount, b.usd) for b in step.balances] == [
        ("sender", "USDC", "-100", None),
        ("sender", "ETH", "-0.1", "-300.00"),
        (None, "USDC", "100", None),
    ]
    assert step.approvals[0].unlimited and step.approvals[0].spender_label == "Aave v3 pool"
    assert (step.gas_fee.amount, step.gas_fee.usd) == ("0.000021", "0.06")
    words = describer.plan([effect]).wording
    assert words == [
        "you send 100 USDC",
        "you send 0.1 ETH ($300.00)",
        f"{YOU} receives 100 USDC",
        "you receive Aave v3 pool #3",
        "Aave v3 pool is allowed an unlimited amount of USDC after this",
        "you pay about 0.000021 ETH ($0.06) in gas",
    ]
    # Each sentence says in fields what its text says: unsigned exact amounts, USD where priced.
    said = [
        (s.kind, s.asset, s.amount, s.usd, s.address, s.token_id, s.spender_label, s.unlimited)
        for s in describer.plan([effect]).sentences
    ]
    assert said == [
        ("send", "USDC", "100", None, ME, None, None, None),
        ("send", "ETH", "0.1", "300.00", ME, None, None, None),
        ("gain", "USDC", "100", None, YOU, None, None, None),
        ("receive", "Aave v3 pool", None, None, ME, "3", None, None),
        ("allowed", "USDC", units(2**256 - 1, 6), None, ME, None, "Aave v3 pool", True),
        ("gas", "ETH", "0.000021", "0.06", None, None, None, None),
    ]
    # A step says what it did in the same sentences, its own gas included.
    assert [s.text for s in step.sentences] == [
        "you send 100 USDC",
        "you send 0.1 ETH ($300.00)",
        f"{YOU} receives 100 USDC",
        "you receive Aave v3 pool #3",
        "Aave v3 pool is allowed an unlimited amount of USDC after this",
        "you pay about 0.000021 ETH ($0.06) in gas",
    ]


def test_a_swaps_minimum_is_said_as_at_least_and_a_fill_as_modelled() -> None:
    got = StepEffect("base", ME, (Delta("base", ME, USDC, 299_760_116),))
    fill = StepEffect("base", ME, (Delta("base", ME, WETH, 10**17, modelled=True),), modelled=True)
    describer = Describer(
        REG, {}, frozenset({ME}), minimums={("base", ME.lower(), USDC.lower()): 296_762_514}
    )
    changes = describer.plan([got, fill])
    assert changes.wording[:2] == [
        "you receive at least 296.762514 USDC",
        "you receive 0.1 WETH when the bridge fills (modelled)",
    ]
    least, landed = changes.sentences[:2]
    assert (least.amount, least.amount_raw, least.at_least, least.modelled) == (
        "296.762514",
        "296762514",
        True,
        None,
    )
    assert (landed.amount, landed.at_least, landed.modelled) == ("0.1", None, True)
    # A step says what it did on the fork, never the minimum (that is the plan's promise).
    (one,) = describer.step(got).sentences[:1]
    assert one.text == "you receive 299.760116 USDC" and one.at_least is None
    # Optional fields a sentence has nothing to say in are left out of its JSON.
    assert least.model_dump() == {
        "kind": "receive",
        "text": "you receive at least 296.762514 USDC",
        "asset": "USDC",
        "address": ME,
        "amount": "296.762514",
        "amount_raw": "296762514",
        "at_least": True,
    }
