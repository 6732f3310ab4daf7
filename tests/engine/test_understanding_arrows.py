"""Steps written as arrows: each arrow one step into what follows it (a token, a protocol, an address, a
chain), each later step taking what the one before made; lines of pairs are not one chain."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.engine.test_intents_support import EVM_A, parse

PAYEE = "0x60c9aCCA6aaAaCd6B032853adEbB274FF4e5b8B2"


@pytest.mark.parametrize(
    ("prompt", "chain", "expected"),
    [
        (
            "1.5 eth -> dai -> spark",
            "ethereum",
            [("swap", "ETH", Decimal("1.5"), "uniswap"), ("deposit", "DAI", "chained", "spark")],
        ),
        (
            f"bnb 2 -> usdt -> {PAYEE}",
            "bsc",
            [("swap", "BNB", Decimal(2), "uniswap"), ("transfer", "USDT", "chained", None)],
        ),
        (
            "1 eth -> usdc then usdc -> aave",
            "base",
            [("swap", "ETH", Decimal(1), "uniswap"), ("deposit", "USDC", "chained", "aave")],
        ),
        ("500 usdc -> aave on base", "base", [("deposit", "USDC", Decimal(500), "aave")]),
        ("stake 10 -> lido", "ethereum", [("stake", "ETH", Decimal(10), "lido")]),
        (
            f"swap 1 eth -> usdc -> {PAYEE} on base",
            "base",
            [("swap", "ETH", Decimal(1), "uniswap"), ("transfer", "USDC", "chained", None)],
        ),
    ],
)
def test_each_arrow_is_a_step(prompt: str, chain: str, expected: list[tuple[object, ...]]) -> None:
    response = parse(prompt, (EVM_A, chain))
    assert [(i.action, i.asset, i.amount, i.protocol) for i in response.intents] == expected


def test_an_address_after_an_arrow_is_never_dropped() -> None:
    response = parse(f"swap 1 eth -> usdc -> {PAYEE} on base", (EVM_A, "base"))
    assert response.intents[-1].recipient == PAYEE


def test_lines_of_pairs_are_not_one_chain() -> None:
    response = parse(
        f"0.5 eth → {PAYEE}\n0.5 eth → 0xD32C649A3fb9B866f29042Ebebe309D1cFA650F6\nbase", (EVM_A, "base")
    )
    assert all(intent.action == "transfer" for intent in response.intents)


QUESTION = (
    f"You named {PAYEE}, which is not one of your wallets. Should I send what the swap makes there after "
    "the swap?"
)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (None, []),
        ("Yes, send it there", [("swap", None), ("transfer", PAYEE)]),
        ("No, keep it in my wallet", [("swap", None)]),
    ],
)
def test_someone_elses_address_beside_a_swap_is_asked_and_each_answer_compiles(
    answer: str | None, expected: list[tuple[object, ...]]
) -> None:
    prompt = f"swap 1 eth to usdc for {PAYEE} on base"
    if answer is not None:
        prompt += f"\n\nClarification — {QUESTION}: {answer}"
    response = parse(prompt, (EVM_A, "base"))
    assert [(i.action, i.recipient) for i in response.intents] == expected
    if answer is None:
        assert [c.question for c in response.clarifications] == [QUESTION]


def test_an_address_no_step_can_use_is_never_dropped() -> None:
    response = parse(f"borrow 100 usdc on aave base {PAYEE}", (EVM_A, "base"))
    assert not response.intents
