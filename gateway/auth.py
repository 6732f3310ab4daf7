"""Bearer API keys: who is calling, for which tenant, with which scopes and tier."""

from __future__ import annotations

import re
from dataclasses import dataclass

import trio

from gateway.errors import ApiError
from storage import Database, accounts

KEY_PATTERN = re.compile(r"^igk_[A-Za-z0-9_-]{43}$")


@dataclass(frozen=True)
class Principal:
    key_id: str
    tenant_id: str
    tenant_name: str
    tier: str
    scopes: tuple[str, ...]


def _invalid_key(message: str) -> ApiError:
    return ApiError(401, "invalid_key", message)


class Authenticator:
    """Resolves `Authorization: Bearer <key>` to a Principal; positive lookups are cached briefly."""

    def __init__(self, db: Database, cache_seconds: float) -> None:
        self._db = db
        self._cache_seconds = cache_seconds
        self._cache: dict[str, tuple[Principal, float]] = {}
        # Lookups in flight by key hash: concurrent requests with an expired key share one store read.
        self._pending: dict[str, trio.Event] = {}

    async def authenticate(self, header: str | None) -> Principal:
        """Raises ApiError 401 invalid_key when the key is missing, malformed, unknown or revoked."""
        if not header:
            raise _invalid_key("Send Authorization: Bearer <API key>.")
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not KEY_PATTERN.match(token):
            raise _invalid_key("The Authorization header is not a well-formed Bearer API key.")
        key_hash = accounts.hash_key(token)
        cached = self._cache.get(key_hash)
        if cached and cached[1] > trio.current_time():
            return cached[0]
        pending = self._pending.get(key_hash)
        if pending is not None:  # another request is reading this key: wait for its answer
            await pending.wait()
            cached = self._cache.get(key_hash)
            if cached and cached[1] > trio.current_time():
                return cached[0]
        return await self._lookup(key_hash)

    def forget_key(self, key_id: str) -> None:
        """Drop cached lookups of a key just revoked, so this process refuses it from the next request."""
        for key_hash in [h for h, (p, _) in self._cache.items() if p.key_id == key_id]:
            del self._cache[key_hash]

    async def _lookup(self, key_hash: str) -> Principal:
        done = self._pending[key_hash] = trio.Event()
        try:
            record = await self._db.read(accounts.find_active_key, key_hash)
        finally:
            del self._pending[key_hash]
            done.set()
        if record is None:
            self._cache.pop(key_hash, None)
            raise _invalid_key("The API key is unknown or revoked.")
        principal = Principal(record.id, record.tenant_id, record.tenant_name, record.tier, record.scopes)
        if self._cache_seconds > 0:
            self._cache[key_hash] = (principal, trio.current_time() + self._cache_seconds)
        return principal
