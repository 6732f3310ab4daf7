"""/agents reads openly: a correction inside the message keeps the value given last, whatever kind of value
it is; a follow-on action and a remark after the condition take their own words (names, negations) with
them; a request that names something watchable but not when is asked about, and one that waits for
something no agent watches is refused. The closed classes (correction markers, the kinds of values they
replace) are property-tested."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import Compiled, NeedsClarification, Unwatchable, compile_request
from tests.support.agent_reading import WALLETS, answered, options_lead_somewhere, subset, watch

# -- corrections inside one message: the value given last replaces the one it corrects -------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gas on ethereum under 15 gwei, no 12", {"chain": "ethereum", "threshold": Decimal(12)}),
        ("gas on mainnet under 15 gwei, or let's say 10", {"chain": "ethereum", "threshold": Decimal(10)}),
        ("gas on ethereum below 20 gwei, or actually 12", {"threshold": Decimal(12), "comparator": "below"}),
        ("gas on arbitrum below 0.05 gwei — no, base", {"chain": "base", "threshold": Decimal("0.05")}),
        (
            "health factor aave arbitrum below 1.5 wait i mean optimism",
            {"protocol": "aave", "chain": "optimism", "threshold": Decimal("1.5")},
        ),
        (
            "health factor alert on aave base at 1.5, sorry I meant arbitrum not base",
            {"chain": "arbitrum", "threshold": Decimal("1.5")},
        ),
        (
            "spark health below 1.4, I mean aave on ethereum, not spark",
            {"protocol": "aave", "chain": "ethereum", "threshold": Decimal("1.4")},
        ),
        (
            "spark health factor below 1.4, no 1.6, that's safer",
            {"protocol": "spark", "threshold": Decimal("1.6")},
        ),
        (
            "alert when eth/btc ratio above 0.05... no forget the ratio, just eth above 3500",
            {"asset_symbol": "ETH", "condition": "above", "threshold": Decimal(3500)},
        ),
        (
            "ratio alert eth/btc below 0.05, hmm or rather sol/eth above 0.06",
            {"base_symbol": "SOL", "quote_symbol": "ETH", "comparator": "above"},
        ),
        (
            "portfolio moves 10% either way in 24h. hmm make that over a week",
            {"threshold": Decimal(10), "movement_window": "7d"},
        ),
        ("alert me if btc goes up 10%, wait i mean down", {"condition": "below", "pct_change": Decimal(10)}),
        (
            "alert if SOL goes above 200... scratch that, below 130",
            {"condition": "below", "threshold": Decimal(130)},
        ),
        (
            "ping me if sol falls 10%, scratch that, if it rises 10%",
            {"asset_symbol": "SOL", "condition": "above"},
        ),
        (
            "ping me when eth drops below 2800, no, when it goes ABOVE 2800",
            {"condition": "above", "threshold": Decimal(2800)},
        ),
        (
            "btc under 50k alert. no, above 50k. ugh, I mean if it drops below",
            {"asset_symbol": "BTC", "condition": "below", "threshold": Decimal(50000)},
        ),
        (
            "yield alert for usdc on aave polygon above 5% — wait, make that dai instead of usdc",
            {"asset": "DAI", "chain": "polygon", "comparator": "above"},
        ),
        ("alert me when eth goes above 4000. no wait make it 4500", {"threshold": Decimal(4500)}),
        (
            "alert me if eth goes above 3500 and sell 1 eth... actually don't sell anything, just the alert",
            {"asset_symbol": "ETH", "threshold": Decimal(3500)},
        ),
    ],
)
def test_a_correction_keeps_the_value_given_last(text: str, expected: dict[str, Any]) -> None:
    subset(expected, watch(text))


def test_a_reset_followed_by_a_value_amends_rather_than_withdraws() -> None:
    # "scratch that, 8am": a value after the reset amends the request; the schedule's time is then asked as
    # the contract's 12:00 UTC, and the answered request keeps the daily cadence.
    text = "daily portfolio at 9am utc — scratch that, 8am"
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification) and "12:00 UTC" in result.question
    after = answered(text, result, result.options[0].label)
    assert isinstance(after, Compiled) and after.agent is not None
    assert after.agent.model_dump()["cadence"] == "daily"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("weekly summary monday 10:00 berlin time... ugh make it tuesday", "tuesday"),
        ("weekly reminder on monday 10:00 UTC, no, tuesday", "tuesday"),
        ("remind me every monday at 8 to check my positions. actually make it tuesdays", "tuesday"),
    ],
)
def test_a_corrected_weekday_is_the_one_scheduled(text: str, day: str) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, NeedsClarification) and "12:00 UTC" in result.question
    after = answered(text, result, result.options[0].label)
    assert isinstance(after, Compiled) and after.agent is not None
    assert after.agent.model_dump()["day_of_week"] == day


# The closed kinds of value a correction replaces, each as (request, the corrected value, what to check).
SLOTS = [
    ("gas on ethereum under {old} gwei", ("15", "12"), "threshold"),
    ("tell me when btc goes above {old}", ("70000", "72000"), "threshold"),
    ("gas on {old} below 5 gwei", ("arbitrum", "base"), "chain"),
    ("aave health on {old} below 1.5", ("base", "optimism"), "chain"),
    ("{old} health on ethereum below 1.5", ("spark", "aave"), "protocol"),
    ("tell me when {old} drops below 50", ("sol", "bnb"), "asset_symbol"),
    ("tell me when eth goes {old} 3000", ("above", "below"), "condition"),
]
MARKERS = [
    "no wait",
    "wait i mean",
    "sorry,",
    "i mean",
    "actually",
    "make it",
    "no,",
    "or rather",
    "sorry i meant",
]


@settings(max_examples=200, deadline=None)
@given(
    slot=st.sampled_from(SLOTS),
    marker=st.sampled_from(MARKERS),
    joiner=st.sampled_from([",", " —", "...", "."]),
)
def test_any_marker_replaces_any_kind_of_value(
    slot: tuple[str, tuple[str, str], str], marker: str, joiner: str
) -> None:
    template, (old, new), field = slot
    got = watch(f"{template.format(old=old)}{joiner} {marker} {new}")
    expected = {"sol": "SOL", "bnb": "BNB"}.get(new, new)
    assert str(got.get(field) if field != "condition" else got.get("condition", got.get("comparator"))) in (
        expected,
        str(Decimal(new)) if new.isdigit() else expected,
    )


@pytest.mark.parametrize(
    "text",
    [
        "sorry, I'd like to get a warning if my Aave health factor on Polygon goes under... 1.5? is that safe enough?",
        "Sorry to ask — can you tell me when ETH drops 5% from where it is now?",
    ],
)
def test_a_correction_word_with_nothing_before_it_is_courtesy(text: str) -> None:
    assert isinstance(compile_request(text, WALLETS), Compiled)


# -- what follows the condition: a follow-on action, a remark ---------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "action"),
    [
        (
            "if USDC yield on spark goes above 6% alert me and move 5k over from aave",
            {"project": "sparklend", "asset": "USDC", "threshold": Decimal(6)},
            "move 5k over from aave",
        ),
        (
            "alert if ETH is below 2000 and also open 10x leverage when it triggers",
            {"asset_symbol": "ETH", "condition": "below", "threshold": Decimal(2000)},
            "open 10x leverage",
        ),
        (
            "If sol falls 30 percent please tell me, and sell it for me if that happens.",
            {"asset_symbol": "SOL", "condition": "below", "pct_change": Decimal(30)},
            "sell it",
        ),
    ],
)
def test_a_follow_on_action_takes_its_own_names_and_its_back_reference(
    text: str, expected: dict[str, Any], action: str
) -> None:
    result = compile_request(text, WALLETS)
    assert isinstance(result, Compiled) and result.dropped_action == action
    subset(expected, watch(text))


def test_a_condition_of_its_own_inside_the_action_is_still_refused() -> None:
    result = compile_request("if eth drops below 2000 buy more if it drops again", WALLETS)
    assert isinstance(result, Unwatchable) and "condition of its own" in result.reason


REMARKS = [
    "I don't want to pay suppliers then",
    "I'm batching some stuff this week",
    "we never trade on weekends anyway",
    "my accountant doesn't like surprises",
]
CONDITIONS = [
    (
        "alert if eth gas is above 50 gwei",
        {"chain": "ethereum", "comparator": "above", "threshold": Decimal(50)},
    ),
    ("tell me when btc drops below 60k", {"asset_symbol": "BTC", "condition": "below"}),
    ("my aave health on base under 1.3", {"protocol": "aave", "chain": "base"}),
]


@settings(max_examples=40, deadline=None)
@given(condition=st.sampled_from(CONDITIONS), remark=st.sampled_from(REMARKS))
def test_a_remark_after_the_condition_keeps_its_negation(
    condition: tuple[str, dict[str, Any]], remark: str
) -> None:
    text, expected = condition
    subset(expected, watch(f"{text}, {remark}"))


def test_a_negated_clause_with_something_to_watch_is_still_refused() -> None:
    result = compile_request("alert me when eth is above 4000, I don't want it under 3000", WALLETS)
    assert isinstance(result, Unwatchable)


def test_a_purpose_with_nothing_to_watch_is_set_aside() -> None:
    subset(
        {"protocol": "aave", "chain": "base"},
        watch("my aave health on base under 1.15 ping me before i get rekt"),
    )


# -- saying too little, or naming what no agent watches ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("alert me when eth is in a good price for buy", "Which move in the ETH price"),
        ("alert me on eth", "Which move in the ETH price"),
        ("Create an alert regarding our USDC.", "Which move in the USDC price"),
        ("alert when eth goes to", "At what ETH price"),
        ("when number go up", "Which token's price"),
        ("let me know when the price is good", "Which token's price"),
        ("alert me", "What should it watch"),
    ],
)
def test_a_vague_request_that_names_something_watchable_is_asked(text: str, question: str) -> None:
    assert options_lead_somewhere(text).question.startswith(question)


@pytest.mark.parametrize(
    "text",
    [
        "alert me if ETH funding rate goes above 0.1%",
        "ping me when open interest on eth spikes",
        "lmk when elon tweets about doge",
        "alert me when Vitalik sells his eth",
        "Newsletter: 'Aave governance to vote on new risk parameters next week'\ntell me when the vote passes",
        "FOOCOIN above 5",
    ],
)
def test_what_no_agent_watches_stays_unwatchable(text: str) -> None:
    assert isinstance(compile_request(text, WALLETS), Unwatchable)


QUALIFIERS = ["funding", "exchange", "hash", "inflation", "mortgage", "burn", "tax", "fed"]


@settings(max_examples=60, deadline=None)
@given(
    qualifier=st.sampled_from(QUALIFIERS),
    asset=st.sampled_from(["eth", "btc", "sol"]),
    level=st.integers(1, 99),
)
def test_a_rate_qualified_by_another_figure_is_no_yield(qualifier: str, asset: str, level: int) -> None:
    result = compile_request(f"alert me if the {asset} {qualifier} rate goes above {level}%", WALLETS)
    assert isinstance(result, Unwatchable) and f"{qualifier} rate" in result.reason


@pytest.mark.parametrize(
    "qualifier", ["supply", "borrow", "lending", "deposit", "savings", "variable", "the"]
)
def test_a_rate_of_a_yield_side_stays_a_yield(qualifier: str) -> None:
    got = watch(f"alert me if the usdc {qualifier} rate on aave base goes above 5%")
    assert got["type"] == "yield" and got["threshold"] == Decimal(5)


# -- open-class words never block a watch whose slots are each read from words ------------------------


def _ordinary_words() -> list[str]:
    """Frequent English words (wordfreq's own list, as the reader judges ordinary words) outside every closed
    class the compiler reads: no number or unit, direction, time or window, negation, condition, name,
    metric, rate side or deed, and no figure or event no agent watches."""
    from wordfreq import top_n_list

    from engine.agents.content import has_content
    from engine.agents.leftovers import _OPENERS, FILLER, changes_meaning
    from engine.agents.phrases import (
        BORROW_SIDE,
        DISJUNCTION,
        NEGATION,
        NEWS,
        PRICE_WINDOW,
        SUPPLY_SIDE,
        TRAILING_ACTION,
    )
    from engine.agents.vague import EVENTS, MARKET_FIGURES
    from engine.intents.english import is_common
    from engine.intents.vocabulary import VERBS

    units = {"percent", "pct", "dollar", "dollars", "bucks", "cent", "cents", "grand", "thousand", "million"}
    closed = (
        NEGATION,
        DISJUNCTION,
        NEWS,
        PRICE_WINDOW,
        SUPPLY_SIDE,
        BORROW_SIDE,
        MARKET_FIGURES,
        EVENTS,
        re.compile(r"^(?:rates?|interest)$"),
    )
    return [
        word
        for word in top_n_list("en", 3000)
        if word.isalpha()
        and len(word) >= 3
        and is_common(word)
        and word not in FILLER
        and word not in _OPENERS
        and word not in VERBS
        and word not in units
        and not changes_meaning(word)
        and not has_content(word)
        and not any(pattern.search(word) for pattern in closed)
        and not TRAILING_ACTION.search(f", {word} it")
    ]


ORDINARY = _ordinary_words()
BASES = [
    "alert me when eth goes above 4000",
    "gas on base under 0.05 gwei",
    "my aave health factor on arbitrum below 1.3",
    "tell me if btc drops 10%",
    "usdc supply apy on aave base above 5%",
]


@settings(max_examples=400, deadline=None)
@given(base=st.sampled_from(BASES), extra=st.lists(st.sampled_from(ORDINARY), min_size=1, max_size=4))
def test_ordinary_words_never_block_a_watch_read_from_words(base: str, extra: list[str]) -> None:
    assert watch(f"{base} {' '.join(extra)}") == watch(base)
