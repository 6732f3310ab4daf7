"""POST /simulate."""

from __future__ import annotations

from engine.simulate import SimulateRequest
from gateway.policy import Call, Reply
from gateway.usecases.errors import NotRunning
from gateway.usecases.simulation import Simulation


def _simulation(call: Call) -> Simulation:
    simulation = call.services.simulation
    if simulation is None:
        raise NotRunning("Simulation is not running on this replica (role workers).")
    return simulation


async def post_simulate(call: Call) -> Reply:
    body: SimulateRequest = call.body
    result = await _simulation(call).simulate(body)
    # A Reply of the dumped dict keeps `error: null` (contract: string or null); a bare model would have
    # its None fields dropped by the app's JSON response.
    return Reply(result.model_dump(mode="python"))
