"""Wire shapes of the agents API (contract: Agent, POST/GET/PATCH /agents) and the display text of typed
agents, which have no compile step to write it."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, WithJsonSchema, create_model, field_validator

from engine.agents import (
    Compiled,
    HealthAgentCreate,
    Kind,
    NeedsClarification,
    PlainAgentCreate,
    PortfolioAgentCreate,
    PriceAgentCreate,
    ScheduleAgentCreate,
    TypedAgentCreate,
    YieldAgentCreate,
    kinds_for_filter,
)
from engine.agents.remedy import MAX_REMEDY_INTENTS
from engine.limits import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN
from gateway.remedy_models import RemedyIntent, RemedyOut
from storage.agents import Agent

# Longest value of the `wallet` filter: an EVM address is 42 chars, a Solana one at most 44; the slack keeps
# a mistyped address answering "no match" rather than 400.
WALLET_FILTER_MAX_CHARS = 100

# Check cadence of typed agents (contract, Events rule 4: price, yield and health about every 5 minutes,
# portfolio hourly); the values are the compiler's cadence vocabulary (engine.agents.CADENCES).
MARKET_CADENCE = "5m"
PORTFOLIO_CADENCE = "hourly"


class AgentCreateBody(RootModel[dict[str, Any]]):
    """POST /agents body: EITHER plain English `{request (3 to 500 chars), wallets (1 to 10)}` OR typed
    `{kind, wallets, ...typed fields}` (kinds price, yield, health, aave-health, spark-health, portfolio,
    schedule). Both or neither is 400."""


def with_remedy(form: type[BaseModel]) -> type[BaseModel]:
    """`form` (a POST /agents body form) as the OpenAPI document states it: with the optional typed `remedy`
    the create path takes beside the form's own fields (gateway.usecases.remedy.take_remedy), so a
    validating client accepts a body that carries one. The schema keeps the form's name."""
    remedy: tuple[Any, Any] = (
        list[RemedyIntent] | None,
        Field(
            None,
            min_length=1,
            max_length=MAX_REMEDY_INTENTS,
            description="Intents to plan, unsigned, when the agent fires (docs/remedy.md).",
        ),
    )
    model: type[BaseModel] = create_model(form.__name__, __base__=form, __module__=__name__, remedy=remedy)
    return model


# POST /agents body forms as documented: the plain-English one and each typed kind, each with `remedy`.
AGENT_CREATE_FORMS: tuple[type[BaseModel], ...] = tuple(
    with_remedy(form)
    for form in (
        PlainAgentCreate,
        PriceAgentCreate,
        YieldAgentCreate,
        HealthAgentCreate,
        PortfolioAgentCreate,
        ScheduleAgentCreate,
    )
)


class AgentPatchBody(RootModel[dict[str, Any]]):
    """PATCH /agents/{id} body: EITHER `{status: 'paused'|'active'}` OR `{request}` (condition agents)."""


class AgentListQuery(BaseModel):
    """GET /agents query. A garbage cursor is treated as absent (contract)."""

    model_config = ConfigDict(extra="ignore")

    status: Literal["active", "paused"] | None = None
    kind: (
        Annotated[str, WithJsonSchema({"type": "string", "enum": ["health", *(k.value for k in Kind)]})]
        | None
    ) = None
    wallet: str | None = Field(None, min_length=1, max_length=WALLET_FILTER_MAX_CHARS)
    cursor: str | None = None
    limit: int = Field(PAGE_LIMIT_DEFAULT, ge=PAGE_LIMIT_MIN, le=PAGE_LIMIT_MAX)

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str | None) -> str | None:
        if value is not None and kinds_for_filter(value) is None:
            names = ", ".join(["health", *(kind.value for kind in Kind)])
            raise ValueError(f"kind must be one of {names}")
        return value


class AgentOut(BaseModel):
    """The Agent object (contract: Agent). Typed fields appear as sent (with their defaults) on typed
    kinds; `check` is the compiled condition of kind `condition`; `request` is the plain-English text."""

    model_config = ConfigDict(extra="forbid")

    id: str
    type: Literal["alert", "condition", "reminder"]
    kind: str
    status: Literal["active", "paused"]
    created_at: int
    wallets: list[str]
    rendered: str
    cadence: str
    last_checked_at: int | None = None
    fire_headline: str | None = None
    intent: str | None = None
    request: str | None = None
    check: dict[str, Any] | None = None
    condition: Literal["above", "below"] | None = None
    threshold: Decimal | None = None
    asset_symbol: str | None = None
    coingecko_id: str | None = None
    pct_change: Decimal | None = None
    base_price: Decimal | None = None
    pool_id: str | None = None
    protocol: str | None = None
    chain: str | None = None
    asset: str | None = None
    metric: str | None = None
    target_wallet: str | None = None
    movement_window: str | None = None
    hour: int | None = None
    minute: int | None = None
    timezone: str | None = None
    day_of_week: str | None = None
    day_of_month: int | None = None
    label: str | None = None
    # The intents a person may sign when the agent fires (docs/remedy.md); absent when it has none.
    remedy: RemedyOut | None = None


class CompileOut(BaseModel):
    """What the compiler made of a plain-English request; `note` says when a follow-on action was dropped."""

    rendered: str
    fire_headline: str | None
    cadence: str
    dropped_action: str | None = None
    note: str | None = None
    # What the agent will prepare when it fires: {source, summary, intents} (docs/remedy.md).
    remedy: RemedyOut | None = None


class AgentEnvelope(BaseModel):
    """`{agent}` (typed create, GET, PATCH), plus `compile` after a plain-English compile."""

    agent: AgentOut
    compile: CompileOut | None = None


class ClarificationOptionOut(BaseModel):
    id: str
    label: str


class ClarificationOut(BaseModel):
    """200 reply to an ambiguous plain-English request (contract: POST /agents outcome table)."""

    status: Literal["needs_clarification"] = "needs_clarification"
    question: str
    options: list[ClarificationOptionOut]


class AgentPage(BaseModel):
    """GET /agents: newest first; `next_cursor` is null when no more rows follow."""

    agents: list[AgentOut]
    next_cursor: str | None


def agent_out(
    agent: Agent, check: dict[str, Any] | None = None, remedy: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The wire Agent of a stored agent: absent optional fields are left out, except last_checked_at,
    which is null until the first check."""
    model = AgentOut(
        remedy=remedy,
        id=agent.id,
        type=agent.type,  # stored from StorageType
        kind=agent.kind,
        status=agent.status,  # stored from the status vocabulary
        created_at=agent.created_at,
        wallets=list(agent.wallets),
        rendered=agent.rendered,
        cadence=agent.cadence,
        fire_headline=agent.fire_headline,
        intent=agent.intent,
        request=agent.request,
        check=check,
        **{k: v for k, v in agent.typed_fields.items() if k != "cadence"},
    )
    body = model.model_dump(mode="python", exclude_none=True)
    body["last_checked_at"] = agent.last_checked_at
    return body


def compile_out(compiled: Compiled, remedy: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `compile` object of a 201 plain-English create; fire_headline is null when there is none."""
    body = CompileOut(
        remedy=remedy,
        rendered=compiled.rendered,
        fire_headline=compiled.fire_headline,
        cadence=compiled.cadence,
        dropped_action=compiled.dropped_action,
        note=compiled.note,
    ).model_dump(mode="python", exclude_none=True)
    body["fire_headline"] = compiled.fire_headline
    return body


def clarification_out(result: NeedsClarification) -> dict[str, Any]:
    """The 200 needs_clarification body: the question and at most four positional options."""
    options = [ClarificationOptionOut(id=o.id, label=o.label) for o in result.options]
    return ClarificationOut(question=result.question, options=options).model_dump(mode="python")


def _amount(value: Decimal) -> str:
    """A decimal for people: thousands separators, no exponent, no trailing zeros."""
    return f"{value.normalize():,f}"


def describe_typed(agent: TypedAgentCreate) -> tuple[str, str | None, str]:
    """(rendered, fire_headline, cadence) of a typed create body, in the compiler's wording."""
    if isinstance(agent, PriceAgentCreate):
        return _describe_price(agent)
    if isinstance(agent, YieldAgentCreate):
        label = {"apy": "APY", "supplyApy": "supply APY", "borrowApy": "borrow APY"}[agent.metric]
        subject = f"{agent.asset} {label} on {agent.protocol} ({agent.chain})"
        shown = f"{_amount(agent.threshold)}%"
        return (
            f"{subject} {agent.condition} {shown}",
            f"{subject} crossed {agent.condition} {shown}",
            MARKET_CADENCE,
        )
    if isinstance(agent, HealthAgentCreate):
        name = "Aave" if agent.lending_protocol == "aave" else "Spark"
        subject = f"{name} health factor on {agent.chain}"
        shown = _amount(agent.threshold)
        return f"{subject} below {shown}", f"{subject} crossed below {shown}", MARKET_CADENCE
    if isinstance(agent, PortfolioAgentCreate):
        subject = f"{agent.asset_symbol} holding" if agent.asset_symbol else "Portfolio"
        p, window = _amount(agent.threshold), agent.movement_window
        return f"{subject} moves {p}% in {window}", f"{subject} moved {p}% in {window}", PORTFOLIO_CADENCE
    return _describe_schedule(agent)


def _describe_price(agent: PriceAgentCreate) -> tuple[str, str | None, str]:
    symbol = agent.asset_symbol
    if agent.pct_change is None:
        shown = f"${_amount(agent.threshold)}"
        return (
            f"{symbol} {agent.condition} {shown}",
            f"{symbol} crossed {agent.condition} {shown}",
            MARKET_CADENCE,
        )
    side = "up" if agent.condition == "above" else "down"
    p = _amount(agent.pct_change)
    reference = (
        f"${_amount(agent.base_price)}" if agent.base_price is not None else "the price at the first check"
    )
    return f"{symbol} {side} {p}% from {reference}", f"{symbol} moved {side} {p}%", MARKET_CADENCE


def _describe_schedule(agent: ScheduleAgentCreate) -> tuple[str, str | None, str]:
    if agent.cadence == "weekly" and agent.day_of_week is not None:
        when = f"Every {agent.day_of_week.capitalize()}"
    elif agent.cadence == "monthly":
        when = f"Every month on day {agent.day_of_month}"
    else:
        when = "Every day"
    when += f" at {agent.hour:02d}:{agent.minute:02d} {agent.timezone}"
    rendered = when + (f": {agent.label}" if agent.label else "")
    headline = (
        f"Reminder: {agent.label}" if agent.label else f"Scheduled reminder ({when[0].lower()}{when[1:]})"
    )
    return rendered, headline, agent.cadence
