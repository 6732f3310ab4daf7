"""Verifying a plan, the use case: run every chain of a /plan answer on forks as POST /simulate's
whole-plan form does (bridge fills modelled on their destinations, landed there even when no step follows
them), read what each step did, and hold the net effect to the intents' words (engine.verify)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.planner import PlanRequest, PlanResponse, Step
from engine.simulate import Fill, SimulatePlanRequest, StepResult
from engine.simulate.effects import StepEffect
from engine.simulate.models import MAX_STEPS
from engine.verify import Discrepancy, Finding, SimulatedPlan, Verification, prove
from gateway.usecases.errors import Refused
from gateway.usecases.simulation import Simulation
from gateway.usecases.simulation_changes import attach, describer_for
from gateway.usecases.simulation_plan import run_plan, whole


class NotProven(Refused):
    """A plan that is fine as input failed its proof; `verification` says how (422)."""

    def __init__(self, message: str, verification: Verification) -> None:
        super().__init__(message, [(d.field, d.message) for d in verification.discrepancies])
        self.verification = verification


class EffectMismatch(NotProven):
    """The plan ran on the fork, and what it did differs from the intents' words (422 effect_mismatch)."""


class PlanUnverified(NotProven):
    """The plan could not be proven: a step fails or cannot run on a fork (422 plan_unverified)."""


MISMATCH = "effect_mismatch"
UNVERIFIED = "plan_unverified"


def _verification(findings: Sequence[Finding], error: str, **rest: Any) -> Verification:
    discrepancies = [Discrepancy(field=f"steps[{f.step}]", message=f.message) for f in findings]
    return Verification(
        verified=not discrepancies,
        error=error if discrepancies else None,
        discrepancies=discrepancies,
        **rest,
    )


@dataclass
class Verifier:
    simulation: Simulation

    async def verify(self, request: PlanRequest, plan: PlanResponse) -> Verification:
        """The plan's verification, verified or not (never raises for a plan that fails its proof; an
        unconfigured chain, an upstream down or a failing fork raise as /simulate's do)."""
        registry = self.simulation.registry
        steps = list(plan.steps)
        unrunnable = [
            Finding(i, f"step {s.order} ({s.type}) is on {s.chain}, which is not simulated")
            for i, s in enumerate(steps)
            if not registry.chain(s.chain).simulate
        ]
        batches: dict[str, list[Step]] = {}
        for step in steps:
            batches.setdefault(step.chain, []).append(step)
        senders = {chain: {s.wallet for s in batch} for chain, batch in batches.items()}
        for index, step in enumerate(steps):
            where = f"step {step.order} ({step.type})"
            if len(senders[step.chain]) > 1 or None in senders[step.chain]:
                unrunnable.append(Finding(index, f"{where}: {step.chain}'s steps do not run from one wallet"))
            elif len(batches[step.chain]) > MAX_STEPS:
                unrunnable.append(
                    Finding(
                        index, f"{where}: {step.chain} has more steps than one simulation runs ({MAX_STEPS})"
                    )
                )
        if unrunnable:
            return _verification(unrunnable, UNVERIFIED, checks=[], changes=None, steps=[])
        simulated = SimulatePlanRequest.model_validate(
            {
                "chains": [
                    {"chain": chain, "sender": batch[0].wallet, "steps": batch}
                    for chain, batch in batches.items()
                ]
            }
        )
        run = await run_plan(self.simulation, simulated, self._landing(request, batches))
        response = whole(simulated, run)
        describer = await describer_for(self.simulation, run.ran(), lending_for=self._lending_chains(request))
        results: dict[int, StepResult] = {r.order or 0: r for r in response.steps}
        effects: dict[int, StepEffect | None] = {}
        fills: dict[int, Fill] = {}
        for leg in run.legs:
            for position, step in enumerate(leg.steps):
                effects[step.order] = leg.effects[position] if leg.effects else None
                promise = leg.bridges.get(position)
                if isinstance(promise, Fill):
                    fills[step.order] = promise
        proof = prove(
            registry,
            SimulatedPlan(
                intents=request.intents,
                wallets=[w.address for w in request.wallets],
                steps=steps,
                served=plan.served or tuple(0 for _ in steps),
                results=[results[s.order] for s in steps],
                effects=[effects.get(s.order) for s in steps],
                fills={i: fills[s.order] for i, s in enumerate(steps) if s.order in fills},
                lending=describer.lending,
            ),
        )
        describer.minimums = proof.minimums
        attach(describer, run.legs[: len(simulated.chains)], response, run.ran())
        unlanded = [f for f in response.fills or [] if not f.landed and registry.chain(f.to_chain).simulate]
        failures = list(proof.failures)
        configured = self.simulation.chains.chains
        for fill in unlanded:
            bridge = next(i for i, s in enumerate(steps) if s.order == fill.bridge_order)
            why = fill.error if fill.to_chain in configured else f"no RPC is configured for {fill.to_chain}"
            failures.append(
                Finding(
                    bridge,
                    f"step {fill.bridge_order} (bridge) on {fill.from_chain}: its {fill.protocol} fill could "
                    f"not be landed on {fill.to_chain}: {why}",
                )
            )
        return _verification(
            failures or proof.findings,
            UNVERIFIED if failures else MISMATCH,
            checks=proof.checks,
            changes=response.changes,
            steps=[results[s.order] for s in steps],
            chains=response.chains,
            fills=response.fills or None,
            gas_used=response.gas_used,
            total_cost=response.total_cost,
        )

    async def proven(self, request: PlanRequest, plan: PlanResponse) -> Verification:
        """The verification of a plan that passed it; raises EffectMismatch or PlanUnverified (with the
        verification) for one that did not."""
        found = await self.verify(request, plan)
        if found.error == UNVERIFIED:
            raise PlanUnverified("The plan could not be proven on a fork; see issues.", found)
        if found.error == MISMATCH:
            raise EffectMismatch("The plan's simulated effect does not match the intents; see issues.", found)
        return found

    def _landing(self, request: PlanRequest, batches: dict[str, list[Step]]) -> dict[str, str]:
        """Per destination chain with no steps, the wallet its fills belong to, so they are landed and
        read back there: the intent's recipient, else the request's wallet of that chain's family."""
        landing: dict[str, str] = {}
        configured = self.simulation.chains.chains
        for intent in request.intents:
            chain = intent.to_chain
            if chain is None or chain in batches or chain in landing or chain not in configured:
                continue  # a chain with no RPC here: its fill stays unlanded, and the plan unproven
            evm = self.simulation.registry.chain(chain).family == "evm"
            owner = intent.recipient or next(
                (w.address for w in request.wallets if w.address.startswith("0x") == evm), None
            )
            if owner is not None:
                landing[chain] = owner
        return landing

    @staticmethod
    def _lending_chains(request: PlanRequest) -> set[str]:
        """Chains whose lending tokens the check needs: where a lending intent acts."""
        return {
            i.chain for i in request.intents if i.chain and (i.protocol or "").lower() in ("aave", "spark")
        }
