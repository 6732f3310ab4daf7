"""A modelled CCTP mint into Solana landed in litesvm (watchers.upstreams.simulation_spl): it adds to an
existing token account, creates a wallet's associated token account when absent, and refuses what it
cannot land with the reason."""

from __future__ import annotations

from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.token.state import TokenAccount

from devnet.solana import give_tokens, install_mint
from engine.encoders.solana import associated_token_address
from engine.simulate import SplCredit
from watchers.upstreams.simulation_spl import land_spl

MINT = str(Keypair().pubkey())


def world() -> LiteSVM:
    svm = LiteSVM()
    install_mint(svm, MINT, 6)
    return svm


def balance(svm: LiteSVM, account: str) -> TokenAccount:
    found = svm.get_account(Pubkey.from_string(account))
    assert found is not None
    return TokenAccount.from_bytes(bytes(found.data))


def test_an_existing_account_is_raised_by_the_amount() -> None:
    svm, owner = world(), Keypair().pubkey()
    account = str(give_tokens(svm, MINT, owner, 5))
    outcome = land_spl(svm, SplCredit(account, MINT, 6, 7, ()))
    assert outcome.success, outcome.error
    held = balance(svm, account)
    assert (held.amount, held.owner) == (12, owner)


def test_an_absent_account_is_created_for_the_wallet_it_derives_from() -> None:
    svm, owner = world(), Keypair().pubkey()
    account = str(associated_token_address(str(owner), MINT))
    other = str(Keypair().pubkey())
    outcome = land_spl(svm, SplCredit(account, MINT, 6, 9, (other, str(owner))))
    assert outcome.success, outcome.error
    held = balance(svm, account)
    assert (held.amount, held.owner, str(held.mint)) == (9, owner, MINT)


def test_an_absent_account_of_no_known_wallet_is_not_landed() -> None:
    svm = world()
    account = str(Keypair().pubkey())
    outcome = land_spl(svm, SplCredit(account, MINT, 6, 9, (str(Keypair().pubkey()),)))
    assert not outcome.success
    assert outcome.error == (
        f"the mint recipient {account} does not exist and is not the associated token account of a wallet "
        "in this call, so its owner is unknown"
    )
    assert svm.get_account(Pubkey.from_string(account)) is None


def test_a_mint_whose_decimals_differ_from_the_registry_is_refused() -> None:
    svm, owner = world(), Keypair().pubkey()
    account = str(give_tokens(svm, MINT, owner, 5))
    outcome = land_spl(svm, SplCredit(account, MINT, 9, 7, ()))
    assert outcome.error == f"the mint {MINT} has 6 decimals on the cluster, not the registry's 9"
    assert balance(svm, account).amount == 5
