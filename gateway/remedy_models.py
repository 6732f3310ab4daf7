"""Wire shapes of remedies (docs/remedy.md): an agent's `remedy`, the `remedy` an event carries once its
plan is built, GET /events/{id}/plan, and the pull rail's page that carries them. They document the
answers in the OpenAPI; the use cases build the same shapes."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.intents import Intent
from engine.intents.models import Amount
from engine.planner import PlanResponse
from engine.simulate import StepResult
from engine.simulate.change_models import PlanChanges
from engine.verify import Verification

# A share written as a string: a decimal, or an exact fraction "n/d" (engine.agents.shares reads both).
SHARE_TEXT_PATTERN = r"^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|\d{1,18}/\d{1,18})$"


class ShareAmount(BaseModel):
    """A remedy amount that is a share of a holding, sized when the plan is built (docs/remedy.md)."""

    model_config = ConfigDict(extra="forbid")

    share: Decimal | Annotated[str, Field(pattern=SHARE_TEXT_PATTERN, max_length=100)] = Field(
        description="More than 0 and at most 1: a decimal (at most 18 decimals) or an exact fraction 'n/d'."
    )
    of: Literal["balance", "debt", "deposit"] = Field(
        description="The wallet's balance of the asset, its debt of it (repay) or its deposit of it "
        "(withdraw) on the lending market."
    )


class RemedyIntent(Intent):
    """An Intent of a remedy: its amount may also be a share of a holding, sized when the plan is built."""

    amount: Amount | ShareAmount | None = None  # type: ignore[assignment]


class RemedyOut(BaseModel):
    """What an agent will prepare when it fires: its intents, where they came from, and one sentence."""

    model_config = ConfigDict(extra="forbid")

    source: Literal["typed", "request", "suggested"]
    summary: str
    intents: list[RemedyIntent]


class ChainSimulation(BaseModel):
    """The dry run of one chain's steps (the fields of POST /simulate's answer), or why it did not run."""

    chain: str
    simulated: bool
    reason: str | None = None
    success: bool | None = None
    gas_used: str | None = None
    gas_price: str | None = None
    gas_price_source: str | None = None
    total_cost: str | None = None
    error: str | None = None
    steps: list[StepResult] | None = None
    changes: PlanChanges | None = None


class BuiltRemedy(BaseModel):
    """A remedy's plan as built at one moment: ready with the plan, its dry runs and its verification
    (its effect checked against the remedy's intents, as POST /plan with options.verify does), or not
    buildable and why (a balance that is gone, an upstream that did not answer)."""

    status: Literal["ready", "not_buildable"]
    plan: PlanResponse | None = None
    simulations: list[ChainSimulation] | None = None
    verification: Verification | None = None
    reason: str | None = None
    planned_at: int | None = None


class EventRemedy(RemedyOut, BuiltRemedy):
    """An event's `remedy`: the agent's remedy with the plan built shortly after the event fired."""


class EventAgent(BaseModel):
    id: str
    kind: str


class EventPlan(BuiltRemedy):
    """GET /events/{id}/plan: the event's remedy planned and simulated at this request."""

    event_id: str
    agent: EventAgent
    remedy: RemedyOut | None


class EventOut(BaseModel):
    """A pull-rail Event; `remedy` is present once the plan of the agent's remedy is built."""

    id: str
    type: Literal["agent.triggered", "agent.degraded", "agent.test"]
    created_at: int
    agent: EventAgent
    trigger: dict[str, Any]
    remedy: EventRemedy | None = None


class EventList(BaseModel):
    """GET /agent-events: newest first; next_cursor is null when no more follow."""

    events: list[EventOut]
    next_cursor: str | None
