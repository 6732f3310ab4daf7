"""A step being resolved, what it hands to the next step, and the outcome of a whole resolution."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from engine.intents.amounts import Share
from engine.intents.drafts import AmountSpec
from engine.intents.models import Clarification

# Actions that need a protocol (or a vault) to be planned; transfer, sweep and approve-by-vault do not.
PROTOCOL_ACTIONS = frozenset(
    {"bridge", "deposit", "withdraw", "stake", "unstake", "claim", "swap", "borrow", "repay"}
    | {"lp-add", "lp-remove", "lp-collect", "approve"}
)

# Actions that move one asset on one chain and so need an asset and an amount.
ASSET_ACTIONS = frozenset(
    {"transfer", "bridge", "deposit", "withdraw", "stake", "unstake", "approve", "swap", "borrow", "repay"}
    | {"lp-add"}
)

# Actions between two chains.
CROSS_CHAIN_ACTIONS = frozenset({"bridge", "sweep"})


@dataclass(slots=True)
class Step:
    """One intent in the making; `index` is its position in the request (used in clarification ids)."""

    index: int
    action: str
    asset: str | None = None
    to_asset: str | None = None
    chain: str | None = None
    from_chain: str | None = None
    to_chain: str | None = None
    protocol: str | None = None
    recipient: str | None = None
    wallet: str | None = None
    pool_id: str | None = None
    vault_address: str | None = None
    amount: AmountSpec | None = None
    # Basis points of its quote a swap may lose, when the request states them.
    slippage_bps: int | None = None
    exact_output: bool = False
    chain_follows: bool = False
    # "wrap" or "unwrap" when the verb said which way a native coin and its wrapped token go.
    wraps: str | None = None
    # Decimal, "max" or "chained"; a Share only when the caller sizes shares itself (Facts.shares_later).
    settled_amount: Decimal | str | Share | None = None

    @property
    def source_chain(self) -> str | None:
        """The chain the step spends on."""
        return self.from_chain if self.action in CROSS_CHAIN_ACTIONS else self.chain

    def output(self) -> tuple[str, str] | None:
        """(asset, chain) the step leaves in the wallet for the next step, or None when nothing flows on."""
        if self.action == "bridge" and self.asset and self.to_chain:
            return self.asset, self.to_chain
        if self.action == "swap" and self.to_asset and self.chain:
            return self.to_asset, self.chain
        if self.action in ("withdraw", "borrow", "approve", "claim") and self.asset and self.chain:
            return self.asset, self.chain
        return None

    def landing_chain(self) -> str | None:
        """Where a following step runs by default: where this step's output lands, else where it ran."""
        if self.action in CROSS_CHAIN_ACTIONS:
            return self.to_chain
        return self.chain


@dataclass(slots=True)
class Carry:
    """What a new turn's pronoun refers to: the previous request's output (asset, chain, known amount)."""

    asset: str
    chain: str
    amount: AmountSpec | None


@dataclass(slots=True)
class Outcome:
    """Everything a resolution produced: steps, questions, a refusal, prose notes and data it wanted."""

    steps: list[Step] = field(default_factory=list)
    clarifications: list[Clarification] = field(default_factory=list)
    refusal: str | None = None
    notes: list[str] = field(default_factory=list)
    balance_needs: list[tuple[str, str]] = field(default_factory=list)
    price_needs: list[tuple[str, str]] = field(default_factory=list)
    answered: list[tuple[str, str]] = field(default_factory=list)

    def refuse(self, reason: str) -> None:
        """Record the first reason the request cannot be served."""
        if self.refusal is None:
            self.refusal = reason

    def need_balance(self, address: str, chain: str) -> None:
        if (address, chain) not in self.balance_needs:
            self.balance_needs.append((address, chain))

    def need_price(self, chain: str, asset: str) -> None:
        if (chain, asset) not in self.price_needs:
            self.price_needs.append((chain, asset))
