"""Revert data turned into readable reasons: Error(string), Panic(uint256) and shipped custom errors."""

from __future__ import annotations

import re
from pathlib import Path

import eth_abi
from eth_utils import keccak

from engine.encoders import PANIC_REASONS, decode_revert, explain_reason
from tests.engine.test_encoders_helpers import WALLET, lower

ROOT = Path(__file__).resolve().parents[2]


def revert_data(signature: str, types: list[str], args: list[object]) -> bytes:
    return keccak(text=signature)[:4] + eth_abi.encode(types, args)


def test_error_string_decodes_to_its_message() -> None:
    data = revert_data("Error(string)", ["string"], ["ERC20: transfer amount exceeds balance"])
    assert data[:4].hex() == "08c379a0"
    reason = decode_revert("0x" + data.hex())
    assert (reason.kind, reason.message, reason.name) == (
        "error",
        "ERC20: transfer amount exceeds balance",
        "Error",
    )


def test_aave_numeric_codes_are_named_with_their_meaning() -> None:
    for code, name in (("35", "HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD"), ("26", "INVALID_AMOUNT")):
        reason = decode_revert(revert_data("Error(string)", ["string"], [code]))
        assert reason.kind == "error" and reason.args == (code,)
        assert reason.message.startswith(f"Aave v3 error {code} {name}: ")
    borrow = decode_revert(revert_data("Error(string)", ["string"], ["36"])).message
    assert borrow == (
        "Aave v3 error 36 COLLATERAL_CANNOT_COVER_NEW_BORROW: There is not enough collateral to cover a new borrow"
    )


def test_uniswap_short_strings_are_explained() -> None:
    stf = decode_revert(revert_data("Error(string)", ["string"], ["STF"])).message
    assert stf.startswith('Uniswap v3 "STF" (safeTransferFrom failed): ') and "approved" in stf
    little = decode_revert(revert_data("Error(string)", ["string"], ["Too little received"])).message
    assert little.startswith('Uniswap v3 "Too little received": ') and "slippage" in little
    assert explain_reason("Too little received") == little
    assert explain_reason("STFX") == "STFX"  # only the exact strings


def test_every_aave_errors_constant_of_the_devnet_package_is_known() -> None:
    # The devnet runs @aave/core-v3's Pool; its Errors.sol is the table's source.
    source = ROOT / "node_modules/@aave/core-v3/contracts/protocol/libraries/helpers/Errors.sol"
    constants = re.findall(r"string public constant (\w+) = '(\d+)';", source.read_text())
    assert len(constants) > 80
    for name, code in constants:
        assert explain_reason(code).startswith(f"Aave v3 error {code} {name}: ")


def test_panic_decodes_to_the_solidity_meaning_of_its_code() -> None:
    data = revert_data("Panic(uint256)", ["uint256"], [0x11])
    assert data[:4].hex() == "4e487b71"
    reason = decode_revert(data)
    assert reason.kind == "panic" and reason.panic_code == 0x11
    assert reason.message == "panic 0x11: arithmetic overflow or underflow"


def test_panic_table_covers_the_documented_codes() -> None:
    assert set(PANIC_REASONS) == {0x00, 0x01, 0x11, 0x12, 0x21, 0x22, 0x31, 0x32, 0x41, 0x51}
    assert "assert" in PANIC_REASONS[0x01] and "division" in PANIC_REASONS[0x12]
    assert "out of bounds" in PANIC_REASONS[0x32]


def test_unknown_panic_code_still_decodes() -> None:
    reason = decode_revert(revert_data("Panic(uint256)", ["uint256"], [0x99]))
    assert reason.kind == "panic" and "unknown panic code" in reason.message


def test_across_custom_error_without_arguments_is_named() -> None:
    reason = decode_revert(keccak(text="InvalidFillDeadline()")[:4])
    assert (reason.kind, reason.name, reason.contract) == (
        "custom",
        "InvalidFillDeadline",
        "across_spoke_pool",
    )


def test_aave_custom_error_is_named() -> None:
    reason = decode_revert(keccak(text="HealthFactorLowerThanLiquidationThreshold()")[:4])
    assert reason.kind == "custom" and reason.contract == "aave_v3_errors"


def test_lido_custom_error_arguments_are_decoded() -> None:
    data = revert_data("NotOwner(address,address)", ["address", "address"], [WALLET, WALLET])
    reason = decode_revert(data)
    assert reason.name == "NotOwner" and reason.args == (lower(WALLET), lower(WALLET))
    assert (
        reason.message == f"NotOwner(_sender={lower(WALLET)}, _owner={lower(WALLET)}) [lido_withdrawal_queue]"
    )


def test_bytes_arguments_of_a_custom_error_show_as_hex() -> None:
    reason = decode_revert(revert_data("LowLevelCallFailed(bytes)", ["bytes"], [b"\xca\xfe"]))
    assert reason.message == "LowLevelCallFailed(data=0xcafe) [across_spoke_pool]"


def test_empty_and_unknown_revert_data_are_reported_not_raised() -> None:
    assert decode_revert("0x").kind == "empty"
    unknown = decode_revert("0x12345678")
    assert unknown.kind == "unknown" and "0x12345678" in unknown.message


def test_truncated_error_string_falls_back_to_unknown() -> None:
    reason = decode_revert(keccak(text="Error(string)")[:4] + b"\x00" * 5)
    assert reason.kind == "unknown"
