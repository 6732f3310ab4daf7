"""The operator routes the dashboard reads and acts through (the account, keys, agents with their state,
events and deliveries, endpoint health, re-enabling and secret rotation): the REST face of
gateway.usecases.operator, gateway.usecases.listings and gateway.usecases.webhooks. Policy (auth, scope,
limits, envelope) is applied around them by gateway.policy like every other route."""

from __future__ import annotations

from typing import Any

from gateway.operator_models import (
    AccountQuery,
    AccountResponse,
    AgentOverview,
    AgentOverviewQuery,
    DeliveriesQuery,
    DeliveryList,
    DeliveryReplayed,
    EndpointEnabled,
    EndpointHealthList,
    EventDetail,
    EventSearchPage,
    EventSearchQuery,
    KeyCreateBody,
    KeyList,
    KeyRevoked,
    ReadingList,
    RotateQuery,
)
from gateway.policy import Call, Reply
from gateway.usecases import listings, operator, webhooks


def _page(page: AgentOverview | EventSearchPage | DeliveryList) -> Reply:
    """A page of a listing: `next_cursor` stays in the answer as null on the last page, as on the pull
    rail, where other absent fields are left out."""
    body: dict[str, Any] = page.model_dump(mode="python", exclude_none=True)
    body["next_cursor"] = page.next_cursor
    return Reply(body)


async def get_account(call: Call) -> AccountResponse:
    query: AccountQuery = call.query
    services = call.services
    return await operator.account(services.db, services.activity, call.principal, query.span)


async def list_keys(call: Call) -> KeyList:
    return await operator.list_keys(call.services.db, call.services.activity, call.principal)


async def create_key(call: Call) -> Reply:
    """201 {key, api_key}; 403 scope_forbidden when the calling key lacks a scope asked for."""
    body: KeyCreateBody = call.body
    return Reply(await operator.create_key(call.services.db, call.principal, body), 201)


async def revoke_key(call: Call) -> KeyRevoked:
    services = call.services
    return await operator.revoke_key(services.db, services.auth, call.principal, call.path["key_id"])


async def agent_overview(call: Call) -> Reply:
    query: AgentOverviewQuery = call.query
    return _page(await listings.agent_overview(call.services.db, call.principal.tenant_id, query))


async def search_events(call: Call) -> Reply:
    query: EventSearchQuery = call.query
    return _page(await listings.search_events(call.services.db, call.principal.tenant_id, query))


async def get_event(call: Call) -> EventDetail:
    return await listings.event_detail(call.services.db, call.principal.tenant_id, call.path["event_id"])


async def list_deliveries(call: Call) -> Reply:
    query: DeliveriesQuery = call.query
    return _page(await listings.list_deliveries(call.services.db, call.principal.tenant_id, query))


async def replay_delivery(call: Call) -> DeliveryReplayed:
    tenant_id, delivery_id = call.principal.tenant_id, call.path["delivery_id"]
    return await operator.replay_delivery(call.services.db, tenant_id, delivery_id)


async def enable_endpoint(call: Call) -> EndpointEnabled:
    tenant_id, endpoint_id = call.principal.tenant_id, call.path["endpoint_id"]
    return await operator.enable_endpoint(call.services.db, tenant_id, endpoint_id)


async def rotate_endpoint_secret(call: Call) -> Reply:
    """200 {endpoint, signing_secret, previous_expires_at?}; 404 endpoint_not_found."""
    query: RotateQuery = call.query
    services = call.services
    tenant_id, endpoint_id = call.principal.tenant_id, call.path["endpoint_id"]
    return Reply(
        await webhooks.rotate_secret(
            services.db, services.settings, tenant_id, endpoint_id, query.previous_valid_s
        )
    )


async def endpoint_health(call: Call) -> EndpointHealthList:
    return await operator.endpoint_health(call.services.db, call.principal.tenant_id)


async def agent_readings(call: Call) -> ReadingList:
    return await operator.readings(call.services.db, call.principal.tenant_id)
