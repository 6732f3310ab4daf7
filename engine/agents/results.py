"""What the plain-English compiler answers: a compiled agent, a clarification question, or a refusal."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.agents.conditions import Condition
from engine.agents.kinds import Kind
from engine.agents.models import TypedAgentCreate
from engine.limits import AGENT_OPTIONS_MAX

MAX_CLARIFICATION_OPTIONS = AGENT_OPTIONS_MAX

# Cadence vocabulary of compiled agents (decision): "5m" for price, ratio, gas, health and yield checks,
# "hourly" for portfolio checks (contract Events rule 4), and daily/weekly/monthly for schedules; a
# condition asked for "hourly" or "daily" keeps that cadence.
CADENCES: tuple[str, ...] = ("5m", "hourly", "daily", "weekly", "monthly")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One field of a compiled agent and the request text it was read from (the parse trace)."""

    field: str
    text: str
    value: str


@dataclass(frozen=True, slots=True)
class Compiled:
    """A request the compiler understood completely.

    `agent` is the typed create body for the typed kinds (price, aave-health/spark-health, portfolio,
    schedule), `condition` the machine-evaluable condition for kind `condition`; exactly one is set.
    """

    kind: Kind
    agent: TypedAgentCreate | None
    condition: Condition | None
    rendered: str
    fire_headline: str | None
    cadence: str
    intent: str
    dropped_action: str | None = None
    note: str | None = None
    evidence: tuple[Evidence, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class ClarificationOption:
    """A positional answer option (`opt_0`, `opt_1`, ...); the client sends back the label."""

    id: str
    label: str


@dataclass(frozen=True, slots=True)
class NeedsClarification:
    """The request is ambiguous; ask `question`, offering up to four options (possibly none).

    `prices` names the CoinGecko ids whose current USD price would settle the question without asking (a
    level's side, when the words name none): a caller that can read them compiles again with them."""

    question: str
    options: tuple[ClarificationOption, ...] = ()
    prices: tuple[str, ...] = ()

    @classmethod
    def ask(
        cls, question: str, labels: list[str] | tuple[str, ...] = (), prices: tuple[str, ...] = ()
    ) -> NeedsClarification:
        """A clarification with positional option ids; keeps at most MAX_CLARIFICATION_OPTIONS labels."""
        kept = list(labels)[:MAX_CLARIFICATION_OPTIONS]
        options = tuple(ClarificationOption(f"opt_{i}", label) for i, label in enumerate(kept))
        return cls(question, options, prices)


@dataclass(frozen=True, slots=True)
class Unwatchable:
    """The request names nothing the service can measure, or asks for something it will not arm."""

    reason: str


CompileResult = Compiled | NeedsClarification | Unwatchable
