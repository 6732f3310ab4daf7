"""Prices pushed by an upstream stream, kept by coingecko id and served only while fresh.

Observation times are trio clock readings (trio.current_time()), so staleness is tested on virtual time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

import trio


@dataclass(frozen=True)
class CachedPrice:
    """One observed USD price, its 24-hour change in percent when the stream gave one, and when it was seen."""

    price: Decimal
    change_24h_pct: Decimal | None
    observed_at: float


class PriceCache:
    """coingecko id -> latest observed price; a price older than `max_age` seconds is never served.

    One writer (a stream task) and many readers share it inside one trio run; it holds no locks because
    trio switches tasks only at await points and none of its methods await.
    """

    def __init__(self, max_age: float) -> None:
        if max_age <= 0:
            raise ValueError("max_age must be positive seconds")
        self.max_age = max_age
        self._prices: dict[str, CachedPrice] = {}

    def put(self, coingecko_id: str, price: Decimal, change_24h_pct: Decimal | None = None) -> None:
        """Record `price` for `coingecko_id` as observed now. Raises ValueError for a non-positive price."""
        if not price.is_finite() or price <= 0:
            raise ValueError(f"price for {coingecko_id} must be a positive finite number, got {price}")
        self._prices[coingecko_id] = CachedPrice(price, change_24h_pct, trio.current_time())

    def get(self, coingecko_id: str) -> CachedPrice | None:
        """The entry for `coingecko_id` if it was observed within `max_age` seconds, else None."""
        entry = self._prices.get(coingecko_id)
        if entry is None or trio.current_time() - entry.observed_at > self.max_age:
            return None
        return entry

    def fresh(self, coingecko_ids: Iterable[str]) -> dict[str, CachedPrice]:
        """The fresh entries among `coingecko_ids`; stale and unknown ids are left out."""
        found = {}
        for coingecko_id in coingecko_ids:
            entry = self.get(coingecko_id)
            if entry is not None:
                found[coingecko_id] = entry
        return found

    def __len__(self) -> int:
        return len(self._prices)
