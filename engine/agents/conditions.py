"""The typed, machine-evaluable condition a plain-English request compiles to (kind `condition`).

A condition is one metric, a comparator and a Decimal threshold. Metrics are the closed set the watchers
can read: a USD price, a ratio of two prices, an EVM chain's gas price in gwei, an Aave or Spark health
factor, a yield pool metric, and the USD value of a set of wallets. Evaluation is pure: the watcher fetches
each `Input` a metric names and hands the values in; a missing value means no decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.agents.edges import LevelRule
from engine.agents.fields import ExactDecimal
from engine.agents.models import Direction, YieldMetric


@dataclass(frozen=True, slots=True)
class PriceInput:
    """USD price of an asset, by CoinGecko id."""

    coingecko_id: str


@dataclass(frozen=True, slots=True)
class GasPriceInput:
    """Gas price on an EVM chain, in gwei."""

    chain: str


@dataclass(frozen=True, slots=True)
class HealthFactorInput:
    """Health factor of `wallet` on the lending protocol (aave or spark) on `chain`."""

    protocol: str
    chain: str
    wallet: str


@dataclass(frozen=True, slots=True)
class YieldInput:
    """A yield metric in percent units. The pool is `pool_id` when known, else the single pool of DefiLlama
    `project` on `chain` whose symbol is `asset`; no match or several matches is no value."""

    project: str
    chain: str
    asset: str
    metric: str
    pool_id: str | None


@dataclass(frozen=True, slots=True)
class PortfolioValueInput:
    """Total USD value of the wallets' holdings."""

    wallets: tuple[str, ...]


Input = PriceInput | GasPriceInput | HealthFactorInput | YieldInput | PortfolioValueInput
InputValues = Mapping[Input, Decimal | None]


class _Metric(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PriceMetric(_Metric):
    """USD price of one asset."""

    type: Literal["price"] = "price"
    coingecko_id: str
    symbol: str

    def inputs(self) -> tuple[Input, ...]:
        return (PriceInput(self.coingecko_id),)

    def measure(self, values: InputValues) -> Decimal | None:
        return values.get(PriceInput(self.coingecko_id))

    def describe(self) -> str:
        return f"{self.symbol} price (USD)"


class PriceRatioMetric(_Metric):
    """Price of the base asset in units of the quote asset (ETH/BTC = USD price of ETH / USD price of BTC)."""

    type: Literal["price_ratio"] = "price_ratio"
    base_id: str
    base_symbol: str
    quote_id: str
    quote_symbol: str

    def inputs(self) -> tuple[Input, ...]:
        return (PriceInput(self.base_id), PriceInput(self.quote_id))

    def measure(self, values: InputValues) -> Decimal | None:
        base, quote = values.get(PriceInput(self.base_id)), values.get(PriceInput(self.quote_id))
        if base is None or quote is None or quote <= 0:
            return None
        return base / quote

    def describe(self) -> str:
        return f"{self.base_symbol}/{self.quote_symbol} price ratio"


class GasPriceMetric(_Metric):
    """Gas price on an EVM chain in gwei."""

    type: Literal["gas_price"] = "gas_price"
    chain: str

    def inputs(self) -> tuple[Input, ...]:
        return (GasPriceInput(self.chain),)

    def measure(self, values: InputValues) -> Decimal | None:
        return values.get(GasPriceInput(self.chain))

    def describe(self) -> str:
        return f"gas price on {self.chain}"


class HealthFactorMetric(_Metric):
    """Health factor of a wallet on Aave v3 or SparkLend."""

    type: Literal["health_factor"] = "health_factor"
    protocol: Literal["aave", "spark"]
    chain: str
    wallet: str

    def inputs(self) -> tuple[Input, ...]:
        return (HealthFactorInput(self.protocol, self.chain, self.wallet),)

    def measure(self, values: InputValues) -> Decimal | None:
        return values.get(HealthFactorInput(self.protocol, self.chain, self.wallet))

    def describe(self) -> str:
        name = "Aave" if self.protocol == "aave" else "Spark"
        return f"{name} health factor on {self.chain} of {self.wallet}"


class YieldPoolMetric(_Metric):
    """A yield metric (percent units) of one pool, named by id or by (project, chain, asset)."""

    type: Literal["yield"] = "yield"
    project: str
    protocol_display: str
    chain: str
    asset: str
    metric: YieldMetric = "apy"
    pool_id: str | None = None

    def _input(self) -> YieldInput:
        return YieldInput(self.project, self.chain, self.asset, self.metric, self.pool_id)

    def inputs(self) -> tuple[Input, ...]:
        return (self._input(),)

    def measure(self, values: InputValues) -> Decimal | None:
        return values.get(self._input())

    def describe(self) -> str:
        label = {"apy": "APY", "supplyApy": "supply APY", "borrowApy": "borrow APY"}[self.metric]
        return f"{self.asset} {label} on {self.protocol_display} ({self.chain})"


class PortfolioValueMetric(_Metric):
    """Total USD value of a set of wallets."""

    type: Literal["portfolio_value"] = "portfolio_value"
    wallets: tuple[str, ...]

    def inputs(self) -> tuple[Input, ...]:
        return (PortfolioValueInput(self.wallets),)

    def measure(self, values: InputValues) -> Decimal | None:
        return values.get(PortfolioValueInput(self.wallets))

    def describe(self) -> str:
        return "portfolio value (USD)"


Metric = Annotated[
    PriceMetric
    | PriceRatioMetric
    | GasPriceMetric
    | HealthFactorMetric
    | YieldPoolMetric
    | PortfolioValueMetric,
    Field(discriminator="type"),
]

# Units shown after a threshold when rendering, per metric type.
_UNIT_PREFIX = {"price": "$", "portfolio_value": "$"}
_UNIT_SUFFIX = {"gas_price": " gwei", "yield": "%"}


class Condition(BaseModel):
    """One metric compared with a threshold; stored as JSON by the caller."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    metric: Metric
    comparator: Direction
    threshold: ExactDecimal

    def inputs(self) -> tuple[Input, ...]:
        """What the watcher must fetch to evaluate this condition."""
        return self.metric.inputs()

    def measure(self, values: InputValues) -> Decimal | None:
        """The metric's value from the fetched inputs, or None when any input is missing."""
        return self.metric.measure(values)

    def evaluate(self, values: InputValues) -> bool | None:
        """True when the metric is at or beyond the threshold in the comparator's direction, False when
        not, None (no decision, never a trigger) when an input is missing."""
        value = self.measure(values)
        if value is None:
            return None
        return value >= self.threshold if self.comparator == "above" else value <= self.threshold

    def edge_rule(self) -> LevelRule:
        """The edge rule a watcher steps with the measured value (contract Events rules 5-6)."""
        return LevelRule(direction=self.comparator, threshold=self.threshold)

    def render(self) -> str:
        """One-line display text, e.g. "ETH/BTC price ratio below 0.03"."""
        kind = self.metric.type
        amount = f"{_UNIT_PREFIX.get(kind, '')}{self.threshold:,f}{_UNIT_SUFFIX.get(kind, '')}"
        return f"{self.metric.describe()} {self.comparator} {amount}"

    def to_json(self) -> str:
        """Serialized form; decimals are strings so nothing is rounded."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str | bytes) -> Condition:
        """Parse the form written by to_json; raises pydantic.ValidationError on a malformed document."""
        return cls.model_validate_json(text)


METRIC_ADAPTER: TypeAdapter[Metric] = TypeAdapter(Metric)
