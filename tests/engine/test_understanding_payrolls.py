"""A pasted list of payees asked to be paid becomes one transfer per line, with the token and chain of its
header or request; a list whose lines cannot be read one by one, or a request that picks some rows, is
read as written (and asked)."""

from __future__ import annotations

from decimal import Decimal

from tests.engine.test_intents_support import EVM_A, SOL_A, parse

A = "0xb676c0b0464820A518d04CB56B272bb19e0015Db"
B = "0x486C74C91747E4Bd75831a65C305dAB58D6C8785"
C = "0xcCb2a02b2C56796cc98E38d2D89C0e6722E56e21"


def _paid(response) -> list[tuple[str | None, Decimal | str | None, str | None, str | None]]:  # type: ignore[no-untyped-def]
    return [(i.asset, i.amount, i.recipient, i.chain) for i in response.intents if i.action == "transfer"]


def test_a_payroll_with_an_amount_per_line() -> None:
    prompt = f"March payroll, DAI on mainnet:\n{A}  2,000\n{B}  2,000\n{C}  1,500"
    assert _paid(parse(prompt, (EVM_A, "ethereum"))) == [
        ("DAI", Decimal(2000), A, "ethereum"),
        ("DAI", Decimal(2000), B, "ethereum"),
        ("DAI", Decimal(1500), C, "ethereum"),
    ]


def test_one_amount_each_for_a_bulleted_list() -> None:
    prompt = f"Weekly stipends, 250 USDC each on Base:\n- {A}\n- {B}"
    assert _paid(parse(prompt, (EVM_A, "base"))) == [
        ("USDC", Decimal(250), A, "base"),
        ("USDC", Decimal(250), B, "base"),
    ]


def test_a_csv_table_and_its_request() -> None:
    prompt = f"name,wallet,amount,token\nrui,{A},540,USDC\nmei,{B},390.5,USDC\n\npay these on arbitrum"
    assert _paid(parse(prompt, (EVM_A, "arbitrum"))) == [
        ("USDC", Decimal(540), A, "arbitrum"),
        ("USDC", Decimal("390.5"), B, "arbitrum"),
    ]


def test_a_solana_list_named_by_its_chain() -> None:
    one, two = "GxrxLA8AkAmCSq8c6ajPq7tQDKuRnUYNEWRaZfLMAgVT", "FFfuXJJkg8WjiWr3F4Beq6yjKWhV8f5huXWqjTaSvgAa"
    prompt = f"Send 400 USDC on Solana to each of these two:\n{one}\n{two}"
    assert _paid(parse(prompt, (SOL_A, "solana"))) == [
        ("USDC", Decimal(400), one, "solana"),
        ("USDC", Decimal(400), two, "solana"),
    ]


def test_a_list_numbering_is_never_an_amount() -> None:
    prompt = f"Payout list:\n1. {A}\n2. {B}\n3. {C}\n\nsplit 600 usdt evenly across this list on arbitrum"
    amounts = [amount for _, amount, _, _ in _paid(parse(prompt, (EVM_A, "arbitrum")))]
    assert amounts in ([], [Decimal(200)] * 3)


def test_a_request_that_picks_a_row_is_not_every_row() -> None:
    prompt = f"name,address,amount\nrent,{A},900\nutilities,{B},120\n\npay only the rent row, usdt on polygon"
    paid = _paid(parse(prompt, (EVM_A, "polygon")))
    assert len(paid) <= 1 and all(recipient == A for _, _, recipient, _ in paid)


def test_a_list_nobody_asked_to_pay_is_not_paid() -> None:
    prompt = f"Our team wallets:\n{A}  2,000\n{B}  1,500"
    assert not parse(prompt, (EVM_A, "base")).intents
