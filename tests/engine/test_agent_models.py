"""Every rule of the typed create bodies and of the create/patch dispatch, reported as (field, message)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from solders.pubkey import Pubkey

from engine.agents import (
    AgentValidationError,
    HealthAgentCreate,
    Kind,
    PlainAgentCreate,
    PortfolioAgentCreate,
    PriceAgentCreate,
    RequestPatch,
    ScheduleAgentCreate,
    StatusPatch,
    YieldAgentCreate,
    parse_create_body,
    parse_patch_body,
)

EVM = "0xabCDeF0123456789AbcdEf0123456789aBCDEF01"
SOLANA = str(Pubkey(bytes(range(1, 33))))


def fields_of(body: dict[str, Any]) -> dict[str, str]:
    """The issues of a body that must fail, as {field: message}."""
    with pytest.raises(AgentValidationError) as caught:
        parse_create_body(body)
    return {issue.field: issue.message for issue in caught.value.issues}


def price(**overrides: Any) -> dict[str, Any]:
    body = {
        "kind": "price",
        "wallets": [EVM],
        "asset_symbol": "ETH",
        "coingecko_id": "ethereum",
        "condition": "above",
        "threshold": Decimal("4000"),
    }
    return {**body, **overrides}


def yield_(**overrides: Any) -> dict[str, Any]:
    body = {
        "kind": "yield",
        "wallets": [EVM],
        "pool_id": "747c1d2a-c668-4682-b9f9-296708a3dd90",
        "protocol": "aave-v3",
        "chain": "arbitrum",
        "asset": "USDC",
        "condition": "above",
        "threshold": Decimal(5),
    }
    return {**body, **overrides}


def health(**overrides: Any) -> dict[str, Any]:
    body = {
        "kind": "health",
        "wallets": [EVM],
        "protocol": "aave",
        "chain": "base",
        "threshold": Decimal("1.3"),
    }
    return {**body, **overrides}


def portfolio(**overrides: Any) -> dict[str, Any]:
    return {**{"kind": "portfolio", "wallets": [EVM], "threshold": Decimal(10)}, **overrides}


def schedule(**overrides: Any) -> dict[str, Any]:
    body = {
        "kind": "schedule",
        "wallets": [EVM],
        "cadence": "daily",
        "hour": 9,
        "minute": 30,
        "timezone": "UTC",
    }
    return {**body, **overrides}


# -- the either/or body --------------------------------------------------------------------------


def test_plain_english_body_parses() -> None:
    parsed = parse_create_body({"request": "eth above 4000", "wallets": [EVM]})
    assert isinstance(parsed, PlainAgentCreate)
    assert parsed.request == "eth above 4000"


def test_both_request_and_kind_is_rejected_naming_both_fields() -> None:
    issues = fields_of({**price(), "request": "eth above 4000"})
    assert set(issues) == {"request", "kind"}
    assert "not both" in issues["request"]


def test_neither_request_nor_kind_is_rejected_naming_both_fields() -> None:
    issues = fields_of({"wallets": [EVM]})
    assert set(issues) == {"request", "kind"}


def test_a_body_that_is_not_an_object_is_rejected() -> None:
    assert "body" in fields_of([1, 2])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("request_text", "ok"), [("ab", False), ("abc", True), ("x" * 500, True), ("x" * 501, False)]
)
def test_request_is_3_to_500_chars(request_text: str, ok: bool) -> None:
    body = {"request": request_text, "wallets": [EVM]}
    if ok:
        assert isinstance(parse_create_body(body), PlainAgentCreate)
    else:
        assert "request" in fields_of(body)


def test_condition_kind_cannot_be_typed_created() -> None:
    assert "plain-English" in fields_of({"kind": "condition", "wallets": [EVM]})["kind"]


def test_news_kind_cannot_be_created() -> None:
    assert "cannot be created" in fields_of({"kind": "news", "wallets": [EVM]})["kind"]


def test_unknown_kind_lists_the_kinds() -> None:
    assert "price" in fields_of({"kind": "weather", "wallets": [EVM]})["kind"]


def test_unknown_fields_are_rejected_by_name() -> None:
    assert "threshhold" in fields_of(price(threshhold=1))


# -- wallets --------------------------------------------------------------------------------------


def test_wallets_accept_evm_and_solana_and_preserve_case() -> None:
    parsed = parse_create_body(price(wallets=[EVM, SOLANA]))
    assert parsed.wallets == [EVM, SOLANA]


@pytest.mark.parametrize("count", [0, 11])
def test_wallets_must_be_1_to_10(count: int) -> None:
    assert "wallets" in fields_of(price(wallets=[EVM] * count))


def test_ten_wallets_are_accepted() -> None:
    assert len(parse_create_body(price(wallets=[EVM] * 10)).wallets) == 10


@pytest.mark.parametrize(
    "bad",
    [
        "0x123",  # short EVM
        "0x" + "g" * 40,  # not hex
        "0x" + "a" * 41,
        "1" * 31,  # too short for Solana
        "0OIl" + "1" * 30,  # characters outside base58
        "z" * 44,  # base58 of the right length, but 33 bytes
        "z" * 32,  # base58 of the right length, but 24 bytes
        "",
    ],
)
def test_malformed_wallets_are_rejected_with_their_index(bad: str) -> None:
    issues = fields_of(price(wallets=[EVM, bad]))
    assert "wallets.1" in issues


def test_solana_address_of_32_zero_bytes_is_valid() -> None:
    assert parse_create_body(price(wallets=["1" * 32])).wallets == ["1" * 32]


# -- price -----------------------------------------------------------------------------------------


def test_price_agent_parses_with_decimal_threshold_from_str_int_or_decimal() -> None:
    for value in ("4000", 4000, Decimal("4000")):
        parsed = parse_create_body(price(threshold=value))
        assert isinstance(parsed, PriceAgentCreate)
        assert parsed.threshold == Decimal(4000)
        assert parsed.public_kind is Kind.PRICE


@pytest.mark.parametrize("field", ["asset_symbol", "coingecko_id", "condition", "threshold"])
def test_price_required_fields(field: str) -> None:
    body = price()
    del body[field]
    assert field in fields_of(body)


def test_uppercase_ticker_as_coingecko_id_is_rejected_with_the_id_hint() -> None:
    message = fields_of(price(coingecko_id="ETH"))["coingecko_id"]
    assert '"ethereum"' in message and "ticker" in message


def test_coingecko_id_with_spaces_is_rejected() -> None:
    assert "coingecko_id" in fields_of(price(coingecko_id="usd coin"))


@pytest.mark.parametrize("condition", ["over", "ABOVE", "", None])
def test_price_condition_is_above_or_below(condition: object) -> None:
    assert "condition" in fields_of(price(condition=condition))


@pytest.mark.parametrize("threshold", [0, "-1", "0", "abc", "NaN", "Infinity", 1.5, True, None])
def test_price_threshold_must_be_a_positive_exact_decimal(threshold: object) -> None:
    assert "threshold" in fields_of(price(threshold=threshold))


def test_percent_mode_requires_threshold_equal_to_pct_change() -> None:
    parsed = parse_create_body(price(condition="below", threshold="10", pct_change="10", base_price="3000"))
    assert isinstance(parsed, PriceAgentCreate)
    assert parsed.pct_change == Decimal(10) and parsed.base_price == Decimal(3000)
    assert "threshold" in fields_of(price(threshold="4000", pct_change="10"))


def test_base_price_without_pct_change_is_rejected() -> None:
    assert "base_price" in fields_of(price(base_price="3000"))


@pytest.mark.parametrize("field", ["pct_change", "base_price"])
def test_percent_fields_must_be_positive(field: str) -> None:
    body = price(pct_change="10", threshold="10")
    body[field] = "0"
    assert field in fields_of(body)


# -- yield ----------------------------------------------------------------------------------------


def test_yield_agent_defaults_metric_to_apy() -> None:
    parsed = parse_create_body(yield_())
    assert isinstance(parsed, YieldAgentCreate)
    assert parsed.metric == "apy"
    assert parsed.public_kind is Kind.YIELD


@pytest.mark.parametrize("metric", ["apy", "supplyApy", "borrowApy"])
def test_yield_metric_literal_wire_values(metric: str) -> None:
    assert parse_create_body(yield_(metric=metric)).metric == metric  # type: ignore[union-attr]


@pytest.mark.parametrize("metric", ["supply_apy", "APY", "apr"])
def test_yield_metric_rejects_other_spellings(metric: str) -> None:
    assert "metric" in fields_of(yield_(metric=metric))


@pytest.mark.parametrize("field", ["pool_id", "protocol", "chain", "asset", "condition", "threshold"])
def test_yield_required_fields(field: str) -> None:
    body = yield_()
    del body[field]
    assert field in fields_of(body)


def test_yield_chain_must_be_a_known_chain() -> None:
    assert "chain" in fields_of(yield_(chain="avalanche"))


def test_yield_threshold_may_be_zero_but_not_negative_or_a_percent_string() -> None:
    assert parse_create_body(yield_(threshold="0")).threshold == 0  # type: ignore[union-attr]
    assert "threshold" in fields_of(yield_(threshold="-1"))
    assert "threshold" in fields_of(yield_(threshold="5%"))


# -- health ---------------------------------------------------------------------------------------


def test_health_agent_kind_is_protocol_specific() -> None:
    parsed = parse_create_body(health(protocol="spark", chain="ethereum"))
    assert isinstance(parsed, HealthAgentCreate)
    assert parsed.public_kind is Kind.SPARK_HEALTH
    assert parsed.watched_wallet == EVM


def test_protocol_specific_health_kind_implies_the_protocol() -> None:
    body = health(kind="aave-health")
    del body["protocol"]
    parsed = parse_create_body(body)
    assert isinstance(parsed, HealthAgentCreate)
    assert parsed.lending_protocol == "aave"


def test_health_protocol_contradicting_the_kind_is_rejected() -> None:
    assert "protocol" in fields_of(health(kind="spark-health", protocol="aave"))


@pytest.mark.parametrize("protocol", ["compound", "AAVE", None])
def test_health_protocol_is_aave_or_spark(protocol: object) -> None:
    assert "protocol" in fields_of(health(protocol=protocol))


@pytest.mark.parametrize("threshold", ["100", 100, "150", "1000"])
def test_health_threshold_of_100_or_more_is_rejected(threshold: object) -> None:
    assert "below 100" in fields_of(health(threshold=threshold))["threshold"]


def test_health_threshold_as_a_percent_is_rejected() -> None:
    assert "never a percent" in fields_of(health(threshold="85%"))["threshold"]


@pytest.mark.parametrize("threshold", ["0", "-1"])
def test_health_threshold_must_be_positive(threshold: str) -> None:
    assert "threshold" in fields_of(health(threshold=threshold))


def test_health_threshold_just_below_100_is_accepted() -> None:
    assert parse_create_body(health(threshold="99.99")).threshold == Decimal("99.99")  # type: ignore[union-attr]


def test_health_chain_must_be_evm() -> None:
    assert "chain" in fields_of(health(chain="solana"))


def test_health_target_wallet_overrides_wallets_zero() -> None:
    other = "0x" + "1" * 40
    parsed = parse_create_body(health(target_wallet=other))
    assert isinstance(parsed, HealthAgentCreate)
    assert parsed.watched_wallet == other


def test_health_target_wallet_must_be_evm() -> None:
    assert "target_wallet" in fields_of(health(target_wallet=SOLANA))


def test_health_on_a_solana_wallet_needs_an_evm_target_wallet() -> None:
    assert "target_wallet" in fields_of(health(wallets=[SOLANA]))
    assert parse_create_body(health(wallets=[SOLANA], target_wallet=EVM)).watched_wallet == EVM  # type: ignore[union-attr]


# -- portfolio ------------------------------------------------------------------------------------


def test_portfolio_defaults_to_24h_and_the_above_direction() -> None:
    parsed = parse_create_body(portfolio())
    assert isinstance(parsed, PortfolioAgentCreate)
    assert parsed.movement_window == "24h"
    assert parsed.condition == "above"
    assert parsed.asset_symbol is None


def test_portfolio_accepts_7d_and_an_asset_scope() -> None:
    parsed = parse_create_body(portfolio(movement_window="7d", asset_symbol="ETH"))
    assert parsed.movement_window == "7d" and parsed.asset_symbol == "ETH"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("field", "value"), [("movement_window", "1h"), ("condition", "below"), ("threshold", "0")]
)
def test_portfolio_rejects(field: str, value: str) -> None:
    assert field in fields_of(portfolio(**{field: value}))


# -- schedule -------------------------------------------------------------------------------------


def test_daily_schedule_parses_with_integral_decimals_from_json() -> None:
    parsed = parse_create_body(schedule(hour=Decimal(9), minute=Decimal(30)))
    assert isinstance(parsed, ScheduleAgentCreate)
    assert (parsed.hour, parsed.minute) == (9, 30)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hour", 24),
        ("hour", -1),
        ("minute", 60),
        ("hour", Decimal("9.5")),
        ("hour", True),
        ("cadence", "hourly"),
    ],
)
def test_schedule_time_fields_are_bounded(field: str, value: object) -> None:
    assert field in fields_of(schedule(**{field: value}))


@pytest.mark.parametrize("timezone", ["Mars/Olympus", "EST", "CET", "local", "", "../etc/passwd"])
def test_schedule_timezone_must_be_an_explicit_iana_name(timezone: str) -> None:
    assert "timezone" in fields_of(schedule(timezone=timezone))


@pytest.mark.parametrize("timezone", ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"])
def test_schedule_accepts_iana_names(timezone: str) -> None:
    assert parse_create_body(schedule(timezone=timezone)).timezone == timezone  # type: ignore[union-attr]


def test_schedule_timezone_is_required() -> None:
    body = schedule()
    del body["timezone"]
    assert "timezone" in fields_of(body)


def test_weekly_needs_day_of_week_and_normalizes_its_case() -> None:
    assert "day_of_week" in fields_of(schedule(cadence="weekly"))
    assert parse_create_body(schedule(cadence="weekly", day_of_week="Monday")).day_of_week == "monday"  # type: ignore[union-attr]
    assert "day_of_week" in fields_of(schedule(cadence="weekly", day_of_week="funday"))


def test_monthly_needs_day_of_month_between_1_and_31() -> None:
    assert "day_of_month" in fields_of(schedule(cadence="monthly"))
    assert parse_create_body(schedule(cadence="monthly", day_of_month=31)).day_of_month == 31  # type: ignore[union-attr]
    for bad in (0, 32):
        assert "day_of_month" in fields_of(schedule(cadence="monthly", day_of_month=bad))


def test_day_fields_that_do_not_fit_the_cadence_are_rejected() -> None:
    assert "day_of_week" in fields_of(schedule(day_of_week="monday"))
    assert "day_of_month" in fields_of(schedule(cadence="weekly", day_of_week="monday", day_of_month=3))


def test_schedule_label_is_optional_and_bounded() -> None:
    assert parse_create_body(schedule(label="check positions")).label == "check positions"  # type: ignore[union-attr]
    assert "label" in fields_of(schedule(label="x" * 201))


# -- patch ----------------------------------------------------------------------------------------


def test_patch_is_status_or_request() -> None:
    assert parse_patch_body({"status": "paused"}) == StatusPatch(status="paused")
    assert parse_patch_body({"request": "eth above 4000"}) == RequestPatch(request="eth above 4000")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "status"),
        ({"status": "paused", "request": "eth above 4000"}, "request"),
        ({"status": "stopped"}, "status"),
    ],
)
def test_patch_rejects(body: dict[str, Any], field: str) -> None:
    with pytest.raises(AgentValidationError) as caught:
        parse_patch_body(body)
    assert field in {issue.field for issue in caught.value.issues}
