"""POST /steps/reencode re-reads who a step pays: a step edited after planning to pay the zero address, a
token or a protocol contract, or to let another contract spend, is refused naming the address."""

from __future__ import annotations

from typing import Any

import pytest

from engine.encoders import (
    across_deposit_v3,
    cctp_mint_recipient,
    erc20_approve,
    erc20_transfer,
    swap_exact_input_single,
)
from engine.encoders.cctp_v2 import cctp_v2_deposit_for_burn
from engine.planner import Facts, PlanError, ReencodeRequest, Step
from engine.planner.reencode import reencode_step
from engine.registry import load_registry

REG = load_registry()
NOW = 1_800_000_000
OWNER = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F"
FRIEND = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
ZERO = "0x0000000000000000000000000000000000000000"
USDC_BASE = REG.token("base", "USDC").address or ""
WETH_BASE = REG.token("base", "WETH").address or ""
ROUTER = REG.contract_for("base", "uniswap", "swap").address
SPOKE = REG.contract_for("base", "across", "bridge").address
POOL = REG.contract_for("base", "aave", "deposit").address
MESSENGER = REG.contract_for("base", "cctp", "bridge").address


def step(step_type: str, protocol: str, to: str, data: str, value: str = "0", asset: str = "USDC") -> Step:
    return Step(
        order=1,
        type=step_type,
        chain="base",
        protocol=protocol,
        action_type=step_type.title(),
        asset=asset,
        amount=1,
        description="edited",
        to=to,
        data=data,
        value=value,
    )


def reencode(s: Step) -> Any:
    return reencode_step(REG, ReencodeRequest(step=s, actual_amount=1), Facts(now=NOW))


def across(recipient: str) -> str:
    return across_deposit_v3(
        SPOKE,
        depositor=OWNER,
        recipient=recipient,
        input_token=USDC_BASE,
        output_token=REG.token("arbitrum", "USDC").address or "",
        input_amount=10**6,
        output_amount=999_000,
        destination_chain_id=42161,
        quote_timestamp=NOW,
        fill_deadline=NOW + 3600,
        exclusive_relayer=ZERO,
        exclusivity_deadline=0,
    ).data


def swap(recipient: str) -> str:
    return swap_exact_input_single(
        ROUTER, USDC_BASE, WETH_BASE, 500, recipient, 10**6, 1, deadline=NOW + 600
    ).data


def burn(recipient: bytes) -> str:
    """A CCTP v2 burn to Arbitrum (domain 3) for `recipient`; the encoder refuses a zero recipient, so that
    one is written into the calldata's third word by hand, as an edited step would carry it."""
    wanted = recipient if any(recipient) else cctp_mint_recipient(FRIEND)
    data = cctp_v2_deposit_for_burn(
        MESSENGER, amount=10**6, destination_domain=3, mint_recipient=wanted, burn_token=USDC_BASE
    ).data
    start = 2 + 8 + 2 * 64
    return data[:start] + recipient.hex() + data[start + 64 :]


EDITED = {
    "transfer to the zero address": step(
        "transfer", "token", USDC_BASE, erc20_transfer(USDC_BASE, ZERO, 1).data
    ),
    "transfer to a token contract": step(
        "transfer", "token", USDC_BASE, erc20_transfer(USDC_BASE, WETH_BASE, 1).data
    ),
    "native transfer to the router": step("transfer", "token", ROUTER, "0x", value="1", asset="ETH"),
    "approval of the router for an aave step": step(
        "approve", "aave", USDC_BASE, erc20_approve(USDC_BASE, ROUTER, 1).data
    ),
    "approval of a person": step("approve", "uniswap", USDC_BASE, erc20_approve(USDC_BASE, FRIEND, 1).data),
    "across to the zero address": step("bridge", "across", SPOKE, across(ZERO)),
    "across to the spoke pool": step("bridge", "across", SPOKE, across(SPOKE)),
    "swap paid to the aave pool": step("swap", "uniswap", ROUTER, swap(POOL)),
    "cctp to nobody": step("bridge", "cctp", MESSENGER, burn(bytes(32))),
    "cctp to the usdc contract": step("bridge", "cctp", MESSENGER, burn(cctp_mint_recipient(USDC_BASE))),
}


@pytest.mark.parametrize("name", sorted(EDITED))
def test_an_edited_step_paying_nobody_meant_is_refused(name: str) -> None:
    with pytest.raises(PlanError) as caught:
        reencode(EDITED[name])
    assert caught.value.field in ("step.data", "step.to")


def test_a_step_paying_a_person_still_reencodes() -> None:
    answer = reencode(step("transfer", "token", USDC_BASE, erc20_transfer(USDC_BASE, FRIEND, 5).data))
    assert answer.ok and FRIEND.lower()[2:] in (answer.data or "").lower()
    answer = reencode(step("approve", "aave", USDC_BASE, erc20_approve(USDC_BASE, POOL, 5).data))
    assert answer.ok
