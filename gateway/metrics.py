"""Prometheus metrics: requests and latency by route and status."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST
# Latency buckets (seconds) sized for a gateway whose routes take from sub-millisecond to a few seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """One registry per app, so several apps in one process (tests) never share counters."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "intentgate_requests",
            "HTTP requests served",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "intentgate_request_duration_seconds",
            "Time to produce the response",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        # Label children by key: labels() validates and locks on every call, the dict lookup does not.
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        key = (route, method, status)
        children = self._children.get(key)
        if children is None:
            children = (self.requests.labels(route, method, str(status)), self.latency.labels(route, method))
            self._children[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
