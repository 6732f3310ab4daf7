"""Long-lived work: data sources, agent evaluation, scheduler, the webhook outbox."""

from watchers.maintenance import RateLimitJanitor

__all__ = ["RateLimitJanitor"]
