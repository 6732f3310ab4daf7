"""Wire shapes of POST /plan and POST /steps/reencode (contract: Step, PlanResponse, ReencodeResponse)."""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from engine.intents.models import Intent
from engine.limits import PLAN_INTENTS_MAX, PLAN_WALLETS_MAX
from engine.numbers import TokenAmount

# Contract: a Solana step carries its message as base64 in one of these formats (values decided in
# docs/decisions.md): the exact bytes the wallet signs, legacy or v0.
SOLANA_FORMATS: Final = ("legacy_message_base64", "v0_message_base64")


def _drop_none(handler: SerializerFunctionWrapHandler, value: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = handler(value)
    return {key: item for key, item in dumped.items() if item is not None}


class Holding(BaseModel):
    """A balance the caller already knows (Wallet.balances; contract: Balance fields not shown)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    asset: str = Field(min_length=1)
    amount: TokenAmount


class PlanWallet(BaseModel):
    """A wallet of a /plan request: address, chain, and optionally its on-chain balances."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    address: str = Field(min_length=1, max_length=64)
    chain: str = Field(min_length=1)
    balances: tuple[Holding, ...] | None = None


class PlanRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    intents: tuple[Intent, ...] = Field(min_length=1, max_length=PLAN_INTENTS_MAX)
    wallets: tuple[PlanWallet, ...] = Field(min_length=1, max_length=PLAN_WALLETS_MAX)


class Chained(BaseModel):
    """The amount of a step sized by an earlier step's output; re-encode it at sign time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    from_key: str
    estimate_amount: TokenAmount
    min_output: TokenAmount


class PinnedRoute(BaseModel):
    """What a step was quoted on, so /steps/reencode can re-quote the same route (ours: Step extension)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str  # "uniswap-v3" | "across" | "cctp"
    fee_tier: int | None = None
    token_out: str | None = None
    output_asset: str | None = None
    to_chain: str | None = None
    slippage_bps: int | None = None
    quoted_at: int | None = None  # unix seconds

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_none(handler, self)


class Step(BaseModel):
    """One unsigned transaction. EVM steps carry to/data/value; Solana steps solana_tx/solana_format."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    order: int = Field(ge=1)
    type: str
    chain: str
    protocol: str
    action_type: str
    asset: str
    amount: TokenAmount
    description: str
    key: str | None = None
    wallet: str | None = None
    to: str | None = None
    data: str | None = None
    value: str | None = None
    wait_for_bridge: bool | None = None
    chained: Chained | None = None
    route: PinnedRoute | None = None
    solana_tx: str | None = None
    solana_format: str | None = None
    # Solana steps signed by more than the fee payer (docs/decisions.md): every signer's base58 public key
    # in the message's signer order, the fee payer first. Absent on single-signer and EVM steps.
    solana_signers: tuple[str, ...] | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_none(handler, self)


class PlanSummary(BaseModel):
    total_after_fees: str
    bridge_count: int
    est_fee_usd: str


class PlanResponse(BaseModel):
    steps: list[Step]
    summary: PlanSummary


class ReencodeRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    step: Step
    actual_amount: TokenAmount = Field(gt=0)


class ReencodeResponse(BaseModel):
    """EVM steps get fresh `data` and `value`; a re-encoded Solana step gets a fresh message in
    `solana_tx`/`solana_format` instead (ours, docs/decisions.md), signed by the step's solana_signers."""

    ok: bool
    data: str | None = None
    amount_raw: str | None = None
    value: str | None = None
    solana_tx: str | None = None
    solana_format: str | None = None
    unsupported_reason: str | None = None
    quoted_at: int

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_none(handler, self)
