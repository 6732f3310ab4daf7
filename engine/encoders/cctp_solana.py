"""Circle CCTP V2 out of Solana: TokenMessengerMinterV2 `deposit_for_burn` as an unsigned Solana message.

Every fact here is from Circle's repository circlefin/solana-cctp-contracts at commit
76018c2b28bb44ef10affa97216a0d983c88e5f8:
- the instruction, its accounts in order with their writable/signer flags, and the Borsh layout of
  DepositForBurnParams: examples/target/idl/token_messenger_minter_v2.json (`deposit_for_burn`), matching
  programs/v2/token-messenger-minter-v2/src/token_messenger_v2/instructions/deposit_for_burn.rs;
- the PDA seeds: the `seeds = [...]` constraints of deposit_for_burn.rs (sender_authority, denylist_account,
  local_token), token_messenger_v2/instructions/initialize.rs (token_messenger, token_minter),
  add_remote_token_messenger.rs (remote_token_messenger: the domain as a decimal string),
  message-transmitter-v2/src/instructions/initialize.rs (message_transmitter), and Anchor's `#[event_cpi]`
  event authority (`__event_authority`), all as examples/utils.ts getDepositForBurnPdas and
  examples/v2/utilsV2.ts derive them for Circle's own client.
Circle's docs list the same programs and domain 5 for Solana (developers.circle.com/cctp/solana-programs).

`message_sent_event_data` is a SIGNER: MessageTransmitterV2 `send_message` creates it (`init`) to store the
MessageSent event, so its keypair must sign the burn. Circle's client generates a fresh keypair per burn
(examples/v2/solana.ts: "Generate a new keypair for the MessageSent event account"). A service that never
signs takes only its public key; the caller signs with both the owner and that keypair.
Only the TokenMessengerMinterV2 event authority is an account here: MessageTransmitterV2 `send_message`
emits no CPI event (SendMessageContext has no event authority); it stores the message in the event account.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solders.instruction import AccountMeta, Instruction
from solders.pubkey import Pubkey
from solders.system_program import ID as SYSTEM_PROGRAM_ID

from engine.encoders.cctp_v2 import CCTP_FINALITY_FAST, CCTP_FINALITY_STANDARD, CCTP_FINALITY_THRESHOLDS
from engine.encoders.errors import EncodingError
from engine.encoders.solana import (
    SOLANA_FORMAT_LEGACY,
    TOKEN_PROGRAM_ID,
    DecodedInstruction,
    SolanaMessage,
    _compile,
    _pubkey,
    _u64,
    associated_token_address,
)

__all__ = [
    "CCTP_EVENT_ACCOUNT_RENT_LAMPORTS",
    "CCTP_EVENT_ACCOUNT_SPACE",
    "CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR",
    "CctpSolanaBurn",
    "CctpSolanaPrograms",
    "cctp_solana_deposit_for_burn",
    "cctp_solana_deposit_for_burn_accounts",
    "cctp_solana_deposit_for_burn_message",
    "decode_cctp_solana_deposit_for_burn",
]

# IDL `deposit_for_burn.discriminator`; Anchor's sha256("global:deposit_for_burn")[:8] (the test checks both).
CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR: Final = bytes([215, 60, 61, 46, 114, 55, 128, 176])

# PDA seeds (module docstring for where each is declared).
SENDER_AUTHORITY_SEED: Final = b"sender_authority"
DENYLIST_SEED: Final = b"denylist_account"
MESSAGE_TRANSMITTER_SEED: Final = b"message_transmitter"
TOKEN_MESSENGER_SEED: Final = b"token_messenger"
REMOTE_TOKEN_MESSENGER_SEED: Final = b"remote_token_messenger"
TOKEN_MINTER_SEED: Final = b"token_minter"
LOCAL_TOKEN_SEED: Final = b"local_token"
EVENT_AUTHORITY_SEED: Final = b"__event_authority"

# DepositForBurnParams (repr(C), Borsh): amount u64, destination_domain u32, mint_recipient pubkey,
# destination_caller pubkey, max_fee u64, min_finality_threshold u32; little-endian integers.
PARAMS_LEN: Final = 8 + 4 + 32 + 32 + 8 + 4
U32_MAX: Final = (1 << 32) - 1

# Size of the MessageSent account the burn creates: MessageSent::len(body) in message-transmitter-v2
# src/events.rs = 8 (discriminator) + INIT_SPACE (rent_payer 32 + created_at 8 + message Vec 4 + max_len 1)
# - 1 + Message::serialized_len(body) (MESSAGE_BODY_INDEX 148 + body); the burn body is
# BurnMessage::serialized_len(0) = HOOK_DATA_INDEX 228 without hook data (token_messenger_v2/burn_message.rs).
CCTP_EVENT_ACCOUNT_SPACE: Final = 8 + (32 + 8 + 4 + 1) - 1 + 148 + 228
# Rent-exempt minimum of that account with Solana's default Rent (solana-program rent.rs: 3480 lamports per
# byte-year, exemption threshold 2 years, 128 bytes of account storage overhead): the owner pays it as
# event_rent_payer, and MessageTransmitterV2 `reclaim_event_account` returns it after 5 days
# (EVENT_ACCOUNT_WINDOW_SECONDS in message-transmitter-v2 src/state.rs).
CCTP_EVENT_ACCOUNT_RENT_LAMPORTS: Final = (128 + CCTP_EVENT_ACCOUNT_SPACE) * 3480 * 2

# Account positions in the IDL's order (used by the decoder).
OWNER_INDEX, BURN_TOKEN_ACCOUNT_INDEX, BURN_MINT_INDEX, EVENT_ACCOUNT_INDEX = 0, 3, 10, 11
ACCOUNT_COUNT: Final = 18


@dataclass(frozen=True, slots=True)
class CctpSolanaPrograms:
    """The two CCTP V2 programs (registry: protocols.json cctp.solana)."""

    token_messenger_minter: Pubkey
    message_transmitter: Pubkey

    @classmethod
    def of(cls, token_messenger_minter: str, message_transmitter: str) -> CctpSolanaPrograms:
        return cls(
            _pubkey(token_messenger_minter, "token_messenger_minter"),
            _pubkey(message_transmitter, "message_transmitter"),
        )


@dataclass(frozen=True, slots=True)
class CctpSolanaBurn:
    """A deposit_for_burn as a message carries it: who burns what, and its parameters."""

    owner: Pubkey
    event_account: Pubkey
    burn_token_mint: Pubkey
    amount: int
    destination_domain: int
    mint_recipient: bytes
    destination_caller: bytes
    max_fee: int
    min_finality_threshold: int


def cctp_solana_deposit_for_burn_accounts(
    programs: CctpSolanaPrograms,
    owner: Pubkey,
    event_account: Pubkey,
    burn_token_mint: Pubkey,
    destination_domain: int,
) -> list[AccountMeta]:
    """The 18 accounts of deposit_for_burn in IDL order. The owner is also event_rent_payer (as Circle's
    client sets it) and burns from its associated token account for `burn_token_mint`."""
    messenger, transmitter = programs.token_messenger_minter, programs.message_transmitter
    domain = _u32(destination_domain, "destination_domain")

    def pda(program: Pubkey, *seeds: bytes) -> Pubkey:
        return Pubkey.find_program_address(list(seeds), program)[0]

    def meta(key: Pubkey, *, writable: bool = False, signer: bool = False) -> AccountMeta:
        return AccountMeta(key, is_signer=signer, is_writable=writable)

    burn_account = associated_token_address(str(owner), str(burn_token_mint), TOKEN_PROGRAM_ID)
    return [
        meta(owner, signer=True),  # owner
        meta(owner, writable=True, signer=True),  # event_rent_payer
        meta(pda(messenger, SENDER_AUTHORITY_SEED)),  # sender_authority_pda
        meta(burn_account, writable=True),  # burn_token_account
        meta(pda(messenger, DENYLIST_SEED, bytes(owner))),  # denylist_account
        meta(pda(transmitter, MESSAGE_TRANSMITTER_SEED), writable=True),  # message_transmitter
        meta(pda(messenger, TOKEN_MESSENGER_SEED)),  # token_messenger
        meta(pda(messenger, REMOTE_TOKEN_MESSENGER_SEED, str(domain).encode())),  # remote_token_messenger
        meta(pda(messenger, TOKEN_MINTER_SEED)),  # token_minter
        meta(pda(messenger, LOCAL_TOKEN_SEED, bytes(burn_token_mint)), writable=True),  # local_token
        meta(burn_token_mint, writable=True),  # burn_token_mint
        meta(event_account, writable=True, signer=True),  # message_sent_event_data
        meta(transmitter),  # message_transmitter_program
        meta(messenger),  # token_messenger_minter_program
        meta(TOKEN_PROGRAM_ID),  # token_program
        meta(SYSTEM_PROGRAM_ID),  # system_program
        meta(pda(messenger, EVENT_AUTHORITY_SEED)),  # event_authority
        meta(messenger),  # program
    ]


def cctp_solana_deposit_for_burn(programs: CctpSolanaPrograms, burn: CctpSolanaBurn) -> Instruction:
    """The deposit_for_burn instruction. Raises EncodingError for what the program would reject
    (InvalidAmount, InvalidMintRecipient, MaxFeeMustBeLessThanAmount in deposit_for_burn.rs) and for an
    event account that could not sign or is already another account of the instruction."""
    amount = _u64(burn.amount, "amount")
    if amount == 0:
        raise EncodingError("amount must be nonzero (deposit_for_burn rejects it: InvalidAmount)")
    max_fee = _u64(burn.max_fee, "max_fee")
    if max_fee >= amount:
        raise EncodingError(
            f"max_fee {max_fee} must be less than amount {amount} (MaxFeeMustBeLessThanAmount)"
        )
    recipient = _bytes32(burn.mint_recipient, "mint_recipient")
    if not any(recipient):
        raise EncodingError(
            "mint_recipient must not be zero (deposit_for_burn rejects it: InvalidMintRecipient)"
        )
    caller = _bytes32(burn.destination_caller, "destination_caller")
    if burn.min_finality_threshold not in CCTP_FINALITY_THRESHOLDS:  # as on EVM (cctp_v2.py)
        raise EncodingError(
            f"min_finality_threshold must be {CCTP_FINALITY_FAST} (fast) or {CCTP_FINALITY_STANDARD} "
            f"(standard), got {burn.min_finality_threshold!r}"
        )
    accounts = cctp_solana_deposit_for_burn_accounts(
        programs, burn.owner, burn.event_account, burn.burn_token_mint, burn.destination_domain
    )
    event = burn.event_account
    if event == Pubkey.default() or not event.is_on_curve():
        raise EncodingError(f"event account {event} must be a keypair's public key (it signs the burn)")
    others = {m.pubkey for i, m in enumerate(accounts) if i != EVENT_ACCOUNT_INDEX}
    if event in others:
        raise EncodingError(f"event account {event} must be a fresh account, not one the burn already uses")
    data = (
        CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR
        + amount.to_bytes(8, "little")
        + _u32(burn.destination_domain, "destination_domain").to_bytes(4, "little")
        + recipient
        + caller
        + max_fee.to_bytes(8, "little")
        + _u32(burn.min_finality_threshold, "min_finality_threshold").to_bytes(4, "little")
    )
    return Instruction(programs.token_messenger_minter, data, accounts)


def cctp_solana_deposit_for_burn_message(
    programs: CctpSolanaPrograms,
    burn: CctpSolanaBurn,
    recent_blockhash: str,
    *,
    solana_format: str = SOLANA_FORMAT_LEGACY,
) -> SolanaMessage:
    """An unsigned message holding the one deposit_for_burn, paid for by the owner. Its signers, in order:
    the owner (fee payer), then the event account."""
    ix = cctp_solana_deposit_for_burn(programs, burn)
    return _compile([ix], burn.owner, recent_blockhash, solana_format)


def decode_cctp_solana_deposit_for_burn(
    programs: CctpSolanaPrograms, ix: DecodedInstruction
) -> CctpSolanaBurn:
    """The burn inside a decoded deposit_for_burn instruction. Raises EncodingError when the instruction is
    not one, or its accounts are not the ones this module derives for its owner, mint and domain."""
    if ix.program_id != programs.token_messenger_minter:
        raise EncodingError(f"the instruction calls {ix.program_id}, not TokenMessengerMinterV2")
    data = ix.data
    if data[:8] != CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR or len(data) != 8 + PARAMS_LEN:
        raise EncodingError("the instruction is not deposit_for_burn")
    if len(ix.accounts) != ACCOUNT_COUNT:
        raise EncodingError(f"deposit_for_burn takes {ACCOUNT_COUNT} accounts, not {len(ix.accounts)}")
    burn = CctpSolanaBurn(
        owner=ix.accounts[OWNER_INDEX],
        event_account=ix.accounts[EVENT_ACCOUNT_INDEX],
        burn_token_mint=ix.accounts[BURN_MINT_INDEX],
        amount=int.from_bytes(data[8:16], "little"),
        destination_domain=int.from_bytes(data[16:20], "little"),
        mint_recipient=data[20:52],
        destination_caller=data[52:84],
        max_fee=int.from_bytes(data[84:92], "little"),
        min_finality_threshold=int.from_bytes(data[92:96], "little"),
    )
    expected = cctp_solana_deposit_for_burn_accounts(
        programs, burn.owner, burn.event_account, burn.burn_token_mint, burn.destination_domain
    )
    if tuple(m.pubkey for m in expected) != ix.accounts:
        raise EncodingError(
            "the deposit_for_burn accounts are not the ones CCTP derives for its owner and mint"
        )
    return burn


def _u32(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= U32_MAX:
        raise EncodingError(f"{field} must be an integer fitting u32, got {value!r}")
    return value


def _bytes32(value: object, field: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise EncodingError(f"{field} must be 32 bytes, got {value!r}")
    return value
