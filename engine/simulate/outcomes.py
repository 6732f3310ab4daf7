"""What an executor hands back for each step it ran: the seam between the pure /simulate logic and the
EVM fork or Solana runtime that does the running (watchers.upstreams.simulation)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Credit:
    """A modelled bridge fill: `amount` raw units of `token` (None: the native asset) added to `holder`'s
    balance on the destination fork, as the relayer's fill or the mint would."""

    holder: str
    token: str | None
    amount: int


@dataclass(frozen=True, slots=True)
class SplCredit:
    """A modelled CCTP mint into Solana: `amount` raw units of `mint` (`decimals`, the registry's) added to
    the SPL token account `account`. An absent account is created as the associated token account of the
    one wallet among `owners` it derives from, as the recipient's own create-account step would."""

    account: str
    mint: str
    decimals: int
    amount: int
    owners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DepositWatch:
    """What a bridge deposit must do on its own chain: `amount` raw units of `token` (None: native) leave
    `holder`, and the bridge contract emits a log carrying that amount."""

    holder: str
    token: str | None
    amount: int
    bridge: str


@dataclass(frozen=True, slots=True)
class EvmCall:
    """One EVM transaction to run from the sender: target, calldata and native value in wei.

    `needs` are indices of earlier entries of the same batch this one depends on: when one of them failed
    it is not run. An entry with `credit` is no transaction: it lands a modelled fill on the fork."""

    to: str
    data: bytes
    value: int
    needs: tuple[int, ...] = ()
    credit: Credit | None = None
    watch: DepositWatch | None = None


@dataclass(frozen=True, slots=True)
class NestedRevert:
    """An inner call that reverted below a top-level call that succeeded: its target and revert data."""

    to: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Credited:
    """A fill landed on the fork: the holder's balance read back by balanceOf (or the native balance),
    and for an ERC-20 the storage key written (found by probing the token's balance mapping)."""

    balance: int
    storage_key: bytes | None = None


@dataclass(frozen=True, slots=True)
class DepositEffect:
    """A watched deposit's effects on its fork: how much left the holder, and whether the bridge
    contract logged the amount."""

    sent: int
    logged: bool


@dataclass(frozen=True, slots=True)
class Holding:
    """One holder's balance of one asset around a step: `token` is the ERC-20 contract or SPL mint (None:
    the native asset, in wei or lamports), `before` and `after` the balances read on the fork, `logged`
    what the step's Transfer, Deposit and Withdrawal logs say moved for the holder (None: no log speaks of
    it, as for native value). On Solana `account` is the token account (or, for lamports, the account
    itself) and `holder` its owner."""

    token: str | None
    holder: str
    before: int
    after: int
    logged: int | None = None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class AllowanceSeen:
    """An ERC-20 allowance around a step: the step set it (an Approval log, an approve call) or an earlier
    step of the batch did and this one may have used it."""

    token: str
    owner: str
    spender: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class NftMoved:
    """An ERC-721 token moved by a step (a Transfer log with its id indexed): minted from, or burned to, the
    zero address."""

    token: str
    token_id: int
    sender: str
    recipient: str


@dataclass(frozen=True, slots=True)
class Observed:
    """What a step did to balances, read on the fork around it. `holdings` lists every balance that moved
    (and the ones its logs name); `contracts` are the lower-case holders that hold code (the rest are
    accounts a person or a program key controls)."""

    holdings: tuple[Holding, ...] = ()
    allowances: tuple[AllowanceSeen, ...] = ()
    nfts: tuple[NftMoved, ...] = ()
    contracts: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class EvmOutcome:
    """A run EVM transaction. On failure exactly one of `revert_data` (a REVERT, possibly empty) or
    `failure` (a halt such as out of gas, or a transaction the EVM refused, in words) is set; an entry
    not run because an entry it needs failed has `skipped_for` (that entry's index) instead."""

    success: bool
    gas_used: int
    revert_data: bytes | None = None
    failure: str | None = None
    nested: NestedRevert | None = None
    skipped_for: int | None = None
    credited: Credited | None = None
    deposit: DepositEffect | None = None
    observed: Observed | None = None


@dataclass(frozen=True, slots=True)
class SolanaMessage:
    """One step's unsigned Solana message as the Step carries it."""

    solana_tx: str
    solana_format: str
    wallet: str


@dataclass(frozen=True, slots=True)
class SvmOutcome:
    """A run Solana transaction: compute units consumed, the fee in lamports, and on failure the failing
    instruction's reason and log."""

    success: bool
    compute_units: int
    fee: int
    error: str | None = None
    observed: Observed | None = None
