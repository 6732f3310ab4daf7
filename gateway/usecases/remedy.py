"""Remedies, the use case: reading and checking an agent's remedy at creation, and building its plan.

A remedy's plan is built by the same planner and simulator as POST /plan and POST /simulate, for the
agent's own wallets, at the moment it is asked for: GET /events/{id}/plan re-plans and re-simulates each
time, because a quote taken when the agent fired is stale by the time a person signs. A remedy whose plan
cannot be built now (the balance is gone, the market moved) is an answer, not an error: `status:
not_buildable` with the planner's reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import cache
from typing import Any, Final

from engine.agents import Compiled, Condition, HealthAgentCreate, HealthFactorMetric, dropped_note
from engine.agents.remedy import NotPlannable, Remedy, parse_typed_remedy, read_remedy, summarize
from engine.agents.shares import Unsized
from engine.agents.suggest import NoSuggestion, suggest_remedy
from engine.agents.wallets import is_evm_address, is_solana_address
from engine.intents import IntentParser, RegistryUniverse
from engine.limits import PLAN_WALLETS_MAX
from engine.planner import PlanError, PlanRequest, PlanResponse, Step
from engine.planner.models import PlanWallet
from engine.registry import Registry, load_registry
from engine.simulate import SimulateRequest
from engine.verify import Verification
from gateway.usecases.errors import NotFound, NotRunning
from gateway.usecases.planning import Planning
from gateway.usecases.remedy_shares import ShareSizer
from gateway.usecases.simulation import Simulation
from gateway.usecases.verification import Verifier
from storage import Database
from storage import agents as agent_store
from storage.clock import wall_ms
from storage.events import get_event
from watchers.upstreams.aave_position import aave_position

# Kinds whose agents get a suggested remedy when they carry none (the lending health kinds).
HEALTH_KINDS: Final = frozenset({"aave-health", "spark-health"})
READY: Final = "ready"
NOT_BUILDABLE: Final = "not_buildable"
# The body key a create request carries its typed remedy under (beside the contract's create fields).
REMEDY_FIELD: Final = "remedy"


@cache
def _reader() -> tuple[Registry, IntentParser]:
    """The registry and an intent reader over it, built once (the reader indexes every name)."""
    registry = load_registry()
    return registry, IntentParser(RegistryUniverse(registry))


def take_remedy(raw: Any) -> tuple[Any, object | None]:
    """Split a create body into the body the agent parser reads and its typed `remedy` (None if absent)."""
    if not isinstance(raw, Mapping) or REMEDY_FIELD not in raw:
        return raw, None
    rest = {key: value for key, value in raw.items() if key != REMEDY_FIELD}
    return rest, raw[REMEDY_FIELD]


def typed_remedy(raw: object, wallets: Sequence[str]) -> Remedy:
    """Check a typed remedy against the registry and the agent's wallets; raises AgentValidationError."""
    registry, _ = _reader()
    return parse_typed_remedy(raw, registry, wallets)


def remedy_from_action(compiled: Compiled, wallets: Sequence[str]) -> tuple[Compiled, Remedy | None]:
    """Read a compiled request's dropped follow-on action into a remedy. When it reads, the action is no
    longer dropped; when it does not, dropped_action stays and the note says why it cannot be planned."""
    action = compiled.dropped_action
    if action is None:
        return compiled, None
    registry, parser = _reader()
    chain = getattr(compiled.agent, "chain", None)
    if chain is None and compiled.condition is not None:
        chain = getattr(compiled.condition.metric, "chain", None)
    # A health agent watches one lending market: a lending action that names none means that one.
    protocol: str | None = None
    if isinstance(compiled.agent, HealthAgentCreate):
        protocol = compiled.agent.protocol
    elif isinstance(compiled.condition, Condition) and isinstance(
        compiled.condition.metric, HealthFactorMetric
    ):
        protocol = compiled.condition.metric.protocol
    found = read_remedy(
        parser, registry, action, wallets, chain if isinstance(chain, str) else None, protocol
    )
    # The compiler's sentence on the dropped action is replaced; what else its note says is kept.
    rest = (compiled.note or "").replace(dropped_note(action), "").strip()
    if isinstance(found, NotPlannable):
        note = (
            f'The follow-on action "{action}" cannot be planned ({found.reason}); this agent stays notify-only. '
            "Send a typed remedy to attach one."
        )
        return dataclasses.replace(compiled, note=f"{note} {rest}".strip()), None
    note = (
        f'The follow-on action "{action}" is this agent\'s remedy: it is never signed or sent by the '
        "service; each event carries a link to its freshly built unsigned plan."
    )
    return dataclasses.replace(compiled, dropped_action=None, note=f"{note} {rest}".strip()), found


def stored_remedy(raw: Mapping[str, Any] | None) -> Remedy | None:
    """The remedy of a stored agent, or None; a stored remedy that no longer validates counts as none."""
    if raw is None:
        return None
    try:
        return Remedy.from_json(dict(raw))
    except (KeyError, TypeError, ValueError):
        return None


def remedy_wire(raw: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The `remedy` object of a stored agent for the wire, or None."""
    remedy = stored_remedy(raw)
    return remedy.wire() if remedy is not None else None


def plan_wallets(registry: Registry, remedy: Remedy, wallets: Sequence[str]) -> tuple[PlanWallet, ...]:
    """The agent's wallets on every chain the remedy starts on, each in its chain's address family."""
    chains: list[str] = []
    for intent in remedy.intents:
        chain = intent.chain or intent.from_chain
        if chain is not None and chain not in chains:
            chains.append(chain)
    out: list[PlanWallet] = []
    for chain in chains:
        solana = registry.chain(chain).family == "solana"
        for address in wallets:
            if solana and is_solana_address(address):
                out.append(PlanWallet(address=address, chain=chain))
            elif not solana and is_evm_address(address):
                # As sent: the planner checks a mixed-case address's checksum, so a wallet stored before
                # agents checked it makes the remedy unbuildable rather than paying a typo.
                out.append(PlanWallet(address=address, chain=chain))
    return tuple(out[:PLAN_WALLETS_MAX])


@dataclasses.dataclass
class RemedyPlans:
    """Builds a remedy's plan and simulates it, per chain, for the agent's wallets."""

    db: Database
    planning: Planning | None
    simulation: Simulation | None

    async def for_event(self, tenant_id: str, event_id: str) -> dict[str, Any]:
        """{event_id, agent, remedy, status, plan, simulations, reason, planned_at} built now.

        NotFound for an unknown event or another tenant's; NotRunning when this process does not plan.
        """
        event = await self.db.run(get_event, event_id)
        if event is None or event.tenant_id != tenant_id:
            raise NotFound("event", "No event with this id exists for your tenant.")
        agent = await self.db.run(agent_store.get_agent, tenant_id, event.agent_id)
        head: dict[str, Any] = {
            "event_id": event.id,
            "agent": {"id": event.agent_id, "kind": event.agent_kind},
        }
        if agent is None:
            return {**head, "remedy": None, **_not_buildable("the agent has been deleted")}
        remedy = stored_remedy(agent.remedy)
        if remedy is None and agent.kind in HEALTH_KINDS:
            found = await self.suggest(agent)
            if isinstance(found, NoSuggestion):
                return {**head, "remedy": None, **_not_buildable(f"no repay or top-up fits: {found.reason}")}
            remedy = found
        if remedy is None:
            return {**head, "remedy": None, **_not_buildable("the agent carries no remedy")}
        return {**head, "remedy": remedy.wire(), **await self.build(remedy, agent.wallets)}

    async def suggest(self, agent: agent_store.Agent) -> Remedy | NoSuggestion:
        """For a health agent: the smallest repay or top-up from the watched wallet's balances that lifts
        its health factor to the threshold with a margin (engine.agents.suggest), read from the chain now."""
        if self.simulation is None:
            raise NotRunning("This deployment does not plan: its chain clients are not configured.")
        fields = agent.typed_fields
        chain, protocol = str(fields["chain"]), str(fields["protocol"])
        wallet = str(fields.get("target_wallet") or agent.wallets[0])
        evm = self.simulation.chains.evm(chain)
        position = await aave_position(self.simulation.registry, evm, chain, protocol, wallet.lower())
        found = suggest_remedy(position, Decimal(fields["threshold"]), chain, protocol)
        if isinstance(found, NoSuggestion):
            return found
        return Remedy((found,), "suggested", summarize((found,)))

    async def build(self, remedy: Remedy, wallets: Sequence[str]) -> dict[str, Any]:
        """{status, plan, simulations, reason, planned_at}: the plan and its dry run as of now, a share
        of a holding sized from the chain now (gateway.usecases.remedy_shares)."""
        if self.planning is None or self.simulation is None:
            raise NotRunning("This deployment does not plan: its chain clients are not configured.")
        registry = self.planning.registry
        request_wallets = plan_wallets(registry, remedy, wallets)
        if not request_wallets:
            return _not_buildable("none of the agent's wallets can sign on the remedy's chains")
        intents = await ShareSizer(self.planning, self.simulation.chains).sized(remedy, request_wallets)
        if isinstance(intents, Unsized):
            return _not_buildable(intents.reason)
        request = PlanRequest(intents=intents, wallets=request_wallets)
        try:
            plan = await self.planning.plan(request)
        except PlanError as exc:
            return _not_buildable(str(exc))
        verification = await Verifier(self.simulation).verify(request, plan)
        simulations = (
            _simulations(plan, verification)
            if verification.changes is not None
            else await self._simulate(plan)
        )
        return {
            "status": READY,
            "plan": plan.model_dump(mode="python", exclude_none=True),
            "simulations": simulations,
            "verification": verification.model_dump(mode="python"),
            "reason": None,
            "planned_at": wall_ms(),
        }

    async def _simulate(self, plan: PlanResponse) -> list[dict[str, Any]]:
        """One dry run per chain and sender, in plan order, for a plan the whole-plan run cannot take (a
        chain /simulate does not run, several wallets on one chain); such a chain is said so."""
        assert self.simulation is not None
        registry = self.simulation.registry
        groups: dict[tuple[str, str], list[Step]] = {}
        for step in plan.steps:
            groups.setdefault((step.chain, step.wallet or ""), []).append(step)
        results: list[dict[str, Any]] = []
        for (chain, sender), steps in groups.items():
            if not registry.chain(chain).simulate or not sender:
                results.append({"chain": chain, "simulated": False, "reason": f"{chain} is not simulated"})
                continue
            request = SimulateRequest.model_validate({"chain": chain, "sender": sender, "steps": steps})
            outcome = await self.simulation.simulate(request)
            results.append({"chain": chain, "simulated": True, **outcome.model_dump(mode="python")})
        return results


def _simulations(plan: PlanResponse, verification: Verification) -> list[dict[str, Any]]:
    """Per chain, in plan order, the dry run the verification made: its totals and its steps' results
    (bridge fills modelled, so a step funded by a bridge runs on what lands)."""
    totals = {c.chain: c for c in verification.chains or []}
    found: list[dict[str, Any]] = []
    for chain in dict.fromkeys(step.chain for step in plan.steps):
        steps = [
            r.model_dump(mode="python", exclude={"chain", "order"})
            for r in verification.steps
            if r.chain == chain
        ]
        total = totals[chain].model_dump(mode="python", exclude={"chain"})
        found.append({"chain": chain, "simulated": True, **total, "steps": steps})
    return found


def _not_buildable(reason: str) -> dict[str, Any]:
    return {
        "status": NOT_BUILDABLE,
        "plan": None,
        "simulations": None,
        "verification": None,
        "reason": reason,
        "planned_at": wall_ms(),
    }
