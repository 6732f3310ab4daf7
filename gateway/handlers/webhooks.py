"""POST /webhook-endpoints, GET /webhook-endpoints, DELETE /webhook-endpoints/{id} and the attempt
history GET /webhook-endpoints/{id}/attempts: the REST face of gateway.usecases.webhooks."""

from __future__ import annotations

from quart import Response

from gateway.policy import Call, Reply
from gateway.usecases import webhooks
from gateway.webhook_models import AttemptsQuery, EndpointCreateBody


async def create_endpoint(call: Call) -> Reply:
    """201 {endpoint: {id, url}, signing_secret}; 400 invalid_url; 429 endpoint_quota_exceeded; 503
    service_not_configured when no master key can be had."""
    body: EndpointCreateBody = call.body
    services = call.services
    return Reply(
        await webhooks.create_endpoint(services.db, services.settings, call.principal.tenant_id, body), 201
    )


async def list_endpoints(call: Call) -> Reply:
    return Reply(await webhooks.list_endpoints(call.services.db, call.principal.tenant_id))


async def delete_endpoint(call: Call) -> Response:
    """204 whether or not the tenant had this endpoint; its queued deliveries are dead-lettered."""
    await webhooks.delete_endpoint(call.services.db, call.principal.tenant_id, call.path["endpoint_id"])
    return Response("", status=204)


async def list_attempts(call: Call) -> Reply:
    query: AttemptsQuery = call.query
    tenant_id, endpoint_id = call.principal.tenant_id, call.path["endpoint_id"]
    return Reply(await webhooks.list_attempts(call.services.db, tenant_id, endpoint_id, query))
