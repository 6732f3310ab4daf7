"""Webhook delivery pieces that need no database: URL safety, signing, the single-attempt sender.

The partner receiver kit is ``verify_signature``: ``from watchers.webhooks import verify_signature``.
"""

from watchers.webhooks.addresses import NO_ALLOWANCE, AllowedNetworks, is_deliverable, is_public_address
from watchers.webhooks.pool import ConnectionPool
from watchers.webhooks.resolve import ResolveError, Resolver, StaticResolver, SystemResolver
from watchers.webhooks.sender import (
    DEFAULT_TIMEOUT_SECONDS,
    EVENT_ID_HEADER,
    FAILURE_TIMEOUT,
    SIGNATURE_HEADER,
    Attempt,
    make_ssl_context,
    send_once,
)
from watchers.webhooks.signing import (
    SignatureError,
    derive_signing_secret,
    secret_hash,
    sign,
    verify_signature,
)
from watchers.webhooks.urls import InvalidUrl, validate_endpoint_url

__all__ = [
    "ConnectionPool",
    "DEFAULT_TIMEOUT_SECONDS",
    "EVENT_ID_HEADER",
    "FAILURE_TIMEOUT",
    "NO_ALLOWANCE",
    "SIGNATURE_HEADER",
    "AllowedNetworks",
    "Attempt",
    "InvalidUrl",
    "ResolveError",
    "Resolver",
    "SignatureError",
    "StaticResolver",
    "SystemResolver",
    "derive_signing_secret",
    "is_deliverable",
    "is_public_address",
    "make_ssl_context",
    "secret_hash",
    "send_once",
    "sign",
    "validate_endpoint_url",
    "verify_signature",
]
