"""CCTP V2 out of Solana: the TokenMessengerMinterV2 deposit_for_burn message, decoded with solders and
checked byte by byte and account by account against an independent derivation from Circle's sources
(circlefin/solana-cctp-contracts at commit 76018c2b28bb44ef10affa97216a0d983c88e5f8: the V2 IDL
examples/target/idl/token_messenger_minter_v2.json, the seeds of programs/v2/.../deposit_for_burn.rs,
initialize.rs and add_remote_token_messenger.rs, and examples/utils.ts getDepositForBurnPdas).

The burn is not executed: no CCTP program binary is available offline and no SBF toolchain is installed to
build one, so litesvm cannot run it. The tests stop at the exact bytes, the signer set, and signing.
"""

from __future__ import annotations

import hashlib
import struct

import pytest
from solders.errors import SignerError
from solders.hash import Hash
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.message import Message, MessageV0
from solders.pubkey import Pubkey
from solders.transaction import VersionedTransaction

from engine.encoders import (
    SOLANA_FORMAT_LEGACY,
    SOLANA_FORMAT_V0,
    EncodingError,
    decode_solana_message,
    decoded_instructions,
)
from engine.encoders.cctp_solana import (
    CCTP_EVENT_ACCOUNT_RENT_LAMPORTS,
    CCTP_EVENT_ACCOUNT_SPACE,
    CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR,
    CctpSolanaBurn,
    CctpSolanaPrograms,
    cctp_solana_deposit_for_burn_message,
    decode_cctp_solana_deposit_for_burn,
)

# README "V2 Deployments" (mainnet) and the IDL's `address` / account `address` fields.
MESSENGER = Pubkey.from_string("CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe")
TRANSMITTER = Pubkey.from_string("CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC")
TOKEN_PROGRAM = Pubkey.from_string("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
ATA_PROGRAM = Pubkey.from_string("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
SYSTEM_PROGRAM = Pubkey.from_string("11111111111111111111111111111111")
USDC_MINT = Pubkey.from_string("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
PROGRAMS = CctpSolanaPrograms(MESSENGER, TRANSMITTER)
# IDL instructions[deposit_for_burn].discriminator, as the file lists it.
IDL_DISCRIMINATOR = [215, 60, 61, 46, 114, 55, 128, 176]
BASE_DOMAIN = 6  # Circle CCTP domain of Base
EVM_RECIPIENT = bytes(12) + bytes.fromhex("000000000000000000000000000000000000dEaD")


def pda(program: Pubkey, *seeds: bytes) -> Pubkey:
    return Pubkey.find_program_address(list(seeds), program)[0]


def expected_accounts(owner: Pubkey, event: Pubkey, domain: int) -> list[tuple[str, Pubkey]]:
    """The IDL's deposit_for_burn accounts in order, derived here from the cited seeds."""
    ata = pda(ATA_PROGRAM, bytes(owner), bytes(TOKEN_PROGRAM), bytes(USDC_MINT))
    return [
        ("owner", owner),
        ("event_rent_payer", owner),
        ("sender_authority_pda", pda(MESSENGER, b"sender_authority")),
        ("burn_token_account", ata),
        ("denylist_account", pda(MESSENGER, b"denylist_account", bytes(owner))),
        ("message_transmitter", pda(TRANSMITTER, b"message_transmitter")),
        ("token_messenger", pda(MESSENGER, b"token_messenger")),
        ("remote_token_messenger", pda(MESSENGER, b"remote_token_messenger", str(domain).encode())),
        ("token_minter", pda(MESSENGER, b"token_minter")),
        ("local_token", pda(MESSENGER, b"local_token", bytes(USDC_MINT))),
        ("burn_token_mint", USDC_MINT),
        ("message_sent_event_data", event),
        ("message_transmitter_program", TRANSMITTER),
        ("token_messenger_minter_program", MESSENGER),
        ("token_program", TOKEN_PROGRAM),
        ("system_program", SYSTEM_PROGRAM),
        ("event_authority", pda(MESSENGER, b"__event_authority")),
        ("program", MESSENGER),
    ]


def key_flags(message: Message | MessageV0) -> dict[Pubkey, tuple[bool, bool]]:
    """(signer, writable) of every static key, read from the message header's layout: writable signers,
    read-only signers, writable non-signers, read-only non-signers."""
    header, keys = message.header, list(message.account_keys)
    signed, ro_signed, ro_unsigned = (
        header.num_required_signatures,
        header.num_readonly_signed_accounts,
        header.num_readonly_unsigned_accounts,
    )
    flags = {}
    for i, key in enumerate(keys):
        signer = i < signed
        writable = i < signed - ro_signed if signer else i < len(keys) - ro_unsigned
        flags[key] = (signer, writable)
    return flags


def burn(owner: Pubkey, event: Pubkey, **changes: object) -> CctpSolanaBurn:
    values: dict[str, object] = {
        "owner": owner,
        "event_account": event,
        "burn_token_mint": USDC_MINT,
        "amount": 12_500_000,
        "destination_domain": BASE_DOMAIN,
        "mint_recipient": EVM_RECIPIENT,
        "destination_caller": bytes(32),
        "max_fee": 0,
        "min_finality_threshold": 2000,
    }
    values.update(changes)
    return CctpSolanaBurn(**values)  # type: ignore[arg-type]


def test_discriminator_is_anchors_global_hash_and_the_idls() -> None:
    anchor = hashlib.sha256(b"global:deposit_for_burn").digest()[:8]
    assert anchor == CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR
    assert list(CCTP_SOLANA_DEPOSIT_FOR_BURN_DISCRIMINATOR) == IDL_DISCRIMINATOR


@pytest.mark.parametrize("solana_format", [SOLANA_FORMAT_LEGACY, SOLANA_FORMAT_V0])
def test_burn_message_carries_the_borsh_params_and_every_account_in_idl_order(solana_format: str) -> None:
    owner, event = Keypair().pubkey(), Keypair().pubkey()
    blockhash = Hash.new_unique()
    built = cctp_solana_deposit_for_burn_message(
        PROGRAMS, burn(owner, event), str(blockhash), solana_format=solana_format
    )
    assert built.solana_format == solana_format
    message = decode_solana_message(built.solana_tx, built.solana_format)
    assert message.recent_blockhash == blockhash
    assert message.account_keys[0] == owner  # the fee payer
    (ix,) = decoded_instructions(message)
    assert ix.program_id == MESSENGER
    # DepositForBurnParams: amount u64, destination_domain u32, mint_recipient pubkey, destination_caller
    # pubkey, max_fee u64, min_finality_threshold u32 (Borsh, little-endian).
    assert ix.data[:8] == bytes(IDL_DISCRIMINATOR)
    amount, domain, recipient, caller, max_fee, finality = struct.unpack("<QI32s32sQI", ix.data[8:])
    assert (amount, domain, recipient, caller, max_fee, finality) == (
        12_500_000,
        BASE_DOMAIN,
        EVM_RECIPIENT,
        bytes(32),
        0,
        2000,
    )
    assert len(ix.data) == 8 + 8 + 4 + 32 + 32 + 8 + 4
    assert list(ix.accounts) == [key for _, key in expected_accounts(owner, event, BASE_DOMAIN)]


def test_signers_are_the_owner_then_the_event_account_and_writable_accounts_are_the_idls() -> None:
    owner, event = Keypair().pubkey(), Keypair().pubkey()
    built = cctp_solana_deposit_for_burn_message(PROGRAMS, burn(owner, event), str(Hash.new_unique()))
    message = decode_solana_message(built.solana_tx, built.solana_format)
    assert message.header.num_required_signatures == 2
    assert list(message.account_keys[:2]) == [owner, event]
    flags = key_flags(message)
    named = dict(expected_accounts(owner, event, BASE_DOMAIN))
    # IDL: owner signer; event_rent_payer writable signer (the same key); message_sent_event_data writable
    # signer; burn_token_account, message_transmitter, local_token, burn_token_mint writable; the rest read.
    assert flags[owner] == (True, True) and flags[event] == (True, True)
    writable = {"burn_token_account", "message_transmitter", "local_token", "burn_token_mint"}
    for name, key in named.items():
        if key in (owner, event):
            continue
        assert flags[key] == (False, name in writable), name


def test_the_message_is_signed_by_both_keypairs_and_not_by_the_owner_alone() -> None:
    owner, event = Keypair(), Keypair()
    built = cctp_solana_deposit_for_burn_message(
        PROGRAMS, burn(owner.pubkey(), event.pubkey()), str(Hash.new_unique())
    )
    message = decode_solana_message(built.solana_tx, built.solana_format)
    tx = VersionedTransaction(message, [owner, event])
    assert all(tx.verify_with_results())
    with pytest.raises(SignerError, match="not enough signers"):
        VersionedTransaction(message, [owner])


def test_remote_token_messenger_seed_is_the_domain_as_decimal_text() -> None:
    owner, event = Keypair().pubkey(), Keypair().pubkey()
    for domain in (0, 3, 6, 7):
        built = cctp_solana_deposit_for_burn_message(
            PROGRAMS, burn(owner, event, destination_domain=domain), str(Hash.new_unique())
        )
        (ix,) = decoded_instructions(decode_solana_message(built.solana_tx, built.solana_format))
        assert ix.accounts[7] == pda(MESSENGER, b"remote_token_messenger", str(domain).encode())
        assert struct.unpack("<I", ix.data[16:20]) == (domain,)


def test_decoder_round_trips_and_refuses_foreign_accounts() -> None:
    owner, event = Keypair().pubkey(), Keypair().pubkey()
    original = burn(owner, event, amount=77, max_fee=5, min_finality_threshold=1000)
    built = cctp_solana_deposit_for_burn_message(PROGRAMS, original, str(Hash.new_unique()))
    (ix,) = decoded_instructions(decode_solana_message(built.solana_tx, built.solana_format))
    assert decode_cctp_solana_deposit_for_burn(PROGRAMS, ix) == original
    swapped = list(ix.accounts)
    swapped[7] = pda(MESSENGER, b"remote_token_messenger", b"0")  # another domain's messenger
    tampered = type(ix)(program_id=ix.program_id, accounts=tuple(swapped), data=ix.data)
    with pytest.raises(EncodingError, match="accounts are not the ones"):
        decode_cctp_solana_deposit_for_burn(PROGRAMS, tampered)
    other = type(ix)(program_id=TRANSMITTER, accounts=ix.accounts, data=ix.data)
    with pytest.raises(EncodingError, match="not TokenMessengerMinterV2"):
        decode_cctp_solana_deposit_for_burn(PROGRAMS, other)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"amount": 0}, "nonzero"),
        ({"amount": 1 << 64}, "u64"),
        ({"max_fee": 12_500_000}, "less than amount"),
        ({"mint_recipient": bytes(32)}, "must not be zero"),
        ({"mint_recipient": b"short"}, "32 bytes"),
        ({"min_finality_threshold": 1500}, "1000 .fast. or 2000"),
        ({"destination_domain": -1}, "u32"),
        ({"event_account": Pubkey.default()}, "keypair's public key"),
        ({"event_account": pda(MESSENGER, b"token_minter")}, "keypair's public key"),
        ({"event_account": USDC_MINT}, "fresh account"),
    ],
)
def test_burn_refuses_what_the_program_would_reject(changes: dict[str, object], message: str) -> None:
    owner, event = Keypair().pubkey(), Keypair().pubkey()
    with pytest.raises(EncodingError, match=message):
        cctp_solana_deposit_for_burn_message(PROGRAMS, burn(owner, event, **changes), str(Hash.new_unique()))


def test_event_account_that_is_the_owner_is_refused() -> None:
    owner = Keypair().pubkey()
    with pytest.raises(EncodingError, match="fresh account"):
        cctp_solana_deposit_for_burn_message(PROGRAMS, burn(owner, owner), str(Hash.new_unique()))


def test_event_account_rent_is_the_rent_exempt_minimum_of_its_size() -> None:
    # MessageSent::len for a burn body without hook data; litesvm applies the default Rent.
    assert CCTP_EVENT_ACCOUNT_SPACE == 428
    assert LiteSVM().minimum_balance_for_rent_exemption(CCTP_EVENT_ACCOUNT_SPACE) == (
        CCTP_EVENT_ACCOUNT_RENT_LAMPORTS
    )
