"""The operator routes the dashboard reads and acts through (GET /account, GET /keys, POST
/keys/{id}/revoke, GET /deliveries, POST /deliveries/{id}/replay, POST /webhook-endpoints/{id}/enable):
the REST face of gateway.usecases.operator. Policy (auth, scope, limits, envelope) is applied around them
by gateway.policy like every other route."""

from __future__ import annotations

from gateway.operator_models import (
    AccountQuery,
    AccountResponse,
    DeliveriesQuery,
    DeliveryList,
    DeliveryReplayed,
    EndpointEnabled,
    EndpointHealthList,
    KeyList,
    KeyRevoked,
    ReadingList,
)
from gateway.policy import Call
from gateway.usecases import operator


async def get_account(call: Call) -> AccountResponse:
    query: AccountQuery = call.query
    services = call.services
    return await operator.account(services.db, services.activity, call.principal, query.span)


async def list_keys(call: Call) -> KeyList:
    return await operator.list_keys(call.services.db, call.services.activity, call.principal)


async def revoke_key(call: Call) -> KeyRevoked:
    services = call.services
    return await operator.revoke_key(services.db, services.auth, call.principal, call.path["key_id"])


async def list_deliveries(call: Call) -> DeliveryList:
    query: DeliveriesQuery = call.query
    return await operator.list_deliveries(call.services.db, call.principal.tenant_id, query)


async def replay_delivery(call: Call) -> DeliveryReplayed:
    tenant_id, delivery_id = call.principal.tenant_id, call.path["delivery_id"]
    return await operator.replay_delivery(call.services.db, tenant_id, delivery_id)


async def enable_endpoint(call: Call) -> EndpointEnabled:
    tenant_id, endpoint_id = call.principal.tenant_id, call.path["endpoint_id"]
    return await operator.enable_endpoint(call.services.db, tenant_id, endpoint_id)


async def endpoint_health(call: Call) -> EndpointHealthList:
    return await operator.endpoint_health(call.services.db, call.principal.tenant_id)


async def agent_readings(call: Call) -> ReadingList:
    return await operator.readings(call.services.db, call.principal.tenant_id)
