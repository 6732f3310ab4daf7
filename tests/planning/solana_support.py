"""Test helpers over the devnet's LiteSVM-backed Solana JSON-RPC (devnet.solana): reading a wallet's
token balance and executing a planned step signed as a wallet would."""

from __future__ import annotations

from typing import Any

from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.token.state import TokenAccount
from solders.transaction import VersionedTransaction
from solders.transaction_metadata import FailedTransactionMetadata, TransactionMetadata

from devnet.solana import SolanaRpc, give_tokens, install_mint, solana_rpc
from engine.encoders import associated_token_address, decode_solana_message

__all__ = ["SolanaRpc", "execute", "give_tokens", "install_mint", "solana_rpc", "token_amount"]


def token_amount(svm: LiteSVM, owner: Pubkey, mint: str) -> int:
    account = svm.get_account(associated_token_address(str(owner), mint))
    return 0 if account is None else TokenAccount.from_bytes(bytes(account.data)).amount


def execute(svm: LiteSVM, step: dict[str, Any], signer: Keypair) -> TransactionMetadata:
    """Sign a planned step's exact message bytes with `signer` as a wallet would, and run them; raises
    AssertionError with the program logs when the transaction fails."""
    message = decode_solana_message(step["solana_tx"], step["solana_format"])
    result = svm.send_transaction(VersionedTransaction(message, [signer]))
    if isinstance(result, FailedTransactionMetadata):
        raise AssertionError(f"{step['description']} failed: {result.err()} {result.meta().logs()}")
    return result
