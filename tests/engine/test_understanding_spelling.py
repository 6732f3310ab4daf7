"""A token name one keystroke from names the registry knows is asked about, never guessed nor refused; the
picked name is read in its place (amount included) and passes the grounding check. Slang verbs and
phrasings of whole balances read as people mean them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

WALLETS = ((EVM_A, "base"), (EVM_A, "arbitrum"))
QUESTION = 'I don\'t know a token called "eht". Did you mean one of these?'


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("swap 0.5 usdc for eht on arbitrum", ("USDC", "ETH", Decimal("0.5"))),
        ("swap 0.5 eht for usdc on base", ("ETH", "USDC", Decimal("0.5"))),
    ],
)
def test_a_misspelt_token_is_asked_and_the_picked_name_is_read_in_its_place(
    prompt: str, expected: tuple[str, str, Decimal]
) -> None:
    first = parse(prompt, *WALLETS)
    assert not first.intents
    assert [(c.question, [o.label for o in c.options]) for c in first.clarifications] == [(QUESTION, ["ETH"])]
    answered = parse(f"{prompt}\n\nClarification \u2014 {QUESTION}: ETH", *WALLETS)
    assert [(i.action, i.asset, i.to_asset, i.amount) for i in answered.intents] == [("swap", *expected)]


def test_an_answer_that_names_no_token_is_refused_not_asked_again() -> None:
    prompt = "swap 0.5 usdc for eht on arbitrum"
    answered = parse(f"{prompt}\n\nClarification \u2014 {QUESTION}: zzzz", *WALLETS)
    assert not answered.intents
    assert not any(c.question == QUESTION for c in answered.clarifications)


def test_a_name_far_from_every_token_is_refused() -> None:
    response = parse("swap 5 zzzz for eth on base", *WALLETS)
    assert not response.intents and not response.clarifications
    assert "zzzz" in response.reasoning


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("take 100 usdc out of aave on base", ("withdraw", "USDC", Decimal(100))),
        ("swap every last usdc for eth on base", ("swap", "USDC", "max")),
        ("bag some eth with 100 usdc on base", ("swap", "USDC", Decimal(100))),
        ("swap 100 usdc for eth on base rq", ("swap", "USDC", Decimal(100))),
    ],
)
def test_slang_and_whole_balances(prompt: str, expected: tuple[str, str, object]) -> None:
    response = parse(prompt, *WALLETS)
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [expected]
