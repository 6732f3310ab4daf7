"""The outbox's one seam to storage: lease due deliveries and settle attempts. The database store runs
each call as one transaction in a worker thread; tests may hand in another implementation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from storage import Database
from storage import webhooks as repo
from storage.webhook_records import LeaseRound, Settled


class DeliveryStore(Protocol):
    """Where the outbox leases deliveries and records what their attempts did."""

    async def lease(
        self,
        now: int,
        owner: str,
        lease_ms: int,
        free: Mapping[str, int],
        default_free: int,
        max_total: int,
    ) -> LeaseRound:
        """Lease due rows within the capacity given (storage.webhooks.lease_due); raises StorageError."""
        ...

    async def settle(self, owner: str, outcomes: Sequence[Settled], disable_after: int) -> list[str]:
        """Record attempts and move deliveries on (storage.webhooks.settle); raises StorageError."""
        ...

    async def release(self, owner: str, delivery_ids: Sequence[str]) -> None:
        """Give back leased rows that were never attempted (storage.webhooks.release)."""
        ...


class DatabaseStore:
    """DeliveryStore on the service's Database: one transaction per call, off the event loop."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def lease(
        self,
        now: int,
        owner: str,
        lease_ms: int,
        free: Mapping[str, int],
        default_free: int,
        max_total: int,
    ) -> LeaseRound:
        return await self._db.run(repo.lease_due, now, owner, lease_ms, dict(free), default_free, max_total)

    async def settle(self, owner: str, outcomes: Sequence[Settled], disable_after: int) -> list[str]:
        return await self._db.run(repo.settle, owner, list(outcomes), disable_after)

    async def release(self, owner: str, delivery_ids: Sequence[str]) -> None:
        await self._db.run(repo.release, owner, list(delivery_ids))
