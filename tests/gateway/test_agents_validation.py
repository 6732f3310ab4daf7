"""Every validation rule of POST /agents and GET /agents, as one table: 400 invalid_request naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from gateway.config import Settings
from tests.gateway.test_agents_support import EVM, SOLANA, TYPED_BODIES, post_agent, serving
from tests.gateway.test_envelope import assert_envelope


def typed(base: str, **changes: Any) -> dict[str, Any]:
    """The valid body of kind `base` with fields changed; a value of None removes the field."""
    body = {**TYPED_BODIES[base], **changes}
    return {k: v for k, v in body.items() if v is not None}


PLAIN = {"request": "tell me when ETH goes above 4000", "wallets": [EVM]}

# (case, body, field that issues[] must name)
CREATE_RULES: list[tuple[str, Any, str]] = [
    ("both forms", {**PLAIN, "kind": "price"}, "request"),
    ("neither form", {"wallets": [EVM]}, "request"),
    ("request under 3 chars", {"request": "ab", "wallets": [EVM]}, "request"),
    ("request over 500 chars", {"request": "eth above 4000 " * 34, "wallets": [EVM]}, "request"),
    ("request not a string", {"request": 42, "wallets": [EVM]}, "request"),
    ("wallets missing", {"request": PLAIN["request"]}, "wallets"),
    ("no wallets", {"request": PLAIN["request"], "wallets": []}, "wallets"),
    ("eleven wallets", {"request": PLAIN["request"], "wallets": [EVM] * 11}, "wallets"),
    ("evm address one hex short", {**PLAIN, "wallets": [EVM[:-1]]}, "wallets[0]"),
    ("evm address with a non-hex digit", {**PLAIN, "wallets": [EVM[:-1] + "g"]}, "wallets[0]"),
    ("solana address with a 0", {**PLAIN, "wallets": [SOLANA[:-1] + "0"]}, "wallets[0]"),
    ("solana address too short", {**PLAIN, "wallets": [SOLANA[:31]]}, "wallets[0]"),
    ("second wallet invalid", {**PLAIN, "wallets": [EVM, "bob.eth"]}, "wallets[1]"),
    ("unknown kind", typed("price", kind="gas"), "kind"),
    ("kind condition is not creatable", typed("price", kind="condition"), "kind"),
    ("kind news is not creatable", typed("price", kind="news"), "kind"),
    ("typed without wallets", typed("price", wallets=None), "wallets"),
    ("unknown field", typed("price", threshhold=5), "threshhold"),
    ("price without asset_symbol", typed("price", asset_symbol=None), "asset_symbol"),
    ("price without coingecko_id", typed("price", coingecko_id=None), "coingecko_id"),
    ("price without condition", typed("price", condition=None), "condition"),
    ("price without threshold", typed("price", threshold=None), "threshold"),
    ("coingecko_id is a ticker", typed("price", coingecko_id="ETH"), "coingecko_id"),
    ("coingecko_id not an id", typed("price", coingecko_id="ether eum"), "coingecko_id"),
    ("condition not above or below", typed("price", condition="up"), "condition"),
    ("price threshold zero", typed("price", threshold=0), "threshold"),
    ("price threshold not a number", typed("price", threshold="lots"), "threshold"),
    ("price threshold boolean", typed("price", threshold=True), "threshold"),
    ("base_price without pct_change", typed("price", base_price=3000), "base_price"),
    ("pct_change differs from threshold", typed("price", threshold=5, pct_change=10), "threshold"),
    ("pct_change negative", typed("price", threshold=-5, pct_change=-5), "threshold"),
    ("yield without pool_id", typed("yield", pool_id=None), "pool_id"),
    ("yield without protocol", typed("yield", protocol=None), "protocol"),
    ("yield without chain", typed("yield", chain=None), "chain"),
    ("yield without asset", typed("yield", asset=None), "asset"),
    ("yield without condition", typed("yield", condition=None), "condition"),
    ("yield without threshold", typed("yield", threshold=None), "threshold"),
    ("yield metric not a wire value", typed("yield", metric="APY"), "metric"),
    ("yield chain unknown", typed("yield", chain="fantom"), "chain"),
    ("yield protocol not a slug", typed("yield", protocol="Aave V3"), "protocol"),
    ("yield threshold negative", typed("yield", threshold=-1), "threshold"),
    ("health without chain", typed("health", chain=None), "chain"),
    ("health without threshold", typed("health", threshold=None), "threshold"),
    ("health without protocol", typed("health", protocol=None), "protocol"),
    ("health protocol unknown", typed("health", protocol="compound"), "protocol"),
    ("health protocol contradicts kind", typed("health", kind="aave-health", protocol="spark"), "protocol"),
    ("health threshold of 100", typed("health", threshold=100), "threshold"),
    ("health threshold as a percent", typed("health", threshold="50%"), "threshold"),
    ("health threshold zero", typed("health", threshold=0), "threshold"),
    ("health on solana", typed("health", chain="solana"), "chain"),
    ("health on a solana wallet without target", typed("health", wallets=[SOLANA]), "target_wallet"),
    ("health target_wallet not evm", typed("health", target_wallet=SOLANA), "target_wallet"),
    ("portfolio without threshold", typed("portfolio", threshold=None), "threshold"),
    ("portfolio threshold zero", typed("portfolio", threshold=0), "threshold"),
    ("portfolio window not 24h or 7d", typed("portfolio", movement_window="1h"), "movement_window"),
    ("portfolio direction below", typed("portfolio", condition="below"), "condition"),
    ("schedule without cadence", typed("schedule", cadence=None), "cadence"),
    ("schedule without hour", typed("schedule", hour=None), "hour"),
    ("schedule without minute", typed("schedule", minute=None), "minute"),
    ("schedule without timezone", typed("schedule", timezone=None), "timezone"),
    ("schedule cadence hourly", typed("schedule", cadence="hourly"), "cadence"),
    ("schedule hour 24", typed("schedule", hour=24), "hour"),
    ("schedule minute 60", typed("schedule", minute=60), "minute"),
    ("schedule timezone unknown", typed("schedule", timezone="Mars/Olympus"), "timezone"),
    (
        "schedule weekly without day_of_week",
        typed("schedule", cadence="weekly", day_of_month=None),
        "day_of_week",
    ),
    ("schedule monthly without day_of_month", typed("schedule", day_of_month=None), "day_of_month"),
    ("schedule day_of_month 32", typed("schedule", day_of_month=32), "day_of_month"),
    (
        "schedule day_of_week unknown",
        typed("schedule", cadence="weekly", day_of_week="funday"),
        "day_of_week",
    ),
    (
        "schedule day_of_week on daily",
        typed("schedule", cadence="daily", day_of_month=None, day_of_week="monday"),
        "day_of_week",
    ),
    ("schedule label empty", typed("schedule", label=""), "label"),
]


@pytest.mark.parametrize(("case", "body", "field"), CREATE_RULES, ids=[c[0] for c in CREATE_RULES])
async def test_create_rule_is_400_naming_the_field(
    settings: Settings, case: str, body: Any, field: str
) -> None:
    async with serving(settings) as (_, client):
        response = await post_agent(client, body)
        listed = (await client.get("/agents")).json()["agents"]
    issues = assert_envelope(response, 400, "invalid_request")["issues"]
    assert field in [issue["field"] for issue in issues], issues
    assert listed == []


async def test_body_that_is_not_a_json_object_is_400(settings: Settings) -> None:
    async with serving(settings) as (_, client):
        array = await client.post("/agents", json=[PLAIN])
        text = await client.post("/agents", content=b"request=eth", headers={"Content-Type": "text/plain"})
    assert_envelope(array, 400, "invalid_request")
    assert_envelope(text, 400, "invalid_request")


# (case, query, field that issues[] must name)
LIST_RULES = [
    ("limit zero", {"limit": "0"}, "limit"),
    ("limit over 200", {"limit": "201"}, "limit"),
    ("limit not a number", {"limit": "ten"}, "limit"),
    ("status unknown", {"status": "deleted"}, "status"),
    ("kind unknown", {"kind": "gas"}, "kind"),
    ("wallet too long", {"wallet": "x" * 101}, "wallet"),
]


@pytest.mark.parametrize(("case", "query", "field"), LIST_RULES, ids=[c[0] for c in LIST_RULES])
async def test_list_query_rule_is_400_naming_the_field(
    settings: Settings, case: str, query: dict[str, str], field: str
) -> None:
    async with serving(settings) as (_, client):
        response = await client.get("/agents", params=query)
    issues = assert_envelope(response, 400, "invalid_request")["issues"]
    assert [issue["field"] for issue in issues] == [field]


@pytest.mark.parametrize(
    "cursor",
    ["garbage", "!!!", "MTIz", "", "bm90LWEtY3Vyc29y", "MTcwMDAwMDAwMDAwMC53X2FsZXJ0X2JhZA", "A" * 500],
)
async def test_garbage_cursor_is_treated_as_absent(settings: Settings, cursor: str) -> None:
    async with serving(settings) as (_, client):
        first = await post_agent(client, TYPED_BODIES["price"])
        response = await client.get("/agents", params={"cursor": cursor})
    assert response.status_code == 200, response.text
    assert [a["id"] for a in response.json()["agents"]] == [first.json()["agent"]["id"]]
