"""The plain-English compiler: the request corpus, the clarification round trip, and a fuzz test that it
never raises and never compiles a field the request did not state."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.agents import (
    CADENCES,
    Compiled,
    GasPriceMetric,
    HealthFactorMetric,
    Kind,
    NeedsClarification,
    PortfolioValueMetric,
    PriceMetric,
    PriceRatioMetric,
    Unwatchable,
    YieldPoolMetric,
    compile_condition,
    compile_request,
    parse_create_body,
    split_clarifications,
)
from engine.agents.scan import asset_for_alias, chain_for_alias, normalize, parse_amount
from engine.agents.vocabulary import vocabulary

WALLETS = ["0x" + "ab" * 20]
CORPUS_PATH = Path(__file__).resolve().parent.parent / "data" / "agent_requests.jsonl"
CORPUS = [json.loads(line) for line in CORPUS_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]


def flat_fields(result: Compiled) -> dict[str, Any]:
    """The result's fields: the typed body (without wallets) or the condition, with dotted metric keys."""
    if result.agent is not None:
        return result.agent.model_dump(exclude={"wallets"})
    assert result.condition is not None
    dumped = result.condition.model_dump()
    metric = dumped.pop("metric")
    return {**dumped, **{f"metric.{key}": value for key, value in metric.items()}}


def same(actual: object, expected: object) -> bool:
    if isinstance(actual, Decimal):
        return expected is not None and actual == Decimal(str(expected))
    if isinstance(actual, tuple):
        actual = list(actual)
    return actual == expected


def test_corpus_has_at_least_100_requests_of_every_outcome() -> None:
    assert len(CORPUS) >= 100
    assert {row["expect"] for row in CORPUS} == {"compiled", "clarification", "unwatchable"}


@pytest.mark.parametrize("row", CORPUS, ids=[row["request"][:60] for row in CORPUS])
def test_corpus_request_compiles_to_the_expected_outcome(row: dict[str, Any]) -> None:
    result = compile_request(row["request"], WALLETS)
    if row["expect"] == "compiled":
        assert isinstance(result, Compiled), result
        assert result.kind == Kind(row["kind"])
        fields = flat_fields(result)
        for key, expected in row["fields"].items():
            assert key in fields, key
            assert same(fields[key], expected), (key, fields[key], expected)
        if "cadence" in row:
            assert result.cadence == row["cadence"]
        assert result.dropped_action == row.get("dropped_action")
    elif row["expect"] == "clarification":
        assert isinstance(result, NeedsClarification), result
        assert row["question"].lower() in result.question.lower()
        if "options" in row:
            assert [o.label for o in result.options] == row["options"]
    else:
        assert isinstance(result, Unwatchable), result


def test_compiled_results_are_complete_and_displayable() -> None:
    for row in CORPUS:
        result = compile_request(row["request"], WALLETS)
        if not isinstance(result, Compiled):
            continue
        assert (result.agent is None) != (result.condition is None)
        assert result.cadence in CADENCES
        assert result.rendered and "\n" not in result.rendered
        assert result.intent and result.intent.lower() != row["request"].lower()
        if result.agent is not None:
            assert result.agent.public_kind == result.kind
            assert result.kind is not Kind.CONDITION


def test_typed_results_are_valid_typed_create_bodies() -> None:
    for row in CORPUS:
        result = compile_request(row["request"], WALLETS)
        if isinstance(result, Compiled) and result.agent is not None:
            body = result.agent.model_dump(exclude_none=True)
            assert parse_create_body(body) == result.agent


def test_clarification_options_are_positional_and_at_most_four() -> None:
    for row in CORPUS:
        result = compile_request(row["request"], WALLETS)
        if isinstance(result, NeedsClarification):
            assert len(result.options) <= 4
            assert [o.id for o in result.options] == [f"opt_{i}" for i in range(len(result.options))]


def answered(original: str, clarification: NeedsClarification, label: str) -> str:
    return f"{original}\n\nClarification \u2014 {clarification.question}: {label}"


@pytest.mark.parametrize(
    "original",
    [
        "tell me when eth moves a lot",
        "btc moves 10%",
        "eth hits 4000",
        "gas under 10 gwei",
        "alert me if my health factor drops",
        "usdc apr on aave base above 5%",
        "portfolio moves 10% in 3 days",
        "remind me monthly to pay rent",
        "remind me every friday at 9am to review",
        "remind me on friday to check eth",
        "btc drops 10% in 24h",
    ],
)
def test_answering_every_option_of_a_clarification_never_loops_on_the_same_question(original: str) -> None:
    first = compile_request(original, WALLETS)
    assert isinstance(first, NeedsClarification) and first.options
    for option in first.options:
        reply = compile_request(answered(original, first, option.label), WALLETS)
        assert not (isinstance(reply, NeedsClarification) and reply.question == first.question)


def test_health_clarifications_chain_until_the_request_compiles() -> None:
    text = "alert me if my health factor drops"
    for _ in range(4):
        result = compile_request(text, WALLETS)
        if isinstance(result, Compiled):
            break
        assert isinstance(result, NeedsClarification)
        text = answered(text, result, result.options[0].label)
    assert isinstance(result, Compiled)
    assert result.kind is Kind.AAVE_HEALTH


@pytest.mark.parametrize(
    ("original", "label"),
    [
        ("tell me when eth moves a lot", "Down 10%"),
        ("eth hits 4000", "Above $4,000"),
        ("gas under 10 gwei", "Ethereum"),
        ("remind me monthly to pay rent", "The 15th"),
        ("portfolio moves 10% in 3 days", "7 days"),
    ],
)
def test_sending_only_the_answer_never_compiles(original: str, label: str) -> None:
    question = compile_request(original, WALLETS)
    assert isinstance(question, NeedsClarification)
    alone = f"Clarification \u2014 {question.question}: {label}"
    assert not isinstance(compile_request(alone, WALLETS), Compiled)
    assert isinstance(compile_request(answered(original, question, label), WALLETS), Compiled)


def test_split_clarifications_keeps_the_label_and_drops_the_question() -> None:
    text = "eth hits 4000\n\nClarification \u2014 Should it alert above or below? eth btc: Above $4,000"
    assert split_clarifications(text) == ("eth hits 4000", ["Above $4,000"])
    assert split_clarifications("Clarification - Which day?: The 15th") == ("", ["The 15th"])


def test_dropped_action_is_reported_with_a_note() -> None:
    result = compile_request("tell me when eth goes above 4000 and then sell", WALLETS)
    assert isinstance(result, Compiled)
    assert result.dropped_action == "sell"
    assert result.note is not None and "dropped" in result.note and "notify" in result.note


def test_plain_english_schedule_is_anchored_at_utc_noon() -> None:
    result = compile_request("remind me every monday to check my positions", WALLETS)
    assert isinstance(result, Compiled) and result.agent is not None
    body = result.agent.model_dump()
    assert (body["hour"], body["minute"], body["timezone"]) == (12, 0, "UTC")
    assert result.rendered == "Every Monday at 12:00 UTC: check my positions"


def test_health_on_a_solana_only_wallet_is_refused_without_an_address() -> None:
    solana = "1" * 32
    assert isinstance(compile_request("my aave health factor on base below 1.3", [solana]), Unwatchable)
    with_address = "aave health factor of 0x1111111111111111111111111111111111111111 on base below 1.3"
    assert isinstance(compile_request(with_address, [solana]), Compiled)


def test_address_case_is_preserved_from_the_request() -> None:
    address = "0xabCDeF0123456789AbcdEf0123456789aBCDEF01"
    result = compile_request(f"aave health factor of {address} on base below 1.3", WALLETS)
    assert isinstance(result, Compiled) and result.agent is not None
    assert result.agent.model_dump()["target_wallet"] == address


# -- the parse trace: every compiled field was read from the request ------------------------------

# Fields a compiled agent may carry without reading them from the text: contract rules and defaults.
# Fields a compiled agent may carry without reading them from the text, with the only value each may have
# then: the request's wallets and kind, the plain-English schedule anchor (contract: UTC noon), and the
# typed defaults (metric apy, movement window 24h). Every other field present must be cited.
ANY = object()
DEFAULTS: dict[str, object] = {
    "wallets": ANY,
    "kind": ANY,
    "hour": 12,
    "minute": 0,
    "timezone": "UTC",
    "metric": "apy",
    "movement_window": "24h",
}


ASSET_FIELDS = {"asset_symbol", "quote_symbol", "asset"}
CHAIN_ALIASES = {alias for aliases in vocabulary().chains.values() for alias in aliases}


def result_fields(result: Compiled) -> dict[str, object]:
    """The fields of a result under the names the compiler cites them by."""
    if result.agent is not None:
        return result.agent.model_dump(exclude_none=True)
    assert result.condition is not None
    metric = result.condition.metric
    fields: dict[str, object] = {
        "threshold": result.condition.threshold,
        "condition": result.condition.comparator,
    }
    if isinstance(metric, PriceMetric):
        fields["asset_symbol"] = metric.symbol
    elif isinstance(metric, PriceRatioMetric):
        fields.update(asset_symbol=metric.base_symbol, quote_symbol=metric.quote_symbol)
    elif isinstance(metric, GasPriceMetric):
        fields["chain"] = metric.chain
    elif isinstance(metric, HealthFactorMetric):
        fields.update(protocol=metric.protocol, chain=metric.chain)
        if metric.wallet != WALLETS[0]:
            fields["target_wallet"] = metric.wallet
    elif isinstance(metric, YieldPoolMetric):
        fields.update(protocol=metric.project, chain=metric.chain, asset=metric.asset, metric=metric.metric)
        if metric.pool_id is not None:
            fields["pool_id"] = metric.pool_id
    if result.cadence in ("hourly", "daily") and not isinstance(metric, PortfolioValueMetric):
        fields["cadence"] = result.cadence  # a check cadence other than the metric's own must be asked for
    return fields


def fixed_direction(result: Compiled) -> str | None:
    if result.kind in (Kind.AAVE_HEALTH, Kind.SPARK_HEALTH):
        return "below"
    if result.kind is Kind.PORTFOLIO:
        return "above"
    if result.condition is not None and isinstance(result.condition.metric, HealthFactorMetric):
        return "below"
    return None


def check_trace(text: str, result: Compiled) -> None:
    normalized = normalize(text)
    cited = {e.field: e for e in result.evidence}
    for evidence in result.evidence:
        for word in evidence.text.split():
            assert word in normalized, (evidence, text)
    for name, value in result_fields(result).items():
        if name in cited:
            evidence = cited[name]
            if name in ("threshold", "pct_change", "base_price"):
                assert parse_amount(evidence.text) == value, (name, evidence, value)
            elif name in ASSET_FIELDS:
                asset = asset_for_alias(evidence.text)
                assert asset is not None and asset.symbol == value, (name, evidence, value)
            elif name == "chain" and evidence.text in CHAIN_ALIASES:
                assert chain_for_alias(evidence.text) == value
            else:
                assert evidence.value == str(value), (name, evidence, value)
        elif name == "condition" and value == fixed_direction(result):
            continue  # the fixed direction of health factors and portfolio moves (contract)
        elif name == "cadence" and result.kind is Kind.SCHEDULE:
            assert "day_of_week" in cited or "day_of_month" in cited  # "every monday" implies weekly
        else:
            assert name in DEFAULTS and DEFAULTS[name] in (ANY, value), (name, value, text)


@pytest.mark.parametrize(
    "row", [r for r in CORPUS if r["expect"] == "compiled"], ids=lambda r: r["request"][:50]
)
def test_every_corpus_compile_has_a_trace_to_the_request(row: dict[str, Any]) -> None:
    result = compile_request(row["request"], WALLETS)
    assert isinstance(result, Compiled)
    check_trace(row["request"], result)


VOCABULARY_WORDS = [
    *(alias for asset in vocabulary().assets for alias in asset.aliases),
    *(alias for aliases in vocabulary().chains.values() for alias in aliases),
    *(alias for protocol in vocabulary().yield_protocols.values() for alias in protocol.aliases),
    "above", "below", "under", "over", "drops", "rises", "moves", "hits", "gas", "gwei", "health factor",
    "apy", "supply", "borrow", "portfolio", "remind me", "every", "monday", "day", "week", "month", "daily",
    "weekly", "monthly", "the 15th", "to", "and then sell", "and", "or", "not", "on", "from", "at 9am",
    "12:00 utc", "%", "$", "k", "/", "ratio", "when", "tell me", "my", "0x1111111111111111111111111111111111111111",
    "\n\nClarification \u2014 Which one?:", "Clarification \u2014", "|", "?", ":", "-",
]  # fmt: skip
NUMBERS = st.one_of(
    st.integers(0, 200000).map(str),
    st.decimals(min_value=0, max_value=10000, places=3, allow_nan=False, allow_infinity=False).map(str),
    st.sampled_from(["4k", "1.2m", "$4,000", "10%", "0.03", "1.3", "85%", "100", "5 gwei"]),
)
PHRASES = st.lists(st.one_of(st.sampled_from(VOCABULARY_WORDS), NUMBERS), min_size=1, max_size=12).map(
    " ".join
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=300), PHRASES))
def test_fuzz_never_raises_and_compiles_only_what_the_text_states(text: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled | NeedsClarification | Unwatchable)
    if isinstance(result, Compiled):
        check_trace(text, result)
    if isinstance(result, NeedsClarification):
        assert len(result.options) <= 4


# -- recompiling a condition agent (PATCH with request) -------------------------------------------


@pytest.mark.parametrize(
    ("text", "metric_type"),
    [
        ("tell me when eth goes above 4000", "price"),
        ("my aave health factor on base below 1.3", "health_factor"),
        ("pool 747c1d2a-c668-4682-b9f9-296708a3dd90 usdc apy on aave ethereum above 4%", "yield"),
        ("gas on ethereum under 10 gwei", "gas_price"),
    ],
)
def test_compile_condition_restates_typed_results_as_conditions(text: str, metric_type: str) -> None:
    typed = compile_request(text, WALLETS)
    result = compile_condition(text, WALLETS)
    assert isinstance(typed, Compiled) and isinstance(result, Compiled)
    assert result.kind is Kind.CONDITION and result.agent is None and result.condition is not None
    assert result.condition.metric.type == metric_type
    assert result.cadence == typed.cadence


def test_compiled_health_condition_watches_the_same_wallet_below_the_threshold() -> None:
    result = compile_condition("my spark health factor on ethereum below 1.2", WALLETS)
    assert isinstance(result, Compiled) and result.condition is not None
    assert result.condition.metric == HealthFactorMetric(
        protocol="spark", chain="ethereum", wallet=WALLETS[0]
    )
    assert result.condition.comparator == "below" and result.condition.threshold == Decimal("1.2")


@pytest.mark.parametrize("text", ["btc drops 10%", "my portfolio moves 15%", "every day"])
def test_compile_condition_refuses_kinds_without_a_condition_form(text: str) -> None:
    assert isinstance(compile_condition(text, WALLETS), Unwatchable)


def test_compile_condition_passes_clarifications_through() -> None:
    assert isinstance(compile_condition("eth hits 4000", WALLETS), NeedsClarification)


ASSET_ALIASES = [alias for asset in vocabulary().assets for alias in asset.aliases]
CHAIN_NAMES = [alias for aliases in vocabulary().chains.values() for alias in aliases]
TEMPLATES = [
    "{asset} {cmp} {number}",
    "tell me when {asset} {move} {number}",
    "gas on {chain} {cmp} {number} gwei",
    "my {protocol} health factor on {chain} {cmp} {number}",
    "{asset} {side} apy on {protocol} {chain} {cmp} {number}",
    "remind me every {day} to {noise}",
    "{asset}/{asset2} {cmp} {number}",
    "my portfolio {move} {number}",
    "{asset} {cmp} {number} and then {noise}",
]
NEAR_VALID = st.builds(
    lambda template, noise, extra, **parts: (template.format(noise=noise, **parts) + " " + extra).strip(),
    template=st.sampled_from(TEMPLATES),
    noise=st.sampled_from(["sell", "check", "swap it", "the fed", "rebalance", "x", "monday", "0.5"]),
    extra=st.sampled_from(["", "", "", "please", "on base", "daily", "by friday", "or not", "moon", "10%"]),
    asset=st.sampled_from(ASSET_ALIASES),
    asset2=st.sampled_from(ASSET_ALIASES),
    cmp=st.sampled_from(["above", "below", "under", "over", "hits", "drops below", "rises to", ">", "<"]),
    move=st.sampled_from(["drops", "rises", "moves", "pumps", "falls", "swings", "dumps"]),
    number=NUMBERS,
    chain=st.sampled_from(CHAIN_NAMES),
    protocol=st.sampled_from(["aave", "spark", "compound", "morpho", "lido"]),
    side=st.sampled_from(["", "supply", "borrow"]),
    day=st.sampled_from(["monday", "friday", "day", "week", "month", "sunday"]),
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=NEAR_VALID)
def test_fuzz_near_valid_requests_compile_only_what_they_state(text: str) -> None:
    result = compile_request(text, WALLETS)
    if isinstance(result, Compiled):
        check_trace(text, result)
        assert result.agent is not None or result.condition is not None
