"""The wire shapes of POST /intent: the request it reads and the IntentResponse it answers.

Amounts are Decimal end to end (never float). Intents and clarifications drop their None fields when
dumped, so only the fields an action needs appear on the wire.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Final, Literal

from eth_utils import is_hex_address
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
)

from engine.actions import ACTIONS
from engine.limits import INTENT_BALANCES_MAX, MAX_SLIPPAGE_BPS, MAX_TOKEN_AMOUNT, PROMPT_MAX_CHARS
from engine.numbers import TokenAmount, to_bounded_decimal
from engine.registry.addresses import is_user_address

# Contract: the literal strings `max` and `chained` are allowed in place of a number.
SymbolicAmount = Literal["max", "chained"]
Amount = Decimal | SymbolicAmount


# Per-action fields (the contract leaves them "not shown"; recorded in docs/decisions.md). A tuple entry
# means "one of these". `wallet` is set on top when the request carries several addresses of one family.
REQUIRED_FIELDS: Final[dict[str, tuple[str | tuple[str, ...], ...]]] = {
    "transfer": ("asset", "chain", "amount", "recipient"),
    "sweep": ("from_chain", "to_chain", "amount"),
    "bridge": ("asset", "from_chain", "to_chain", "amount", "protocol"),
    "deposit": ("asset", "chain", "amount", ("protocol", "vault_address")),
    "withdraw": ("asset", "chain", "amount", ("protocol", "vault_address")),
    "stake": ("asset", "chain", "amount", "protocol"),
    "unstake": ("asset", "chain", "amount", "protocol"),
    "claim": ("chain", "protocol"),
    "approve": ("asset", "chain", "amount", ("protocol", "vault_address")),
    "swap": ("asset", "to_asset", "chain", "amount", "protocol"),
    "borrow": ("asset", "chain", "amount", "protocol"),
    "repay": ("asset", "chain", "amount", "protocol"),
    "lp-add": ("asset", "chain", "amount", "protocol", "pool_id"),
    "lp-remove": ("chain", "amount", "protocol", "pool_id"),
    "lp-collect": ("chain", "protocol", "pool_id"),
}

# Fields an action may carry beyond its required ones.
OPTIONAL_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "sweep": ("asset", "recipient"),
    "bridge": ("recipient",),
    "claim": ("asset",),
    "deposit": ("vault_address", "protocol"),
    "withdraw": ("vault_address", "protocol"),
    "approve": ("vault_address", "protocol"),
    "swap": ("slippage_bps",),
}


def fields_of(action: str) -> tuple[str, ...]:
    """Every field an intent of this action may carry: required ones, their alternatives, optional ones."""
    names: list[str] = []
    for entry in (*REQUIRED_FIELDS[action], *OPTIONAL_FIELDS.get(action, ())):
        for name in entry if isinstance(entry, tuple) else (entry,):
            if name not in names:
                names.append(name)
    return tuple(names)


def _drop_none(handler: SerializerFunctionWrapHandler, value: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = handler(value)
    return {key: item for key, item in dumped.items() if item is not None}


def _user_address(value: str) -> str:
    """An EVM address (one case, or mixed case with its EIP-55 checksum) or a Solana public key, as sent."""
    evm = value[:2] in ("0x", "0X")
    if not is_user_address("evm" if evm else "solana", value):
        if evm and is_hex_address(value):
            raise ValueError(
                f"{value} fails its EIP-55 checksum: a mixed-case address with a wrong letter is a typo"
            )
        raise ValueError("must be an EVM address (0x + 40 hex) or a Solana public key (base58)")
    return value


# Names as the registry spells them, bounded and printable: a symbol ("USDC.e"), a slug ("base"), a
# protocol ("aave"). Anything else (control characters, markup, a megabyte) is refused where it enters.
Name = Annotated[str, Field(pattern=r"^[A-Za-z0-9$][A-Za-z0-9 ._+$/-]{0,39}$")]
UserAddress = Annotated[str, Field(min_length=32, max_length=44), AfterValidator(_user_address)]
# An address or an ENS name (a recipient); checked against its chain by the planner.
AddressOrName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$")]
# A pool: "USDC-WETH-500", "WETH-USDC-0.05%", a position "position:123", a token id or a pool address.
PoolId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9:._/%-]{0,99}$")]


class Wallet(BaseModel):
    """A wallet of the request: an address and the chain slug it was given for."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    address: UserAddress
    chain: Name


class Balance(BaseModel):
    """A holding the caller already knows (contract: Balance fields not shown; this is our shape)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    chain: Name
    asset: Name
    amount: TokenAmount
    address: UserAddress | None = None


class IntentRequest(BaseModel):
    """The body of POST /intent as the engine reads it (options are the gateway's business)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    prompt: str = Field(min_length=1, max_length=PROMPT_MAX_CHARS)
    wallets: tuple[Wallet, ...] = Field(min_length=1)
    balances: tuple[Balance, ...] | None = Field(None, max_length=INTENT_BALANCES_MAX)
    conversation_context: str | None = None
    clarify_follow_up: bool = False


class Intent(BaseModel):
    """One thing to do. Only the fields its action needs are set (see REQUIRED_FIELDS)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: str
    asset: Name | None = None
    to_asset: Name | None = None
    protocol: Name | None = None
    chain: Name | None = None
    from_chain: Name | None = None
    to_chain: Name | None = None
    amount: Amount | None = None
    recipient: AddressOrName | None = None
    wallet: AddressOrName | None = None
    pool_id: PoolId | None = None
    vault_address: AddressOrName | None = None
    # Swaps only: the most of its quote the swap may lose, in basis points, when the user states it; the
    # planner's default (1%, wider for small stable inputs) otherwise.
    slippage_bps: int | None = Field(default=None, ge=1, le=MAX_SLIPPAGE_BPS)
    # Bridges out of Solana only: the public key of a fresh keypair the caller generates and signs with, for
    # the CCTP MessageSent event account (docs/decisions.md). The caller supplies it at /plan; /intent never
    # infers it, so it is not in REQUIRED_FIELDS or OPTIONAL_FIELDS.
    event_account: str | None = Field(default=None, min_length=1, max_length=64)

    @field_validator("action")
    @classmethod
    def _known_action(cls, value: str) -> str:
        if value not in ACTIONS:
            raise ValueError(f"unknown action {value!r}")
        return value

    @field_validator("slippage_bps")
    @classmethod
    def _swaps_only(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and info.data.get("action") != "swap":
            raise ValueError("only a swap has a slippage")
        return value

    @field_validator("amount", mode="before")
    @classmethod
    def _exact_amount(cls, value: Any) -> Any:
        # "max" and "chained" stay symbolic; anything else is a number, read bounded (engine.numbers).
        if value is None or value in ("max", "chained"):
            return value
        return to_bounded_decimal(value)

    @field_validator("amount")
    @classmethod
    def _positive_amount(cls, value: Amount | None) -> Amount | None:
        if isinstance(value, Decimal) and (not value.is_finite() or value <= 0):
            raise ValueError("amount must be a positive finite decimal")
        if isinstance(value, Decimal) and value > MAX_TOKEN_AMOUNT:
            raise ValueError(f"amount must be at most {MAX_TOKEN_AMOUNT:.0e} (no token has a larger supply)")
        return value

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_none(handler, self)

    def missing_fields(self) -> list[str]:
        """Names of the required fields of this intent's action that are unset (empty when complete)."""
        missing: list[str] = []
        for entry in REQUIRED_FIELDS[self.action]:
            names = entry if isinstance(entry, tuple) else (entry,)
            if all(getattr(self, name) is None for name in names):
                missing.append("|".join(names))
        return missing


class ClarificationOption(BaseModel):
    """One answer the caller may pick; `id` is derived from content (e.g. `chain:base`)."""

    model_config = ConfigDict(frozen=True)

    id: str
    label: str


class Clarification(BaseModel):
    """A question asked instead of a guess; `id` is stable (e.g. `clarify_chain_0`)."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    question: str
    options: tuple[ClarificationOption, ...] = ()


class IntentResponse(BaseModel):
    """The answer of POST /intent: intents, or clarifications, or neither (an honest refusal)."""

    model_config = ConfigDict(frozen=True)

    reasoning: str
    suggested_name: str
    kind: Literal["transactional"] = "transactional"
    intents: tuple[Intent, ...] = ()
    clarifications: tuple[Clarification, ...] = ()

    def wire(self) -> dict[str, Any]:
        """The response as plain data with Decimal amounts kept (the gateway prints them as JSON numbers)."""
        return self.model_dump(mode="python")
