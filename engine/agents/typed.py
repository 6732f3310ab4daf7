"""What a typed agent means at run time: its one-line display text, its check cadence and its edge rule."""

from __future__ import annotations

from engine.agents.edges import EdgeRule, LevelRule, PercentMoveRule
from engine.agents.models import (
    HealthAgentCreate,
    PortfolioAgentCreate,
    PriceAgentCreate,
    ScheduleAgentCreate,
    TypedAgentCreate,
    YieldAgentCreate,
)
from engine.agents.scan import display
from engine.agents.vocabulary import vocabulary

# contract Events rule 4: price, yield and health agents about every 5 minutes, portfolio agents hourly.
MARKET_CADENCE = "5m"
PORTFOLIO_CADENCE = "hourly"
_METRIC_LABELS = {"apy": "APY", "supplyApy": "supply APY", "borrowApy": "borrow APY"}


def cadence_for(agent: TypedAgentCreate) -> str:
    """The `cadence` shown for a typed agent (vocabulary of results.CADENCES)."""
    if isinstance(agent, ScheduleAgentCreate):
        return agent.cadence
    if isinstance(agent, PortfolioAgentCreate):
        return PORTFOLIO_CADENCE
    return MARKET_CADENCE


def render_typed(agent: TypedAgentCreate) -> str:
    """One-line display text of a typed agent; for display only, never parsed."""
    if isinstance(agent, PriceAgentCreate):
        if agent.pct_change is None:
            return f"{agent.asset_symbol} {agent.condition} ${display(agent.threshold)}"
        side = "up" if agent.condition == "above" else "down"
        reference = (
            "the price at the first check" if agent.base_price is None else f"${display(agent.base_price)}"
        )
        return f"{agent.asset_symbol} {side} {display(agent.pct_change)}% from {reference}"
    if isinstance(agent, YieldAgentCreate):
        name = next(
            (p.display for p in vocabulary().yield_protocols.values() if p.project == agent.protocol), None
        )
        where = f"{name or agent.protocol} ({agent.chain})"
        label = _METRIC_LABELS[agent.metric]
        return f"{agent.asset} {label} on {where} {agent.condition} {display(agent.threshold)}%"
    if isinstance(agent, HealthAgentCreate):
        name = "Aave" if agent.lending_protocol == "aave" else "Spark"
        whose = "" if agent.target_wallet is None else f" of {agent.target_wallet}"
        return f"{name} health factor{whose} on {agent.chain} below {display(agent.threshold)}"
    if isinstance(agent, PortfolioAgentCreate):
        subject = "Portfolio" if agent.asset_symbol is None else f"{agent.asset_symbol} holding"
        return f"{subject} moves {display(agent.threshold)}% in {agent.movement_window}"
    return _render_schedule(agent)


def _render_schedule(agent: ScheduleAgentCreate) -> str:
    if agent.cadence == "daily":
        when = "Every day"
    elif agent.cadence == "weekly":
        when = f"Every {(agent.day_of_week or '').capitalize()}"
    elif agent.day_of_month is not None and agent.day_of_month >= 29:
        when = f"Every month on day {agent.day_of_month} (or the month's last day)"
    else:
        when = f"Every month on day {agent.day_of_month}"
    line = f"{when} at {agent.hour:02d}:{agent.minute:02d} {agent.timezone}"
    return line + (f": {agent.label}" if agent.label else "")


def edge_rule_for(agent: TypedAgentCreate) -> EdgeRule | None:
    """The edge rule the watcher steps for a typed agent; None for schedules, which fire on time.

    Health fires at or below its threshold; portfolio fires when the size of the move over its window
    (the absolute percent change, measured by the watcher) reaches the threshold.
    """
    if isinstance(agent, PriceAgentCreate):
        if agent.pct_change is not None:
            return PercentMoveRule(
                direction=agent.condition, pct=agent.pct_change, base_price=agent.base_price
            )
        return LevelRule(direction=agent.condition, threshold=agent.threshold)
    if isinstance(agent, YieldAgentCreate):
        return LevelRule(direction=agent.condition, threshold=agent.threshold)
    if isinstance(agent, HealthAgentCreate):
        return LevelRule(direction="below", threshold=agent.threshold)
    if isinstance(agent, PortfolioAgentCreate):
        return LevelRule(direction="above", threshold=agent.threshold)
    return None
