"""Agent evaluation: edge-triggered checks of every kind on real sources, the price threshold index, the
lease scheduler, degraded tracking, and the watcher nursery that runs them."""

from watchers.evaluation.checks import CheckSettings, check, inputs_of, previous_state
from watchers.evaluation.index import Crossing, Move, ThresholdIndex
from watchers.evaluation.price_watch import PriceWatcher, trigger_level
from watchers.evaluation.readings import (
    AmbiguousPool,
    HoldingsInput,
    HoldingsUnreadable,
    MarketReader,
    Readings,
)
from watchers.evaluation.runner import WatchConfig, Watchers, default_owner
from watchers.evaluation.scheduler import AgentScheduler, LeaseSettings
from watchers.evaluation.spec import (
    DEGRADED,
    TEST,
    TRIGGERED,
    AgentSpec,
    UnreadableAgent,
    degraded_trigger,
    event_for,
    fired_trigger,
    spec_of,
    test_trigger,
)

__all__ = [
    "DEGRADED",
    "TEST",
    "TRIGGERED",
    "AgentScheduler",
    "AmbiguousPool",
    "AgentSpec",
    "CheckSettings",
    "Crossing",
    "HoldingsInput",
    "HoldingsUnreadable",
    "LeaseSettings",
    "MarketReader",
    "Move",
    "PriceWatcher",
    "Readings",
    "ThresholdIndex",
    "UnreadableAgent",
    "WatchConfig",
    "Watchers",
    "check",
    "default_owner",
    "degraded_trigger",
    "event_for",
    "fired_trigger",
    "inputs_of",
    "previous_state",
    "spec_of",
    "test_trigger",
    "trigger_level",
]
