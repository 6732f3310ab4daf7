"""POST /simulate as the gateway runs it: validate the batch, re-encode chained steps for their estimate
(or for the amount a bridge lands), refuse dead targets, run the rest on an EVM fork or litesvm, and price
the gas. The one-chain form may carry the bridge steps that fund it; the whole-plan form
(gateway.usecases.simulation_plan) runs every chain of a plan in one call."""

from __future__ import annotations

from dataclasses import dataclass

from engine.simulate import (
    Fill,
    SimulatePlanRequest,
    SimulateRequest,
    SimulateResponse,
    bridge_fill,
    check_request,
)
from gateway.usecases.errors import Invalid
from gateway.usecases.simulation_chains import ChainLegs
from gateway.usecases.simulation_changes import attach, describer_for
from gateway.usecases.simulation_plan import fill_results, simulate_plan


@dataclass
class Simulation(ChainLegs):
    async def simulate(self, request: SimulateRequest) -> SimulateResponse:
        """The batch's outcome. Raises SimulateInvalid or Invalid for a batch that cannot be simulated (dead
        targets included); an unconfigured chain, an upstream or fork that does not answer, or a failing
        engine propagate as their own errors (gateway.errors maps them to the envelope)."""
        check_request(self.registry, request)
        evm = self.registry.chain(request.chain).family == "evm"
        if evm:
            await self.refuse_dead_targets(request.chain, list(request.steps))
        incoming = await self._carried(request)
        if evm:
            leg = await self.evm_leg(request.chain, request.sender, list(request.steps), incoming)
        else:
            leg = await self.solana_leg(request.chain, request.sender, list(request.steps), incoming=incoming)
        response = leg.response()
        if incoming:
            response.fills = fill_results({request.chain: leg}, list(incoming.values()))
        attach(await describer_for(self, [leg]), [leg], response, [leg])
        return response

    async def simulate_plan(self, request: SimulatePlanRequest) -> SimulateResponse:
        """Every chain of a plan in one call (see gateway.usecases.simulation_plan); raises as simulate."""
        return await simulate_plan(self, request)

    async def _carried(self, request: SimulateRequest) -> dict[str, Fill]:
        """The fills of the bridge steps the request carries, by the bridge's key. They are not run here:
        each is read from the calldata it will sign (re-encoded for its estimate when chained)."""
        incoming: dict[str, Fill] = {}
        for index, bridge in enumerate(request.bridges or ()):
            where = f"bridges[{index}]"
            call = await self.evm_call(bridge)
            if isinstance(call, str):
                raise Invalid("A carried bridge step cannot be read.", [(where, f"the bridge step {call}")])
            fill = bridge_fill(self.registry, bridge, bridge.wallet or request.sender, call)
            if isinstance(fill, str):
                raise Invalid(
                    "A carried bridge step cannot be modelled.", [(where, f"the bridge step: {fill}")]
                )
            if fill.to_chain != request.chain:
                raise Invalid(
                    "A carried bridge lands on another chain.",
                    [(where, f"lands on {fill.to_chain}, not on {request.chain}")],
                )
            incoming[bridge.key or f"bridges[{index}]"] = fill
        return incoming
