"""CCTP V2 TokenMessengerV2 depositForBurn, decoded with the official signature, and the maxFee arithmetic."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.encoders import (
    CCTP_FINALITY_FAST,
    CCTP_FINALITY_STANDARD,
    EncodingError,
    cctp_deposit_for_burn,
    cctp_mint_recipient,
    cctp_v2_deposit_for_burn,
    cctp_v2_max_fee,
    identify_calldata,
)
from tests.engine.test_encoders_helpers import CONTRACT, OTHER, TOKEN, WALLET, decode_call, lower

# circlefin/evm-cctp-contracts src/v2/TokenMessengerV2.sol (commit 4061786a): depositForBurn(uint256 amount,
# uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller,
# uint256 maxFee, uint32 minFinalityThreshold).
DEPOSIT_FOR_BURN_V2 = "depositForBurn(uint256,uint32,bytes32,address,bytes32,uint256,uint32)"
SELECTOR_V2 = "0x8e0250ee"
# The V1 selector (depositForBurn(uint256,uint32,bytes32,address)), which a V2 messenger does not serve.
SELECTOR_V1 = "0x6fd3504e"
BASE_DOMAIN = 6  # Circle CCTP domain of Base (developers.circle.com/stablecoins/supported-domains)


def test_standard_transfer_is_the_default_with_zero_max_fee_and_any_destination_caller() -> None:
    call = cctp_v2_deposit_for_burn(
        CONTRACT,
        amount=25_000_000,
        destination_domain=BASE_DOMAIN,
        mint_recipient=cctp_mint_recipient(WALLET),
        burn_token=TOKEN,
    )
    args = decode_call(call, SELECTOR_V2, DEPOSIT_FOR_BURN_V2)
    assert args == (
        25_000_000,
        BASE_DOMAIN,
        bytes(12) + bytes.fromhex(WALLET[2:]),
        lower(TOKEN),
        bytes(32),
        0,
        2000,
    )
    assert call.to == CONTRACT and call.value == 0


def test_fast_transfer_carries_max_fee_threshold_and_destination_caller() -> None:
    caller = cctp_mint_recipient(OTHER)
    call = cctp_v2_deposit_for_burn(
        CONTRACT,
        amount=10**9,
        destination_domain=3,
        mint_recipient=cctp_mint_recipient(WALLET),
        burn_token=TOKEN,
        max_fee=130_000,
        min_finality_threshold=CCTP_FINALITY_FAST,
        destination_caller=caller,
    )
    amount, domain, _, _, destination_caller, max_fee, threshold = decode_call(
        call, SELECTOR_V2, DEPOSIT_FOR_BURN_V2
    )
    assert (amount, domain, destination_caller, max_fee, threshold) == (10**9, 3, caller, 130_000, 1000)


def test_v2_selector_differs_from_v1_and_identify_calldata_names_the_v2_file() -> None:
    recipient = cctp_mint_recipient(WALLET)
    v1 = cctp_deposit_for_burn(CONTRACT, 5, 0, recipient, TOKEN)
    v2 = cctp_v2_deposit_for_burn(
        CONTRACT, amount=5, destination_domain=0, mint_recipient=recipient, burn_token=TOKEN
    )
    assert v1.selector == SELECTOR_V1 and v2.selector == SELECTOR_V2
    found = identify_calldata(v2.data)
    assert found.abi_name == "cctp_token_messenger_v2" and found.function.signature == DEPOSIT_FOR_BURN_V2
    assert found.args[5:] == (0, CCTP_FINALITY_STANDARD)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"amount": 0}, "Amount must be nonzero"),
        ({"mint_recipient": bytes(32)}, "must not be zero"),
        ({"mint_recipient": b"short"}, "32 bytes"),
        ({"destination_caller": bytes(31)}, "32 bytes"),
        ({"max_fee": 100}, "Max fee must be less than amount"),
        ({"max_fee": 101}, "Max fee must be less than amount"),
        ({"max_fee": -1}, "max_fee"),
        ({"min_finality_threshold": 1500}, "min_finality_threshold"),
        ({"destination_domain": 2**32}, "destination_domain"),
        ({"burn_token": "0x1234"}, "burn_token"),
        ({"amount": Decimal("100")}, "raw integer"),
    ],
)
def test_arguments_the_messenger_would_revert_on_are_encoding_errors(
    changes: dict[str, object], message: str
) -> None:
    kwargs: dict[str, object] = {
        "amount": 100,
        "destination_domain": BASE_DOMAIN,
        "mint_recipient": cctp_mint_recipient(WALLET),
        "burn_token": TOKEN,
    } | changes
    with pytest.raises(EncodingError, match=message):
        cctp_v2_deposit_for_burn(CONTRACT, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("amount", "fee_bps", "expected"),
    [
        (1_000_000_000, Decimal("1"), 100_000),  # 1 bp of 1000 USDC is 0.1 USDC
        (1_000_000_000, Decimal("1.3"), 130_000),  # fractional bps, as Iris answers e.g. 1.3
        (1_000_000_000, 0, 0),  # a standard transfer with no fee
        (1, Decimal("1"), 1),  # rounds up: a cap below Circle's fee would make the transfer standard
        (12_345, Decimal("0.5"), 1),
        (10**13, Decimal("14"), 14_000_000_000),  # the $10M per-burn limit at 14 bps
    ],
)
def test_max_fee_covers_the_basis_point_fee_rounded_up(amount: int, fee_bps: Decimal, expected: int) -> None:
    assert cctp_v2_max_fee(amount, fee_bps) == expected


@pytest.mark.parametrize("bad", [Decimal("-1"), Decimal("NaN"), Decimal("Infinity"), 1.5, True])
def test_max_fee_refuses_negative_non_finite_and_float_fees(bad: object) -> None:
    with pytest.raises(EncodingError, match="fee_bps"):
        cctp_v2_max_fee(1000, bad)  # type: ignore[arg-type]
