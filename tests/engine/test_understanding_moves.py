"""Bridges and swaps in the words people use for them: motion verbs ("shift", "take ... to"), "onto", a
verbless "from <chain> to <chain>" whose target is also a token's name, a verbless "x for y", buying verbs
that name what pays first ("use 100 usdc to buy eth", "spend 100 usdc on eth", "buy 60 usdc of eth"), and
two-word verbs ("pick up", "market buy")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

CHAINS = ("ethereum", "base", "arbitrum", "optimism", "polygon")
WALLETS = tuple((EVM_A, chain) for chain in CHAINS)


def _read(prompt: str) -> list[tuple[object, ...]]:
    response = parse(prompt, *WALLETS)
    return [
        (
            i.action,
            i.asset,
            i.to_asset if i.action == "swap" else i.from_chain,
            i.chain or i.to_chain,
            i.amount,
        )
        for i in response.intents
    ]


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("shift 20 usdc from base over to arbitrum", ("bridge", "USDC", "base", "arbitrum", Decimal(20))),
        ("take 60 usdc from polygon to base", ("bridge", "USDC", "polygon", "base", Decimal(60))),
        ("get 1,500 dai from arb onto ethereum", ("bridge", "DAI", "arbitrum", "ethereum", Decimal(1500))),
        ("move 250 usdc onto op from base", ("bridge", "USDC", "base", "optimism", Decimal(250))),
        ("1,500 dai from base to ethereum", ("bridge", "DAI", "base", "ethereum", Decimal(1500))),
        ("1.2k usdc from op to polygon", ("bridge", "USDC", "optimism", "polygon", Decimal(1200))),
    ],
)
def test_motion_verbs_and_places_read_as_a_bridge(prompt: str, expected: tuple[object, ...]) -> None:
    assert _read(prompt) == [expected]


def test_a_to_after_from_chain_that_names_a_token_by_its_ticker_stays_a_conversion() -> None:
    # "eth" is the token's ticker, not the chain's own name: with no verb it converts, as before.
    assert _read("100 usdc on base to eth") == [("swap", "USDC", "ETH", "base", Decimal(100))]


def test_take_out_of_a_protocol_is_still_a_withdrawal() -> None:
    response = parse("take 100 usdc out of aave on base", *WALLETS)
    assert [(i.action, i.protocol, i.amount) for i in response.intents] == [
        ("withdraw", "aave", Decimal(100))
    ]


@pytest.mark.parametrize(
    "prompt",
    [
        "20 dai for usdc on base",
        "on base: 20 dai for usdc",
        "use 20 dai to buy usdc on base",
        "spend 20 dai on usdc on base",
        "buy 20 dai of usdc on base",
        "buy 20 dai worth of usdc on base",
        "pick up some usdc with 20 dai on base",
        "market buy usdc with 20 dai on base",
        "yolo 20 dai into usdc on base",
    ],
)
def test_what_pays_and_what_is_bought_are_told_apart_in_any_order(prompt: str) -> None:
    assert _read(prompt) == [("swap", "DAI", "USDC", "base", Decimal(20))]


def test_market_sell_sells_what_it_names() -> None:
    assert _read("market sell 1 eth for usdc on base") == [("swap", "ETH", "USDC", "base", Decimal(1))]


@pytest.mark.parametrize(
    "prompt",
    ["use 20 usdc on base", "take 60 usdc", "spend some usdc on eth on base", "shift usdc from base to arb"],
)
def test_a_motion_or_paying_verb_with_something_missing_plans_nothing(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert response.intents == ()


@pytest.mark.parametrize(
    "prompt",
    [
        "i want my 60 usdc on base, it's on polygon now",
        "my 60 usdc is on polygon, i want it on base",
        "i need my 60 usdc on base, its on polygon rn",
    ],
)
def test_a_wish_for_one_chain_and_a_state_on_another_is_a_bridge(prompt: str) -> None:
    assert _read(prompt) == [("bridge", "USDC", "polygon", "base", Decimal(60))]


@pytest.mark.parametrize("prompt", ["i need 100 usdc on base", "i want 100 usdc on base but it's on base"])
def test_a_wish_without_where_the_tokens_are_plans_nothing(prompt: str) -> None:
    assert parse(prompt, *WALLETS).intents == ()


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("1.2k dai from polygon to eth mainnet", ("bridge", "DAI", "polygon", "ethereum", Decimal(1200))),
        ("60 dai eth mainnet -> base", ("bridge", "DAI", "ethereum", "base", Decimal(60))),
        ("swap 1 eth mainnet for usdc", ("swap", "ETH", "USDC", "ethereum", Decimal(1))),
    ],
)
def test_a_token_word_before_its_chains_own_word_names_the_chain(
    prompt: str, expected: tuple[object, ...]
) -> None:
    assert _read(prompt) == [expected]


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("0.3 usdc to ethereum from arb", ("bridge", "USDC", "arbitrum", "ethereum", Decimal("0.3"))),
        ("need 80 dai moved from base to polygon", ("bridge", "DAI", "base", "polygon", Decimal(80))),
        (
            "i need my 80 usdc bridged from ethereum to op",
            ("bridge", "USDC", "ethereum", "optimism", Decimal(80)),
        ),
        ("send 80 usdc from base to my wallet on op", ("bridge", "USDC", "base", "optimism", Decimal(80))),
        ("scoop up some eth with 5 usdc on base", ("swap", "USDC", "ETH", "base", Decimal(5))),
        ("stack some eth with 5 usdc on base", ("swap", "USDC", "ETH", "base", Decimal(5))),
    ],
)
def test_more_ways_to_say_a_move_or_a_buy(prompt: str, expected: tuple[object, ...]) -> None:
    assert _read(prompt) == [expected]


@pytest.mark.parametrize("prompt", ["i need to base to mainnet, 1,200 dai", "bridge 5 usdc to base to arb"])
def test_two_targets_and_no_source_are_refused_not_guessed(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert response.intents == ()
    assert "two chains to move to" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    ["i need the usdc you sent on base", "i sent 5 usdc to 0x3333333333333333333333333333333333333333"],
)
def test_a_past_form_after_someone_who_did_it_still_tells_what_was_done(prompt: str) -> None:
    response = parse(prompt, *WALLETS)
    assert response.intents == ()
    assert "already done" in response.reasoning


def test_my_other_wallet_on_the_same_chain_is_still_a_transfer_question() -> None:
    response = parse("send 80 usdc to my other wallet on base", *WALLETS)
    assert [item.kind for item in response.clarifications] == ["recipient"]


def test_a_token_one_letter_from_a_verb_is_not_read_as_the_verb() -> None:
    # "shib" must stay an unknown token, never a misspelt motion verb ("ship" is no verb here for that).
    response = parse("swap 100 shib for eth on ethereum", *WALLETS)
    assert response.intents == ()
