"""/agents reads what people paste before they ask: a dashboard, a price quote, a table, a config, a ticket
or someone's claim. A request with its own level takes only the names it lacks from the paste, never its
figures; a request that says only go reads the paste whole; a move with no size is asked."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.agents import Compiled, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS, options_lead_somewhere, subset, watch

PRICES = {"ethereum": Decimal(3000), "bitcoin": Decimal(60000), "solana": Decimal(150)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Aave V3 · Optimism\nNet worth $9,100\nHealth factor 1.71\n\nping me if this drops below 1.25",
            {"protocol": "aave", "chain": "optimism", "threshold": Decimal("1.25")},
        ),
        (
            "Net worth $20,000\nHealth factor 1.5\nAave v3 Base\n\nalert me if this goes under 1.2",
            {"protocol": "aave", "chain": "base", "threshold": Decimal("1.2")},
        ),
        (
            "Spark · Ethereum · Health factor: 1.90\n\nwarn me under 1.5",
            {"protocol": "spark", "threshold": 1.5},
        ),
        (
            '{"protocol": "spark", "healthFactor": 2.4, "debt_usd": 9000}\n\nwarn me below 1.35',
            {"protocol": "spark", "threshold": Decimal("1.35")},
        ),
    ],
)
def test_a_dashboard_gives_the_names_the_request_lacks_and_never_its_figures(
    text: str, expected: dict
) -> None:
    subset(expected, watch(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SOL/USDC  148.10  -1.2%\n\nalert me if it drops under 120", ("SOL", "below", Decimal(120))),
        ("ETHUSD 2,950.12 (+0.4%)\n\nlet me know when it's above 3300", ("ETH", "above", Decimal(3300))),
    ],
)
def test_a_pair_quoted_in_dollars_is_that_assets_price(text: str, expected: tuple[str, str, Decimal]) -> None:
    fields = watch(text)
    assert (fields["asset_symbol"], fields["condition"], fields["threshold"]) == expected


@pytest.mark.parametrize(
    "text", ["USDT  $1.0004\n\nlet me know if it moves", "ETH $2,950.12\n\ntell me if it falls"]
)
def test_a_pasted_price_is_no_level_for_a_move_of_no_size(text: str) -> None:
    result = options_lead_somewhere(text)
    assert "How big a move" in result.question


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"asset": "BTC", "above": 90000}\n\ncreate', {"asset_symbol": "BTC", "condition": "above"}),
        ("asset,alert_above\nsol,250\n\nthis one", {"asset_symbol": "SOL", "threshold": Decimal(250)}),
        (
            "alerts:\n  - type: portfolio\n    move_pct: 8\n    window: 7d",
            {"threshold": Decimal(8), "movement_window": "7d"},
        ),
        (
            "asset,alert_below\nETH,2500\nSOL,120\n\nset up the SOL row",
            {"asset_symbol": "SOL", "threshold": 120},
        ),
    ],
)
def test_a_request_that_says_only_go_reads_the_paste_with_its_figures(text: str, expected: dict) -> None:
    subset(expected, watch(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Request: Base gas alert\nCondition: under 2 gwei", {"chain": "base", "comparator": "below"}),
        (
            "Ticket: monitor\nMetric: Spark health factor\nThreshold: 1.4\nPlease set up.",
            {"protocol": "spark", "threshold": Decimal("1.4")},
        ),
        (
            "Request: portfolio move alert\nThreshold: 9% either direction\nWindow: 7d",
            {"threshold": Decimal(9), "movement_window": "7d"},
        ),
    ],
)
def test_a_tickets_fields_that_state_the_alert_belong_to_the_request(text: str, expected: dict) -> None:
    subset(expected, watch(text))


def test_a_claim_pointed_at_gives_its_level_and_the_side_comes_from_the_price() -> None:
    result = compile_request(
        "bob: 'eth to 5k by christmas, trust me'\nlmk if it gets there", WALLETS, PRICES.get
    )
    assert isinstance(result, Compiled) and result.agent is not None
    fields = result.agent.model_dump()
    assert (fields["asset_symbol"], fields["condition"], fields["threshold"]) == ("ETH", "above", 5000)


def test_instead_at_the_end_refers_back_to_the_paste() -> None:
    fields = watch('"BTC to 150k by summer" — @someone\n\ntell me if btc is under 50k instead')
    assert (fields["asset_symbol"], fields["condition"], fields["threshold"]) == ("BTC", "below", 50000)


def test_a_request_that_says_what_it_waits_for_is_read_alone() -> None:
    result = compile_request(
        "Digest: 'Spark to vote on new caps next week'\ntell me when the vote passes", WALLETS
    )
    assert isinstance(result, Unwatchable)


def test_a_percent_from_a_reference_the_words_do_not_give_is_asked() -> None:
    result = options_lead_somewhere("let me know if eth drops 20% below my entry")
    assert "measured" in result.question


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("tell me when the aave supply rate for uni on ethereum goes above 2%", Unwatchable),
        ("tell me when the aave supply rate for usdc on ethereum goes above 5%", Compiled),
        ("tell me when the aave supply rate for btc on arbitrum goes above 1%", Compiled),
    ],
)
def test_a_yield_is_watched_on_a_market_the_registry_lists(text: str, outcome: type) -> None:
    assert isinstance(compile_request(text, WALLETS), outcome)


def test_a_one_line_paste_before_the_ask_is_context_too() -> None:
    text = "Spark dashboard - Health factor: 2.10 - Borrowed: 12,000 DAI\nalert me at 1.5"
    subset({"protocol": "spark", "chain": "ethereum", "threshold": Decimal("1.5")}, watch(text))


def test_another_percent_under_a_paste_is_one_more_move_from_now() -> None:
    fields = watch('{"asset":"ETH","price":2950}\nwarn me if this drops another 15%')
    assert (fields["asset_symbol"], fields["condition"], fields["pct_change"]) == ("ETH", "below", 15)


def test_a_request_pointing_at_pasted_news_waits_for_news() -> None:
    result = compile_request(
        "BREAKING: Lido announces v3 — Reuters\n\nalert me next time this happens", WALLETS
    )
    assert isinstance(result, Unwatchable) and "news" in result.reason


def test_go_reads_a_pasted_advice_whole_and_a_break_down_is_a_fall() -> None:
    text = "ChatGPT: BTC support sits around $55,000; set an alert there in case it breaks down.\n\ndo that"
    fields = watch(text)
    assert (fields["asset_symbol"], fields["condition"], fields["threshold"]) == ("BTC", "below", 55000)


def test_a_table_row_pointed_at_by_place_takes_the_headers_metric() -> None:
    text = "Pool | APY\nDAI (Spark Ethereum) | 5.2%\nUSDC (Aave Base) | 4.4%\n\nping me when the second one is below 4"
    subset({"type": "yield", "asset": "USDC", "chain": "base", "comparator": "below"}, watch(text))


def test_a_claim_someone_made_is_watched_when_the_request_asks_if_it_comes_true() -> None:
    result = compile_request(
        "friend: 'sol to 300 this month, no doubt'\nlet me know if she's right", WALLETS, PRICES.get
    )
    assert isinstance(result, Compiled) and result.agent is not None
    assert result.agent.model_dump()["threshold"] == 300
