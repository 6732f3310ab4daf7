"""Typed agent create bodies, one pydantic model per kind, with every rule of the contract's
"Typed agent create fields" table, plus the plain-English create body."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from engine.agents.errors import field_error
from engine.agents.fields import (
    ExactDecimal,
    NonNegativeDecimal,
    PositiveDecimal,
    Wallets,
    to_decimal,
    to_int,
)
from engine.agents.kinds import Kind, health_kind
from engine.agents.timezones import check_timezone
from engine.agents.vocabulary import chain_slugs, evm_chain_slugs
from engine.agents.wallets import check_wallet_address, is_evm_address
from engine.limits import AGENT_REQUEST_MAX_CHARS, AGENT_REQUEST_MIN_CHARS, HEALTH_THRESHOLD_MAX

REQUEST_MIN_CHARS = AGENT_REQUEST_MIN_CHARS
REQUEST_MAX_CHARS = AGENT_REQUEST_MAX_CHARS
# A health factor, never a percent.
HEALTH_THRESHOLD_LIMIT = Decimal(HEALTH_THRESHOLD_MAX)
# Bounds of free-text fields; not in the contract, chosen to keep stored rows and rendered lines small.
SYMBOL_MAX_CHARS = 20
ID_MAX_CHARS = 128
LABEL_MAX_CHARS = 200

Direction = Literal["above", "below"]
YieldMetric = Literal["apy", "supplyApy", "borrowApy"]
MovementWindow = Literal["24h", "7d"]
Cadence = Literal["daily", "weekly", "monthly"]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAYS: tuple[Weekday, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# CoinGecko ids are lowercase words joined by hyphens ("ethereum", "usd-coin", "avalanche-2").
_COINGECKO_ID_RE = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")
# DefiLlama project slugs are lowercase words joined by hyphens ("aave-v3", "sparklend").
_PROTOCOL_SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _check_coingecko_id(value: str) -> str:
    if value != value.lower():
        raise ValueError(
            f'coingecko_id must be the literal lowercase CoinGecko id such as "ethereum" for ETH, '
            f'not a ticker like "{value}"; the service does not resolve tickers'
        )
    if _COINGECKO_ID_RE.fullmatch(value) is None:
        raise ValueError('coingecko_id must be a CoinGecko id such as "ethereum" or "usd-coin"')
    return value


def _check_chain(value: str) -> str:
    if value not in chain_slugs():
        raise ValueError(f"unknown chain {value!r}; expected one of {', '.join(chain_slugs())}")
    return value


def _check_evm_chain(value: str) -> str:
    if value not in evm_chain_slugs():
        raise ValueError(f"health agents watch an EVM chain: one of {', '.join(evm_chain_slugs())}")
    return value


def _check_protocol_slug(value: str) -> str:
    if _PROTOCOL_SLUG_RE.fullmatch(value) is None:
        raise ValueError('protocol must be a lowercase slug such as "aave-v3"')
    return value


def _health_threshold(value: object) -> Decimal:
    if isinstance(value, str) and value.strip().endswith("%"):
        raise ValueError("threshold is a health factor such as 1.5, never a percent")
    number = to_decimal(value)
    if number >= HEALTH_THRESHOLD_LIMIT:
        raise ValueError("threshold must be below 100: it is a health factor such as 1.5, not a percent")
    if number <= 0:
        raise ValueError("threshold must be greater than 0")
    return number


def _lowercase_weekday(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


Symbol = Annotated[str, Field(min_length=1, max_length=SYMBOL_MAX_CHARS, pattern=r"^\S+$")]
CoingeckoId = Annotated[
    str, Field(min_length=1, max_length=ID_MAX_CHARS), AfterValidator(_check_coingecko_id)
]
ChainSlug = Annotated[str, AfterValidator(_check_chain)]
EvmChainSlug = Annotated[str, AfterValidator(_check_evm_chain)]
ProtocolSlug = Annotated[str, Field(max_length=ID_MAX_CHARS), AfterValidator(_check_protocol_slug)]
HealthThreshold = Annotated[Decimal, BeforeValidator(_health_threshold)]
Hour = Annotated[int, BeforeValidator(to_int), Field(ge=0, le=23)]
Minute = Annotated[int, BeforeValidator(to_int), Field(ge=0, le=59)]
DayOfMonth = Annotated[int, BeforeValidator(to_int), Field(ge=1, le=31)]
DayOfWeek = Annotated[Weekday, BeforeValidator(_lowercase_weekday)]
Timezone = Annotated[str, AfterValidator(check_timezone)]


class _TypedCreate(BaseModel):
    # Unknown fields are rejected so a misspelt field (`threshhold`) is a 400, not a silently ignored option.
    model_config = ConfigDict(extra="forbid", frozen=True)

    wallets: Wallets


class PriceAgentCreate(_TypedCreate):
    """A price agent. Level mode (no pct_change): fires when the USD price crosses `threshold` in the
    `condition` direction. Percent mode (pct_change given): fires on a move of pct_change percent from the
    reference (base_price, or the price at the first check when absent), up for `above`, down for `below`;
    `threshold` then carries the same percent and must equal pct_change."""

    kind: Literal["price"]
    asset_symbol: Symbol
    coingecko_id: CoingeckoId
    condition: Direction
    threshold: PositiveDecimal
    pct_change: PositiveDecimal | None = None
    base_price: PositiveDecimal | None = None

    @model_validator(mode="after")
    def _percent_mode_is_consistent(self) -> PriceAgentCreate:
        if self.base_price is not None and self.pct_change is None:
            raise field_error(
                "base_price", "base_price is the reference of a percent move and needs pct_change"
            )
        if self.pct_change is not None and self.threshold != self.pct_change:
            raise field_error(
                "threshold", "in percent mode threshold is the percent move and must equal pct_change"
            )
        return self

    @property
    def public_kind(self) -> Kind:
        return Kind.PRICE


class YieldAgentCreate(_TypedCreate):
    """A yield agent: fires when `metric` (percent units, 5 means 5%) of the pool crosses `threshold`."""

    kind: Literal["yield"]
    pool_id: Annotated[str, Field(min_length=1, max_length=ID_MAX_CHARS)]
    protocol: ProtocolSlug
    chain: ChainSlug
    asset: Symbol
    condition: Direction
    threshold: NonNegativeDecimal
    metric: YieldMetric = "apy"

    @property
    def public_kind(self) -> Kind:
        return Kind.YIELD


class HealthAgentCreate(_TypedCreate):
    """A health-factor agent: fires when the health factor of the watched address falls to or below
    `threshold` (always the below direction). kind may be `health` with protocol, or protocol-specific."""

    kind: Literal["health", "aave-health", "spark-health"]
    protocol: Literal["aave", "spark"] | None = None
    chain: EvmChainSlug
    threshold: HealthThreshold
    target_wallet: (
        Annotated[str, Field(pattern=r"^0x[0-9a-fA-F]{40}$"), AfterValidator(check_wallet_address)] | None
    ) = None

    @model_validator(mode="before")
    @classmethod
    def _protocol_from_kind(cls, data: object) -> object:
        # A protocol-specific kind (as listings show it) names the protocol; fill it in when absent.
        if isinstance(data, dict) and data.get("protocol") is None:
            kind = data.get("kind")
            if kind in ("aave-health", "spark-health"):
                return {**data, "protocol": kind.removesuffix("-health")}
        return data

    @model_validator(mode="after")
    def _protocol_and_wallet(self) -> HealthAgentCreate:
        implied = None if self.kind == "health" else self.kind.removesuffix("-health")
        if self.protocol is None:
            raise field_error("protocol", "protocol is required: aave or spark")
        if self.protocol is not None and implied is not None and self.protocol != implied:
            raise field_error("protocol", f"protocol {self.protocol!r} contradicts kind {self.kind!r}")
        if self.target_wallet is None and not is_evm_address(self.wallets[0]):
            raise field_error(
                "target_wallet", "wallets[0] is not an EVM address; give target_wallet (0x + 40 hex) to watch"
            )
        return self

    @property
    def lending_protocol(self) -> str:
        """aave or spark (filled from the kind when the body named a protocol-specific kind)."""
        assert self.protocol is not None  # set by the validator
        return self.protocol

    @property
    def watched_wallet(self) -> str:
        """The address whose health factor is read: target_wallet, else wallets[0]."""
        return self.target_wallet or self.wallets[0]

    @property
    def public_kind(self) -> Kind:
        return health_kind(self.lending_protocol)


class PortfolioAgentCreate(_TypedCreate):
    """A portfolio agent: fires when the USD value of the wallets (or of the one holding named by
    asset_symbol) has moved by `threshold` percent or more, either way, over movement_window."""

    kind: Literal["portfolio"]
    threshold: PositiveDecimal
    condition: Literal["above"] = "above"
    asset_symbol: Symbol | None = None
    movement_window: MovementWindow = "24h"

    @property
    def public_kind(self) -> Kind:
        return Kind.PORTFOLIO


class ScheduleAgentCreate(_TypedCreate):
    """A schedule (reminder) agent firing at hour:minute local time in `timezone`. A monthly day 29-31
    fires on the last day of shorter months."""

    kind: Literal["schedule"]
    cadence: Cadence
    hour: Hour
    minute: Minute
    timezone: Timezone
    day_of_week: DayOfWeek | None = None
    day_of_month: DayOfMonth | None = None
    label: Annotated[str, Field(min_length=1, max_length=LABEL_MAX_CHARS)] | None = None

    @model_validator(mode="after")
    def _day_fits_cadence(self) -> ScheduleAgentCreate:
        if self.cadence == "weekly" and self.day_of_week is None:
            raise field_error("day_of_week", "day_of_week is required for a weekly schedule")
        if self.cadence == "monthly" and self.day_of_month is None:
            raise field_error("day_of_month", "day_of_month is required for a monthly schedule")
        if self.cadence != "weekly" and self.day_of_week is not None:
            raise field_error("day_of_week", "day_of_week applies only to a weekly schedule")
        if self.cadence != "monthly" and self.day_of_month is not None:
            raise field_error("day_of_month", "day_of_month applies only to a monthly schedule")
        return self

    @property
    def public_kind(self) -> Kind:
        return Kind.SCHEDULE


class PlainAgentCreate(BaseModel):
    """The plain-English create body: a request for the compiler and the wallets it concerns."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    request: Annotated[str, Field(min_length=REQUEST_MIN_CHARS, max_length=REQUEST_MAX_CHARS)]
    wallets: Wallets


TypedAgentCreate = (
    PriceAgentCreate | YieldAgentCreate | HealthAgentCreate | PortfolioAgentCreate | ScheduleAgentCreate
)

# Exact decimals re-exported for callers that build bodies by hand.
__all__ = [
    "WEEKDAYS",
    "Cadence",
    "Direction",
    "ExactDecimal",
    "HealthAgentCreate",
    "MovementWindow",
    "PlainAgentCreate",
    "PortfolioAgentCreate",
    "PriceAgentCreate",
    "ScheduleAgentCreate",
    "TypedAgentCreate",
    "Weekday",
    "YieldAgentCreate",
    "YieldMetric",
]
