"""Chat phrasing read as people write it: thanks and stretched filler, a fragment after "scratch that",
talk that only a misspelling could make a transaction, verbless conversions, an amount after its asset and
"1 and a half"."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, EVM_C, parse

WALLETS = ((EVM_A, "base"), (EVM_A, "arbitrum"), (EVM_A, "optimism"))


def _swaps(prompt: str) -> list[tuple[str, str | None, str | None, str | None, Decimal | str | None]]:
    response = parse(prompt, *WALLETS)
    return [(i.action, i.asset, i.to_asset, i.chain, i.amount) for i in response.intents]


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 40 usdc for eth on base ta",
        "swap 40 usdc for eth on base thanks so much",
        "swap 40 usdc for eth on base, appreciate it",
        "swap 40 usdc for eth on base many thanks",
        "plsss swap 40 usdc for eth on base thxxx",
        "heyyy, swap 40 usdc for eth on base tyvm",
    ],
)
def test_thanks_and_stretched_filler_are_read_as_filler(prompt: str) -> None:
    assert _swaps(prompt) == [("swap", "USDC", "ETH", "base", Decimal(40))]


def test_a_stretched_word_that_is_not_filler_is_set_aside_by_name() -> None:
    response = parse("swap 40 usdc for eth on base yolooo", *WALLETS)
    assert [intent.amount for intent in response.intents] == [Decimal(40)]
    assert '"yolooo"' in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 40 usdc for eth on optimism, scratch that, 250",
        "swap 40 usdc for eth on optimism, scratch that, 250 if you can",
        "swap 40 usdc for eth on optimism. never mind, 250 thx",
    ],
)
def test_a_fragment_after_a_reset_amends_the_step_before(prompt: str) -> None:
    assert _swaps(prompt) == [("swap", "USDC", "ETH", "optimism", Decimal(250))]


def test_a_whole_request_after_a_reset_replaces_everything() -> None:
    response = parse(
        "swap 40 usdc for eth on base, scratch that, bridge 5 usdc from base to arbitrum", *WALLETS
    )
    assert [(i.action, i.amount) for i in response.intents] == [("bridge", Decimal(5))]


@pytest.mark.parametrize("prompt", ["good morning", "tell me a joke", "i love you", "gm ser", "lol"])
def test_talk_is_answered_with_what_the_service_does(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents and not response.clarifications
    assert "nothing to plan" in response.reasoning


def test_a_misspelt_verb_with_a_request_around_it_is_still_read() -> None:
    assert _swaps("swpa 40 usdc for eth on base") == [("swap", "USDC", "ETH", "base", Decimal(40))]


def test_a_negation_alone_is_asked_about_not_taken_for_talk() -> None:
    response = parse("not now", *WALLETS)
    assert not response.intents
    assert response.clarifications  # a negation is never planned past, nor waved away as talk


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("100 usdc to eth on base", [("swap", "USDC", "ETH", "base", Decimal(100))]),
        ("eth 0.5 to usdc on base", [("swap", "ETH", "USDC", "base", Decimal("0.5"))]),
        ("swap usdc 100 for eth on base", [("swap", "USDC", "ETH", "base", Decimal(100))]),
        ("swap 1 and a half eth for usdc on base", [("swap", "ETH", "USDC", "base", Decimal("1.5"))]),
        ("swap 2 and a quarter eth for usdc on base", [("swap", "ETH", "USDC", "base", Decimal("2.25"))]),
    ],
)
def test_verbless_conversions_and_amount_orders(prompt: str, expected: list[tuple[object, ...]]) -> None:
    assert _swaps(prompt) == expected


def test_a_verbless_move_to_a_chain_is_still_a_move() -> None:
    response = parse("1 eth to base", *WALLETS)
    assert not response.intents
    assert "bridge" in response.clarifications[0].question


def test_an_amount_after_its_asset_goes_to_that_asset() -> None:
    response = parse(f"send usdc 100 to {EVM_C} on base", *WALLETS)
    assert [(i.action, i.asset, i.amount, i.recipient) for i in response.intents] == [
        ("transfer", "USDC", Decimal(100), EVM_C)
    ]


@pytest.mark.parametrize(
    "prompt",
    [
        "heyy swap 40 usdc for eth on base tyy",
        "lemme swap 40 usdc for eth on base pls n thx",
        "swap 40 usdc for eth on base ty in advance",
        "quick q, swap 40 usdc for eth on base much love",
    ],
)
def test_more_chat_openers_and_closers_are_filler(prompt: str) -> None:
    assert _swaps(prompt) == [("swap", "USDC", "ETH", "base", Decimal(40))]


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 100 usdc for eth on base, errr actually 300",
        "swap 100 usdc for eth on base, wait wait, 300",
        "swap 100 usdc for eth on base, no sorry 300",
        "swap 100 usdc for eth on base, hmm no, 300",
    ],
)
def test_hesitant_corrections_still_correct(prompt: str) -> None:
    assert _swaps(prompt) == [("swap", "USDC", "ETH", "base", Decimal(300))]


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("0.75 eth -> usdc on base", [("swap", "ETH", "USDC", "base", Decimal("0.75"))]),
        ("aping 1.5k usdc into eth on base", [("swap", "USDC", "ETH", "base", Decimal(1500))]),
        ("swap 300 k usdc for eth on base", [("swap", "USDC", "ETH", "base", Decimal(300000))]),
        ("swap 1k usdc for eth on base k thx", [("swap", "USDC", "ETH", "base", Decimal(1000))]),
    ],
)
def test_arrows_after_an_amount_gerund_slang_and_scale_letters(
    prompt: str, expected: list[tuple[object, ...]]
) -> None:
    assert _swaps(prompt) == expected


@pytest.mark.parametrize(
    "prompt",
    [
        "swap usdc 1 000 for eth on base",  # 1000, or 1 and 0?
        "swap 2,500 k usdc for eth on base",  # a "k" after 2,500 cannot be thousands
        "swap 100 usdc for eth on base, make that 300 k thx",  # 300 thousand, or 300 and "ok thanks"?
    ],
)
def test_amount_forms_that_read_two_ways_are_asked(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents
    assert [c.kind for c in response.clarifications] == ["amount"]


@pytest.mark.parametrize("prompt", ["can you explain bridging to me", "explain how to swap 1 eth on base"])
def test_asking_to_be_taught_is_a_question(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents and not response.clarifications
    assert "question" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "is it possible to swap 40 usdc for eth on base",
        "pretty please swap 40 usdc for eth on base",
        "swap 40 usdc for eth on base no worries if not",
        "hey bot, swap 40 usdc for eth on base",
        "tbh just swap 40 usdc for eth on base btw",
        "i'm looking to swap 40 usdc for eth on base",
        "swap 40 usdc for eth on base <3",
    ],
)
def test_chat_abbreviations_framing_and_hearts_ask_for_nothing(prompt: str) -> None:
    assert _swaps(prompt) == [("swap", "USDC", "ETH", "base", Decimal(40))]


def test_a_less_than_sign_before_a_level_still_waits() -> None:
    response = parse("swap 40 usdc for eth on base if eth < 3000", *WALLETS)
    assert not response.intents and not response.clarifications
    assert "condition" in response.reasoning


@pytest.mark.parametrize(
    ("prompt", "word"),
    [
        (f"i sent 5 usdc to {EVM_C} on base", "sent"),
        ("i swapped 1 eth for usdc on base", "swapped"),
        ("i bridged 100 usdc from base to arbitrum", "bridged"),
        ("yesterday i sold 1 eth for usdc on base", "sold"),
    ],
)
def test_telling_what_was_done_plans_nothing(prompt: str, word: str) -> None:
    # A past form was once corrected to its verb ("sent" -> send) and planned again.
    response = parse(prompt, *WALLETS)
    assert not response.intents and not response.clarifications
    assert f'"{word}" tells what was already done' in response.reasoning


def test_a_past_form_in_a_link_still_links() -> None:
    response = parse("bridge 100 usdc from base to arbitrum, once bridged deposit it into aave", *WALLETS)
    assert [(i.action, i.amount) for i in response.intents] == [
        ("bridge", Decimal(100)),
        ("deposit", "chained"),
    ]


@pytest.mark.parametrize("prompt", ["tell me about uniswap", "tell me how to bridge to base"])
def test_tell_me_about_is_a_question(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert not response.intents and not response.clarifications
    assert "question" in response.reasoning
