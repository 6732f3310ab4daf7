"""The whole-plan form of POST /simulate: every chain of a plan in one call. Source chains run first; each
bridge deposit is checked on its own fork (the funds left the sender, the bridge logged the amount); its
fill, the quoted output, is modelled on the destination fork or, into Solana, in litesvm (credited to the
recipient and read back);
then the destination's steps run on the landed amount. A step whose source did not succeed is not run and
says which step and why. Tenderly, Enso and LI.FI stop at the chain boundary; this does not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.planner import Step
from engine.simulate import (
    ChainResult,
    Fill,
    FillResult,
    SimulatePlanRequest,
    SimulateResponse,
    StepRef,
    Totals,
    chain_order,
    check_plan,
    depends_text,
    format_gas,
    format_usd,
    sources,
)
from gateway.usecases.simulation_chains import ChainLegs
from gateway.usecases.simulation_changes import attach, describer_for
from gateway.usecases.simulation_legs import Leg

# Why a fill that was modelled was not landed anywhere: no batch of this call runs on its chain.
NO_DESTINATION = "not landed: this call has no steps on {chain}"


@dataclass
class PlanRun:
    """A whole plan as run: each batch's leg in the request's order (then the legs that only landed a fill
    on a chain with no steps), the order they ran in (indices into `legs`), and every fill modelled."""

    legs: list[Leg]
    order: list[int]
    fills: list[Fill]

    def ran(self) -> list[Leg]:
        return [self.legs[i] for i in self.order]


async def simulate_plan(simulation: ChainLegs, request: SimulatePlanRequest) -> SimulateResponse:
    """Run every chain's steps of `request`, bridges' fills modelled between them. Raises SimulateInvalid
    or Invalid (400) before anything runs for a plan that cannot be simulated as sent."""
    run = await run_plan(simulation, request)
    response = whole(request, run)
    attach(await describer_for(simulation, run.ran()), run.legs[: len(request.chains)], response, run.ran())
    return response


async def run_plan(
    simulation: ChainLegs, request: SimulatePlanRequest, landing: Mapping[str, str] | None = None
) -> PlanRun:
    """Run `request`'s chains in funding order. `landing` names, per chain the request has no steps on,
    the wallet a fill landing there belongs to (its sender): those fills are landed there too, on a leg of
    their own, and read back."""
    registry = simulation.registry
    check_plan(registry, request)
    batches = [list(batch.steps) for batch in request.chains]
    names = [batch.chain for batch in request.chains]
    order = chain_order(batches, names)
    for index, batch in enumerate(request.chains):
        if registry.chain(batch.chain).family == "evm":
            await simulation.refuse_dead_targets(batch.chain, batches[index], f"chains[{index}].")
    chained_from = sources(batches)
    promised: dict[StepRef, Fill | str] = {}
    legs: dict[int, Leg] = {}
    for index in order:
        batch = request.chains[index]
        # Every fill for this chain lands before its steps, as the relayer's fill would, whether a step is
        # chained from the bridge (re-sized for what landed) or spends the balance as planned.
        incoming = {
            batches[ref.batch][ref.index].key or f"chains[{ref.batch}].steps[{ref.index}]": fill
            for ref, fill in sorted(promised.items())
            if isinstance(fill, Fill) and fill.to_chain == batch.chain
        }
        blocked: dict[int, str] = {}
        for position in range(len(batches[index])):
            source = chained_from.get(StepRef(index, position))
            if source is None or source.batch == index:
                continue  # the leg sizes same-chain chains itself; an unknown key has not landed
            bridge = batches[source.batch][source.index]
            fill = promised.get(source, "it is not a bridge, and only a bridge carries funds between chains")
            if isinstance(fill, str):
                blocked[position] = depends_text(bridge, names[source.batch], fill)
            elif fill.to_chain != batch.chain:
                blocked[position] = depends_text(bridge, names[source.batch], f"it lands on {fill.to_chain}")
        legs[index] = await _leg(simulation, batch.chain, batch.sender, batches[index], incoming, blocked)
        for position, fill in legs[index].bridges.items():
            promised[StepRef(index, position)] = fill
    fills = [fill for fill in promised.values() if isinstance(fill, Fill)]
    ordered = [legs[i] for i in range(len(request.chains))]
    running = list(order)
    for chain, sender in (landing or {}).items():
        arriving = {f"fill-{n}": f for n, f in enumerate(fills) if f.to_chain == chain}
        if chain in names or not arriving or not registry.chain(chain).simulate:
            continue
        running.append(len(ordered))
        ordered.append(await _leg(simulation, chain, sender, [], arriving, {}))
    return PlanRun(ordered, running, fills)


async def _leg(
    simulation: ChainLegs,
    chain: str,
    sender: str,
    steps: list[Step],
    incoming: dict[str, Fill],
    blocked: dict[int, str],
) -> Leg:
    if simulation.registry.chain(chain).family == "evm":
        return await simulation.evm_leg(chain, sender, steps, incoming, blocked)
    # A fill into Solana is a mint into its token account, landed in litesvm before the steps.
    return await simulation.solana_leg(chain, sender, steps, blocked, incoming)


def whole(request: SimulatePlanRequest, run: PlanRun) -> SimulateResponse:
    """The whole-plan answer of `run`, without changes (attach adds them)."""
    by_chain = {leg.chain: leg for leg in run.legs}
    return _whole(request, run.legs[: len(request.chains)], fill_results(by_chain, run.fills))


def fill_results(legs: Mapping[str, Leg], fills: Sequence[Fill]) -> list[FillResult]:
    """Every modelled fill as the response shows it: where it landed (or why not)."""
    landed = {id(item.fill): item for leg in legs.values() for item in leg.landed}
    results = []
    for fill in fills:
        outcome = landed.get(id(fill))
        if outcome is None:
            error: str | None = NO_DESTINATION.format(chain=fill.to_chain)
        else:
            error = None if outcome.success else outcome.failure
        results.append(
            FillResult(
                bridge_order=fill.bridge_order,
                protocol=fill.protocol,
                from_chain=fill.from_chain,
                to_chain=fill.to_chain,
                recipient=fill.recipient,
                asset=fill.token.symbol,
                amount=format(fill.amount.normalize(), "f"),
                amount_raw=str(fill.amount_raw),
                method=fill.method,
                deposit_checked=fill.from_chain in legs and fill.from_chain != fill.to_chain,
                landed=outcome is not None and outcome.success,
                error=error,
            )
        )
    return results


def _whole(request: SimulatePlanRequest, legs: list[Leg], fills: list[FillResult]) -> SimulateResponse:
    """One answer for all chains: steps as sent with their chain and order, success only when every step
    of every chain succeeded, the first failing step named with its chain, per-chain totals beside."""
    steps = []
    error: str | None = None
    chains = []
    for leg in legs:
        part = leg.response()
        chains.append(ChainResult(chain=leg.chain, **part.model_dump(include=set(Totals.model_fields))))
        for step, result in zip(leg.steps, leg.results, strict=True):
            steps.append(result.model_copy(update={"chain": leg.chain, "order": step.order}))
            if error is None and not result.success:
                error = f"step {step.order} ({step.type}) on {leg.chain}: {result.error}"
    # A fill the plan's own chains needed but could not land leaves the plan unverified, though every
    # step that ran passed: those on its chain ran without the bridged funds.
    sent = {leg.chain for leg in legs}
    unlanded = [f for f in fills if f.to_chain in sent and not f.landed]
    if error is None and unlanded:
        fill = unlanded[0]
        error = (
            f"the {fill.protocol} fill of step {fill.bridge_order} on {fill.from_chain} was not landed on "
            f"{fill.to_chain}: {fill.error}"
        )
    costs = [leg.cost_usd for leg in legs]
    # A cost any chain cannot price leaves the total unpriced ("unavailable"), never a partial sum.
    total = None if None in costs else sum((c for c in costs if c is not None), Decimal(0))
    single = len(legs) == 1
    return SimulateResponse(
        success=error is None,
        gas_used=format_gas(sum(leg.gas_used for leg in legs)),
        gas_price=legs[0].gas_price if single else "; ".join(f"{leg.chain}: {leg.gas_price}" for leg in legs),
        gas_price_source=_sources(legs),
        total_cost=format_usd(total),
        error=error,
        steps=steps,
        chains=chains,
        fills=fills,
    )


def _sources(legs: list[Leg]) -> str:
    found = list(dict.fromkeys(leg.gas_price_source for leg in legs))
    return found[0] if len(found) == 1 else "; ".join(f"{leg.chain}: {leg.gas_price_source}" for leg in legs)
