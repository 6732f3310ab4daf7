"""Wire shapes of POST /plan and POST /steps/reencode (contract: Step, PlanResponse, ReencodeResponse)."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from engine.intents.models import Intent, Name
from engine.limits import MAX_SLIPPAGE_BPS, PLAN_INTENTS_MAX, PLAN_WALLETS_MAX, UNISWAP_FEE_TIERS
from engine.numbers import TokenAmount

# Contract: a Solana step carries its message as base64 in one of these formats (values decided in
# docs/decisions.md): the exact bytes the wallet signs, legacy or v0.
SOLANA_FORMATS: Final = ("legacy_message_base64", "v0_message_base64")


# Bounds of the fields a caller sends back (a step to re-encode or simulate): each is what the planner
# writes, so anything else is refused where it enters, naming the field, rather than echoed or computed on.
UINT256_MAX: Final = 2**256 - 1
# Calldata this service plans stays under 2 KiB (a swap's multicall is the largest); 32 KiB leaves room.
MAX_CALLDATA_HEX: Final = 2 * 32 * 1024
# A Solana transaction is at most 1,232 bytes (PACKET_DATA_SIZE), 1,644 characters in base64.
MAX_SOLANA_TX_CHARS: Final = 2048
MAX_DESCRIPTION_CHARS: Final = 2000
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,31}$")]
Label = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9 _-]{0,31}$")]
# A symbol, or a pool's two symbols (or addresses) joined by "/".
Symbol = Annotated[str, Field(pattern=r"^[A-Za-z0-9$][A-Za-z0-9./+_$-]{0,99}$")]
StepKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
AddressText = Annotated[str, Field(pattern=r"^[0-9A-Za-z]{32,64}$")]
EvmAddressText = Annotated[str, Field(pattern=r"^0x[0-9a-fA-F]{40}$")]
Calldata = Annotated[str, Field(pattern=r"^0x([0-9a-fA-F]{2})*$", max_length=2 + MAX_CALLDATA_HEX)]
Base64 = Annotated[str, Field(pattern=r"^[A-Za-z0-9+/]*={0,2}$", max_length=MAX_SOLANA_TX_CHARS)]


def _uint256(value: str) -> str:
    if int(value) > UINT256_MAX:
        raise ValueError("must be at most 2**256 - 1 (a uint256)")
    return value


def _printable(value: str) -> str:
    if any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in value):
        raise ValueError("must not contain control characters")
    return value


Wei = Annotated[str, Field(pattern=r"^[0-9]{1,78}$"), AfterValidator(_uint256)]
Description = Annotated[str, Field(max_length=MAX_DESCRIPTION_CHARS), AfterValidator(_printable)]


def _drop_none(handler: SerializerFunctionWrapHandler, value: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = handler(value)
    return {key: item for key, item in dumped.items() if item is not None}


class Holding(BaseModel):
    """A balance the caller already knows (Wallet.balances; contract: Balance fields not shown)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    asset: Name
    amount: TokenAmount


class PlanWallet(BaseModel):
    """A wallet of a /plan request: address, chain, and optionally its on-chain balances."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    address: str = Field(min_length=1, max_length=64, pattern=r"^[0-9A-Za-z]+$")
    chain: Name
    balances: tuple[Holding, ...] | None = Field(None, max_length=64)


class PlanOptions(BaseModel):
    """Run options of POST /plan (ours, additive). `verify`: run the plan on a fork and prove its effect
    matches the intents before answering (docs/simulate.md, "The effect check")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verify: bool = False


class PlanRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    intents: tuple[Intent, ...] = Field(min_length=1, max_length=PLAN_INTENTS_MAX)
    wallets: tuple[PlanWallet, ...] = Field(min_length=1, max_length=PLAN_WALLETS_MAX)
    options: PlanOptions | None = None

    @property
    def verify(self) -> bool:
        return self.options is not None and self.options.verify


class Chained(BaseModel):
    """The amount of a step sized by an earlier step's output; re-encode it at sign time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    from_key: StepKey
    estimate_amount: TokenAmount
    min_output: TokenAmount


class PinnedRoute(BaseModel):
    """What a step was quoted on, so /steps/reencode can re-quote the same route (ours: Step extension)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["uniswap-v3", "across", "cctp"]
    # Uniswap v3's fee tiers in hundredths of a bip (a pool exists only at these).
    fee_tier: Literal[UNISWAP_FEE_TIERS] | None = None  # type: ignore[valid-type]
    token_out: Symbol | None = None
    output_asset: Symbol | None = None
    to_chain: Slug | None = None
    # A swap always keeps a positive minimum: at most MAX_SLIPPAGE_BPS of the quote may be lost.
    slippage_bps: int | None = Field(None, ge=1, le=MAX_SLIPPAGE_BPS)
    quoted_at: int | None = Field(None, ge=0, le=2**40)  # unix seconds

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_none(handler, self)


class Step(BaseModel):
    """One unsigned transaction. EVM steps carry to/data/value; Solana steps solana_tx/solana_format."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    order: int = Field(ge=1, le=1000)
    type: Slug
    chain: Slug
    protocol: Slug
    action_type: Label
    asset: Symbol
    amount: TokenAmount
    description: Description
    key: StepKey | None = None
    wallet: AddressText | None = None
    to: EvmAddressText | None = None
    data: Calldata | None = None
    value: Wei | None = None
    wait_for_bridge: bool | None = None
    chained: Chained | None = None
    route: PinnedRoute | None = None
    solana_tx: Base64 | None = None
    solana_format: Literal[SOLANA_FORMATS] | None = None  # type: ignore[valid-type]
    # Solana steps signed by more than the fee payer (docs/decisions.md): every signer's base58 public key
    # in the message's signer order, the fee payer first. Absent on single-signer and EVM steps.
    solana_signers: tuple[AddressText, ...] | None = Field(None, max_length=8)

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
    # Per step, the index of the request's intent it serves (not on the wire: the effect check reads it).
    _served: tuple[int, ...] = PrivateAttr(default=())

    @property
    def served(self) -> tuple[int, ...]:
        return self._served

    @served.setter
    def served(self, value: tuple[int, ...]) -> None:
        self._served = value


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
