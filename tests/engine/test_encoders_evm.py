"""ERC-20, WETH, Aave v3, ERC-4626 and Lido calldata, decoded with eth-abi from the official signatures."""

from __future__ import annotations

import eth_abi
import pytest

from engine.encoders import (
    MAX_UINT256,
    EncodingError,
    aave_borrow,
    aave_claim_all_rewards,
    aave_get_user_account_data,
    aave_repay,
    aave_supply,
    aave_withdraw,
    decode_aave_user_account_data,
    decode_address,
    decode_bool,
    decode_find_checkpoint_hints,
    decode_request_withdrawals,
    decode_uint,
    erc20_allowance,
    erc20_approve,
    erc20_balance_of,
    erc20_decimals,
    erc20_transfer,
    erc4626_asset,
    erc4626_convert_to_assets,
    erc4626_deposit,
    erc4626_preview_redeem,
    erc4626_redeem,
    erc4626_withdraw,
    lido_claim_withdrawals,
    lido_find_checkpoint_hints,
    lido_get_last_checkpoint_index,
    lido_request_withdrawals,
    lido_submit,
    weth_deposit,
    weth_withdraw,
)
from tests.engine.test_encoders_helpers import CONTRACT, OTHER, TOKEN, WALLET, decode_call, lower


def test_erc20_transfer_encodes_recipient_and_raw_amount_under_selector_a9059cbb() -> None:
    call = erc20_transfer(TOKEN, WALLET, 1_500_000)
    assert call.to == TOKEN and call.value == 0
    assert decode_call(call, "0xa9059cbb", "transfer(address,uint256)") == (lower(WALLET), 1_500_000)


def test_erc20_approve_encodes_spender_and_unlimited_amount_under_selector_095ea7b3() -> None:
    call = erc20_approve(TOKEN, CONTRACT, MAX_UINT256)
    assert decode_call(call, "0x095ea7b3", "approve(address,uint256)") == (lower(CONTRACT), 2**256 - 1)


def test_erc20_reads_encode_balance_allowance_and_decimals() -> None:
    assert decode_call(erc20_balance_of(TOKEN, WALLET), "0x70a08231", "balanceOf(address)") == (
        lower(WALLET),
    )
    allowance = erc20_allowance(TOKEN, WALLET, CONTRACT)
    assert decode_call(allowance, "0xdd62ed3e", "allowance(address,address)") == (
        lower(WALLET),
        lower(CONTRACT),
    )
    assert erc20_decimals(TOKEN).data == "0x313ce567"


def test_erc20_results_decode_as_uint_bool_and_address() -> None:
    assert decode_uint(eth_abi.encode(["uint256"], [123456789])) == 123456789
    assert decode_bool("0x" + eth_abi.encode(["bool"], [True]).hex()) is True
    assert decode_address(eth_abi.encode(["address"], [WALLET])) == WALLET


def test_decoding_a_short_or_dirty_word_is_an_encoding_error() -> None:
    with pytest.raises(EncodingError):
        decode_uint(b"\x01" * 31)
    with pytest.raises(EncodingError):
        decode_bool(eth_abi.encode(["uint256"], [2]))
    with pytest.raises(EncodingError):
        decode_address(b"\xff" * 32)


def test_weth_deposit_sends_the_amount_as_value_and_withdraw_encodes_it() -> None:
    wrap = weth_deposit(TOKEN, 10**18)
    assert wrap.data == "0xd0e30db0" and wrap.value == 10**18
    unwrap = weth_withdraw(TOKEN, 5 * 10**17)
    assert unwrap.value == 0
    assert decode_call(unwrap, "0x2e1a7d4d", "withdraw(uint256)") == (5 * 10**17,)


def test_aave_supply_encodes_asset_amount_beneficiary_and_zero_referral() -> None:
    call = aave_supply(CONTRACT, TOKEN, 2_000_000, WALLET)
    assert call.to == CONTRACT
    args = decode_call(call, "0x617ba037", "supply(address,uint256,address,uint16)")
    assert args == (lower(TOKEN), 2_000_000, lower(WALLET), 0)


def test_aave_withdraw_encodes_asset_amount_and_receiver() -> None:
    args = decode_call(
        aave_withdraw(CONTRACT, TOKEN, MAX_UINT256, WALLET), "0x69328dec", "withdraw(address,uint256,address)"
    )
    assert args == (lower(TOKEN), MAX_UINT256, lower(WALLET))


def test_aave_borrow_uses_variable_rate_mode_2() -> None:
    args = decode_call(
        aave_borrow(CONTRACT, TOKEN, 750, WALLET),
        "0xa415bcad",
        "borrow(address,uint256,uint256,uint16,address)",
    )
    assert args == (lower(TOKEN), 750, 2, 0, lower(WALLET))


def test_aave_repay_max_repays_whole_variable_debt() -> None:
    args = decode_call(
        aave_repay(CONTRACT, TOKEN, MAX_UINT256, WALLET),
        "0x573ade81",
        "repay(address,uint256,uint256,address)",
    )
    assert args == (lower(TOKEN), 2**256 - 1, 2, lower(WALLET))


def test_aave_claim_all_rewards_encodes_asset_list_and_receiver() -> None:
    call = aave_claim_all_rewards(CONTRACT, [TOKEN, OTHER], WALLET)
    args = decode_call(call, "0xbb492bf5", "claimAllRewards(address[],address)")
    assert args == ((lower(TOKEN), lower(OTHER)), lower(WALLET))


def test_aave_user_account_data_round_trips() -> None:
    call = aave_get_user_account_data(CONTRACT, WALLET)
    assert decode_call(call, "0xbf92857c", "getUserAccountData(address)") == (lower(WALLET),)
    ret = eth_abi.encode(["uint256"] * 6, [10**10, 4 * 10**9, 3 * 10**9, 8250, 8000, 2 * 10**18])
    data = decode_aave_user_account_data(ret)
    assert data.total_collateral_base == 10**10 and data.health_factor == 2 * 10**18 and data.ltv == 8000


def test_erc4626_deposit_withdraw_redeem_encode_their_arguments() -> None:
    assert decode_call(erc4626_deposit(CONTRACT, 1000, WALLET), "0x6e553f65", "deposit(uint256,address)") == (
        1000,
        lower(WALLET),
    )
    withdraw = erc4626_withdraw(CONTRACT, 900, OTHER, WALLET)
    assert decode_call(withdraw, "0xb460af94", "withdraw(uint256,address,address)") == (
        900,
        lower(OTHER),
        lower(WALLET),
    )
    redeem = erc4626_redeem(CONTRACT, 800, OTHER, WALLET)
    assert decode_call(redeem, "0xba087652", "redeem(uint256,address,address)") == (
        800,
        lower(OTHER),
        lower(WALLET),
    )


def test_erc4626_reads_encode_asset_convert_and_preview() -> None:
    assert erc4626_asset(CONTRACT).data == "0x38d52e0f"
    assert decode_call(erc4626_convert_to_assets(CONTRACT, 7), "0x07a2d13a", "convertToAssets(uint256)") == (
        7,
    )
    assert decode_call(erc4626_preview_redeem(CONTRACT, 9), "0x4cdad506", "previewRedeem(uint256)") == (9,)


def test_lido_submit_is_payable_with_the_staked_amount_and_zero_referral() -> None:
    call = lido_submit(CONTRACT, 3 * 10**18)
    assert call.value == 3 * 10**18
    assert decode_call(call, "0xa1903eab", "submit(address)") == ("0x" + "00" * 20,)


def test_lido_request_withdrawals_encodes_amounts_and_owner() -> None:
    call = lido_request_withdrawals(CONTRACT, [10**18, 2 * 10**18], WALLET)
    args = decode_call(call, "0xd6681042", "requestWithdrawals(uint256[],address)")
    assert args == ((10**18, 2 * 10**18), lower(WALLET))
    assert decode_request_withdrawals(eth_abi.encode(["uint256[]"], [[41, 42]])) == [41, 42]


def test_lido_claim_withdrawals_pairs_request_ids_with_hints() -> None:
    call = lido_claim_withdrawals(CONTRACT, [41, 42], [7, 7])
    assert decode_call(call, "0xe3afe0a3", "claimWithdrawals(uint256[],uint256[])") == ((41, 42), (7, 7))
    with pytest.raises(EncodingError, match="one hint per request id"):
        lido_claim_withdrawals(CONTRACT, [41, 42], [7])


def test_lido_checkpoint_hint_reads_encode_and_decode() -> None:
    assert lido_get_last_checkpoint_index(CONTRACT).data == "0x526eae3e"
    call = lido_find_checkpoint_hints(CONTRACT, [41, 42], 1, 30)
    args = decode_call(call, "0x62abe3fa", "findCheckpointHints(uint256[],uint256,uint256)")
    assert args == ((41, 42), 1, 30)
    assert decode_find_checkpoint_hints(eth_abi.encode(["uint256[]"], [[5, 6]])) == [5, 6]
    with pytest.raises(EncodingError, match="sorted"):
        lido_find_checkpoint_hints(CONTRACT, [42, 41], 1, 30)


def test_lido_request_without_amounts_is_refused() -> None:
    with pytest.raises(EncodingError):
        lido_request_withdrawals(CONTRACT, [], WALLET)


@pytest.mark.parametrize(
    "bad_amount",
    [-1, 2**256, 1.5, True, "100"],
)
def test_amounts_must_be_raw_uint256_integers(bad_amount: object) -> None:
    with pytest.raises(EncodingError, match="amount"):
        erc20_transfer(TOKEN, WALLET, bad_amount)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad_address",
    ["0x12", "1111111111111111111111111111111111111111", "0xAbCdEf0000000000000000000000000000000000", 5],
)
def test_malformed_or_bad_checksum_addresses_are_refused(bad_address: object) -> None:
    with pytest.raises(EncodingError, match="recipient"):
        erc20_transfer(TOKEN, bad_address, 1)  # type: ignore[arg-type]


def test_a_refused_address_is_refused_again_with_each_callers_field() -> None:
    # Checksums are remembered; a remembered refusal must still name the field of the call that sent it.
    wrong = "0xAbCdEf0000000000000000000000000000000000"
    for _ in range(2):
        with pytest.raises(EncodingError, match="recipient has a wrong EIP-55 checksum"):
            erc20_transfer(TOKEN, wrong, 1)
        with pytest.raises(EncodingError, match="spender has a wrong EIP-55 checksum"):
            erc20_approve(TOKEN, wrong, 1)
        with pytest.raises(EncodingError, match="spender must be a 0x-prefixed EVM address"):
            erc20_approve(TOKEN, "0x12", 1)


def test_lowercase_addresses_are_accepted_and_the_target_is_checksummed() -> None:
    mixed = "0x52908400098527886E0F7030069857D2E4169EE7"  # EIP-55 test vector
    call = erc20_transfer(mixed.lower(), mixed.lower(), 1)
    assert call.to == mixed
