"""Everything that talks to the outside world (upstreams/) and the long-lived work: agent evaluation, the
webhook outbox, maintenance."""

from watchers.maintenance import RateLimitJanitor

__all__ = ["RateLimitJanitor"]
