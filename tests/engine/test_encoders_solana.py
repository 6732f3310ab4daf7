"""Solana messages: decoded with solders, signed by the wallet, and executed in litesvm with balances
moving; failures surface with their program log line."""

from __future__ import annotations

import pytest
from solders.account import Account
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.system_program import ID as SYSTEM_PROGRAM_ID
from solders.token.state import Mint, TokenAccount, TokenAccountState
from solders.transaction import VersionedTransaction
from solders.transaction_metadata import FailedTransactionMetadata, TransactionMetadata

from engine.encoders import (
    ASSOCIATED_TOKEN_PROGRAM_ID,
    SOLANA_FORMAT_LEGACY,
    SOLANA_FORMAT_V0,
    TOKEN_PROGRAM_ID,
    EncodingError,
    associated_token_address,
    decode_solana_message,
    decoded_instructions,
    sol_transfer_message,
    spl_transfer_checked_message,
)

LAMPORTS_PER_SOL = 1_000_000_000
DECIMALS = 6


def send(
    svm: LiteSVM, solana_tx: str, solana_format: str, signer: Keypair
) -> TransactionMetadata | FailedTransactionMetadata:
    """Sign the exact decoded message bytes as a wallet would, and run them."""
    message = decode_solana_message(solana_tx, solana_format)
    return svm.send_transaction(VersionedTransaction(message, [signer]))


def funded(svm: LiteSVM, lamports: int = 10 * LAMPORTS_PER_SOL) -> Keypair:
    wallet = Keypair()
    svm.airdrop(wallet.pubkey(), lamports)
    return wallet


def token_balance(svm: LiteSVM, account: Pubkey) -> int:
    found = svm.get_account(account)
    assert found is not None
    return TokenAccount.from_bytes(bytes(found.data)).amount


def make_mint(svm: LiteSVM, holder: Pubkey, amount: int) -> Pubkey:
    """A token mint with `amount` units already in `holder`'s associated token account."""
    mint = Keypair().pubkey()
    mint_data = bytes(Mint(mint_authority=None, supply=amount, decimals=DECIMALS, is_initialized=True))
    svm.set_account(mint, _token_program_account(svm, mint_data))
    holding = TokenAccount(
        mint=mint,
        owner=holder,
        amount=amount,
        delegate=None,
        state=TokenAccountState.Initialized,
        is_native=None,
        delegated_amount=0,
    )
    svm.set_account(
        associated_token_address(str(holder), str(mint)), _token_program_account(svm, bytes(holding))
    )
    return mint


def _token_program_account(svm: LiteSVM, data: bytes) -> Account:
    return Account(
        lamports=svm.minimum_balance_for_rent_exemption(len(data)),
        data=data,
        owner=TOKEN_PROGRAM_ID,
        executable=False,
    )


@pytest.mark.parametrize("solana_format", [SOLANA_FORMAT_LEGACY, SOLANA_FORMAT_V0])
def test_sol_transfer_message_moves_lamports_and_charges_the_sender_the_fee(solana_format: str) -> None:
    svm = LiteSVM()
    sender, recipient = funded(svm), Keypair().pubkey()
    built = sol_transfer_message(
        str(sender.pubkey()),
        str(recipient),
        2 * LAMPORTS_PER_SOL,
        str(svm.latest_blockhash()),
        solana_format=solana_format,
    )
    assert built.solana_format == solana_format
    result = send(svm, built.solana_tx, built.solana_format, sender)
    assert isinstance(result, TransactionMetadata)
    assert svm.get_balance(recipient) == 2 * LAMPORTS_PER_SOL
    fee = 10 * LAMPORTS_PER_SOL - 2 * LAMPORTS_PER_SOL - svm.get_balance(sender.pubkey())
    assert fee == 5000  # one signature at the base fee


def test_sol_transfer_message_decodes_to_one_system_transfer_with_the_sender_paying() -> None:
    sender, recipient = Keypair().pubkey(), Keypair().pubkey()
    built = sol_transfer_message(str(sender), str(recipient), 12345, str(LiteSVM().latest_blockhash()))
    message = decode_solana_message(built.solana_tx, built.solana_format)
    assert message.account_keys[0] == sender  # fee payer first
    (ix,) = decoded_instructions(message)
    assert ix.program_id == SYSTEM_PROGRAM_ID and ix.accounts == (sender, recipient)
    # System Program Transfer: u32 variant index 2, then u64 lamports, both little-endian.
    assert ix.data == (2).to_bytes(4, "little") + (12345).to_bytes(8, "little")


def test_sol_transfer_beyond_balance_fails_with_the_system_program_log_line() -> None:
    svm = LiteSVM()
    sender = funded(svm, LAMPORTS_PER_SOL)
    built = sol_transfer_message(
        str(sender.pubkey()), str(Keypair().pubkey()), 5 * LAMPORTS_PER_SOL, str(svm.latest_blockhash())
    )
    result = send(svm, built.solana_tx, built.solana_format, sender)
    assert isinstance(result, FailedTransactionMetadata)
    assert any("insufficient lamports" in line for line in result.meta().logs())


@pytest.mark.parametrize("solana_format", [SOLANA_FORMAT_LEGACY, SOLANA_FORMAT_V0])
def test_spl_transfer_checked_creates_the_recipient_account_and_moves_tokens(solana_format: str) -> None:
    svm = LiteSVM()
    sender, recipient = funded(svm), Keypair().pubkey()
    mint = make_mint(svm, sender.pubkey(), 100_000_000)
    recipient_ata = associated_token_address(str(recipient), str(mint))
    assert svm.get_account(recipient_ata) is None
    built = spl_transfer_checked_message(
        str(sender.pubkey()),
        str(recipient),
        str(mint),
        25_500_000,
        DECIMALS,
        str(svm.latest_blockhash()),
        solana_format=solana_format,
    )
    result = send(svm, built.solana_tx, built.solana_format, sender)
    assert isinstance(result, TransactionMetadata), result
    assert token_balance(svm, recipient_ata) == 25_500_000
    assert token_balance(svm, associated_token_address(str(sender.pubkey()), str(mint))) == 74_500_000


def test_spl_transfer_to_an_existing_account_still_succeeds_because_creation_is_idempotent() -> None:
    svm = LiteSVM()
    sender, recipient = funded(svm), Keypair().pubkey()
    mint = make_mint(svm, sender.pubkey(), 10_000_000)
    for amount in (1_000_000, 2_000_000):
        built = spl_transfer_checked_message(
            str(sender.pubkey()), str(recipient), str(mint), amount, DECIMALS, str(svm.latest_blockhash())
        )
        assert isinstance(send(svm, built.solana_tx, built.solana_format, sender), TransactionMetadata)
    assert token_balance(svm, associated_token_address(str(recipient), str(mint))) == 3_000_000


def test_spl_transfer_message_decodes_to_idempotent_create_then_transfer_checked() -> None:
    sender, recipient, mint = Keypair().pubkey(), Keypair().pubkey(), Keypair().pubkey()
    built = spl_transfer_checked_message(
        str(sender), str(recipient), str(mint), 7, DECIMALS, str(LiteSVM().latest_blockhash())
    )
    create, transfer = decoded_instructions(decode_solana_message(built.solana_tx, built.solana_format))
    recipient_ata = associated_token_address(str(recipient), str(mint))
    assert create.program_id == ASSOCIATED_TOKEN_PROGRAM_ID and create.data == b"\x01"
    assert create.accounts == (sender, recipient_ata, recipient, mint, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID)
    assert transfer.program_id == TOKEN_PROGRAM_ID
    assert transfer.accounts == (
        associated_token_address(str(sender), str(mint)),
        mint,
        recipient_ata,
        sender,
    )
    assert transfer.data == bytes([12]) + (7).to_bytes(8, "little") + bytes([DECIMALS])


def test_spl_transfer_without_account_creation_has_only_transfer_checked() -> None:
    sender, recipient, mint = Keypair().pubkey(), Keypair().pubkey(), Keypair().pubkey()
    built = spl_transfer_checked_message(
        str(sender),
        str(recipient),
        str(mint),
        7,
        DECIMALS,
        str(LiteSVM().latest_blockhash()),
        create_recipient_account=False,
    )
    (only,) = decoded_instructions(decode_solana_message(built.solana_tx, built.solana_format))
    assert only.program_id == TOKEN_PROGRAM_ID


def test_spl_transfer_beyond_balance_fails_with_the_token_program_log_line() -> None:
    svm = LiteSVM()
    sender, recipient = funded(svm), Keypair().pubkey()
    mint = make_mint(svm, sender.pubkey(), 1_000_000)
    built = spl_transfer_checked_message(
        str(sender.pubkey()), str(recipient), str(mint), 5_000_000, DECIMALS, str(svm.latest_blockhash())
    )
    result = send(svm, built.solana_tx, built.solana_format, sender)
    assert isinstance(result, FailedTransactionMetadata)
    assert any("insufficient funds" in line for line in result.meta().logs())


def test_spl_transfer_with_wrong_decimals_is_rejected_on_chain() -> None:
    svm = LiteSVM()
    sender = funded(svm)
    mint = make_mint(svm, sender.pubkey(), 1_000_000)
    built = spl_transfer_checked_message(
        str(sender.pubkey()), str(Keypair().pubkey()), str(mint), 1, 9, str(svm.latest_blockhash())
    )
    result = send(svm, built.solana_tx, built.solana_format, sender)
    assert isinstance(result, FailedTransactionMetadata)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"sender": "nope"}, "sender"),
        ({"amount": -1}, "amount"),
        ({"amount": 2**64}, "amount"),
        ({"decimals": 256}, "decimals"),
        ({"recent_blockhash": "xyz"}, "recent_blockhash"),
        ({"solana_format": "tx_base58"}, "solana_format"),
    ],
)
def test_bad_arguments_are_encoding_errors(kwargs: dict[str, object], match: str) -> None:
    args: dict[str, object] = {
        "sender": str(Keypair().pubkey()),
        "recipient": str(Keypair().pubkey()),
        "mint": str(Keypair().pubkey()),
        "amount": 1,
        "decimals": DECIMALS,
        "recent_blockhash": str(LiteSVM().latest_blockhash()),
    }
    args.update(kwargs)
    with pytest.raises(EncodingError, match=match):
        spl_transfer_checked_message(**args)  # type: ignore[arg-type]


def test_decoding_rejects_bad_base64_unknown_format_and_format_mismatch() -> None:
    built = sol_transfer_message(
        str(Keypair().pubkey()), str(Keypair().pubkey()), 1, str(LiteSVM().latest_blockhash())
    )
    with pytest.raises(EncodingError, match="base64"):
        decode_solana_message("!!!", SOLANA_FORMAT_LEGACY)
    with pytest.raises(EncodingError, match="solana_format"):
        decode_solana_message(built.solana_tx, "v1_message_base64")
    with pytest.raises(EncodingError):
        decode_solana_message(built.solana_tx, SOLANA_FORMAT_V0)
