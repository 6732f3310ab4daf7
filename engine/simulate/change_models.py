"""Wire shapes of asset changes (ours, additive to the contract's SimulateResponse and its per-step
results): per step and for a whole plan, every balance that moved, every NFT, every allowance set or used,
and the gas paid, in token units (exact decimal strings) and in USD."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

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


class StepChanges(BaseModel):
    """What one step did, as simulated: balances (the sender's first), NFTs, allowances, its gas."""

    balances: list[BalanceChange]
    nfts: list[NftChange]
    approvals: list[ApprovalChange]
    gas_fee: Fee


class PlanChanges(BaseModel):
    """What the whole batch or plan did, net: per chain and address, each asset's change (those that net
    to zero left out; modelled bridge fills included and marked), NFTs, every allowance touched with what
    is left of it, the gas per chain, and the same in the sentences a wallet shows (`wording`)."""

    balances: list[BalanceChange]
    nfts: list[NftChange]
    approvals: list[ApprovalChange]
    gas_fees: list[Fee]
    wording: list[str]
