"""A modelled CCTP mint into Solana, landed in litesvm before a batch's messages run: the mint recipient's
SPL token account raised by the fill's amount (created as a wallet's associated token account when
absent, in the SPL Token account layout), then read back. CCTP's Solana programs ship no binary, so the
mint itself cannot run; this is what it would leave behind."""

from __future__ import annotations

from solders.account import Account
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.token.state import Mint, TokenAccount, TokenAccountState

from engine.encoders.solana import TOKEN_PROGRAM_ID, associated_token_address
from engine.simulate import Holding, Observed, SplCredit, SvmOutcome

# An SPL token amount is a u64 (SPL Token's Account layout).
MAX_TOKEN_AMOUNT = 2**64 - 1


def land_spl(svm: LiteSVM, credit: SplCredit) -> SvmOutcome:
    """Credit `credit` in `svm`; the outcome's error says why it could not be landed."""
    try:
        account, mint = Pubkey.from_string(credit.account), Pubkey.from_string(credit.mint)
    except ValueError as exc:
        return _failed(f"the mint recipient or mint is not a Solana address: {exc}")
    problem = _mint_problem(svm.get_account(mint), credit)
    if problem is not None:
        return _failed(problem)
    current = svm.get_account(account)
    if current is None:
        owner = next((o for o in credit.owners if associated_token_address(o, credit.mint) == account), None)
        if owner is None:
            return _failed(
                f"the mint recipient {credit.account} does not exist and is not the associated token "
                "account of a wallet in this call, so its owner is unknown"
            )
        before = 0
        holding = _holding(mint, Pubkey.from_string(owner), credit.amount)
        lamports = svm.minimum_balance_for_rent_exemption(len(bytes(holding)))
    else:
        if current.owner != TOKEN_PROGRAM_ID:
            return _failed(f"the mint recipient {credit.account} is not an SPL token account")
        try:
            found = TokenAccount.from_bytes(bytes(current.data))
        except ValueError:
            return _failed(f"the mint recipient {credit.account} is not an SPL token account")
        if found.mint != mint:
            return _failed(f"the mint recipient {credit.account} holds mint {found.mint}, not {credit.mint}")
        if found.state != TokenAccountState.Initialized:
            return _failed(f"the mint recipient {credit.account} is frozen or not initialized")
        before = found.amount
        if before + credit.amount > MAX_TOKEN_AMOUNT:
            return _failed("the credited balance would overflow a u64")
        holding = _holding(mint, found.owner, before + credit.amount, found)
        lamports = current.lamports
    svm.set_account(account, Account(lamports=lamports, data=bytes(holding), owner=TOKEN_PROGRAM_ID))
    landed = svm.get_account(account)
    read = TokenAccount.from_bytes(bytes(landed.data)).amount if landed is not None else None
    if read != before + credit.amount:
        return _failed(f"the token account reads {read} after the credit, not {before + credit.amount}")
    return SvmOutcome(success=True, compute_units=0, fee=0)


def _mint_problem(found: Account | None, credit: SplCredit) -> str | None:
    if found is None or found.owner != TOKEN_PROGRAM_ID:
        return f"the mint {credit.mint} is not an SPL mint on the cluster"
    try:
        decimals = Mint.from_bytes(bytes(found.data)).decimals
    except ValueError:
        return f"the mint {credit.mint} is not an SPL mint on the cluster"
    if decimals != credit.decimals:
        return f"the mint {credit.mint} has {decimals} decimals on the cluster, not the registry's {credit.decimals}"
    return None


def _holding(mint: Pubkey, owner: Pubkey, amount: int, like: TokenAccount | None = None) -> TokenAccount:
    # An existing account keeps its delegate, native flag and close authority; only the amount moves.
    return TokenAccount(
        mint=mint,
        owner=owner,
        amount=amount,
        delegate=like.delegate if like else None,
        state=TokenAccountState.Initialized,
        is_native=like.is_native if like else None,
        delegated_amount=like.delegated_amount if like else 0,
        close_authority=like.close_authority if like else None,
    )


def _failed(why: str) -> SvmOutcome:
    return SvmOutcome(success=False, compute_units=0, fee=0, error=why)


def observe_svm(
    before: dict[Pubkey, Account | None], after: dict[Pubkey, Account | None], payer: Pubkey, fee: int
) -> Observed:
    """What a message did to the accounts it names: every lamport balance that moved (the fee payer's
    with the fee added back: the fee is reported apart, as EVM gas is), and every SPL token account's
    amount, by its owner and mint. A token account's lamports (its rent) count as its owner's."""
    holdings: list[Holding] = []
    for key, old in before.items():
        new = after.get(key)
        held_before, held_after = _token(old), _token(new)
        token = held_after or held_before
        owner = str(token.owner) if token is not None else str(key)
        lamports_before = old.lamports if old is not None else 0
        lamports_after = new.lamports if new is not None else 0
        if key == payer:
            lamports_after += fee
        if lamports_before != lamports_after:
            holdings.append(Holding(None, owner, lamports_before, lamports_after, account=str(key)))
        if token is not None:
            amount_before = held_before.amount if held_before is not None else 0
            amount_after = held_after.amount if held_after is not None else 0
            if amount_before != amount_after:
                holdings.append(
                    Holding(str(token.mint), owner, amount_before, amount_after, account=str(key))
                )
    return Observed(holdings=tuple(holdings))


def _token(account: Account | None) -> TokenAccount | None:
    if account is None or account.owner != TOKEN_PROGRAM_ID:
        return None
    try:
        return TokenAccount.from_bytes(bytes(account.data))
    except ValueError:
        return None  # a mint, or another account of the token program
