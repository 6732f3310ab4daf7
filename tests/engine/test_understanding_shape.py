"""Sentence shapes: filler and request framing, front-loaded chains, slang verbs, corrections where the
later statement wins, and the words that link steps."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from engine.intents import Balance
from tests.engine.test_intents_support import EVM_A, intents, kinds, parse

BASE = ((EVM_A, "base"),)
ETHEREUM = ((EVM_A, "ethereum"),)
SWAP_ETH = [
    {
        "action": "swap",
        "asset": "ETH",
        "to_asset": "USDC",
        "protocol": "uniswap",
        "chain": "base",
        "amount": Decimal("1"),
    }
]


@pytest.mark.parametrize(
    "prompt",
    [
        "hey! could you please swap 1 eth to usdc on base",
        "on base, swap 1 eth for usdc",
        "on base swap 1 eth to usdc pls thx",
        "can I swap 1 eth to usdc on base?",
        "I want to swap 1 eth for usdc on base",
        "I'd like to swap 1 eth to usdc on base",
        "help me swap 1 eth to usdc on base",
        "yo gm, swap 1 eth to usdc on base lol",
        "so um, could you maybe swap 1 eth for usdc on base",
        "flip 1 eth to usdc on base",
        "dump 1 eth for usdc on base",
        "sell 1 eth to buy usdc on base",
        "cash out 1 eth to usdc on base",
    ],
)
def test_filler_framing_and_slang_read_as_the_plain_request(prompt: str) -> None:
    response = parse(prompt, *BASE)
    assert intents(response) == SWAP_ETH, response.reasoning


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("ape 300 usdc into eth on base", ("swap", "USDC", "ETH", Decimal(300))),
        ("rotate 500 usdc into eth on base", ("swap", "USDC", "ETH", Decimal(500))),
        ("load up on eth with 500 usdc on base", ("swap", "USDC", "ETH", Decimal(500))),
        ("grab some eth with 200 usdc on base", ("swap", "USDC", "ETH", Decimal(200))),
        ("throw 100 usdc into aave on base", ("deposit", "USDC", None, Decimal(100))),
        ("park 100 usdc in aave on base", ("deposit", "USDC", None, Decimal(100))),
        ("exit my aave usdc position on base", ("withdraw", "USDC", None, "max")),
        ("cash out my eth to usdc on base", ("swap", "ETH", "USDC", "max")),
    ],
)
def test_slang_verbs_take_their_meaning_from_what_they_name(prompt: str, expected: tuple[Any, ...]) -> None:
    (intent,) = parse(prompt, *BASE).intents
    assert (intent.action, intent.asset, intent.to_asset, intent.amount) == expected


def test_get_me_some_x_with_y_asks_how_much_y() -> None:
    response = parse("get me some eth with usdc on base", *BASE)
    assert kinds(response) == ["amount"]
    assert "USDC" in response.clarifications[0].question


@pytest.mark.parametrize(
    ("prompt", "amount", "to_asset"),
    [
        ("swap 1 eth to usdc on base, actually make it 2", Decimal(2), "USDC"),
        ("swap 1 eth to usdc on base, no wait, 2", Decimal(2), "USDC"),
        ("swap 1 eth to usdc on base, I mean dai", Decimal(1), "DAI"),
        ("swap 1 eth to usdc on base. scratch that, swap 2 eth to dai on base", Decimal(2), "DAI"),
        ("swap 3 eth to dai on base -- sorry, 1 eth to usdc", Decimal(1), "USDC"),
    ],
)
def test_a_correction_wins_over_what_it_corrects(prompt: str, amount: Decimal, to_asset: str) -> None:
    (intent,) = parse(prompt, *BASE).intents
    assert (intent.amount, intent.to_asset) == (amount, to_asset)


def test_a_corrected_step_is_replaced_and_the_one_before_it_kept() -> None:
    response = parse("bridge 500 usdc to base, then stake... no wait, deposit it into aave", *ETHEREUM)
    assert [(i.action, i.chain or i.to_chain, i.amount) for i in response.intents] == [
        ("bridge", "base", Decimal(500)),
        ("deposit", "base", "chained"),
    ]


def test_a_corrected_destination_replaces_the_first() -> None:
    (intent,) = parse("bridge 100 usdc to base, no wait, to arbitrum", *ETHEREUM).intents
    assert (intent.from_chain, intent.to_chain) == ("ethereum", "arbitrum")


@pytest.mark.parametrize(
    "prompt",
    [
        "bridge 500 usdc to base then throw it into aave",
        "bridge 500 usdc to base and after bridging it deposit it into aave",
        "deposit it into aave after bridging 500 usdc to base",
        "bridge 500 usdc to base; after that deposit it into aave",
        "bridge 500 usdc to base and once it lands deposit into aave",
        "bridge 500 usdc to base, when it arrives put it in aave",
        "bridge 500 usdc to base and as soon as it's there deposit it into aave",
    ],
)
def test_link_words_chain_the_second_step_to_the_first(prompt: str) -> None:
    response = parse(prompt, *ETHEREUM)
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [
        ("bridge", "USDC", Decimal(500)),
        ("deposit", "USDC", "chained"),
    ], response.reasoning
    assert response.intents[1].chain == "base"


def test_with_it_spends_the_previous_output() -> None:
    response = parse("bridge 500 usdc to base and buy eth with it", *ETHEREUM)
    swap = response.intents[1]
    assert (swap.action, swap.asset, swap.to_asset, swap.amount) == ("swap", "USDC", "ETH", "chained")


def test_bridge_it_back_returns_to_where_it_came_from() -> None:
    response = parse(
        "bridge 500 usdc from ethereum to arbitrum, swap it to eth, then bridge it back", *ETHEREUM
    )
    last = response.intents[-1]
    assert (last.action, last.asset, last.from_chain, last.to_chain) == (
        "bridge",
        "ETH",
        "arbitrum",
        "ethereum",
    )


def test_a_chain_named_twice_for_one_step_is_not_dropped() -> None:
    response = parse("swap 1 eth to usdc on base and arbitrum", *BASE)
    assert response.intents == () and "arbitrum" in response.reasoning


def test_the_exact_balance_rule_holds_through_slang() -> None:
    balances = (Balance(chain="base", asset="ETH", amount=Decimal("2")),)
    response = parse("flip half my eth into usdc on base", *BASE, balances=balances)
    assert intents(response)[0]["amount"] == Decimal(1)


def test_and_back_after_a_destination_is_asked_not_dropped() -> None:
    response = parse("bridge 100 usdc from base to arbitrum and back", *BASE)
    assert response.intents == () and kinds(response) == ["rephrase"]
    assert '"back"' in response.reasoning


def test_no_before_a_number_corrects_the_amount() -> None:
    (intent,) = parse("swap 10 eth to usdc on base, no 1 eth", *BASE).intents
    assert intent.amount == Decimal(1)


def test_an_amount_worth_of_an_asset_buys_that_asset() -> None:
    (intent,) = parse("gimme 100 usdc worth of eth on base", *BASE).intents
    assert (intent.asset, intent.to_asset, intent.amount) == ("USDC", "ETH", Decimal(100))
