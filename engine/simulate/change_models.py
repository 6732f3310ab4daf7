"""Wire shapes of asset changes (ours, additive to the contract's SimulateResponse and its per-step
results): per step and for a whole plan, every balance that moved, every NFT, every allowance set or used,
and the gas paid, in token units (exact decimal strings) and in USD."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

# Fields that only a whole plan's changes fill in (or only some changes have): left out when unset, so a
# step's change reads as the step's.
_OPTIONAL: Final = ("chain", "account", "modelled", "logged", "left_over")


def _drop_optional(handler: SerializerFunctionWrapHandler, value: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = handler(value)
    return {k: v for k, v in dumped.items() if not (k in _OPTIONAL and v is None)}


class BalanceChange(BaseModel):
    """One address's balance of one asset, changed: `amount` signed in token units (null when the token
    is not in the registry and its decimals are unknown: `amount_raw` says it), `usd` signed at the
    configured price source (null when it has no price: never a guess). Native amounts are the value
    moved; gas is `gas_fee`, apart. `logged` is what the logs said when the balances read disagree (a
    token that takes a fee or rebases); `modelled` marks a bridge fill credited on its destination."""

    chain: str | None = None
    address: str
    label: str | None
    asset: str
    token: str | None
    amount: str | None
    amount_raw: str
    usd: str | None
    account: str | None = None
    logged: str | None = None
    modelled: bool | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_optional(handler, self)


class NftChange(BaseModel):
    """An ERC-721 token (a Uniswap v3 position, a Lido withdrawal request) received or sent."""

    chain: str | None = None
    address: str
    label: str | None
    collection: str
    asset: str
    token_id: str
    change: Literal["received", "sent"]

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_optional(handler, self)


class ApprovalChange(BaseModel):
    """An allowance `owner` gives `spender` over `token`: before and after, in token units and raw;
    `unlimited` when it is at least 2**255 (an approval of "everything"). In a whole plan's changes,
    `left_over` says whether the spender may still pull anything once the plan has run."""

    chain: str | None = None
    token: str
    asset: str
    owner: str
    spender: str
    spender_label: str | None
    before: str | None
    after: str | None
    before_raw: str
    after_raw: str
    unlimited: bool
    left_over: bool | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_optional(handler, self)


class Fee(BaseModel):
    """The gas (EVM: gas used x the chain's gas price) or network fee (Solana) the sender pays."""

    chain: str | None = None
    asset: str
    amount: str
    amount_raw: str
    usd: str | None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_optional(handler, self)


# A sentence's fields that only some kinds have: left out when unset.
_SENTENCE_OPTIONAL: Final = (
    "chain",
    "address",
    "amount",
    "amount_raw",
    "usd",
    "at_least",
    "modelled",
    "token_id",
    "spender",
    "spender_label",
    "unlimited",
)


class Sentence(BaseModel):
    """One sentence a wallet shows (`text`), and what it says in fields, for a client that writes the
    figures itself (the dashboard formats them and keeps the exact value on hover).

    `kind`: `send` and `receive` (the sender's own balances; an NFT carries `token_id`), `owe_more` and
    `owe_less` (the sender's debt, in its underlying asset), `gain` (another account, not a contract,
    receives: `address`), `allowed` (what `spender` may still pull after this), `gas` (what the sender
    pays). `amount` is exact and unsigned, in token units: a swap's minimum when `at_least`, what is left
    for `allowed`, the fee for `gas`; null when the token's decimals are unknown (`amount_raw` says it).
    `usd` is unsigned, null when there is no price. `chain` is set when the text names it (a plan on
    several chains)."""

    kind: Literal["send", "receive", "owe_more", "owe_less", "gain", "allowed", "gas"]
    text: str
    asset: str
    chain: str | None = None
    address: str | None = None
    amount: str | None = None
    amount_raw: str | None = None
    usd: str | None = None
    at_least: bool | None = None
    modelled: bool | None = None
    token_id: str | None = None
    spender: str | None = None
    spender_label: str | None = None
    unlimited: bool | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped: dict[str, Any] = handler(self)
        return {k: v for k, v in dumped.items() if not (k in _SENTENCE_OPTIONAL and v is None)}


class StepChanges(BaseModel):
    """What one step did, as simulated: balances (the sender's first), NFTs, allowances, its gas, and the
    same in a wallet's sentences (`sentences`: what the step did on the fork, no minimum applied)."""

    balances: list[BalanceChange]
    nfts: list[NftChange]
    approvals: list[ApprovalChange]
    gas_fee: Fee
    sentences: list[Sentence] = Field(default_factory=list)


class PlanChanges(BaseModel):
    """What the whole batch or plan did, net: per chain and address, each asset's change (those that net
    to zero left out; modelled bridge fills included and marked), NFTs, every allowance touched with what
    is left of it, the gas per chain, and the same in the sentences a wallet shows (`wording`), each with
    what it says in fields (`sentences`, one per line of `wording`, in its order)."""

    balances: list[BalanceChange]
    nfts: list[NftChange]
    approvals: list[ApprovalChange]
    gas_fees: list[Fee]
    wording: list[str]
    # Stored remedies built before sentences existed read back without them.
    sentences: list[Sentence] = Field(default_factory=list)
