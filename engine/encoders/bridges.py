"""Bridge deposits: Across SpokePool depositV3 and Circle CCTP TokenMessenger depositForBurn, with the
bytes32 mint recipient CCTP wants for EVM and Solana destinations."""

from __future__ import annotations

from solders.pubkey import Pubkey
from solders.token.associated import get_associated_token_address

from engine.encoders.call import Call
from engine.encoders.contract_abi import load_abi
from engine.encoders.errors import EncodingError
from engine.encoders.evm_values import checked_address, checked_uint, hex_bytes

__all__ = [
    "ZERO_ADDRESS",
    "across_deposit_v3",
    "cctp_deposit_for_burn",
    "cctp_mint_recipient",
    "cctp_solana_usdc_mint_recipient",
]

ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"


def across_deposit_v3(
    spoke_pool: str,
    *,
    depositor: str,
    recipient: str,
    input_token: str,
    output_token: str,
    input_amount: int,
    output_amount: int,
    destination_chain_id: int,
    quote_timestamp: int,
    fill_deadline: int,
    exclusive_relayer: str = ZERO_ADDRESS,
    exclusivity_deadline: int = 0,
    message: bytes | str = b"",
    native_in: bool = False,
) -> Call:
    """Across SpokePool `depositV3(...)`. input_amount and output_amount are raw units of their own tokens
    (the difference is the relayer fee quoted by Across). With native_in the call sends input_amount wei and
    input_token must be the pool's wrapped native token (SpokePool reverts MsgValueDoesNotMatchInputAmount
    otherwise). No exclusive relayer by default."""
    data = (
        load_abi("across_spoke_pool")
        .function("depositV3")
        .encode(
            checked_address(depositor, "depositor"),
            checked_address(recipient, "recipient"),
            checked_address(input_token, "input_token"),
            checked_address(output_token, "output_token"),
            checked_uint(input_amount, 256, "input_amount"),
            checked_uint(output_amount, 256, "output_amount"),
            checked_uint(destination_chain_id, 256, "destination_chain_id"),
            checked_address(exclusive_relayer, "exclusive_relayer"),
            checked_uint(quote_timestamp, 32, "quote_timestamp"),
            checked_uint(fill_deadline, 32, "fill_deadline"),
            checked_uint(exclusivity_deadline, 32, "exclusivity_deadline"),
            hex_bytes(message, "message"),
        )
    )
    return Call(to=spoke_pool, data=data, value=input_amount if native_in else 0)


def cctp_mint_recipient(address: str) -> bytes:
    """The bytes32 `mintRecipient` of CCTP for `address`: an EVM address (0x-hex) left-padded with zeros, or
    a Solana address (base58) as its 32 bytes. For a Solana destination the address must be the USDC token
    account that receives the mint, not the owner wallet (see cctp_solana_usdc_mint_recipient).
    Raises EncodingError for anything else."""
    if address.startswith("0x"):
        return bytes(12) + bytes.fromhex(checked_address(address, "mint recipient")[2:])
    try:
        return bytes(Pubkey.from_string(address))
    except ValueError as exc:
        raise EncodingError(f"mint recipient must be an EVM or Solana address, got {address!r}") from exc


def cctp_solana_usdc_mint_recipient(owner: str, usdc_mint: str) -> bytes:
    """The bytes32 `mintRecipient` for minting to Solana wallet `owner`: its associated token account for
    `usdc_mint`. Circle's docs: "For Solana, the mint recipient is the associated token account for the
    USDC mint and recipient owner" (developers.circle.com/cctp/howtos/withdraw-usdc-from-hypercore-to-solana).
    The account must exist before the mint on Solana; creating it is the recipient side's step."""
    try:
        owner_key, mint_key = Pubkey.from_string(owner), Pubkey.from_string(usdc_mint)
    except ValueError as exc:
        raise EncodingError(f"owner and usdc_mint must be Solana addresses: {exc}") from exc
    return bytes(get_associated_token_address(owner_key, mint_key))


def cctp_deposit_for_burn(
    token_messenger: str, amount: int, destination_domain: int, mint_recipient: bytes, burn_token: str
) -> Call:
    """CCTP v1 TokenMessenger `depositForBurn(amount, destinationDomain, mintRecipient, burnToken)`: burns
    raw `amount` of `burn_token` (USDC) to be minted to `mint_recipient` (32 bytes, see
    cctp_mint_recipient) on the CCTP domain `destination_domain`."""
    if not isinstance(mint_recipient, bytes) or len(mint_recipient) != 32:
        raise EncodingError("mint_recipient must be 32 bytes (see cctp_mint_recipient)")
    if not any(mint_recipient):
        raise EncodingError("mint_recipient must not be zero (TokenMessenger rejects it)")
    data = (
        load_abi("cctp_token_messenger")
        .function("depositForBurn")
        .encode(
            checked_uint(amount, 256, "amount"),
            checked_uint(destination_domain, 32, "destination_domain"),
            mint_recipient,
            checked_address(burn_token, "burn_token"),
        )
    )
    return Call(to=token_messenger, data=data)
