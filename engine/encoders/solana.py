"""Unsigned Solana transaction messages: SOL transfer and SPL token TransferChecked (with idempotent
creation of the recipient's associated token account), serialized for the Step's solana_tx/solana_format."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from solders.hash import Hash, ParseHashError
from solders.instruction import AccountMeta, Instruction
from solders.message import Message, MessageV0, from_bytes_versioned, to_bytes_versioned
from solders.pubkey import Pubkey
from solders.system_program import ID as SYSTEM_PROGRAM_ID
from solders.system_program import TransferParams, transfer
from solders.token.associated import get_associated_token_address

from engine.encoders.errors import EncodingError

__all__ = [
    "ASSOCIATED_TOKEN_PROGRAM_ID",
    "DecodedInstruction",
    "SOLANA_FORMATS",
    "SOLANA_FORMAT_LEGACY",
    "SOLANA_FORMAT_V0",
    "SolanaMessage",
    "TOKEN_2022_PROGRAM_ID",
    "TOKEN_PROGRAM_ID",
    "associated_token_address",
    "create_associated_token_account_idempotent",
    "decode_solana_message",
    "decoded_instructions",
    "sol_transfer_message",
    "spl_transfer_checked",
    "spl_transfer_checked_message",
]

# Program ids: SPL Token (solana-program/token), Token-2022 (solana-program/token-2022) and Associated
# Token Account (solana-program/associated-token-account), as declared by each program's `declare_id!`.
TOKEN_PROGRAM_ID = Pubkey.from_string("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
TOKEN_2022_PROGRAM_ID = Pubkey.from_string("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
ASSOCIATED_TOKEN_PROGRAM_ID = Pubkey.from_string("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")

# solana-program/token interface/src/instruction.rs: TokenInstruction::TransferChecked packs as tag 12,
# then amount as u64 little-endian, then decimals as u8.
TRANSFER_CHECKED_TAG = 12
# solana-program/associated-token-account interface/src/instruction.rs: the instruction data is the one
# byte variant index; CreateIdempotent = 1.
CREATE_IDEMPOTENT_TAG = 1

# solana_format values (docs/decisions.md): base64 of the message bytes a wallet signs. Legacy is the
# default; v0 is the versioned form (leading 0x80 version byte), offered for wallets that ask for it.
SOLANA_FORMAT_LEGACY = "legacy_message_base64"
SOLANA_FORMAT_V0 = "v0_message_base64"
SOLANA_FORMATS = (SOLANA_FORMAT_LEGACY, SOLANA_FORMAT_V0)

U64_MAX = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class SolanaMessage:
    """An unsigned Solana message as a Step carries it: `solana_tx` (base64) and `solana_format`."""

    solana_tx: str
    solana_format: str


@dataclass(frozen=True, slots=True)
class DecodedInstruction:
    """One instruction of a decoded message, with its account keys resolved."""

    program_id: Pubkey
    accounts: tuple[Pubkey, ...]
    data: bytes


def associated_token_address(owner: str, mint: str, token_program: Pubkey = TOKEN_PROGRAM_ID) -> Pubkey:
    """The associated token account of `owner` for `mint` under `token_program`."""
    return get_associated_token_address(_pubkey(owner, "owner"), _pubkey(mint, "mint"), token_program)


def create_associated_token_account_idempotent(
    payer: Pubkey, owner: Pubkey, mint: Pubkey, token_program: Pubkey = TOKEN_PROGRAM_ID
) -> Instruction:
    """ATA program CreateIdempotent: creates `owner`'s associated token account for `mint`, paid by `payer`,
    and succeeds without change when it already exists. Accounts as the program documents: funding
    (writable, signer), associated account (writable), wallet, mint, system program, token program."""
    ata = get_associated_token_address(owner, mint, token_program)
    return Instruction(
        ASSOCIATED_TOKEN_PROGRAM_ID,
        bytes([CREATE_IDEMPOTENT_TAG]),
        [
            AccountMeta(payer, is_signer=True, is_writable=True),
            AccountMeta(ata, is_signer=False, is_writable=True),
            AccountMeta(owner, is_signer=False, is_writable=False),
            AccountMeta(mint, is_signer=False, is_writable=False),
            AccountMeta(SYSTEM_PROGRAM_ID, is_signer=False, is_writable=False),
            AccountMeta(token_program, is_signer=False, is_writable=False),
        ],
    )


def spl_transfer_checked(
    source: Pubkey,
    mint: Pubkey,
    destination: Pubkey,
    owner: Pubkey,
    amount: int,
    decimals: int,
    token_program: Pubkey = TOKEN_PROGRAM_ID,
) -> Instruction:
    """SPL Token TransferChecked of raw `amount` (mint `decimals` checked on chain) from token account
    `source` to token account `destination`, signed by `owner`. Accounts: source (writable), mint,
    destination (writable), owner (signer)."""
    amount = _u64(amount, "amount")
    if not isinstance(decimals, int) or isinstance(decimals, bool) or not 0 <= decimals <= 255:
        raise EncodingError(f"decimals must fit u8, got {decimals!r}")
    data = bytes([TRANSFER_CHECKED_TAG]) + amount.to_bytes(8, "little") + bytes([decimals])
    return Instruction(
        token_program,
        data,
        [
            AccountMeta(source, is_signer=False, is_writable=True),
            AccountMeta(mint, is_signer=False, is_writable=False),
            AccountMeta(destination, is_signer=False, is_writable=True),
            AccountMeta(owner, is_signer=True, is_writable=False),
        ],
    )


def sol_transfer_message(
    sender: str,
    recipient: str,
    lamports: int,
    recent_blockhash: str,
    *,
    solana_format: str = SOLANA_FORMAT_LEGACY,
) -> SolanaMessage:
    """An unsigned message moving `lamports` from `sender` (also the fee payer) to `recipient` with the
    System Program transfer."""
    payer = _pubkey(sender, "sender")
    ix = transfer(
        TransferParams(
            from_pubkey=payer, to_pubkey=_pubkey(recipient, "recipient"), lamports=_u64(lamports, "lamports")
        )
    )
    return _compile([ix], payer, recent_blockhash, solana_format)


def spl_transfer_checked_message(
    sender: str,
    recipient: str,
    mint: str,
    amount: int,
    decimals: int,
    recent_blockhash: str,
    *,
    create_recipient_account: bool = True,
    token_program: Pubkey = TOKEN_PROGRAM_ID,
    solana_format: str = SOLANA_FORMAT_LEGACY,
) -> SolanaMessage:
    """An unsigned message moving raw `amount` of `mint` from `sender`'s associated token account to
    `recipient`'s (both wallets; the token accounts are derived). `sender` is the fee payer and signer.
    With create_recipient_account (the default) the message first creates the recipient's associated token
    account idempotently, paid by the sender: a no-op when it exists, so the message stays valid whether or
    not the account appears between planning and signing."""
    payer, owner, mint_key = _pubkey(sender, "sender"), _pubkey(recipient, "recipient"), _pubkey(mint, "mint")
    instructions = []
    if create_recipient_account:
        instructions.append(create_associated_token_account_idempotent(payer, owner, mint_key, token_program))
    instructions.append(
        spl_transfer_checked(
            source=get_associated_token_address(payer, mint_key, token_program),
            mint=mint_key,
            destination=get_associated_token_address(owner, mint_key, token_program),
            owner=payer,
            amount=amount,
            decimals=decimals,
            token_program=token_program,
        )
    )
    return _compile(instructions, payer, recent_blockhash, solana_format)


def decode_solana_message(solana_tx: str, solana_format: str) -> Message | MessageV0:
    """The solders message inside a Step's `solana_tx`. Raises EncodingError for an unknown format, bad
    base64, or bytes that are not a message of that format."""
    if solana_format not in SOLANA_FORMATS:
        raise EncodingError(f"unknown solana_format {solana_format!r}; known: {', '.join(SOLANA_FORMATS)}")
    try:
        raw = base64.b64decode(solana_tx, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise EncodingError(f"solana_tx is not base64: {exc}") from exc
    try:
        if solana_format == SOLANA_FORMAT_LEGACY:
            return Message.from_bytes(raw)
        message = from_bytes_versioned(raw)
    except ValueError as exc:
        raise EncodingError(f"solana_tx is not a {solana_format} message: {exc}") from exc
    if not isinstance(message, MessageV0):
        raise EncodingError("solana_tx holds a legacy message, not v0")
    return message


def decoded_instructions(message: Message | MessageV0) -> list[DecodedInstruction]:
    """The message's instructions with program ids and account keys resolved from the static keys (the
    messages built here use no address lookup tables)."""
    keys = list(message.account_keys)
    return [
        DecodedInstruction(
            program_id=keys[ix.program_id_index],
            accounts=tuple(keys[i] for i in bytes(ix.accounts)),
            data=bytes(ix.data),
        )
        for ix in message.instructions
    ]


def _compile(
    instructions: Sequence[Instruction], payer: Pubkey, recent_blockhash: str, solana_format: str
) -> SolanaMessage:
    blockhash = _blockhash(recent_blockhash)
    if solana_format == SOLANA_FORMAT_LEGACY:
        raw = bytes(Message.new_with_blockhash(list(instructions), payer, blockhash))
    elif solana_format == SOLANA_FORMAT_V0:
        raw = to_bytes_versioned(MessageV0.try_compile(payer, list(instructions), [], blockhash))
    else:
        raise EncodingError(f"unknown solana_format {solana_format!r}; known: {', '.join(SOLANA_FORMATS)}")
    return SolanaMessage(solana_tx=base64.b64encode(raw).decode("ascii"), solana_format=solana_format)


def _pubkey(value: object, field: str) -> Pubkey:
    if isinstance(value, Pubkey):
        return value
    if isinstance(value, str):
        try:
            return Pubkey.from_string(value)
        except ValueError:
            pass
    raise EncodingError(f"{field} must be a base58 Solana address, got {value!r}")


def _blockhash(value: str) -> Hash:
    try:
        return Hash.from_string(value)
    except (ParseHashError, ValueError, TypeError) as exc:
        raise EncodingError(f"recent_blockhash must be a base58 32-byte hash, got {value!r}") from exc


def _u64(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= U64_MAX:
        raise EncodingError(f"{field} must be a raw integer fitting u64, got {value!r}")
    return value
