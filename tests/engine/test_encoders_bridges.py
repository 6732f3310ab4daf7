"""Across depositV3, CCTP depositForBurn with its bytes32 mint recipient, and Multicall3 aggregate3."""

from __future__ import annotations

import eth_abi
import pytest
from solders.pubkey import Pubkey
from solders.token.associated import get_associated_token_address

from engine.encoders import (
    Call,
    EncodingError,
    across_deposit_v3,
    cctp_deposit_for_burn,
    cctp_mint_recipient,
    cctp_solana_usdc_mint_recipient,
    decode_aggregate3,
    erc20_balance_of,
    multicall3_aggregate3,
)
from tests.engine.test_encoders_helpers import CONTRACT, OTHER, TOKEN, TOKEN_B, WALLET, decode_call, lower

DEPOSIT_V3 = (
    "depositV3(address,address,address,address,uint256,uint256,uint256,address,uint32,uint32,uint32,bytes)"
)
# Any two valid base58 pubkeys serve as the mint and the wallet here.
USDC_SOLANA_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
SOLANA_WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"


def test_across_deposit_v3_encodes_every_field_in_order() -> None:
    call = across_deposit_v3(
        CONTRACT,
        depositor=WALLET,
        recipient=OTHER,
        input_token=TOKEN,
        output_token=TOKEN_B,
        input_amount=1_000_000,
        output_amount=998_500,
        destination_chain_id=8453,
        quote_timestamp=1_800_000_000,
        fill_deadline=1_800_021_600,
    )
    args = decode_call(call, "0x7b939232", DEPOSIT_V3)
    assert args == (
        lower(WALLET),
        lower(OTHER),
        lower(TOKEN),
        lower(TOKEN_B),
        1_000_000,
        998_500,
        8453,
        "0x" + "00" * 20,
        1_800_000_000,
        1_800_021_600,
        0,
        b"",
    )
    assert call.value == 0


def test_across_native_deposit_sends_input_amount_as_value_and_keeps_message() -> None:
    call = across_deposit_v3(
        CONTRACT,
        depositor=WALLET,
        recipient=WALLET,
        input_token=TOKEN,
        output_token=TOKEN_B,
        input_amount=10**18,
        output_amount=99 * 10**16,
        destination_chain_id=10,
        quote_timestamp=1,
        fill_deadline=2,
        exclusive_relayer=OTHER,
        exclusivity_deadline=30,
        message="0xdeadbeef",
        native_in=True,
    )
    assert call.value == 10**18
    args = decode_call(call, "0x7b939232", DEPOSIT_V3)
    assert args[7] == lower(OTHER) and args[10] == 30 and args[11] == bytes.fromhex("deadbeef")


def test_across_timestamps_must_fit_uint32() -> None:
    with pytest.raises(EncodingError, match="fill_deadline"):
        across_deposit_v3(
            CONTRACT,
            depositor=WALLET,
            recipient=WALLET,
            input_token=TOKEN,
            output_token=TOKEN_B,
            input_amount=1,
            output_amount=1,
            destination_chain_id=10,
            quote_timestamp=1,
            fill_deadline=2**32,
        )


def test_cctp_mint_recipient_pads_an_evm_address_to_32_bytes() -> None:
    assert cctp_mint_recipient(WALLET) == bytes(12) + bytes.fromhex(WALLET[2:])


def test_cctp_mint_recipient_for_solana_is_the_usdc_associated_token_account() -> None:
    expected = get_associated_token_address(
        Pubkey.from_string(SOLANA_WALLET), Pubkey.from_string(USDC_SOLANA_MINT)
    )
    recipient = cctp_solana_usdc_mint_recipient(SOLANA_WALLET, USDC_SOLANA_MINT)
    assert recipient == bytes(expected)
    assert cctp_mint_recipient(str(expected)) == recipient


def test_cctp_mint_recipient_refuses_garbage() -> None:
    with pytest.raises(EncodingError):
        cctp_mint_recipient("not-an-address")


def test_cctp_deposit_for_burn_encodes_amount_domain_recipient_and_token() -> None:
    recipient = cctp_mint_recipient(WALLET)
    call = cctp_deposit_for_burn(CONTRACT, 25_000_000, 6, recipient, TOKEN)
    args = decode_call(call, "0x6fd3504e", "depositForBurn(uint256,uint32,bytes32,address)")
    assert args == (25_000_000, 6, recipient, lower(TOKEN))


def test_cctp_zero_or_short_mint_recipient_is_refused() -> None:
    with pytest.raises(EncodingError, match="zero"):
        cctp_deposit_for_burn(CONTRACT, 1, 6, bytes(32), TOKEN)
    with pytest.raises(EncodingError, match="32 bytes"):
        cctp_deposit_for_burn(CONTRACT, 1, 6, b"\x01" * 20, TOKEN)


def test_multicall3_aggregate3_batches_calls_with_allow_failure() -> None:
    inner = [erc20_balance_of(TOKEN, WALLET), erc20_balance_of(TOKEN_B, WALLET)]
    call = multicall3_aggregate3(CONTRACT, inner)
    (calls,) = decode_call(call, "0x82ad56cb", "aggregate3((address,bool,bytes)[])")
    assert calls == tuple((lower(c.to), True, bytes.fromhex(c.data[2:])) for c in inner)


def test_multicall3_refuses_value_and_empty_batches() -> None:
    with pytest.raises(EncodingError, match="value"):
        multicall3_aggregate3(CONTRACT, [Call(to=TOKEN, data="0xd0e30db0", value=1)])
    with pytest.raises(EncodingError):
        multicall3_aggregate3(CONTRACT, [])


def test_aggregate3_results_decode_per_call() -> None:
    ok_word = eth_abi.encode(["uint256"], [42])
    ret = eth_abi.encode(["(bool,bytes)[]"], [[(True, ok_word), (False, b"")]])
    results = decode_aggregate3(ret)
    assert [(r.success, r.return_data) for r in results] == [(True, ok_word), (False, b"")]
    with pytest.raises(EncodingError):
        decode_aggregate3(b"\x00" * 10)
