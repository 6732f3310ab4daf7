"""The recipient policy: no plan pays the zero or a burn address, a token or protocol contract, a mistyped
(checksum-failing) address, or one of two look-alike addresses; approvals go only to the protocol planned."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from eth_utils import to_checksum_address

from engine.planner import (
    AllowanceKey,
    BalanceKey,
    BridgeQuote,
    BridgeQuoteKey,
    FactKey,
    GasPriceKey,
    PlanError,
    PlanRequest,
    PriceKey,
    SwapQuote,
    SwapQuoteKey,
)
from engine.registry import load_registry
from engine.registry.recipients import lookalike, recipient_problem, spender_problem
from tests.support.planning import converge

REG = load_registry()
NOW = 1_800_000_000
WALLET = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F"
FRIEND = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
# FRIEND with one letter's case flipped: the checksum no longer holds.
FRIEND_TYPO = "0x0beB760A1e27209B1db14021d4964C4c6A4A79E8"
# FRIEND with two hex digits changed in the middle: the look-alike an address poisoner plants.
FRIEND_LOOKALIKE = to_checksum_address(FRIEND.lower().replace("1db1", "1dc2"))


def dangerous() -> dict[str, str]:
    """Recipients funds sent to are lost, each the way a caller might write it."""
    return {
        "zero": "0x0000000000000000000000000000000000000000",
        "dead": "0x000000000000000000000000000000000000dEaD",
        "dead lowercase": "0x000000000000000000000000000000000000dead",
        "precompile": "0x0000000000000000000000000000000000000004",
        "burn 2": "0xdEAD000000000000000042069420694206942069",
        "native placeholder": "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
        "usdc on base": REG.token("base", "USDC").address or "",
        "usdc on ethereum, lowercase": (REG.token("ethereum", "USDC").address or "").lower(),
        "weth on arbitrum": REG.token("arbitrum", "WETH").address or "",
        "swaprouter02": REG.contract_for("base", "uniswap", "swap").address,
        "across spokepool": REG.contract_for("arbitrum", "across", "bridge").address,
        "aave pool": REG.contract_for("ethereum", "aave", "deposit").address,
        "cctp tokenmessenger": REG.contract_for("ethereum", "cctp", "bridge").address,
        "sdai vault": REG.vaults("ethereum")[0].address,
    }


@pytest.mark.parametrize("name", sorted(dangerous()))
def test_the_policy_refuses_a_dangerous_evm_recipient_naming_it(name: str) -> None:
    address = dangerous()[name]
    problem = recipient_problem(REG, "evm", address)
    assert problem is not None and address in problem


def test_the_policy_admits_a_person_in_any_single_case_or_checksummed() -> None:
    for address in (FRIEND, FRIEND.lower(), "0x" + FRIEND[2:].upper()):
        assert recipient_problem(REG, "evm", address) is None


def test_a_mixed_case_address_failing_its_checksum_is_a_typo() -> None:
    problem = recipient_problem(REG, "evm", FRIEND_TYPO)
    assert problem is not None and "checksum" in problem and FRIEND_TYPO in problem


@pytest.mark.parametrize(
    "address",
    [
        "11111111111111111111111111111111",
        "1nc1nerator11111111111111111111111111111111",
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",  # the USDC mint
    ],
)
def test_the_policy_refuses_solana_programs_sinks_and_mints(address: str) -> None:
    problem = recipient_problem(REG, "solana", address)
    assert problem is not None and address in problem


def test_look_alikes_are_found_but_one_address_in_two_cases_is_one_address() -> None:
    assert lookalike([("a", FRIEND), ("b", FRIEND.lower())]) is None
    assert lookalike([("a", WALLET), ("b", FRIEND)]) is None
    pair = lookalike([("wallets[0].address", WALLET), ("x", FRIEND), ("y", FRIEND_LOOKALIKE)])
    assert pair == (("x", FRIEND), ("y", FRIEND_LOOKALIKE))


def test_an_approval_goes_only_to_the_protocol_planned() -> None:
    pool = REG.contract_for("base", "aave", "deposit").address
    router = REG.contract_for("base", "uniswap", "swap").address
    assert spender_problem(REG, "base", "aave", pool) is None
    assert spender_problem(REG, "base", "aave", router) is not None
    assert spender_problem(REG, "base", "uniswap", FRIEND) is not None


# ---------------------------------------------------------------------------------------------- /plan


def answer(key: FactKey) -> Any:
    if isinstance(key, BalanceKey):
        return 10**30
    if isinstance(key, AllowanceKey):
        return 0
    if isinstance(key, GasPriceKey):
        return 10**9
    if isinstance(key, PriceKey):
        return Decimal(1)
    if isinstance(key, BridgeQuoteKey):
        return BridgeQuote(
            output_amount=key.amount * 999 // 1000,
            total_fee=key.amount // 1000,
            exclusive_relayer="0x0000000000000000000000000000000000000000",
            exclusivity_deadline=0,
            quote_timestamp=NOW,
            fill_deadline=NOW + 7200,
        )
    if isinstance(key, SwapQuoteKey):
        return SwapQuote(amount_out=10**18, fee_tier=500)
    raise AssertionError(f"unexpected fact {key}")


def plan(intents: list[dict[str, Any]]) -> Any:
    request = PlanRequest.model_validate(
        {"intents": intents, "wallets": [{"address": WALLET, "chain": "ethereum"}]}
    )
    return converge(REG, request, answer, NOW)


def intents_paying(recipient: str) -> dict[str, list[dict[str, Any]]]:
    return {
        "transfer": [
            {"action": "transfer", "asset": "USDC", "chain": "base", "amount": 10, "recipient": recipient}
        ],
        "native transfer": [
            {"action": "transfer", "asset": "ETH", "chain": "base", "amount": 1, "recipient": recipient}
        ],
        "across": [
            {
                "action": "bridge",
                "asset": "USDC",
                "from_chain": "ethereum",
                "to_chain": "base",
                "amount": 10,
                "protocol": "across",
                "recipient": recipient,
            }
        ],
        "cctp": [
            {
                "action": "bridge",
                "asset": "USDC",
                "from_chain": "ethereum",
                "to_chain": "base",
                "amount": 10,
                "protocol": "cctp",
                "recipient": recipient,
            }
        ],
        "sweep": [{"action": "sweep", "from_chain": "ethereum", "to_chain": "base", "recipient": recipient}],
    }


@pytest.mark.parametrize("how", ["transfer", "native transfer", "across", "cctp", "sweep"])
@pytest.mark.parametrize("name", sorted(dangerous()))
def test_no_plan_pays_a_dangerous_recipient(how: str, name: str) -> None:
    address = dangerous()[name]
    with pytest.raises(PlanError) as caught:
        plan(intents_paying(address)[how])
    assert caught.value.field == "intents[0].recipient"
    assert address in caught.value.message


def test_a_plan_refuses_a_recipient_with_a_failing_checksum() -> None:
    with pytest.raises(PlanError) as caught:
        plan(intents_paying(FRIEND_TYPO)["transfer"])
    assert caught.value.field == "intents[0].recipient" and "checksum" in caught.value.message


def test_a_plan_refuses_two_recipients_that_look_alike() -> None:
    first, second = intents_paying(FRIEND)["transfer"], intents_paying(FRIEND_LOOKALIKE)["transfer"]
    with pytest.raises(PlanError) as caught:
        plan(first + second)
    assert caught.value.field == "intents[1].recipient"
    assert FRIEND in caught.value.message and FRIEND_LOOKALIKE in caught.value.message


def test_a_plan_pays_a_person_as_before() -> None:
    steps = plan(intents_paying(FRIEND)["transfer"]).steps
    assert [s.type for s in steps] == ["transfer"]
    assert FRIEND.lower()[2:] in (steps[0].data or "").lower()
