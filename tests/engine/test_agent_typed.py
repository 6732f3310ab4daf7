"""Run-time meaning of typed agents: display line, cadence, edge rule; and patch applicability."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from engine.agents import (
    AgentValidationError,
    Kind,
    LevelRule,
    PercentMoveRule,
    RequestPatch,
    StatusPatch,
    cadence_for,
    check_patch_applies,
    edge_rule_for,
    parse_create_body,
    render_typed,
)
from engine.agents.models import TypedAgentCreate

EVM = "0x" + "ab" * 20


def typed(body: dict[str, Any]) -> TypedAgentCreate:
    parsed = parse_create_body({"wallets": [EVM], **body})
    assert not hasattr(parsed, "request")
    return parsed  # type: ignore[return-value]


PRICE = {
    "kind": "price",
    "asset_symbol": "ETH",
    "coingecko_id": "ethereum",
    "condition": "above",
    "threshold": "4000",
}
PRICE_MOVE = {**PRICE, "condition": "below", "threshold": "10", "pct_change": "10", "base_price": "3000"}
YIELD = {
    "kind": "yield",
    "pool_id": "p1",
    "protocol": "aave-v3",
    "chain": "base",
    "asset": "USDC",
    "condition": "below",
    "threshold": "4.5",
    "metric": "supplyApy",
}
HEALTH = {"kind": "spark-health", "chain": "ethereum", "threshold": "1.2"}
PORTFOLIO = {"kind": "portfolio", "threshold": "10", "movement_window": "7d", "asset_symbol": "SOL"}
SCHEDULE = {
    "kind": "schedule",
    "cadence": "monthly",
    "hour": 9,
    "minute": 5,
    "timezone": "Europe/Berlin",
    "day_of_month": 31,
    "label": "pay rent",
}


@pytest.mark.parametrize(
    ("body", "rendered", "cadence"),
    [
        (PRICE, "ETH above $4,000", "5m"),
        (PRICE_MOVE, "ETH down 10% from $3,000", "5m"),
        (YIELD, "USDC supply APY on Aave v3 (base) below 4.5%", "5m"),
        (HEALTH, "Spark health factor on ethereum below 1.2", "5m"),
        (PORTFOLIO, "SOL holding moves 10% in 7d", "hourly"),
        (
            SCHEDULE,
            "Every month on day 31 (or the month's last day) at 09:05 Europe/Berlin: pay rent",
            "monthly",
        ),
    ],
)
def test_typed_agents_render_one_line_and_carry_their_cadence(
    body: dict[str, Any], rendered: str, cadence: str
) -> None:
    agent = typed(body)
    assert render_typed(agent) == rendered
    assert cadence_for(agent) == cadence


def test_edge_rules_of_typed_agents() -> None:
    assert edge_rule_for(typed(PRICE)) == LevelRule(direction="above", threshold=Decimal(4000))
    assert edge_rule_for(typed(PRICE_MOVE)) == PercentMoveRule(
        direction="below", pct=Decimal(10), base_price=Decimal(3000)
    )
    assert edge_rule_for(typed(YIELD)) == LevelRule(direction="below", threshold=Decimal("4.5"))
    assert edge_rule_for(typed(HEALTH)) == LevelRule(direction="below", threshold=Decimal("1.2"))
    assert edge_rule_for(typed(PORTFOLIO)) == LevelRule(direction="above", threshold=Decimal(10))
    assert edge_rule_for(typed(SCHEDULE)) is None


def test_status_patch_applies_to_every_kind() -> None:
    for kind in Kind:
        check_patch_applies(kind, StatusPatch(status="paused"))


@pytest.mark.parametrize("kind", [k for k in Kind if k is not Kind.CONDITION])
def test_request_patch_on_a_non_condition_agent_is_rejected(kind: Kind) -> None:
    with pytest.raises(AgentValidationError) as caught:
        check_patch_applies(kind, RequestPatch(request="eth above 4000"))
    assert caught.value.issues[0].field == "request"


def test_request_patch_on_a_condition_agent_applies() -> None:
    check_patch_applies(Kind.CONDITION, RequestPatch(request="eth above 4000"))
