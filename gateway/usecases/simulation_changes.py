"""Asset changes for a simulation's answer: the lending pools' receipt tokens read for any token the
registry does not list, every asset's USD price read in one request, then each step's changes and the
batch's net attached to the answer (engine.simulate.changes says how they read)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.simulate import SimulateResponse
from engine.simulate.assets import LendingToken, asset_of
from engine.simulate.changes import Describer
from engine.simulate.effects import Key, StepEffect
from gateway.usecases.simulation_legs import Leg, LegRunner


async def describer_for(
    runner: LegRunner,
    legs: Sequence[Leg],
    minimums: Mapping[Key, int] | None = None,
    lending_for: Iterable[str] = (),
) -> Describer:
    """A Describer for the legs' effects: lending tokens read on the EVM chains where a token is not in
    the registry (and on `lending_for`), and the prices of every asset (and each chain's native asset,
    for gas) at once."""
    registry = runner.registry
    effects = [effect for leg in legs for effect in leg.ran()]
    lending: dict[str, Mapping[str, LendingToken]] = {}
    wanted = set(lending_for)
    for chain in dict.fromkeys([*(e.chain for e in effects), *sorted(wanted)]):
        if registry.chain(chain).family != "evm" or runner.lending is None:
            continue
        tokens = [d.token for e in effects if e.chain == chain for d in e.deltas]
        tokens += [a.token for e in effects if e.chain == chain for a in e.allowances]
        if chain in wanted or any(asset_of(registry, chain, token).kind == "unknown" for token in tokens):
            lending[chain] = await runner.lending.on(chain)
    symbols = [registry.native(leg.chain).symbol for leg in legs]
    for effect in effects:
        for token in [d.token for d in effect.deltas] + [a.token for a in effect.allowances]:
            priced = asset_of(registry, effect.chain, token, lending.get(effect.chain)).priced_as
            if priced is not None:
                symbols.append(priced)
    prices = await runner.usd_many(symbols)
    senders = frozenset(leg.sender for leg in legs if leg.sender)
    return Describer(registry, prices, senders, lending, minimums or {})


def attach(describer: Describer, legs: Sequence[Leg], response: SimulateResponse, ran: Sequence[Leg]) -> None:
    """Put each run step's changes on its result (`response.steps` are `legs`' steps, in order) and the
    net of every leg, in running order (`ran`), on the response."""
    results = iter(response.steps)
    for leg in legs:
        for effect in leg.effects or [None] * len(leg.steps):
            result = next(results)
            if effect is not None:
                result.changes = describer.step(effect)
    effects: list[StepEffect] = [effect for leg in ran for effect in leg.ran()]
    response.changes = describer.plan(effects)
