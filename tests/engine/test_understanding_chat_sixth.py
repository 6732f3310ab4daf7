"""Chat phrasing of the sixth round: "err" and "sorry, dai not eth" corrections, how-to framing around a
fully written transaction, "any way to", "i'd like eth for 80 usdc", slang verbs (smash, fomo, full port,
bail out, liquidate, zap, venmo), "earn on ... in aave", "send it:" as a cheer, and trailing stops. What
the words leave open is still asked or refused, never guessed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, EVM_C, parse

WALLETS = ((EVM_A, "base"), (EVM_A, "arbitrum"), (EVM_A, "optimism"))


def _read(prompt: str) -> list[tuple[str, str | None, str | None, str | None, Decimal | str | None]]:
    response = parse(prompt, *WALLETS)
    return [(i.action, i.asset, i.to_asset, i.chain, i.amount) for i in response.intents]


def _nothing_planned(prompt: str) -> str:
    response = parse(prompt, *WALLETS)
    assert not response.intents
    return response.reasoning


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("swap 100 usdc for eth on base, err 75", ("ETH", "base", 75)),
        ("swap 100 usdc for eth on base. err arb", ("ETH", "arbitrum", 100)),
        ("swap 100 usdc for eth on op, erm 300 thanks", ("ETH", "optimism", 300)),
        ("swap 100 usdc for eth on base sorry, dai not eth", ("DAI", "base", 100)),
        ("swap 100 usdc for eth on base sorry, 40", ("ETH", "base", 40)),
        ("swap 100 usdc for eth on base wait, dai", ("DAI", "base", 100)),
    ],
)
def test_err_and_a_pause_after_sorry_correct_the_request(prompt: str, expected: tuple[str, str, int]) -> None:
    to_asset, chain, amount = expected
    assert _read(prompt) == [("swap", "USDC", to_asset, chain, Decimal(amount))]


@pytest.mark.parametrize(
    "prompt",
    ["swap 1 eth err to usdc on base", "err swap 1 eth to usdc on base", "swap 1 eth to usdc on base err"],
)
def test_err_that_corrects_nothing_is_a_hesitation(prompt: str) -> None:
    assert _read(prompt) == [("swap", "ETH", "USDC", "base", Decimal(1))]


def test_sorry_with_nothing_named_after_it_is_still_asked_about() -> None:
    response = parse("swap 5 eth to usdc on base sorry", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(
    "prompt",
    [
        "how do i swap 60 usdc to eth on base",
        "how can i swap 60 usdc for eth on base?",
        "fam how do i swap 60 usdc to eth on base",
        "any way to swap 60 usdc to eth on base?",
        "is there any way to swap 60 usdc to eth on base",
    ],
)
def test_how_to_framing_around_a_written_transaction_asks_for_it(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(60))]


@pytest.mark.parametrize(
    "prompt",
    [
        "how do i bridge to base",
        "how do i bridge usdc to base",
        "how do i have so little eth",
        "what's the apy on aave",
    ],
)
def test_a_how_to_question_without_an_amount_stays_a_question(prompt: str) -> None:
    assert "question" in _nothing_planned(prompt)


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("i'd like eth for 80 usdc on base", ("USDC", "ETH", 80)),
        ("id like usdc for .5 eth on base", ("ETH", "USDC", "0.5")),
        ("i would like dai for 2,000 usdc on base", ("USDC", "DAI", 2000)),
    ],
)
def test_a_token_liked_for_another_is_bought_with_it(
    prompt: str, expected: tuple[str, str, int | str]
) -> None:
    sold, bought, amount = expected
    assert _read(prompt) == [("swap", sold, bought, "base", Decimal(amount))]


def test_liking_a_token_with_nothing_to_pay_plans_nothing() -> None:
    assert not parse("i'd like 80 usdc on base", *WALLETS).intents


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("smash 400 usdc into eth on base", ("swap", "USDC", "ETH", 400)),
        ("fomo 250 usdc into eth on base", ("swap", "USDC", "ETH", 250)),
        ("full port 2k usdc into eth on base", ("swap", "USDC", "ETH", 2000)),
        ("bail out of 2 eth into usdc on base", ("swap", "ETH", "USDC", 2)),
        ("liquidate 0.5 eth into usdc on base", ("swap", "ETH", "USDC", "0.5")),
        ("zap 100 usdc into eth on base", ("swap", "USDC", "ETH", 100)),
        ("zap 100 usdc into aave on base", ("deposit", "USDC", None, 100)),
        ("smash 100 usdc into aave on base", ("deposit", "USDC", None, 100)),
        ("i wanna earn on 1,5 usdc in aave on base", ("deposit", "USDC", None, "1.5")),
    ],
)
def test_slang_verbs_go_where_their_target_says(
    prompt: str, expected: tuple[str, str, str | None, int | str]
) -> None:
    action, asset, to_asset, amount = expected
    assert _read(prompt) == [(action, asset, to_asset, "base", Decimal(amount))]


def test_bailing_out_with_no_amount_leaves_the_whole_balance() -> None:
    assert _read("bail out of my eth into usdc on base") == [("swap", "ETH", "USDC", "base", "max")]


@pytest.mark.parametrize(
    "prompt",
    [
        f"zap 1,5 usdc to {EVM_C} on base",
        f"venmo {EVM_C} 1,5 usdc on base",
        f"send it: 1.5 usdc to {EVM_C} on base",
    ],
)
def test_chat_payment_verbs_are_transfers(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.asset, i.chain, i.amount, i.recipient) for i in response.intents] == [
        ("transfer", "USDC", "base", Decimal("1.5"), EVM_C)
    ]


@pytest.mark.parametrize(
    "prompt", ["send it: 250 usdc into eth on base", "so send it! 250 usdc into eth on base"]
)
def test_send_it_opening_a_message_is_a_cheer_not_a_bridge(prompt: str) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(250))]


def test_send_it_after_a_step_still_sends_what_the_step_made() -> None:
    response = parse(f"swap 1 eth to usdc on base and send it to {EVM_C}", *WALLETS)
    assert [i.action for i in response.intents] == ["swap", "transfer"]
    assert response.intents[1].amount == "chained"


@pytest.mark.parametrize(
    "prompt", ["set up a trailing stop on my eth", "set a trailing stop loss for eth at 2000"]
)
def test_a_trailing_stop_is_refused_as_a_stop_order(prompt: str) -> None:
    assert "stop orders are not supported" in _nothing_planned(prompt)


@pytest.mark.parametrize(
    ("prompt", "amount"),
    [
        ("swap 100 usdc to eth on base, no actually 150", 150),
        ("swap 100 usdc to eth on base whoops 200", 200),
        ("whoops swap 100 usdc to eth on base", 100),
    ],
)
def test_no_actually_and_whoops_correct_the_amount(prompt: str, amount: int) -> None:
    assert _read(prompt) == [("swap", "USDC", "ETH", "base", Decimal(amount))]


def test_relay_moves_tokens_between_chains() -> None:
    response = parse("relay 100 usdc from base to arb", *WALLETS)
    assert [(i.action, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("bridge", "base", "arbitrum", Decimal(100))
    ]


@pytest.mark.parametrize("prompt", ["send 250 usdc into eth on base", "on base move 250 usdc into eth"])
def test_sending_into_a_token_name_on_a_chain_is_asked_not_bridged(prompt: str) -> None:
    """A swap on base or a move to Ethereum: the words do not say which, so nothing is planned."""
    response = parse(prompt, *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(
    ("prompt", "to_chain"),
    [("send 250 usdc into eth from base", "ethereum"), ("send 250 usdc into ethereum on base", "ethereum")],
)
def test_into_a_chain_from_a_named_chain_stays_a_bridge(prompt: str, to_chain: str) -> None:
    assert [(i.action, i.to_chain) for i in parse(prompt, *WALLETS).intents] == [("bridge", to_chain)]


@pytest.mark.parametrize("written", ["1.500", "2.000", "12.250"])
def test_a_dot_before_three_digits_ending_in_zero_is_asked(written: str) -> None:
    """1.500 is 1500 in much of Europe and 1.5 elsewhere: a thousand times apart, so it is asked."""
    response = parse(f"swap {written} usdc to eth on base", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(("written", "value"), [("0.500", "0.5"), ("2.125", "2.125"), ("1.50", "1.5")])
def test_other_decimals_are_read_as_written(written: str, value: str) -> None:
    assert _read(f"swap {written} eth to usdc on base") == [("swap", "ETH", "USDC", "base", Decimal(value))]


@pytest.mark.parametrize(
    "prompt", ["can you check my balance on base", "check my usdc on base", "show me my positions"]
)
def test_asking_to_be_shown_is_a_question_not_a_misspelt_verb(prompt: str) -> None:
    """ "check" is one edit from "chuck" (a swap verb): it was read as one and asked which asset to swap."""
    assert "question" in _nothing_planned(prompt)


@pytest.mark.parametrize(
    "prompt", ["set up recurring buys of eth for 100 usdc", "recurring swap of 100 usdc to eth on base"]
)
def test_recurring_buys_are_refused_like_dca(prompt: str) -> None:
    assert "recurring purchases are not supported" in _nothing_planned(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "sell 100 usdc worth of eth on base",
        "dump 100 usdc worth of eth on base",
        "sell 100 usdc of eth on base",
        "swap 100 usdc worth of eth on base",
    ],
)
def test_a_value_of_a_token_sold_asks_how_much_of_it(prompt: str) -> None:
    """The eth is sold for 100 usdc: swapping 100 usdc for eth (as these were read) went the wrong way."""
    response = parse(prompt, *WALLETS)
    assert not response.intents
    assert [c.question for c in response.clarifications] == ["How much ETH do you want to spend on USDC?"]


def test_a_value_of_a_token_bought_is_still_spent() -> None:
    assert _read("buy 100 usdc worth of eth on base") == [("swap", "USDC", "ETH", "base", Decimal(100))]


EVM_D = "0x4444444444444444444444444444444444444444"


def test_two_recipients_for_one_amount_are_refused_not_one_dropped() -> None:
    """Each 5 or 5 split: either way, planning the first recipient alone dropped the second in silence."""
    reasoning = _nothing_planned(f"send 5 usdc to {EVM_C} and {EVM_D} on base")
    assert EVM_C in reasoning and EVM_D in reasoning


def test_an_amount_for_each_recipient_is_two_transfers() -> None:
    response = parse(f"send 5 usdc to {EVM_C} and 5 usdc to {EVM_D} on base", *WALLETS)
    assert [i.recipient for i in response.intents] == [EVM_C, EVM_D]


def test_a_corrected_recipient_replaces_the_first() -> None:
    response = parse(f"send 5 usdc to {EVM_C}, i mean {EVM_D} on base", *WALLETS)
    assert [i.recipient for i in response.intents] == [EVM_D]


@pytest.mark.parametrize(
    "prompt", [f"send 5 usdc to {EVM_C} on arb from base", "swap 100 usdc to eth on base from arb"]
)
def test_a_one_chain_action_on_one_chain_from_another_is_refused(prompt: str) -> None:
    """The chain after "on" was planned and the one after "from" dropped in silence."""
    assert "happens on one chain" in _nothing_planned(prompt)


def test_half_of_it_to_a_second_recipient_is_refused_with_both_named() -> None:
    """Asked before, and once the amount was answered the second recipient was still dropped."""
    reasoning = _nothing_planned(f"send 100 usdc to {EVM_C} on base and half of it to {EVM_A}")
    assert EVM_C in reasoning and EVM_A in reasoning


def test_a_third_chain_beside_a_bridge_is_refused_not_dropped() -> None:
    assert "can't tell which chain" in _nothing_planned("bridge 100 usdc from base to arb on optimism")


@pytest.mark.parametrize(
    "prompt",
    [
        "bridge 100 usdc from base to arb on arb",
        "bridge 100 usdc to arb on base",
        "move 100 usdc on base to arb",
    ],
)
def test_a_bridge_whose_on_chain_is_its_source_or_target_is_planned(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.from_chain, i.to_chain) for i in response.intents] == [
        ("bridge", "base", "arbitrum")
    ]


@pytest.mark.parametrize(
    ("prompt", "reason"),
    [
        ("go long eth with 100 usdc on base", "leveraged long positions are not supported"),
        ("go short eth on base", "short positions are not supported"),
    ],
)
def test_going_long_or_short_is_refused(prompt: str, reason: str) -> None:
    assert reason in _nothing_planned(prompt)


@pytest.mark.parametrize(
    "prompt", ["can u tell me how to bridge 100 usdc from base to arb", "could you tell me about aave"]
)
def test_asking_to_be_told_after_request_framing_is_a_question(prompt: str) -> None:
    assert "question" in _nothing_planned(prompt)


@pytest.mark.parametrize("written", ["1kk", "3kkk"])
def test_scale_letters_that_make_no_one_scale_are_asked(written: str) -> None:
    """ "1kk" is a million to some; it was read as 1 (the "kk" taken for chat "ok")."""
    response = parse(f"swap {written} usdc to eth on base", *WALLETS)
    assert not response.intents and response.clarifications


@pytest.mark.parametrize(("written", "value"), [("2mm", 2000000), ("1bn", 1000000000), ("5k", 5000)])
def test_glued_scales_are_still_read(written: str, value: int) -> None:
    assert _read(f"swap {written} usdc to eth on base") == [("swap", "USDC", "ETH", "base", Decimal(value))]
