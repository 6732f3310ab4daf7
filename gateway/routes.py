"""Every public route, declared in one place: path, handler, scope, cost and the models that validate
its input and document its output (the OpenAPI document is generated from this table)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.agents import (
    RequestPatch,
    StatusPatch,
)
from engine.intents import IntentResponse
from engine.planner import PlanRequest, ReencodeRequest, ReencodeResponse
from engine.simulate import SimulatePlanRequest, SimulateRequest, SimulateResponse
from gateway import agent_models, operator_models
from gateway.api_models import MetaResponse, UsageResponse
from gateway.errors import RefusedPlan
from gateway.handlers import account, dashboard_api, planning
from gateway.handlers import agents as agent_handlers
from gateway.handlers import events as event_handlers
from gateway.handlers import intent as intent_handlers
from gateway.handlers import remedy as remedy_handlers
from gateway.handlers import simulate as simulate_handlers
from gateway.handlers import webhooks as webhook_handlers
from gateway.policy import Handler
from gateway.remedy_models import EventList, EventPlan
from gateway.streams import sse_stream
from gateway.versioning import COST_PER_CALL
from gateway.webhook_models import (
    AttemptList,
    AttemptsQuery,
    EndpointCreateBody,
    EndpointCreated,
    EndpointList,
)


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    handler: Handler
    summary: str
    scope: str | None = None
    cost: int = 0
    body_model: type[BaseModel] | None = None
    query_model: type[BaseModel] | None = None
    response_model: type[BaseModel] | None = None
    success_status: int = 200
    error_statuses: tuple[int, ...] = field(default=(401, 429, 503))
    # Bodies read in one of several forms (the handler tells them apart): documented as oneOf these.
    body_forms: tuple[type[BaseModel], ...] = ()
    # A price that depends on the body (validated, or the raw object of a RootModel body): credits per call.
    cost_of: Callable[[Any], int] | None = None
    # The route's answer as server-sent events (documented as text/event-stream): what the events are.
    event_stream: str | None = None
    # The handler changes nothing but what it answers (no store write, nothing sent on anyone's behalf),
    # so its work may start while its credits are reserved (gateway.policy.guarded).
    read_only: bool = False
    # Error statuses whose body adds fields to the envelope: documented with these models.
    error_bodies: tuple[tuple[int, type[BaseModel]], ...] = ()

    @property
    def name(self) -> str:
        return self.handler.__name__


def routes() -> list[Route]:
    return [
        Route(
            "GET",
            "/meta",
            account.get_meta,
            "Service facts: schema version, actions, chains, tiers.",
            response_model=MetaResponse,
            error_statuses=(401, 503),
        ),
        Route(
            "GET",
            "/usage",
            account.get_usage,
            "Credit balance and recent ledger rows.",
            response_model=UsageResponse,
        ),
        # planning
        Route(
            "POST",
            "/plan",
            planning.post_plan,
            "Intents and wallets to ordered unsigned steps. With options.verify the plan is run on forks "
            "first and its effect checked against the intents: the answer carries `verification`, or is "
            "422 effect_mismatch / plan_unverified naming the step (5 credits, plus 5 per chain verified).",
            scope="plan",
            cost=COST_PER_CALL,
            cost_of=planning.cost,
            body_model=PlanRequest,
            response_model=planning.VerifiedPlanResponse,
            error_statuses=(400, 401, 402, 403, 422, 429, 502, 503),
            error_bodies=((422, RefusedPlan),),
            read_only=True,
        ),
        Route(
            "POST",
            "/steps/reencode",
            planning.post_reencode,
            "Re-quote one step at sign time.",
            scope="plan",
            cost=COST_PER_CALL,
            body_model=ReencodeRequest,
            response_model=ReencodeResponse,
            error_statuses=(400, 401, 402, 409, 429, 503),
            read_only=True,
        ),
        # simulate
        Route(
            "POST",
            "/simulate",
            simulate_handlers.post_simulate,
            "Dry-run one chain's steps on a fork of current state, or a whole plan across its bridges "
            "(`chains`: source chains first, each bridge's fill modelled on its destination; 5 credits per "
            "chain); nothing is broadcast.",
            scope="plan",
            cost=COST_PER_CALL,
            cost_of=simulate_handlers.cost,
            body_model=simulate_handlers.SimulateBody,
            body_forms=(SimulateRequest, SimulatePlanRequest),
            response_model=SimulateResponse,
            error_statuses=(400, 401, 402, 403, 429, 502, 503),
        ),
        # intent
        Route(
            "POST",
            "/intent",
            intent_handlers.post_intent,
            "Plain English to intents or clarifications; JSON, or SSE with Accept: text/event-stream.",
            scope="plan",
            cost=COST_PER_CALL,
            body_model=intent_handlers.IntentBody,
            response_model=IntentResponse,
            event_stream=(
                "With Accept: text/event-stream or options.stream: events `reasoning` and `delta` "
                '({"text"}), `tool-start` and `tool-end` ({"tool", ...}), then `final` (the IntentResponse) '
                "or `error` (the Error envelope)."
            ),
            error_statuses=(400, 401, 402, 403, 429, 502, 503),
        ),
        # agents
        Route(
            "POST",
            "/agents",
            agent_handlers.create_agent,
            "Create an agent: typed, or compiled from plain English (may answer a clarification).",
            scope="agents",
            body_model=agent_models.AgentCreateBody,
            body_forms=agent_models.AGENT_CREATE_FORMS,
            response_model=agent_models.AgentEnvelope,
            success_status=201,
            error_statuses=(401, 422, 429, 503),
        ),
        Route(
            "GET",
            "/agents",
            agent_handlers.list_agents,
            "The tenant's agents, newest first, filtered and cursor-paginated.",
            scope="agents",
            query_model=agent_models.AgentListQuery,
            response_model=agent_models.AgentPage,
        ),
        Route(
            "GET",
            "/agents/<agent_id>",
            agent_handlers.get_agent,
            "One agent by its public id.",
            scope="agents",
            response_model=agent_models.AgentEnvelope,
            error_statuses=(401, 404, 429, 503),
        ),
        Route(
            "PATCH",
            "/agents/<agent_id>",
            agent_handlers.patch_agent,
            "Pause or resume an agent, or recompile a condition agent from a new request.",
            scope="agents",
            body_model=agent_models.AgentPatchBody,
            body_forms=(StatusPatch, RequestPatch),
            response_model=agent_models.AgentEnvelope,
            error_statuses=(401, 404, 422, 429, 503),
        ),
        Route(
            "DELETE",
            "/agents/<agent_id>",
            agent_handlers.delete_agent,
            "Delete an agent; repeating it is a no-op.",
            scope="agents",
            success_status=204,
            error_statuses=(401, 404, 429, 503),
        ),
        # events
        Route(
            "POST",
            "/agents/<agent_id>/test",
            event_handlers.test_agent,
            "Queue a synthetic agent.test event through the delivery pipeline (push and pull rails).",
            scope="agents",
            success_status=202,
            error_statuses=(401, 403, 404, 429, 503),
        ),
        Route(
            "GET",
            "/agent-events",
            event_handlers.list_events,
            "The tenant's agent events, newest first, cursor-paginated.",
            scope="agents",
            query_model=event_handlers.EventListQuery,
            response_model=EventList,
            error_statuses=(401, 403, 429, 503),
        ),
        Route(
            "GET",
            "/events/<event_id>/plan",
            remedy_handlers.event_plan,
            "The event's remedy planned and simulated now for the agent's wallets (never signed or sent).",
            scope="agents",
            cost=COST_PER_CALL,
            response_model=EventPlan,
            error_statuses=(401, 402, 403, 404, 429, 502, 503),
        ),
        # webhooks
        Route(
            "POST",
            "/webhook-endpoints",
            webhook_handlers.create_endpoint,
            "Register an https endpoint; its signing secret is returned this once.",
            scope="agents",
            body_model=EndpointCreateBody,
            response_model=EndpointCreated,
            success_status=201,
            error_statuses=(400, 401, 403, 429, 503),
        ),
        Route(
            "GET",
            "/webhook-endpoints",
            webhook_handlers.list_endpoints,
            "The tenant's endpoints with their status, never with secrets.",
            scope="agents",
            response_model=EndpointList,
            error_statuses=(401, 403, 429, 503),
        ),
        Route(
            "DELETE",
            "/webhook-endpoints/<endpoint_id>",
            webhook_handlers.delete_endpoint,
            "Delete an endpoint; unknown ids and repeats are also 204.",
            scope="agents",
            success_status=204,
            error_statuses=(401, 403, 429, 503),
        ),
        Route(
            "GET",
            "/webhook-endpoints/<endpoint_id>/attempts",
            webhook_handlers.list_attempts,
            "The endpoint's most recent delivery attempts, newest first.",
            scope="agents",
            query_model=AttemptsQuery,
            response_model=AttemptList,
            error_statuses=(400, 401, 403, 404, 429, 503),
        ),
        # operator routes (beyond the contract; docs/decisions.md)
        Route(
            "GET",
            "/account",
            dashboard_api.get_account,
            "The calling key's tenant: balance, credit use over time, rate tier and recent 429s.",
            query_model=operator_models.AccountQuery,
            response_model=operator_models.AccountResponse,
            error_statuses=(400, 401, 429, 503),
        ),
        Route(
            "GET",
            "/keys",
            dashboard_api.list_keys,
            "The tenant's API keys (id, prefix, scopes, created, last used, revoked); never the key itself.",
            scope="agents",
            response_model=operator_models.KeyList,
            error_statuses=(401, 403, 429, 503),
        ),
        Route(
            "POST",
            "/keys",
            dashboard_api.create_key,
            "Create an API key for the caller's tenant with scopes the calling key holds; the key is "
            "returned this once.",
            scope="agents",
            body_model=operator_models.KeyCreateBody,
            response_model=operator_models.KeyCreated,
            success_status=201,
            error_statuses=(400, 401, 403, 429, 503),
        ),
        Route(
            "POST",
            "/keys/<key_id>/revoke",
            dashboard_api.revoke_key,
            "Revoke one of the tenant's API keys; repeating it answers the first revocation.",
            scope="agents",
            response_model=operator_models.KeyRevoked,
            error_statuses=(401, 403, 404, 429, 503),
        ),
        Route(
            "GET",
            "/agent-readings",
            dashboard_api.agent_readings,
            "The last value each of the tenant's agents read, as stored, and when it was stored.",
            scope="agents",
            response_model=operator_models.ReadingList,
            error_statuses=(401, 403, 429, 503),
        ),
        Route(
            "GET",
            "/agent-overview",
            dashboard_api.agent_overview,
            "The tenant's agents newest first, filtered as GET /agents, searched and paged, each with its "
            "state now (armed, holding, baseline, degraded, paused, scheduled), last reading and last event.",
            scope="agents",
            query_model=operator_models.AgentOverviewQuery,
            response_model=operator_models.AgentOverview,
            error_statuses=(400, 401, 403, 429, 503),
        ),
        Route(
            "GET",
            "/events",
            dashboard_api.search_events,
            "The tenant's events newest first, filtered by type and agent, searched and paged, each with "
            "its deliveries counted by state.",
            scope="agents",
            query_model=operator_models.EventSearchQuery,
            response_model=operator_models.EventSearchPage,
            error_statuses=(400, 401, 403, 429, 503),
        ),
        Route(
            "GET",
            "/events/<event_id>",
            dashboard_api.get_event,
            "One event: the pull-rail item, the exact JSON body pushed to receivers, and its deliveries "
            "with their attempts.",
            scope="agents",
            response_model=operator_models.EventDetail,
            error_statuses=(401, 403, 404, 429, 503),
        ),
        Route(
            "GET",
            "/deliveries",
            dashboard_api.list_deliveries,
            "The tenant's webhook deliveries, newest first, filtered, searched and paged, each with its "
            "latest attempts.",
            scope="agents",
            query_model=operator_models.DeliveriesQuery,
            response_model=operator_models.DeliveryList,
            error_statuses=(400, 401, 403, 429, 503),
        ),
        Route(
            "POST",
            "/deliveries/<delivery_id>/replay",
            dashboard_api.replay_delivery,
            "Queue one delivery for another attempt at the next delivery tick.",
            scope="agents",
            response_model=operator_models.DeliveryReplayed,
            error_statuses=(400, 401, 403, 404, 429, 503),
        ),
        Route(
            "GET",
            "/webhook-endpoints/health",
            dashboard_api.endpoint_health,
            "The tenant's endpoints with their failure streak and when they were disabled.",
            scope="agents",
            response_model=operator_models.EndpointHealthList,
            error_statuses=(401, 403, 429, 503),
        ),
        Route(
            "POST",
            "/webhook-endpoints/<endpoint_id>/rotate-secret",
            dashboard_api.rotate_endpoint_secret,
            "Give an endpoint a new signing secret, returned this once; the replaced secret keeps signing "
            "beside it for `previous_valid_s` seconds (default a day, 0 stops it at once).",
            scope="agents",
            query_model=operator_models.RotateQuery,
            response_model=operator_models.SecretRotated,
            error_statuses=(400, 401, 403, 404, 429, 503),
        ),
        Route(
            "POST",
            "/webhook-endpoints/<endpoint_id>/enable",
            dashboard_api.enable_endpoint,
            "Set a disabled endpoint active again with a fresh failure streak.",
            scope="agents",
            response_model=operator_models.EndpointEnabled,
            error_statuses=(401, 403, 404, 429, 503),
        ),
        # streams
        Route(
            "GET",
            "/agent-events/stream",
            sse_stream.stream_events,
            "The tenant's events live as server-sent events; Last-Event-ID resumes after that event.",
            scope="agents",
            event_stream=(
                "One `agent.triggered`, `agent.degraded` or `agent.test` event per stored event, its data the "
                "pull-rail Event and its id the event id; comments as heartbeats."
            ),
            error_statuses=(401, 403, 429, 503),
        ),
    ]
