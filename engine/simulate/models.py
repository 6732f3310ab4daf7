"""Wire shapes of POST /simulate (contract: POST /simulate, SimulateResponse)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.planner.models import Step

# Contract, POST /simulate: the chain enum; the seventh chain (bsc) is plannable but absent here.
SimulateChain = Literal["ethereum", "base", "arbitrum", "optimism", "polygon", "solana"]

# Contract: one call is one chain's batch; the planner caps a plan well below this.
MAX_STEPS = 20


class SimulateRequest(BaseModel):
    """`chain` + `sender` + `steps` (contract, 2026-07-15: the older steps + wallets shape was never accepted)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chain: SimulateChain
    sender: str = Field(min_length=1, max_length=64)
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)


class StepResult(BaseModel):
    """One step's outcome; `error` is null on success and a human-readable reason otherwise."""

    success: bool
    status: str
    status_code: int
    action: str
    action_type: str
    asset: str
    gas: str
    error: str | None


class SimulateResponse(BaseModel):
    """The batch's outcome: success when every step succeeded; `error` names the first failing step."""

    success: bool
    gas_used: str
    gas_price: str
    gas_price_source: str
    total_cost: str
    error: str | None
    steps: list[StepResult]
