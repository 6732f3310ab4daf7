"""Agents, the use case: create (typed or plain English), list, read, pause/resume or recompile, delete.

Each parses with the agent domain's own rules (engine.agents), makes one store call, and shapes the
contract's body. Another tenant's id is refused exactly like an unknown one (NotFound), and deleting it
succeeds silently."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.agents import (
    AgentValidationError,
    Compiled,
    Condition,
    Kind,
    NeedsClarification,
    PlainAgentCreate,
    ScheduleAgentCreate,
    ScheduleSpec,
    StatusPatch,
    TypedAgentCreate,
    kinds_for_filter,
    new_agent_id,
    next_fire,
    parse_agent_id,
    parse_create_body,
    parse_patch_body,
    storage_type,
)
from engine.agents import (
    Unwatchable as UnwatchableResult,
)
from engine.agents.remedy import Remedy
from engine.cursor import decode_cursor, encode_cursor
from engine.limits import AGENT_QUOTAS
from gateway.agent_models import (
    AgentListQuery,
    agent_out,
    clarification_out,
    compile_out,
    describe_typed,
)
from gateway.auth import Principal
from gateway.usecases.agents_llm import AgentCompiler, PriceReader
from gateway.usecases.errors import Invalid, NotFound, QuotaExceeded, Unwatchable
from gateway.usecases.remedy import remedy_from_action, remedy_wire, take_remedy, typed_remedy
from storage import Database
from storage import agents as store
from storage.clock import wall_ms

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def _is_agent_id(value: str) -> bool:
    return parse_agent_id(value) is not None


def _not_found() -> NotFound:
    return NotFound("agent", "No agent with this id exists for your tenant.")


def _quota_exceeded(limit: int) -> QuotaExceeded:
    return QuotaExceeded(f"Your tier allows {limit} active agents; pause or delete one first.")


def _unwatchable(reason: str) -> Unwatchable:
    return Unwatchable(f"This request cannot be watched: {reason}.", [("request", reason)])


def _wire_field(path: str) -> str:
    """The engine's dotted paths (`wallets.0`) in the gateway's issue notation (`wallets[0]`)."""
    out = ""
    for part in path.split("."):
        out += f"[{part}]" if part.isdigit() else (f".{part}" if out else part)
    return out


def _invalid(error: AgentValidationError) -> Invalid:
    return Invalid(
        "The request did not pass validation; see issues.",
        [(_wire_field(issue.field), issue.message) for issue in error.issues],
    )


def _owned_id(agent_id: str) -> str:
    if parse_agent_id(agent_id) is None:
        raise _not_found()
    return agent_id


def _quota(principal: Principal) -> int:
    return AGENT_QUOTAS[principal.tier]


def _to_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // _MS


def _first_check(agent: TypedAgentCreate | None, created_at: int) -> int:
    """When the watchers first look at a new agent: a schedule at its next fire time, anything else at
    once (that first check only sets a baseline)."""
    if isinstance(agent, ScheduleAgentCreate):
        return _to_ms(next_fire(ScheduleSpec.of(agent), _EPOCH + created_at * _MS))
    return created_at


def _new_agent(
    kind: Kind,
    typed: TypedAgentCreate | None,
    wallets: list[str],
    display: tuple[str, str | None, str],
    compiled: Compiled | None = None,
    request: str | None = None,
    remedy: Remedy | None = None,
) -> tuple[store.NewAgent, int]:
    type_ = storage_type(kind)
    agent_id = new_agent_id(type_)
    parsed = parse_agent_id(agent_id)
    assert parsed is not None  # new_agent_id writes a well-formed id
    created_at = parsed[1].milliseconds  # the id's own timestamp, so ids and created_at sort alike
    fields = {} if typed is None else typed.model_dump(exclude={"kind", "wallets"}, exclude_none=True)
    rendered, headline, cadence = display
    new = store.NewAgent(
        id=agent_id,
        type=type_.value,
        kind=kind.value,
        wallets=tuple(wallets),
        typed_fields=fields,
        condition=compiled.condition.to_json() if compiled and compiled.condition else None,
        request=request,
        intent=compiled.intent if compiled else None,
        rendered=rendered,
        fire_headline=headline,
        cadence=cadence,
        next_check_at=_first_check(typed, created_at),
        remedy=remedy.to_json() if remedy is not None else None,
    )
    return new, created_at


def _agent_body(agent: store.Agent) -> dict[str, Any]:
    check = Condition.from_json(agent.condition).model_dump(mode="python") if agent.condition else None
    return agent_out(agent, check, remedy_wire(agent.remedy))


async def _insert(db: Database, principal: Principal, new: store.NewAgent, created_at: int) -> store.Agent:
    tenant_id, limit = principal.tenant_id, _quota(principal)
    try:
        return await db.run(store.create_agent, tenant_id, new, created_at, limit)
    except store.AgentQuotaExceeded as exc:
        raise _quota_exceeded(exc.limit) from None


# Reads a new agent's inputs and answers the edge state it starts from (watchers.Watchers.baseline).
Baseline = Callable[[TypedAgentCreate | None, Condition | None, Sequence[str]], Awaitable[str | None]]


async def _with_baseline(
    new: store.NewAgent,
    baseline: Baseline | None,
    typed: TypedAgentCreate | None,
    condition: Condition | None,
) -> store.NewAgent:
    """`new` with the baseline read now, so a move right after creation fires at the next check."""
    if baseline is None:
        return new
    return dataclasses.replace(new, edge_state=await baseline(typed, condition, new.wallets))


async def create_agent(
    db: Database,
    principal: Principal,
    raw: Any,
    compiler: AgentCompiler | None = None,
    baseline: Baseline | None = None,
    prices: PriceReader | None = None,
) -> tuple[dict[str, Any], bool]:
    """(body, created). Typed: {agent}. Plain English (read by `compiler`, the deterministic compiler
    when None): {agent, compile}, or a needs_clarification body (created False); Unwatchable when nothing
    can be watched. With `baseline`, the agent's baseline is taken at creation; with `prices`, a level the
    request gives no side takes it from the current price."""
    raw, typed = take_remedy(raw)
    try:
        body = parse_create_body(raw)
        remedy = typed_remedy(typed, list(body.wallets)) if typed is not None else None
    except AgentValidationError as exc:
        raise _invalid(exc) from None
    if not isinstance(body, PlainAgentCreate):
        display = describe_typed(body)
        new, created_at = _new_agent(body.public_kind, body, list(body.wallets), display, remedy=remedy)
        new = await _with_baseline(new, baseline, body, None)
        return {"agent": _agent_body(await _insert(db, principal, new, created_at))}, True
    result = await (compiler or AgentCompiler()).compile(body.request, list(body.wallets), prices)
    if isinstance(result, NeedsClarification):
        return clarification_out(result), False
    if isinstance(result, UnwatchableResult):
        raise _unwatchable(result.reason)
    if remedy is None:  # a typed remedy wins over the request's follow-on action, which stays reported
        result, remedy = remedy_from_action(result, list(body.wallets))
    display = (result.rendered, result.fire_headline, result.cadence)
    new, created_at = _new_agent(
        result.kind, result.agent, list(body.wallets), display, result, body.request, remedy
    )
    new = await _with_baseline(new, baseline, result.agent, result.condition)
    agent = await _insert(db, principal, new, created_at)
    shown = remedy.wire() if remedy is not None else None
    return {"agent": _agent_body(agent), "compile": compile_out(result, shown)}, True


async def list_agents(db: Database, principal: Principal, query: AgentListQuery) -> dict[str, Any]:
    """The tenant's agents newest first, filtered; next_cursor is null when no more rows follow."""
    kinds = kinds_for_filter(query.kind) if query.kind is not None else None
    filters = store.AgentFilter(
        status=query.status,
        kinds=frozenset(kind.value for kind in kinds) if kinds is not None else None,
        wallet=query.wallet,
    )
    rows = await db.run(
        store.list_agents,
        principal.tenant_id,
        query.limit + 1,
        filters,
        decode_cursor(query.cursor, _is_agent_id),
    )
    page = rows[: query.limit]
    next_cursor = encode_cursor(page[-1].created_at, page[-1].id) if len(rows) > query.limit else None
    return {"agents": [_agent_body(agent) for agent in page], "next_cursor": next_cursor}


async def get_agent(db: Database, principal: Principal, agent_id: str) -> dict[str, Any]:
    """{agent}; NotFound for a bare, malformed, unknown or another tenant's id."""
    _owned_id(agent_id)
    agent = await db.run(store.get_agent, principal.tenant_id, agent_id)
    if agent is None:
        raise _not_found()
    return {"agent": _agent_body(agent)}


async def patch_agent(
    db: Database,
    principal: Principal,
    agent_id: str,
    raw: Any,
    compiler: AgentCompiler | None = None,
    prices: PriceReader | None = None,
) -> dict[str, Any]:
    """{status} on any kind (resuming counts against the quota), or {request} on a condition agent:
    recompiled in place (same id and status, trigger history reset), or a clarification, or Unwatchable."""
    _owned_id(agent_id)
    try:
        patch = parse_patch_body(raw)
    except AgentValidationError as exc:
        raise _invalid(exc) from None
    tenant_id = principal.tenant_id
    if isinstance(patch, StatusPatch):
        try:
            agent = await db.run(
                store.set_status, tenant_id, agent_id, patch.status, wall_ms(), _quota(principal)
            )
        except store.AgentQuotaExceeded as exc:
            raise _quota_exceeded(exc.limit) from None
        if agent is None:
            raise _not_found()
        return {"agent": _agent_body(agent)}
    current = await db.run(store.get_agent, tenant_id, agent_id)
    if current is None:
        raise _not_found()
    if current.kind != Kind.CONDITION:
        message = f"request can be edited only on condition agents; this one is a {current.kind} agent"
        raise Invalid("This agent's request cannot be edited.", [("request", message)])
    result = await (compiler or AgentCompiler()).compile(patch.request, list(current.wallets), prices)
    if isinstance(result, NeedsClarification):
        return clarification_out(result)
    if isinstance(result, UnwatchableResult):
        raise _unwatchable(result.reason)
    if result.kind != Kind.CONDITION or result.condition is None:
        message = (
            f"the new request compiles to a {result.kind.value} agent, not a condition; a condition agent "
            "keeps its kind (name a check cadence such as 'check hourly if ...'), or create a new agent"
        )
        raise Invalid("The new request does not compile to a condition.", [("request", message)])
    recompiled = store.Recompiled(
        condition=result.condition.to_json(),
        request=patch.request,
        intent=result.intent,
        rendered=result.rendered,
        fire_headline=result.fire_headline,
        cadence=result.cadence,
    )
    agent = await db.run(store.replace_condition, tenant_id, agent_id, recompiled, wall_ms())
    if agent is None:  # deleted between the read and the update
        raise _not_found()
    return {"agent": _agent_body(agent), "compile": compile_out(result)}


async def delete_agent(db: Database, principal: Principal, agent_id: str) -> None:
    """Done whether or not the tenant had this agent; NotFound only for a structurally invalid id."""
    _owned_id(agent_id)
    await db.run(store.delete_agent, principal.tenant_id, agent_id)
