"""POST /simulate: the contract's one-chain form (`chain`, `sender`, `steps`, optionally the `bridges` that
fund them), or the whole-plan form (`chains`: every chain's steps of one plan)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError, WithJsonSchema

from engine.simulate import SimulatePlanRequest, SimulateRequest
from engine.simulate.models import MAX_CHAINS
from gateway.errors import from_validation
from gateway.policy import Call, Reply
from gateway.usecases.errors import NotRunning
from gateway.usecases.simulation import Simulation
from gateway.versioning import COST_PER_CALL


def _inlined(schema: Any, defs: dict[str, Any]) -> Any:
    """`schema` with every local `$ref` replaced by its definition (the forms hold no recursive type)."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inlined(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inlined(v, defs) for k, v in schema.items() if k != "$defs"}
    if isinstance(schema, list):
        return [_inlined(item, defs) for item in schema]
    return schema


_UNION = TypeAdapter(SimulateRequest | SimulatePlanRequest).json_schema()
# The body's two forms as one self-contained schema: the MCP tool's input schema is the route model's, and
# the OpenAPI document, built with shared definitions, lists the same forms as oneOf.
FORMS_SCHEMA = {"type": "object", **_inlined(_UNION, _UNION.get("$defs", {}))}


class SimulateBody(RootModel[Annotated[dict[str, Any], WithJsonSchema(FORMS_SCHEMA)]]):
    """POST /simulate body: EITHER one chain `{chain, sender, steps, bridges?}` OR a whole plan
    `{chains: [{chain, sender, steps}, ...]}`. The form is told by `chains`."""


def _simulation(call: Call) -> Simulation:
    simulation = call.services.simulation
    if simulation is None:
        raise NotRunning("Simulation is not running on this replica (role workers).")
    return simulation


def _form(body: dict[str, Any]) -> BaseModel:
    model: type[BaseModel] = SimulatePlanRequest if "chains" in body else SimulateRequest
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise from_validation(exc) from None


def cost(body: SimulateBody) -> int:
    """Credits (docs/decisions.md): 5 per chain simulated. The one-chain form is one chain (the bridges it
    carries are read, not run); the whole-plan form pays for each chain it sends. A body whose `chains` is
    not a list is refused by validation, after the hold is taken, and refunded."""
    chains = body.root.get("chains")
    count = len(chains) if isinstance(chains, list) and "chains" in body.root else 1
    return COST_PER_CALL * max(1, min(count, MAX_CHAINS))


async def post_simulate(call: Call) -> Reply:
    request = _form(call.body.root)
    simulation = _simulation(call)
    if isinstance(request, SimulatePlanRequest):
        result = await simulation.simulate_plan(request)
    else:
        assert isinstance(request, SimulateRequest)
        result = await simulation.simulate(request)
    # A Reply of the dumped dict keeps `error: null` (contract: string or null); a bare model would have
    # its None fields dropped by the app's JSON response.
    return Reply(result.model_dump(mode="python"))
