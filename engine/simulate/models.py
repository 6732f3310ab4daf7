"""Wire shapes of POST /simulate (contract: POST /simulate, SimulateResponse), with the additive whole-plan
form (docs/decisions.md): every chain's steps in one call, bridge fills modelled between them."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from engine.planner.models import Step
from engine.simulate.change_models import PlanChanges, StepChanges

# Contract, POST /simulate: the chain enum; the seventh chain (bsc) is plannable but absent here.
SimulateChain = Literal["ethereum", "base", "arbitrum", "optimism", "polygon", "solana"]

# Contract: one call is one chain's batch; the planner caps a plan well below this.
MAX_STEPS: Final = 20
# The whole-plan form: at most one batch per chain of the enum above.
MAX_CHAINS: Final = 6
# Bridge steps a one-chain call may carry to land their fills first (a plan bridges in from a few chains).
MAX_BRIDGES: Final = 5
# Fields added to the contract's shapes, left out of an answer that has nothing to say in them, so the
# one-chain call answers exactly the contract's fields.
_ADDED_RESULT_FIELDS: Final = ("chain", "order", "amount", "changes")
_ADDED_RESPONSE_FIELDS: Final = ("chains", "fills", "changes")


def _drop_unset(dumped: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in dumped.items() if not (k in fields and v is None)}


class SimulateRequest(BaseModel):
    """`chain` + `sender` + `steps` (contract, 2026-07-15: the older steps + wallets shape was never accepted).

    `bridges` (ours, additive): bridge steps of other chains from the same plan whose output funds these
    steps; their quoted output is landed on this chain's fork (modelled) before the steps run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chain: SimulateChain
    sender: str = Field(min_length=1, max_length=64)
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)
    bridges: tuple[Step, ...] | None = Field(None, min_length=1, max_length=MAX_BRIDGES)


class ChainSteps(BaseModel):
    """One chain's part of a whole plan: the chain, the address its steps run from, and its steps."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chain: SimulateChain
    sender: str = Field(min_length=1, max_length=64)
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)


class SimulatePlanRequest(BaseModel):
    """The whole-plan form (ours, additive): every chain's steps of one plan, each chain once. Source
    chains run first; each bridge's fill is modelled on its destination before that chain's steps run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chains: tuple[ChainSteps, ...] = Field(min_length=1, max_length=MAX_CHAINS)


class StepResult(BaseModel):
    """One step's outcome; `error` is null on success and a human-readable reason otherwise.

    Added: `chain` and `order` in a whole-plan answer; `amount` (decimal token units) when the step ran
    re-sized for a bridged amount that landed; `changes`, what the step did to balances and allowances,
    when it ran and succeeded."""

    success: bool
    status: str
    status_code: int
    action: str
    action_type: str
    asset: str
    gas: str
    error: str | None
    chain: str | None = None
    order: int | None = None
    amount: str | None = None
    changes: StepChanges | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_unset(handler(self), _ADDED_RESULT_FIELDS)


class FillResult(BaseModel):
    """A bridge's fill as the simulation modelled it (ours, additive). `modelled` is always true: no
    relayer filled and no attestation minted; the quoted output was credited to the recipient on the
    destination fork. `landed` says whether the credit was applied and read back; `error` why not."""

    modelled: Literal[True] = True
    bridge_order: int
    protocol: str
    from_chain: str
    to_chain: str
    recipient: str
    asset: str
    amount: str
    amount_raw: str
    method: str
    deposit_checked: bool
    landed: bool
    error: str | None


class Totals(BaseModel):
    """What a batch adds up to: success when every step succeeded, `error` naming the first failing step,
    gas and its price in the chain's own formats, the cost in USD."""

    success: bool
    gas_used: str
    gas_price: str
    gas_price_source: str
    total_cost: str
    error: str | None


class ChainResult(Totals):
    """One chain's totals in a whole-plan answer (ours, additive)."""

    chain: str


class SimulateResponse(Totals):
    """The batch's outcome (contract: SimulateResponse).

    Added: `fills` when bridge fills were modelled, `chains` in a whole-plan answer, `changes` (the
    batch's net effect on balances and allowances, with the words a wallet shows)."""

    steps: list[StepResult]
    chains: list[ChainResult] | None = None
    fills: list[FillResult] | None = None
    changes: PlanChanges | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _drop_unset(handler(self), _ADDED_RESPONSE_FIELDS)
