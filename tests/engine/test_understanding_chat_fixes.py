"""Chat phrasing of the fifth round: shares of an amount the words state (a told holding, "a third of 1200
usdc"), chat corrections ("sry 200 not 100", "soz", "typo", "on second thought", "*eth" fixes), requests
put as questions ("how about swapping", "any chance you could"), new verbs (hop, bring, stick), leaving a
position into a token, a verbless conversion whose chain is named after it, and "$500 in eth"."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents import IntentResponse, facts_from_request
from tests.engine.test_intents_support import EVM_A, EVM_C, parse, parser, request

WALLETS = ((EVM_A, "base"), (EVM_A, "arbitrum"), (EVM_A, "optimism"))


def _read(prompt: str) -> list[tuple[str, str | None, str | None, str | None, Decimal | str | None]]:
    response = parse(prompt, *WALLETS)
    return [(i.action, i.asset, i.to_asset, i.chain, i.amount) for i in response.intents]


def _priced(prompt: str) -> IntentResponse:
    """The answer with ETH priced at $2500 on base (a benchmark reads no price source)."""
    asked = request(prompt, *WALLETS)
    facts = facts_from_request(asked)
    facts.prices[("base", "ETH")] = Decimal(2500)
    return parser().parse(asked, facts)


@pytest.mark.parametrize(
    ("prompt", "amount"),
    [
        ("i have 1200 usdc on base, swap a third of it for eth", 400),
        ("got 1,200 usdc on base. swap 1/2 of it to eth", 600),
        ("so i have 1200 usdc on base - can you swap a quarter of that to eth", 300),
        ("out of my 800 usdc on base swap 25% into eth", 200),
        ("i've got 2k usdc sitting on base, swap 10 percent of it for eth", 200),
        ("i have 1200 usdc on base, swap 500 of it for eth", 500),
        ("swap a third of 1200 usdc for eth on base", 400),
        ("swap 25% of 800 usdc for eth on base", 200),
    ],
)
def test_a_share_of_a_stated_amount_is_worked_out_from_it(prompt: str, amount: int) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(amount))]


def test_a_share_of_a_stated_amount_with_no_exact_value_is_asked() -> None:
    response = parse("i have 1000 usdc on base, swap a third of it for eth", *WALLETS)
    assert not response.intents and response.clarifications


def test_more_than_all_of_a_stated_amount_is_refused() -> None:
    response = parse("i have 1200 usdc on base, swap 150% of it for eth", *WALLETS)
    assert not response.intents and not response.clarifications
    assert "more than all" in response.reasoning


def test_a_told_holding_is_not_the_amount_of_a_share_of_something_else() -> None:
    # The share is of the eth balance the request carries, not of the 1200 usdc told before it.
    response = parse(
        "i have 1200 usdc on base, swap half my eth for usdc",
        *WALLETS,
        balances=[{"chain": "base", "asset": "ETH", "amount": "3"}],
    )
    assert [(i.asset, i.amount) for i in response.intents] == [("ETH", Decimal("1.5"))]


@pytest.mark.parametrize(
    ("prompt", "chain", "amount"),
    [
        ("swap 100 usdc for eth on base sry 200 not 100 k thx", "base", 200),
        ("swap 100 usdc for eth on base soz, meant 200", "base", 200),
        ("swap 100 usdc for eth on base typo, 50", "base", 50),
        ("swap 100 usdc for eth on base on second thought make it 250", "base", 250),
        ("swap 100 usdc for eth on arbitrum sry, base not arbitrum", "base", 100),
        ("swap 100 usdc for eth on arbitrum *optimism", "optimism", 100),
    ],
)
def test_chat_corrections_let_the_later_statement_win(prompt: str, chain: str, amount: int) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", chain, Decimal(amount))]


@pytest.mark.parametrize(
    "prompt",
    ["swap 100 usdc for eht on base *eth", "swap 100 usdc for etj on base\n*eth ty"],
)
def test_a_star_fix_respells_the_word_it_is_one_keystroke_from(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(100))]


def test_a_star_fix_close_to_no_word_is_not_applied_to_a_far_one() -> None:
    # "*dai" is one edit from nothing said before it; "eht" stays unknown and is asked about.
    response = parse("swap 100 usdc for eht on base *dai", *WALLETS)
    assert not response.intents


@pytest.mark.parametrize(
    "prompt",
    [
        "how about swapping 150 usdc to eth on base?",
        "mind swapping 150 usdc for eth on base?",
        "any chance you could swap 150 usdc to eth on base? lol",
        "alr swap 150 usdc for eth on base tho",
    ],
)
def test_requests_put_as_questions_are_requests(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(150))]


@pytest.mark.parametrize(
    "prompt", ["hop 0,5 usdc from base to arbitrum", "bring 0,5 usdc over from base to arbitrum"]
)
def test_hop_and_bring_move_between_chains(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("bridge", "base", "arbitrum", Decimal("0.5"))
    ]


def test_stick_into_a_protocol_deposits() -> None:
    response = parse("stick 250 usdc in aave on base", *WALLETS)
    assert [(i.action, i.protocol, i.amount) for i in response.intents] == [("deposit", "aave", 250)]


def test_exiting_a_token_position_into_another_token_swaps_all_of_it() -> None:
    assert _read("exit my eth position into usdc on base") == [("swap", "ETH", "USDC", "base", "max")]


def test_exiting_a_named_pool_still_removes_liquidity() -> None:
    response = parse("close my eth-usdc position on base", *WALLETS)
    assert [i.action for i in response.intents] == ["lp-remove"]


@pytest.mark.parametrize("prompt", ["3 thousand usdc into eth, base", "two hundred usdc into eth, base pls"])
def test_a_verbless_conversion_with_its_chain_after_it_is_a_swap(prompt: str) -> None:
    assert [(a, s, t, c) for a, s, t, c, _ in _read(prompt)] == [("swap", "USDC", "ETH", "base")]


def test_a_verbless_move_from_a_chain_to_eth_is_still_a_bridge() -> None:
    response = parse("base to eth: 100 usdc", *WALLETS, (EVM_A, "ethereum"))
    assert [(i.action, i.to_chain) for i in response.intents] == [("bridge", "ethereum")]


def test_dollars_paid_in_a_token_name_the_token_not_its_chain() -> None:
    response = _priced(f"send {EVM_C} $500 in eth on base")
    assert [(i.action, i.asset, i.chain, i.amount) for i in response.intents] == [
        ("transfer", "ETH", "base", Decimal("0.2"))
    ]


def test_a_balance_named_with_a_number_kept_back_is_all_but_that_number() -> None:
    response = parse(
        "swap my usdc for eth on base, keep 100 tho",
        *WALLETS,
        balances=[{"chain": "base", "asset": "USDC", "amount": "900"}],
    )
    assert [(i.asset, i.amount) for i in response.intents] == [("USDC", Decimal(800))]


def test_a_number_kept_back_beside_a_written_amount_is_asked_about() -> None:
    response = parse("swap 100 usdc for eth on base, keep 100 tho", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(
    "prompt",
    [
        "i want 1.5k dai on base, take it from arbitrum k thx",
        "take 1,500 dai off arbitrum and put it on base",
        "bridge 1500 dai to base, take it from arbitrum",
    ],
)
def test_where_it_comes_from_and_goes_said_with_it(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("bridge", "arbitrum", "base", Decimal(1500))
    ]


def test_earning_yield_with_a_protocol_deposits() -> None:
    response = parse("earn yield on 250 usdc with aave on base", *WALLETS)
    assert [(i.action, i.protocol, i.amount) for i in response.intents] == [("deposit", "aave", 250)]


@pytest.mark.parametrize(
    "prompt",
    ["for dai, swap 0,5 usdc on base k thx", "into dai on base: 0,5 usdc", "on base: 0,5 usdc -> dai"],
)
def test_a_target_named_first_is_the_swap_target(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "DAI", "base", Decimal("0.5"))]


def test_a_target_named_first_for_another_action_is_not_dropped() -> None:
    response = parse("for eth, bridge 100 usdc from base to arbitrum", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(
    "prompt",
    [f"send minus 5 usdc to {EVM_C} on base", "swap negative 20 usdc for eth on base"],
)
def test_minus_before_a_number_is_a_negative_amount_and_refused(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents and not response.clarifications
    assert "negative" in response.reasoning


def test_minus_after_all_is_still_all_but() -> None:
    response = parse(
        "swap all minus 5 usdc for eth on base",
        *WALLETS,
        balances=[{"chain": "base", "asset": "USDC", "amount": "900"}],
    )
    assert [i.amount for i in response.intents] == [Decimal(895)]


def test_usd_of_a_token_turned_into_a_token_by_an_arrow_is_a_swap() -> None:
    response = _priced("1k usd of eth -> usdc on base")
    assert [(i.action, i.asset, i.to_asset, i.amount) for i in response.intents] == [
        ("swap", "ETH", "USDC", Decimal("0.4"))
    ]


@pytest.mark.parametrize(
    ("prompt", "chain"),
    [
        ("morning! swap 1.5 eth to usdc on base", "base"),
        ("good morning, swap 1.5 eth to usdc on base", "base"),
        ("hi team, swap 1.5 eth to usdc on base thx a lot", "base"),
        ("quick favour - swap 1.5 $eth to $usdc on base", "base"),
        ("swap one point five eth to usdc on base", "base"),
        ("swap 1.5 eth 4 usdc on base", "base"),
        ("swap 1.5 eth to usdc on L1 ethereum", "ethereum"),
    ],
)
def test_chat_spellings_of_a_swap(prompt: str, chain: str) -> None:
    response = parse(prompt, *WALLETS, (EVM_A, "ethereum"))
    assert [(i.action, i.asset, i.to_asset, i.chain, i.amount) for i in response.intents] == [
        ("swap", "ETH", "USDC", chain, Decimal("1.5"))
    ]


def test_a_time_of_day_after_the_request_still_waits() -> None:
    response = parse("swap 1 eth to usdc on base in the morning.", *WALLETS)
    assert not response.intents and "later" in response.reasoning


def test_a_number_other_than_4_or_2_between_two_tokens_is_still_asked() -> None:
    response = parse("swap 0.3 usdc 5 eth on base", *WALLETS)
    assert not response.intents and response.clarifications


def test_ship_and_every_token() -> None:
    response = parse("ship every usdc i've got from base to arbitrum", *WALLETS)
    assert [(i.action, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("bridge", "base", "arbitrum", "max")
    ]


def test_a_dollar_sign_before_a_number_is_still_dollars() -> None:
    response = _priced("swap $500 of eth for usdc on base")
    assert [i.amount for i in response.intents] == [Decimal("0.2")]


@pytest.mark.parametrize(
    ("prompt", "amount"),
    [
        ("swap 100 usdc for eth on base - nah 150", 150),
        ("swap 100 usdc for eth on base, change that to 300", 300),
        ("swap 100 usdc for eth on base, ugh scratch that, 200", 200),
        ("swap 100 usdc for eth on base sorry i meant 1000", 1000),
    ],
)
def test_more_chat_corrections(prompt: str, amount: int) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(amount))]


def test_a_trailing_sorry_is_still_asked_about() -> None:
    response = parse("swap 100 usdc for eth on base sorry", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(
    ("prompt", "action", "chain"),
    [
        ("base chain: 100 usdc -> eth", "swap", "base"),
        ("base to eth: 100 usdc", "bridge", None),
        ("base -> eth 100 usdc", "bridge", None),
    ],
)
def test_a_verbless_arrow_converts_unless_it_leaves_a_chain(
    prompt: str, action: str, chain: str | None
) -> None:
    response = parse(prompt, *WALLETS, (EVM_A, "ethereum"))
    assert [(i.action, i.chain) for i in response.intents] == [(action, chain)]


@pytest.mark.parametrize(
    "prompt",
    [
        "swap all of my usdc except for 100 to eth on base",
        "swap my usdc minus 100 into eth on base",
        "swap my usdc except 100 into eth on base",
    ],
)
def test_more_ways_to_keep_some_back(prompt: str) -> None:
    response = parse(prompt, *WALLETS, balances=[{"chain": "base", "asset": "USDC", "amount": "900"}])
    assert [i.amount for i in response.intents] == [Decimal(800)]


@pytest.mark.parametrize(
    "prompt",
    [
        "ape 200 usdc in eth on base",
        "throw 200 usdc at eth on base",
        "xfer 200 usdc from base to arbitrum",
        "sell off 200 usdc for eth on base",
        "are you able to swap 200 usdc to eth on base?",
    ],
)
def test_more_slang_and_framing(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.asset, i.amount) for i in response.intents] == [("USDC", Decimal(200))]


@pytest.mark.parametrize(
    "prompt",
    [
        "put 200 usdc to work in aave on base",
        "bridge 200 usdc from base to arbitrum followed by depositing it in aave",
    ],
)
def test_to_work_and_followed_by(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert response.intents and response.intents[-1].action == "deposit"


@pytest.mark.parametrize(
    "prompt", ["swap eth worth $500 to usdc on base", "sell eth worth 500 dollars for usdc on base"]
)
def test_dollars_written_after_the_token_they_are_worth(prompt: str) -> None:
    response = _priced(prompt)
    assert [(i.asset, i.to_asset, i.amount) for i in response.intents] == [("ETH", "USDC", Decimal("0.2"))]


def test_worth_a_number_with_no_currency_is_asked() -> None:
    response = parse("swap eth worth 500 to usdc on base", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(
    "prompt",
    [
        "on base i want eth for 100 usdc",
        "i want some eth with 100 usdc on base",
        "while on base, buy eth with 100 usdc",
    ],
)
def test_a_token_wished_for_and_paid_with_another_is_bought(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(100))]


def test_a_wish_with_nothing_to_pay_with_is_no_purchase() -> None:
    response = parse("i want 100 usdc on base for gas", *WALLETS)
    assert not response.intents


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 100 usdc for eth on base *200",
        "swap 100 usdc for eth on base - edit: 200",
        "swap 100 usdc for eth on base, not 100, 200",
        "swap 100 usdc for eth on base, 200 instead",
        "swap 100 usdc for eth on base actually do 200 instead of 100",
    ],
)
def test_a_value_said_to_replace_another_wins(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(200))]


@pytest.mark.parametrize(
    "marker", ["disregard that,", "delete that.", "forget what i said,", ". cancel.", "scrap that"]
)
def test_more_ways_to_drop_what_was_said(marker: str) -> None:
    assert _read(f"swap 100 usdc for eth on base {marker} swap 200 dai for eth on base") == [
        ("swap", "DAI", "ETH", "base", Decimal(200))
    ]


def test_first_and_second_order_the_steps() -> None:
    response = parse("first bridge 300 usdc from base to arbitrum, second deposit it into aave", *WALLETS)
    assert [(i.action, i.amount) for i in response.intents] == [
        ("bridge", Decimal(300)),
        ("deposit", "chained"),
    ]


def test_wait_a_second_is_still_asked_about() -> None:
    response = parse("swap 1 eth for usdc on base, wait a second", *WALLETS)
    assert not response.intents and response.clarifications


def test_every_single_token_is_all_of_it() -> None:
    assert _read("swap every single usdc i have for eth on base") == [("swap", "USDC", "ETH", "base", "max")]


@pytest.mark.parametrize(
    "prompt",
    [
        "is there a way to swap 50 usdc for eth on base?",
        "do you think you could swap 50 usdc for eth on base",
        "could i get 50 usdc swapped to eth on base?",
    ],
)
def test_more_requests_put_as_questions(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(50))]


@pytest.mark.parametrize(
    "prompt",
    [f"drop 25 usdc to {EVM_C} on base", f"send my friend {EVM_C} 25 usdc on base"],
)
def test_drop_and_a_friend_send(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.recipient, i.amount) for i in response.intents] == [("transfer", EVM_C, Decimal(25))]


@pytest.mark.parametrize(
    ("prompt", "amount"),
    [
        ("i have about 1200 usdc on base, swap half of it for eth", 600),
        ("1200 usdc on base - swap a third of it to eth", 400),
    ],
)
def test_more_ways_to_tell_a_holding(prompt: str, amount: int) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(amount))]


@pytest.mark.parametrize(
    "prompt",
    [
        "my balance is 1200 usdc on base, swap half of it for eth",
        "there is 1200 usdc on base, swap half of it for eth",
        "1200 usdc on base, swap 500 for eth",
    ],
)
def test_a_share_of_it_beside_a_written_amount_is_asked_never_that_amount(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents and response.clarifications


def test_a_leading_amount_without_a_share_of_it_is_read_as_written() -> None:
    assert _read("100 usdc to eth on base") == [("swap", "USDC", "ETH", "base", Decimal(100))]


def test_more_of_it_than_was_told_is_asked() -> None:
    response = parse("i have 1200 usdc on base, swap 2000 of it for eth", *WALLETS)
    assert not response.intents and response.clarifications


def test_a_verbless_conversion_and_move_together_plan_nothing() -> None:
    # Reading either would drop the other: the bridge alone was planned before, a silent wrong answer.
    response = parse("100 usdc into eth on base, then to arbitrum", *WALLETS)
    assert not response.intents


def test_leaving_a_protocol_position_into_a_token_names_the_two_steps() -> None:
    # Read alone, the withdrawal would drop the swap (and "into eth" was once a bridge to ethereum).
    response = parse("exit my usdc position into eth on aave base", *WALLETS)
    assert not response.intents and not response.clarifications
    assert "two steps" in response.reasoning
