"""Circle CCTP V2 on EVM chains: TokenMessengerV2 depositForBurn, and the maxFee arithmetic of its fee.

The V2 call adds three arguments to V1's (circlefin/evm-cctp-contracts src/v2/TokenMessengerV2.sol at commit
4061786a5726bc05f99fcdb53b0985599f0dbaf7): `destinationCaller` (bytes32; zero lets anyone relay the message on
the destination), `maxFee` (the most the burner pays on the destination, in burnToken units; the contract
requires maxFee < amount) and `minFinalityThreshold` (1000 "confirmed" = Fast Transfer, 2000 "finalized" =
Standard Transfer; src/v2/FinalityThresholds.sol). Circle's docs: "Messages with a minFinalityThreshold of
1000 or lower are considered Fast messages ... of 2000 are considered Standard messages"
(developers.circle.com/cctp/cctp-finality-and-fees), and the fee per route is published in basis points by
GET /v2/burn/USDC/fees/{sourceDomainId}/{destDomainId} (developers.circle.com/cctp/howtos/get-transfer-fee).
"""

from __future__ import annotations

from decimal import Decimal

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import checked_address, checked_uint

__all__ = [
    "CCTP_ANY_DESTINATION_CALLER",
    "CCTP_FINALITY_FAST",
    "CCTP_FINALITY_STANDARD",
    "CCTP_FINALITY_THRESHOLDS",
    "cctp_v2_deposit_for_burn",
    "cctp_v2_max_fee",
]

# src/v2/FinalityThresholds.sol: FINALITY_THRESHOLD_CONFIRMED = 1000 (Fast Transfer) and
# FINALITY_THRESHOLD_FINALIZED = 2000 (Standard Transfer). Iris treats any other value as one of these two
# (developers.circle.com/cctp/cctp-finality-and-fees), so only these two are accepted here.
CCTP_FINALITY_FAST = 1000
CCTP_FINALITY_STANDARD = 2000
CCTP_FINALITY_THRESHOLDS = (CCTP_FINALITY_FAST, CCTP_FINALITY_STANDARD)
# TokenMessengerV2.depositForBurn natspec: "If equal to bytes32(0), any address can broadcast the message."
CCTP_ANY_DESTINATION_CALLER = bytes(32)
# Basis points per whole: Iris quotes minimumFee in basis points ("1 = 0.01%", get-transfer-fee howto).
BPS_PER_WHOLE = 10_000


def cctp_v2_max_fee(amount: int, fee_bps: Decimal | int) -> int:
    """The smallest `maxFee` (raw burn-token units) that covers a fee of `fee_bps` basis points on `amount`:
    amount * fee_bps / 10000, rounded up so the cap is never below Circle's fee. Exact (no float, no
    Decimal context rounding). Raises EncodingError for a negative or non-finite fee or a bad amount."""
    checked_uint(amount, 256, "amount")
    if isinstance(fee_bps, bool) or not isinstance(fee_bps, Decimal | int):
        raise EncodingError(f"fee_bps must be a Decimal or int, got {type(fee_bps).__name__}")
    fee = Decimal(fee_bps)
    if not fee.is_finite() or fee < 0:
        raise EncodingError(f"fee_bps must be a finite, non-negative number of basis points, got {fee_bps}")
    numerator, denominator = fee.as_integer_ratio()
    return -(-amount * numerator // (denominator * BPS_PER_WHOLE))


def cctp_v2_deposit_for_burn(
    token_messenger: str,
    *,
    amount: int,
    destination_domain: int,
    mint_recipient: bytes,
    burn_token: str,
    max_fee: int = 0,
    min_finality_threshold: int = CCTP_FINALITY_STANDARD,
    destination_caller: bytes = CCTP_ANY_DESTINATION_CALLER,
) -> Call:
    """TokenMessengerV2 `depositForBurn(amount, destinationDomain, mintRecipient, burnToken,
    destinationCaller, maxFee, minFinalityThreshold)`: burns raw `amount` of `burn_token` (USDC) to be minted
    to `mint_recipient` (32 bytes, see cctp_mint_recipient) on CCTP domain `destination_domain`.

    Defaults are a Standard Transfer (finality 2000) with maxFee 0 and any destination caller. For a Fast
    Transfer pass CCTP_FINALITY_FAST and a max_fee from cctp_v2_max_fee with Circle's current fee.
    Raises EncodingError for what the contract would revert on ("Amount must be nonzero", "Mint recipient
    must be nonzero", "Max fee must be less than amount") and for malformed arguments.
    """
    checked_uint(amount, 256, "amount")
    if amount == 0:
        raise EncodingError("amount must be nonzero (TokenMessengerV2 reverts 'Amount must be nonzero')")
    _checked_bytes32(mint_recipient, "mint_recipient")
    if not any(mint_recipient):
        raise EncodingError("mint_recipient must not be zero (TokenMessengerV2 rejects it)")
    _checked_bytes32(destination_caller, "destination_caller")
    checked_uint(max_fee, 256, "max_fee")
    if max_fee >= amount:
        raise EncodingError(
            f"max_fee {max_fee} must be less than amount {amount} "
            "(TokenMessengerV2 reverts 'Max fee must be less than amount')"
        )
    if min_finality_threshold not in CCTP_FINALITY_THRESHOLDS:
        raise EncodingError(
            f"min_finality_threshold must be {CCTP_FINALITY_FAST} (fast) or {CCTP_FINALITY_STANDARD} "
            f"(standard), got {min_finality_threshold!r}"
        )
    data = (
        load_abi("cctp_token_messenger_v2")
        .function("depositForBurn")
        .encode(
            amount,
            checked_uint(destination_domain, 32, "destination_domain"),
            mint_recipient,
            checked_address(burn_token, "burn_token"),
            destination_caller,
            max_fee,
            min_finality_threshold,
        )
    )
    return Call(to=token_messenger, data=data)


def _checked_bytes32(value: object, field: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise EncodingError(f"{field} must be 32 bytes (see cctp_mint_recipient), got {value!r}")
    return value
