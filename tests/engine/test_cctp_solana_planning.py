"""Planning and re-encoding the CCTP burn out of Solana with the pure planner: facts are answered in each
round as the prefetcher would, and every message is decoded and checked against the accounts derived in
tests/engine/test_cctp_solana.py from Circle's cited seeds. (Not executed: see that module's docstring.)"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from solders.hash import Hash
from solders.instruction import AccountMeta, Instruction
from solders.keypair import Keypair
from solders.message import MessageV0, to_bytes_versioned
from solders.pubkey import Pubkey

from engine.encoders import decode_solana_message, decoded_instructions
from engine.encoders.cctp_solana import CCTP_EVENT_ACCOUNT_RENT_LAMPORTS
from engine.intents import Intent
from engine.planner import (
    AllowanceKey,
    BalanceKey,
    BlockhashKey,
    FactKey,
    Facts,
    GasPriceKey,
    PlanError,
    PlanRequest,
    PlanResponse,
    PriceKey,
    ReencodeRequest,
    ReencodeResponse,
    Step,
    build_plan,
)
from engine.planner.reencode import reencode_step
from engine.registry import load_registry
from tests.engine.test_cctp_solana import MESSENGER, expected_accounts, key_flags
from tests.support.planning import converge as run_until_settled

REG = load_registry()
NOW = 1_800_000_000
OWNER, EVENT = Keypair().pubkey(), Keypair().pubkey()
EVM = "0x1111111111111111111111111111111111111111"
RECIPIENT = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
BLOCKHASH = Hash.new_unique()
USDC = 10**6
SOL = 10**9


def answers(**overrides: Any) -> Callable[[FactKey], Any]:
    """Facts as the prefetcher would fetch them: the owner holds 500 USDC and 1 SOL on Solana, the event
    account nothing; EVM wallets hold 1000 USDC with no allowance."""

    def answer(key: FactKey) -> Any:
        if isinstance(key, BalanceKey):
            if key.chain == "solana":
                if key.owner == str(OWNER):
                    return overrides.get(key.symbol, {"USDC": 500 * USDC, "SOL": SOL}.get(key.symbol, 0))
                return overrides.get("event_lamports", 0) if key.owner == str(EVENT) else 0
            return 1000 * USDC
        if isinstance(key, BlockhashKey):
            return str(overrides.get("blockhash", BLOCKHASH))
        if isinstance(key, AllowanceKey):
            return 0
        if isinstance(key, GasPriceKey):
            return 10**9
        if isinstance(key, PriceKey):
            return Decimal(1)
        raise AssertionError(f"unexpected fact {key}")

    return answer


def converge(intents: list[dict[str, Any]], answer: Callable[[FactKey], Any] | None = None) -> PlanResponse:
    """build_plan run as gateway/usecases/planning.py runs it: until no fact is missing."""
    request = PlanRequest.model_validate(
        {
            "intents": intents,
            "wallets": [{"address": str(OWNER), "chain": "solana"}, {"address": EVM, "chain": "base"}],
        }
    )
    return run_until_settled(REG, request, answer or answers(), NOW)


def burn_out(**changes: Any) -> dict[str, Any]:
    intent = {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "solana",
        "to_chain": "base",
        "amount": "12.5",
        "recipient": RECIPIENT,
        "event_account": str(EVENT),
    }
    intent.update(changes)
    return {k: v for k, v in intent.items() if v is not None}


def decoded_burn(step: Step) -> tuple[Any, tuple[int, int, bytes, bytes, int, int]]:
    message = decode_solana_message(step.solana_tx or "", step.solana_format or "")
    (ix,) = decoded_instructions(message)
    assert ix.program_id == MESSENGER
    return message, struct.unpack("<QI32s32sQI", ix.data[8:])


def test_bridge_out_of_solana_is_one_cctp_burn_signed_by_the_owner_and_the_event_account() -> None:
    (step,) = converge([burn_out()]).steps
    assert (step.type, step.chain, step.protocol, step.action_type, step.asset, step.amount) == (
        "bridge",
        "solana",
        "cctp",
        "Bridge",
        "USDC",
        Decimal("12.5"),
    )
    assert step.wallet == str(OWNER) and step.wait_for_bridge is True
    assert step.to is None and step.data is None and step.value is None
    assert step.route is not None and (step.route.kind, step.route.output_asset, step.route.to_chain) == (
        "cctp",
        "USDC",
        "base",
    )
    assert step.solana_format == "legacy_message_base64"
    assert step.solana_signers == (str(OWNER), str(EVENT))
    message, params = decoded_burn(step)
    assert message.recent_blockhash == BLOCKHASH
    assert [str(k) for k in message.account_keys[: message.header.num_required_signatures]] == list(
        step.solana_signers
    )
    # Standard transfer to Base (domain 6) for the recipient left-padded to 32 bytes, any caller.
    assert params == (12_500_000, 6, bytes(12) + bytes.fromhex(RECIPIENT[2:]), bytes(32), 0, 2000)
    (ix,) = decoded_instructions(message)
    assert list(ix.accounts) == [key for _, key in expected_accounts(OWNER, EVENT, 6)]
    assert key_flags(message)[OWNER] == (True, True) and key_flags(message)[EVENT] == (True, True)
    wire = step.model_dump(mode="json")
    assert wire["solana_signers"] == [str(OWNER), str(EVENT)]


@pytest.mark.parametrize(("to_chain", "domain"), [("ethereum", 0), ("arbitrum", 3), ("polygon", 7)])
def test_every_evm_chain_with_a_cctp_domain_is_a_destination(to_chain: str, domain: int) -> None:
    (step,) = converge([burn_out(to_chain=to_chain)]).steps
    message, params = decoded_burn(step)
    assert params[1] == domain
    (ix,) = decoded_instructions(message)
    assert list(ix.accounts) == [key for _, key in expected_accounts(OWNER, EVENT, domain)]


def test_recipient_defaults_to_the_requests_evm_wallet_and_max_burns_the_whole_balance() -> None:
    (step,) = converge([burn_out(recipient=None, amount="max")]).steps
    _, params = decoded_burn(step)
    assert params[0] == 500 * USDC and step.amount == Decimal(500)
    assert params[2] == bytes(12) + bytes.fromhex(EVM[2:])


def test_other_solana_steps_carry_no_signer_list() -> None:
    intent = {
        "action": "transfer",
        "asset": "USDC",
        "chain": "solana",
        "amount": "1",
        "recipient": str(EVENT),
    }
    (step,) = converge([intent]).steps
    assert step.solana_signers is None and "solana_signers" not in step.model_dump()


def failure(intent: dict[str, Any], answer: Callable[[FactKey], Any] | None = None) -> tuple[str, str]:
    with pytest.raises(PlanError) as caught:
        converge([intent], answer)
    return caught.value.field, caught.value.message


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"event_account": None}, "event_account", "is required to bridge out of Solana"),
        ({"event_account": "not-a-key"}, "event_account", "base58, 32 bytes"),
        ({"event_account": RECIPIENT}, "event_account", "base58, 32 bytes"),
        ({"event_account": "11111111111111111111111111111111"}, "event_account", "zero key"),
        (
            {"event_account": str(Pubkey.find_program_address([b"token_minter"], MESSENGER)[0])},
            "event_account",
            "program address",
        ),
        ({"event_account": str(OWNER)}, "event_account", "must not be the wallet"),
        (
            {"event_account": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"},
            "event_account",
            "another account of the burn",
        ),
        ({"asset": "USDT"}, "asset", "only USDC leaves Solana"),
        ({"asset": "SOL"}, "asset", "only USDC leaves Solana"),
        ({"protocol": "across"}, "protocol", "Circle CCTP"),
        ({"to_chain": "bsc"}, "to_chain", "does not serve bsc"),
        ({"to_chain": "solana"}, "to_chain", "same chain"),
        ({"amount": "501"}, "amount", "needs 501 USDC on solana"),
        ({"amount": "1.0000001"}, "amount", "more than 6 decimal places"),
        ({"amount": "chained"}, "amount", "earlier intent"),
    ],
)
def test_unplannable_burns_name_the_field(changes: dict[str, Any], field: str, message: str) -> None:
    got_field, got_message = failure(burn_out(**changes))
    assert got_field == f"intents[0].{field}" and message in got_message, got_message


def test_missing_event_account_explains_the_fresh_keypair() -> None:
    _, message = failure(burn_out(event_account=None))
    assert "fresh keypair" in message and "sign" in message


def test_an_event_account_holding_lamports_is_not_fresh() -> None:
    field, message = failure(burn_out(), answers(event_lamports=CCTP_EVENT_ACCOUNT_RENT_LAMPORTS))
    assert field == "intents[0].event_account" and "not fresh" in message


def test_the_owner_must_hold_sol_for_two_signatures_and_the_event_rent() -> None:
    needed = 2 * 5000 + CCTP_EVENT_ACCOUNT_RENT_LAMPORTS
    field, message = failure(burn_out(), answers(SOL=needed - 1))
    assert field == "intents[0].from_chain" and "0.00387976 SOL" in message
    assert converge([burn_out()], answers(SOL=needed)).steps


def test_without_an_evm_wallet_or_recipient_there_is_no_one_to_mint_to() -> None:
    request = PlanRequest.model_validate(
        {"intents": [burn_out(recipient=None)], "wallets": [{"address": str(OWNER), "chain": "solana"}]}
    )
    facts = Facts(now=NOW, values={BlockhashKey("solana"): str(BLOCKHASH)})
    with pytest.raises(PlanError) as caught:
        build_plan(REG, request, facts)
    assert caught.value.field == "intents[0].to_chain"


def test_a_solana_sweep_to_an_evm_chain_bridges_its_usdc_with_the_event_account() -> None:
    sweep = {
        "action": "sweep",
        "from_chain": "solana",
        "to_chain": "base",
        "amount": "max",
        "recipient": RECIPIENT,
        "event_account": str(EVENT),
    }
    (step,) = converge([sweep], answers(USDT=7 * USDC)).steps  # USDT cannot leave Solana: it stays
    _, params = decoded_burn(step)
    assert params[0] == 500 * USDC and step.solana_signers == (str(OWNER), str(EVENT))


def chained_plan() -> PlanResponse:
    into_solana = {
        "action": "bridge",
        "asset": "USDC",
        "from_chain": "base",
        "to_chain": "solana",
        "amount": "40",
    }
    return converge([into_solana, burn_out(amount="chained")])


def test_a_burn_can_take_the_chained_output_of_a_bridge_into_solana() -> None:
    steps = chained_plan().steps
    assert [(s.chain, s.type) for s in steps] == [
        ("base", "approve"),
        ("base", "bridge"),
        ("solana", "bridge"),
    ]
    burn = steps[2]
    assert burn.amount == 0 and burn.chained is not None
    assert burn.chained.from_key == steps[1].key and burn.chained.estimate_amount == Decimal(40)
    _, params = decoded_burn(burn)
    assert params[0] == 40 * USDC  # encoded for the estimate; re-encode at sign time


def reencode(step: Step, amount: str, blockhash: Hash | None = None) -> tuple[ReencodeResponse, Facts]:
    facts = Facts(now=NOW + 60)
    request = ReencodeRequest(step=step, actual_amount=Decimal(amount))
    answer = reencode_step(REG, request, facts)
    if facts.take_missing() == {BlockhashKey("solana")}:
        facts.values[BlockhashKey("solana")] = str(blockhash or Hash.new_unique())
        answer = reencode_step(REG, request, facts)
    assert not facts.take_missing()
    return answer, facts


def test_reencode_rebuilds_the_burn_for_the_actual_amount_on_a_fresh_blockhash() -> None:
    burn = chained_plan().steps[2]
    fresh = Hash.new_unique()
    answer, _ = reencode(burn, "39.96", fresh)
    assert answer.ok and answer.amount_raw == "39960000" and answer.quoted_at == (NOW + 60) * 1000
    assert answer.data is None and answer.value is None
    assert answer.solana_format == burn.solana_format
    planned, before = decoded_burn(burn)
    rebuilt = decode_solana_message(answer.solana_tx or "", answer.solana_format or "")
    (ix,) = decoded_instructions(rebuilt)
    after = struct.unpack("<QI32s32sQI", ix.data[8:])
    assert rebuilt.recent_blockhash == fresh
    assert after == (39_960_000, *before[1:])  # only the amount changed
    assert list(rebuilt.account_keys) == list(planned.account_keys)
    assert rebuilt.header == planned.header


def test_reencode_keeps_the_v0_format_of_the_step() -> None:
    (step,) = converge([burn_out()]).steps
    message = decode_solana_message(step.solana_tx or "", step.solana_format or "")
    (ix,) = message.instructions
    keys = list(message.account_keys)
    flags = key_flags(message)
    metas = [AccountMeta(keys[i], *flags[keys[i]]) for i in bytes(ix.accounts)]
    v0 = MessageV0.try_compile(OWNER, [Instruction(MESSENGER, bytes(ix.data), metas)], [], BLOCKHASH)
    as_v0 = step.model_copy(
        update={
            "solana_tx": base64.b64encode(to_bytes_versioned(v0)).decode(),
            "solana_format": "v0_message_base64",
        }
    )
    answer, _ = reencode(as_v0, "2")
    assert answer.ok and answer.solana_format == "v0_message_base64"
    assert isinstance(decode_solana_message(answer.solana_tx or "", "v0_message_base64"), MessageV0)


def test_reencode_refuses_a_message_that_is_not_a_burn_this_service_plans() -> None:
    (step,) = converge([burn_out()]).steps
    raw = bytearray(base64.b64decode(step.solana_tx or ""))
    event_at = raw.find(bytes(EVENT))
    raw[event_at : event_at + 32] = bytes(Keypair().pubkey())  # still well formed, but not our event key
    other_event = step.model_copy(update={"solana_tx": base64.b64encode(bytes(raw)).decode()})
    answer, _ = reencode(other_event, "2")
    assert answer.ok  # another fresh event account is still a burn we plan: it is kept as given
    remote = bytes(Pubkey.find_program_address([b"remote_token_messenger", b"6"], MESSENGER)[0])
    at = raw.find(remote)
    raw[at : at + 32] = bytes(Pubkey.find_program_address([b"remote_token_messenger", b"0"], MESSENGER)[0])
    tampered = step.model_copy(update={"solana_tx": base64.b64encode(bytes(raw)).decode()})
    answer, _ = reencode(tampered, "2")
    assert not answer.ok and "not a CCTP burn this service plans" in (answer.unsupported_reason or "")
    answer, _ = reencode(step.model_copy(update={"wallet": str(EVENT)}), "2")
    assert not answer.ok and "owner is not the step's wallet" in (answer.unsupported_reason or "")
    answer, _ = reencode(step, "0.0000001")
    assert not answer.ok and "more than 6 decimal places" in (answer.unsupported_reason or "")


def test_solana_transfers_are_still_re_planned_not_re_encoded() -> None:
    intent = {
        "action": "transfer",
        "asset": "USDC",
        "chain": "solana",
        "amount": "1",
        "recipient": str(EVENT),
    }
    (step,) = converge([intent]).steps
    answer, _ = reencode(step, "0.5")
    assert not answer.ok and "re-plan" in (answer.unsupported_reason or "")


def test_intent_event_account_round_trips_and_stays_off_other_intents() -> None:
    intent = Intent.model_validate(burn_out())
    assert intent.model_dump()["event_account"] == str(EVENT)
    assert "event_account" not in Intent(action="bridge", asset="USDC").model_dump()
