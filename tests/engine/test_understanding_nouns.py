"""An action named by its noun after a light verb is that action; a noun beside another verb stays a noun."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

PAYEE = "0xCEf688b0F32561a0a562aDBA566C337AAf42bD77"


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            "please submit a Lido withdrawal request for 10 stETH",
            "ethereum",
            ("unstake", "stETH", Decimal(10)),
        ),
        (
            "initiate a withdrawal of 2000 usdc from aave on polygon",
            "polygon",
            ("withdraw", "USDC", Decimal(2000)),
        ),
        ("can i get a loan of 1000 usdc from aave on base", "base", ("borrow", "USDC", Decimal(1000))),
        ("make a repayment of 500 dai to aave on arbitrum", "arbitrum", ("repay", "DAI", Decimal(500))),
        (
            f"please process a transfer of 1,000 USDT to {PAYEE} on arbitrum",
            "arbitrum",
            ("transfer", "USDT", Decimal(1000)),
        ),
        ("do a conversion of 1 eth into usdc on base", "base", ("swap", "ETH", Decimal(1))),
    ],
)
def test_an_action_named_by_its_noun(prompt: str, chain: str, expected: tuple[object, ...]) -> None:
    response = parse(prompt, (EVM_A, chain))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [expected]


def test_a_loan_is_never_a_purchase() -> None:
    response = parse("get a loan of 1000 usdc from aave on base", (EVM_A, "base"))
    assert all(intent.action != "swap" for intent in response.intents)


def test_a_noun_beside_another_verb_stays_a_noun() -> None:
    response = parse("claim my lido withdrawal", (EVM_A, "ethereum"))
    assert [(i.action, i.protocol) for i in response.intents] == [("claim", "lido")]


@pytest.mark.parametrize(
    "prompt",
    [
        "bridge 0.3 eth from arb to base then swap it all to usdc",
        "bridge 0.3 eth from arbitrum to base and swap them all to usdc there",
    ],
)
def test_it_all_is_the_whole_of_what_it_points_at_never_the_target(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "arbitrum"), (EVM_A, "base"))
    assert [(i.action, i.asset, i.to_asset, i.amount) for i in response.intents] == [
        ("bridge", "ETH", None, Decimal("0.3")),
        ("swap", "ETH", "USDC", "chained"),
    ]


@pytest.mark.parametrize(
    ("prompt", "asset"),
    [
        ("send 1 staked eth to {p} on ethereum", "stETH"),
        ("send 1 staked ethereum to {p} on ethereum", "stETH"),
    ],
)
def test_staked_eth_is_steth(prompt: str, asset: str) -> None:
    response = parse(prompt.format(p=PAYEE), (EVM_A, "ethereum"))
    assert [i.asset for i in response.intents] == [asset]


def test_getting_tells_and_never_buys() -> None:
    response = parse(
        f"move 1 eth to my cold wallet {PAYEE}, just getting it off the hot wallet", (EVM_A, "ethereum")
    )
    assert all(intent.action != "swap" for intent in response.intents)


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        ("i'd like 500 dai in spark", "ethereum", ("deposit", "DAI", Decimal(500), "spark")),
        ("she wants 2000 usdc in aave on base", "base", ("deposit", "USDC", Decimal(2000), "aave")),
    ],
)
def test_tokens_wished_in_a_lending_protocol_are_deposited(
    prompt: str, chain: str, expected: tuple[object, ...]
) -> None:
    response = parse(prompt, (EVM_A, chain))
    assert [(i.action, i.asset, i.amount, i.protocol) for i in response.intents] == [expected]


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            f"Please top up the ops wallet {PAYEE} with 2 ETH on mainnet, approved by CFO (ref AP-5521).",
            "ethereum",
            ("transfer", "ETH", Decimal(2)),
        ),
        (
            "Please convert 25,000 USDT to USDC on Ethereum for the quarterly close.",
            "ethereum",
            ("swap", "USDT", Decimal(25000)),
        ),
        (
            "Repay 10k USDC of our Aave v3 loan on Arbitrum (cost centre 7710, approved).",
            "arbitrum",
            ("repay", "USDC", Decimal(10000)),
        ),
        (f"fund {PAYEE} with 100 usdc on base", "base", ("transfer", "USDC", Decimal(100))),
    ],
)
def test_office_wording(prompt: str, chain: str, expected: tuple[object, ...]) -> None:
    response = parse(prompt, (EVM_A, chain))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [expected]


def test_a_step_pointed_at_after_a_preposition_is_still_asked_about() -> None:
    response = parse(
        "bridge 100 usdc to base, then deposit it after the swap", (EVM_A, "ethereum"), (EVM_A, "base")
    )
    assert not response.intents
