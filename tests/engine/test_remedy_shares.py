"""A remedy's amount may be a share of a holding ("swap half my eth", "withdraw a quarter of my aave
usdc"): read from the follow-on action or typed as {share, of}, kept exact as said, and sized only when
the plan is built, from the holding read then, rounded down to the token's smallest unit. POST /intent is
untouched: without a balance it still asks how much."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from engine.agents import AgentValidationError
from engine.agents.remedy import NotPlannable, Remedy, parse_typed_remedy, read_remedy
from engine.agents.shares import Holding, Unsized, read_share, share_wire, size_share
from engine.intents import IntentParser, IntentRequest, RegistryUniverse, Wallet
from engine.intents.amounts import Share
from engine.registry import Registry, load_registry

WALLET = "0x" + "ab" * 20
SWAP = {"action": "swap", "asset": "ETH", "to_asset": "USDC", "chain": "base", "protocol": "uniswap"}


@cache
def _reader() -> tuple[Registry, IntentParser]:
    registry = load_registry()
    return registry, IntentParser(RegistryUniverse(registry))


def _read(action: str, chain: str | None = "base", protocol: str | None = None) -> Remedy:
    registry, parser = _reader()
    found = read_remedy(parser, registry, action, [WALLET], chain, protocol)
    assert isinstance(found, Remedy), found
    return found


# -- reading the follow-on action ------------------------------------------------------------------


def test_half_my_eth_is_kept_as_half_of_the_balance_not_asked_for() -> None:
    remedy = _read("swap half my eth to usdc on base")
    (intent,) = remedy.intents
    assert intent.amount is None and remedy.share(0) == Share(Fraction(1, 2), "balance")
    assert remedy.wire()["intents"] == [{**SWAP, "amount": {"share": Decimal("0.5"), "of": "balance"}}]
    assert "swap half of your ETH for USDC on base" in remedy.summary


def test_a_percent_of_a_token_reads_as_that_share() -> None:
    remedy = _read("sell 30 % of my wbtc for usdc", chain="ethereum")
    (intent,) = remedy.intents
    assert (intent.action, intent.asset, intent.chain) == ("swap", "WBTC", "ethereum")
    assert remedy.share(0) == Share(Fraction(3, 10), "balance")
    assert "30% of your WBTC" in remedy.summary


def test_a_share_of_a_debt_or_a_deposit_is_read_in_the_lending_market() -> None:
    repay = _read("repay half my usdc debt", protocol="aave")
    assert (repay.intents[0].action, repay.intents[0].protocol) == ("repay", "aave")
    assert repay.share(0) == Share(Fraction(1, 2), "debt")
    assert "repay half of your USDC debt to aave on base" in repay.summary
    withdraw = _read("withdraw a quarter of my aave usdc")
    assert withdraw.share(0) == Share(Fraction(1, 4), "deposit")
    assert "withdraw a quarter of your USDC deposit from aave on base" in withdraw.summary


def test_repay_all_of_a_debt_stays_the_planners_max() -> None:
    remedy = _read("repay all my usdc debt", protocol="aave")
    assert remedy.intents[0].amount == "max" and remedy.share(0) is None
    assert "repay your whole USDC debt to aave on base" in remedy.summary


def test_a_third_is_kept_as_the_exact_fraction_through_storage() -> None:
    remedy = _read("swap a third of my eth to usdc on base")
    assert remedy.share(0) == Share(Fraction(1, 3), "balance")
    stored = remedy.to_json()
    assert stored["intents"][0]["amount"] == {"share": "1/3", "of": "balance"}
    again = Remedy.from_json(stored)
    assert again.share(0) == Share(Fraction(1, 3), "balance") and again.intents == remedy.intents
    assert again.summary == remedy.summary


def test_a_share_round_trips_as_a_string_in_storage() -> None:
    remedy = _read("sell 30 % of my wbtc for usdc", chain="ethereum")
    assert remedy.to_json()["intents"][0]["amount"] == {"share": "0.3", "of": "balance"}
    assert Remedy.from_json(remedy.to_json()) == remedy


def test_a_share_of_a_stake_is_still_not_plannable() -> None:
    registry, parser = _reader()
    found = read_remedy(parser, registry, "unstake half my steth", [WALLET], "ethereum", None)
    assert isinstance(found, NotPlannable) and "How much stETH" in found.reason


def test_post_intent_still_asks_how_much_without_a_balance() -> None:
    _, parser = _reader()
    answer = parser.parse(
        IntentRequest(
            prompt="swap half my eth to usdc on base", wallets=(Wallet(address=WALLET, chain="base"),)
        )
    )
    assert answer.intents == () and [c.question for c in answer.clarifications] == [
        "How much ETH do you want to swap?"
    ]


# -- the typed share form --------------------------------------------------------------------------


def _typed(*intents: dict[str, Any]) -> Remedy:
    registry, _ = _reader()
    return parse_typed_remedy(list(intents), registry, [WALLET])


def _fields(*intents: dict[str, Any]) -> list[str]:
    with pytest.raises(AgentValidationError) as caught:
        _typed(*intents)
    return [issue.field for issue in caught.value.issues]


def test_a_typed_share_is_checked_and_kept() -> None:
    remedy = _typed({**SWAP, "amount": {"share": "0.5", "of": "balance"}})
    assert remedy.share(0) == Share(Fraction(1, 2), "balance") and remedy.intents[0].amount is None
    withdraw = {"action": "withdraw", "asset": "WETH", "chain": "base", "protocol": "aave"}
    assert _typed({**withdraw, "amount": {"share": "1/4", "of": "deposit"}}).share(0) == Share(
        Fraction(1, 4), "deposit"
    )
    assert _typed({**SWAP, "amount": {"share": 1, "of": "balance"}}).share(0) == Share(Fraction(1), "balance")


@pytest.mark.parametrize(
    ("share", "field"),
    [
        ({"share": "0", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "1.5", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "-0.5", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": 0.5, "of": "balance"}, "remedy.0.amount.share"),  # a float: never
        ({"share": "half", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "0." + "1" * 19, "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "0.1" + "0" * 28 + "1", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "1e999999999", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "3/2", "of": "balance"}, "remedy.0.amount.share"),
        ({"share": "1/0", "of": "balance"}, "remedy.0.amount.share"),
        ({"of": "balance"}, "remedy.0.amount.share"),
        ({"share": "0.5", "of": "wallet"}, "remedy.0.amount.of"),
        ({"share": "0.5", "of": "balance", "max": True}, "remedy.0.amount.max"),
        ({"share": "0.5", "of": "debt"}, "remedy.0.amount.of"),  # a swap is not sized by a debt
    ],
)
def test_a_bad_typed_share_names_its_field(share: dict[str, Any], field: str) -> None:
    assert field in _fields({**SWAP, "amount": share})


def test_a_position_share_needs_its_action_on_a_lending_market() -> None:
    vault = {
        "action": "withdraw",
        "asset": "USDC",
        "chain": "ethereum",
        "vault_address": "0x0000000000000000000000000000000000000001",
        "amount": {"share": "0.5", "of": "deposit"},
    }
    assert "remedy.0.amount.of" in _fields(vault)
    repay = {"action": "repay", "asset": "USDC", "chain": "base", "protocol": "aave"}
    assert "remedy.0.amount.of" in _fields({**repay, "amount": {"share": "0.5", "of": "deposit"}})
    assert _typed({**repay, "amount": {"share": "0.5", "of": "debt"}}).share(0) is not None
    assert _typed({**repay, "amount": {"share": "0.5", "of": "balance"}}).share(0) is not None


def test_a_share_form_reads_exactly() -> None:
    assert read_share({"share": "0.333", "of": "balance"}, "x").fraction == Fraction(333, 1000)
    assert read_share({"share": "0.5000000000000000000000", "of": "balance"}, "x").fraction == Fraction(1, 2)
    assert read_share({"share": Decimal("0.25"), "of": "debt"}, "x") == Share(Fraction(1, 4), "debt")
    assert share_wire(Share(Fraction(2, 3), "balance")) == {"share": "2/3", "of": "balance"}
    assert share_wire(Share(Fraction(1, 8), "debt"), stored=True) == {"share": "0.125", "of": "debt"}


# -- sizing when the plan is built -----------------------------------------------------------------


def _holding(chain: str, symbol: str, raw: int, **kwargs: Any) -> Holding:
    registry, _ = _reader()
    return Holding(raw, registry.token(chain, symbol), f"on {chain}", **kwargs)


def _size(share: Share, holding: Holding) -> Decimal | str | Unsized:
    registry, _ = _reader()
    return size_share(registry, share, holding, holding.token.symbol)


def test_a_share_is_rounded_down_to_the_tokens_smallest_unit() -> None:
    half = Share(Fraction(1, 2), "balance")
    assert _size(half, _holding("base", "USDC", 1_000_001)) == Decimal("0.5")  # 0.5000005 -> 0.500000
    assert _size(half, _holding("base", "ETH", 7 * 10**18 + 3)) == Decimal("3.500000000000000001")
    # A third of 2400 USDC is 800, not 799.999999.
    assert _size(Share(Fraction(1, 3), "balance"), _holding("base", "USDC", 2400 * 10**6)) == 800
    assert _size(Share(Fraction(3, 10), "balance"), _holding("ethereum", "WBTC", 12_345_679)) == Decimal(
        "0.03703703"
    )


def test_a_share_of_nothing_or_less_than_a_unit_is_not_sized() -> None:
    half = Share(Fraction(1, 2), "balance")
    zero = _size(half, _holding("base", "USDC", 0))
    assert isinstance(zero, Unsized)
    assert zero.reason == "the wallet holds no USDC on base, so half of your USDC is nothing"
    dust = _size(half, _holding("base", "USDC", 1))
    assert isinstance(dust, Unsized) and "less than one unit of USDC" in dust.reason


def test_a_share_of_the_native_balance_leaves_the_gas_reserve() -> None:
    half = Share(Fraction(1, 2), "balance")
    kept = 5 * 10**15  # 0.005 ETH
    assert _size(half, _holding("base", "ETH", 10**18, kept_raw=kept)) == Decimal("0.5")
    short = _size(half, _holding("base", "ETH", 8 * 10**15, kept_raw=kept))
    assert isinstance(short, Unsized)
    assert "would leave less than the 0.005 ETH kept for gas" in short.reason


def test_the_whole_of_a_holding_is_the_planners_max_once_it_is_there() -> None:
    whole = Share(Fraction(1), "debt")
    assert _size(whole, _holding("base", "USDC", 1500 * 10**6, pays_raw=2000 * 10**6)) == "max"
    owed = _size(whole, _holding("base", "USDC", 0, pays_raw=10))
    assert isinstance(owed, Unsized) and owed.reason.startswith("the wallet owes no USDC on base")
    short = _size(whole, _holding("base", "USDC", 1500 * 10**6, pays_raw=1000 * 10**6))
    assert isinstance(short, Unsized)
    assert short.reason == "repaying all of the 1500 USDC owed on base needs 1500 USDC; the wallet holds 1000"


def test_a_share_of_a_debt_is_of_what_is_owed() -> None:
    half = Share(Fraction(1, 2), "debt")
    # Half of 1500.000003 USDC owed is 750.0000015, rounded down to 750.000001.
    assert _size(half, _holding("base", "USDC", 1_500_000_003, pays_raw=0)) == Decimal("750.000001")
