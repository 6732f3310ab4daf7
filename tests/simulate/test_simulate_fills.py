"""The pure parts of whole-plan simulation: the fill a bridge's own calldata promises, the deposit check,
and the order chains run in."""

from __future__ import annotations

from decimal import Decimal

import pytest
from eth_utils import to_checksum_address
from solders.pubkey import Pubkey

from engine.encoders import across_deposit_v3, cctp_mint_recipient, cctp_solana_usdc_mint_recipient
from engine.encoders.cctp_v2 import cctp_v2_deposit_for_burn
from engine.planner import Step
from engine.registry import load_registry
from engine.simulate import EvmCall, Fill, SimulateInvalid, bridge_fill, chain_order, deposit_problem

REG = load_registry()
WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
SPOKE = REG.contract_for("ethereum", "across", "bridge").address
MESSENGER = REG.contract_for("ethereum", "cctp", "bridge").address
ETH_USDC = REG.token("ethereum", "USDC").address or ""


def bridge(protocol: str, data: str, value: int = 0, **extra: object) -> tuple[Step, EvmCall]:
    step = Step(
        order=2,
        type="bridge",
        chain="ethereum",
        protocol=protocol,
        action_type="Bridge",
        asset="USDC",
        amount=100,
        description="bridge",
        key="s2",
        to=SPOKE if protocol == "across" else MESSENGER,
        data=data,
        value=str(value),
        wait_for_bridge=True,
        **extra,
    )
    return step, EvmCall(to=step.to or "", data=bytes.fromhex(data[2:]), value=value)


def across(output_token: str, chain_id: int, native: bool = False) -> str:
    return across_deposit_v3(
        SPOKE,
        depositor=WALLET,
        recipient=WALLET,
        input_token=REG.wrapped_native("ethereum").address if native else ETH_USDC,
        output_token=output_token,
        input_amount=10**18 if native else 100_000_000,
        output_amount=999 * 10**15 if native else 99_900_000,
        destination_chain_id=chain_id,
        quote_timestamp=1,
        fill_deadline=2,
        native_in=native,
    ).data


def test_across_fill_is_the_calldata_output_for_its_recipient_on_its_destination() -> None:
    step, call = bridge("across", across(REG.token("base", "USDC").address or "", 8453))
    fill = bridge_fill(REG, step, WALLET, call)
    assert isinstance(fill, Fill)
    assert (fill.to_chain, fill.recipient, fill.token.symbol, fill.amount_raw) == (
        "base",
        WALLET,
        "USDC",
        99_900_000,
    )
    assert fill.amount == Decimal("99.9")
    assert (fill.deposit.token, fill.deposit.amount, fill.deposit.bridge) == (ETH_USDC, 100_000_000, SPOKE)
    assert deposit_problem(fill, 100_000_000, True) is None
    assert "not the 100000000" in (deposit_problem(fill, 1, True) or "")
    assert "emitted no log" in (deposit_problem(fill, 100_000_000, False) or "")


def test_native_across_deposit_lands_the_native_asset() -> None:
    weth = REG.wrapped_native("base").address or ""
    data = across(weth, 8453, native=True)
    step, call = bridge("across", data, value=10**18)
    fill = bridge_fill(REG, step, WALLET, call)
    assert isinstance(fill, Fill)
    assert fill.token.is_native and fill.deposit.token is None and fill.credit().token is None


def test_cctp_fill_is_the_burn_less_its_max_fee_on_evm_and_the_token_account_on_solana() -> None:
    data = cctp_v2_deposit_for_burn(
        MESSENGER,
        amount=100_000_000,
        destination_domain=6,
        mint_recipient=cctp_mint_recipient(WALLET),
        burn_token=ETH_USDC,
        max_fee=10_000,
        min_finality_threshold=1000,
    ).data
    step, call = bridge("cctp", data)
    fill = bridge_fill(REG, step, WALLET, call)
    assert isinstance(fill, Fill)
    assert (fill.to_chain, fill.recipient, fill.amount_raw) == (
        "base",
        to_checksum_address(WALLET),
        99_990_000,
    )
    solana_usdc = REG.token("solana", "USDC").address or ""
    owner = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
    data = cctp_v2_deposit_for_burn(
        MESSENGER,
        amount=100_000_000,
        destination_domain=5,
        mint_recipient=cctp_solana_usdc_mint_recipient(owner, solana_usdc),
        burn_token=ETH_USDC,
    ).data
    step, call = bridge("cctp", data)
    into_solana = bridge_fill(REG, step, WALLET, call)
    assert isinstance(into_solana, Fill)
    # The mint recipient is the owner's USDC token account; such a fill is said not landed, never credited.
    ata = str(Pubkey.from_bytes(cctp_solana_usdc_mint_recipient(owner, solana_usdc)))
    assert (into_solana.to_chain, into_solana.recipient, into_solana.lands_on_evm) == ("solana", ata, False)


def test_undecodable_bridge_calldata_is_said_not_modelled() -> None:
    step, call = bridge("across", "0x12345678")
    assert (
        bridge_fill(REG, step, WALLET, call)
        == "its fill is not modelled: its calldata is not an Across depositV3"
    )


def test_chains_run_after_the_chains_they_are_funded_from_and_a_circle_is_refused() -> None:
    source, _ = bridge("across", "0x")
    chained = {"from_key": "s2", "estimate_amount": 1, "min_output": 1}
    funded = Step.model_validate(
        {
            **source.model_dump(),
            "order": 3,
            "chain": "base",
            "type": "deposit",
            "key": "s3",
            "chained": chained,
        }
    )
    assert chain_order([[funded], [source]], ["base", "ethereum"]) == [1, 0]
    back = Step.model_validate({**source.model_dump(), "chained": {**chained, "from_key": "s3"}})
    with pytest.raises(SimulateInvalid) as refused:
        chain_order([[funded], [back]], ["base", "ethereum"])
    assert [field for field, _ in refused.value.issues] == ["chains"]
