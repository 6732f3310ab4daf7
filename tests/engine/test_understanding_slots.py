"""Slots nobody filled stay empty: a bridge that cannot move the token, a value in no currency, a rough
number, a length of time, an action left unplaced; and the slots a request fills by pointing ("yes and
...", "everything" after a step, the rest of a pasted plan)."""

from __future__ import annotations

from decimal import Decimal

from engine.intents.lexer import tokenize
from tests.engine.test_intents_support import EVM_A, kinds, parse

PAYEE = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"


def _steps(response) -> list[tuple[str, str | None, str]]:  # type: ignore[no-untyped-def]
    return [(i.action, i.asset, str(i.amount)) for i in response.intents]


def test_cctp_moves_only_usdc() -> None:
    response = parse("bridge two eth to optimism using c c t p", (EVM_A, "ethereum"), (EVM_A, "optimism"))
    assert not response.intents
    assert "CCTP moves native USDC only" in response.reasoning
    context = "User: bridge 2 eth from ethereum to arbitrum\nFlip: Plan: bridge 2 ETH via Across. Confirm?"
    switched = parse("use cctp instead, it's cheaper", (EVM_A, "ethereum"), conversation_context=context)
    assert not switched.intents


def test_yes_and_adds_to_the_confirmed_plan() -> None:
    context = "User: swap 1 eth to usdc on base\nFlip: Plan: swap 1 ETH to USDC on Base. Confirm?"
    response = parse(
        f"yes and after that send 100 of the usdc to {PAYEE}", (EVM_A, "base"), conversation_context=context
    )
    assert _steps(response) == [("swap", "ETH", "1"), ("transfer", "USDC", "100")]


def test_a_plain_step_after_an_order_in_a_pasted_plan_is_kept() -> None:
    prompt = (
        "Assistant: Here's a plan:\n1. Bridge 1 ETH from Ethereum to Arbitrum using Across.\n"
        "2. On Arbitrum, swap 0.5 ETH to USDC on Uniswap.\n3. Supply the USDC to Aave.\n\ngo"
    )
    response = parse(prompt, (EVM_A, "ethereum"), (EVM_A, "arbitrum"))
    assert [i.action for i in response.intents] == ["bridge", "swap", "deposit"]


def test_the_other_half_that_remains_is_no_step() -> None:
    prompt = f"transfer exactly half of our USDT on BSC to {PAYEE}; the other half should remain where it is."
    response = parse(prompt, (EVM_A, "bsc"), balances=[{"chain": "bsc", "asset": "USDT", "amount": "10000"}])
    assert _steps(response) == [("transfer", "USDT", "5000")]


def test_a_length_of_time_is_no_amount() -> None:
    response = parse("swap 100 usdc to eth, I held it for 3 months", (EVM_A, "base"))
    assert _steps(response) == [("swap", "USDC", "100")]


def test_a_value_in_no_currency_is_asked() -> None:
    response = parse(f"Send ETH worth 1 lakh to {PAYEE}", (EVM_A, "ethereum"))
    assert not response.intents
    assert kinds(response) == ["amount"]


def test_dollars_of_a_token_are_still_read() -> None:
    response = parse("swap eth worth $600 to usdc", (EVM_A, "ethereum"))
    assert "couldn't read" not in response.reasoning  # a dollar value, sized at the price (none here)


def test_scientific_notation_is_its_value_and_bounded() -> None:
    values = [(token.text, token.value) for token in tokenize("1e3 2.5E2 1e-3 1e999999 3e40")]
    assert values == [
        ("1e3", Decimal(1000)),
        ("2.5E2", Decimal(250)),
        ("1e-3", Decimal("0.001")),
        ("1e999999", None),
        ("3e40", None),
    ]
    prompt = f'{{"payout": {{"to": "{PAYEE}", "asset": "DAI", "network": "polygon", "amount": "1e3"}}}}\nrun this payout'
    assert _steps(parse(prompt, (EVM_A, "polygon"))) == [("transfer", "DAI", "1000")]


def test_a_rough_number_is_asked_never_a_thousand() -> None:
    for rough in ("like a couple thousand", "a few hundred usdc"):
        assert [token.value for token in tokenize(rough) if token.kind == "number"] == [None]
    context = (
        "User: bridge usdc from ethereum to base via cctp\nFlip: How much USDC would you like to bridge?"
    )
    response = parse("like a couple thousand", (EVM_A, "ethereum"), conversation_context=context)
    assert not response.intents


def test_everything_after_a_step_is_what_it_gave() -> None:
    prompt = "withdraw all my usdc from aave on optimism, then bridge everything to arbitrum"
    response = parse(prompt, (EVM_A, "optimism"), (EVM_A, "arbitrum"))
    assert _steps(response) == [("withdraw", "USDC", "max"), ("bridge", "USDC", "chained")]


def test_an_action_the_reading_cannot_place_is_never_set_aside() -> None:
    prompt = f"send 1500 USDC to {PAYEE} on base withdraw it first"
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents
    assert "withdraw" in response.reasoning and "set aside" not in response.reasoning.split("withdraw")[0]


def test_a_dash_between_clauses_parts_them() -> None:
    response = parse("withdraw 100 usdc from aave on base — swap it to eth", (EVM_A, "base"))
    assert [i.action for i in response.intents] == ["withdraw", "swap"]


def test_wrap_and_unwrap_are_swaps_between_a_coin_and_its_wrapped_token() -> None:
    assert _steps(parse("Kindly wrap 10 BNB", (EVM_A, "bsc"))) == [("swap", "BNB", "10")]
    assert parse("Kindly wrap 10 BNB", (EVM_A, "bsc")).intents[0].to_asset == "WBNB"
    unwrap = parse("unwrap all my weth on arbitrum", (EVM_A, "arbitrum"))
    assert [(i.asset, i.to_asset, i.amount) for i in unwrap.intents] == [("WETH", "ETH", "max")]


def test_fully_is_the_whole_debt() -> None:
    response = parse("Please repay my DAI loan on Spark fully, I have got the funds now", (EVM_A, "ethereum"))
    assert [(i.action, i.protocol, i.amount) for i in response.intents] == [("repay", "spark", "max")]


def test_what_is_left_is_the_balance_when_signed() -> None:
    response = parse(f"Send what's left of my DAI on polygon to {PAYEE}", (EVM_A, "polygon"))
    assert _steps(response) == [("transfer", "DAI", "max")]
    prompt = f"Pay {PAYEE} 1,000 USDC on Arbitrum, and put whatever USDC is left into Aave there."
    both = parse(prompt, (EVM_A, "arbitrum"))
    assert _steps(both) == [("transfer", "USDC", "1000"), ("deposit", "USDC", "max")]


def test_keep_some_of_a_token_named_without_an_amount_is_all_but_that() -> None:
    prompt = "Deposit my idle USDC in Aave on arbitrum, but keep 1000 aside for expenses"
    response = parse(
        prompt, (EVM_A, "arbitrum"), balances=[{"chain": "arbitrum", "asset": "USDC", "amount": "10000"}]
    )
    assert _steps(response) == [("deposit", "USDC", "9000")]


def test_leaving_the_proceeds_in_the_wallet_is_no_step() -> None:
    prompt = "Please remove all liquidity from our Uniswap v3 ETH/USDC position on Arbitrum and leave the proceeds in the wallet."
    assert [i.action for i in parse(prompt, (EVM_A, "arbitrum")).intents] == ["lp-remove"]
    kept = "Let's deposit 1.5 ETH in Aave on Arbitrum and keep the rest in my wallet."
    assert _steps(parse(kept, (EVM_A, "arbitrum"))) == [("deposit", "ETH", "1.5")]


def test_an_amount_without_its_own_payee_never_takes_anothers() -> None:
    prompt = f"pay jamie 850 usdc ({PAYEE}) and priya 1,150 usdc, keep the rest. base."
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents
    assert kinds(response) == ["recipient"]


def test_what_a_request_rules_out_is_honoured_or_refused_never_a_block() -> None:
    prompt = "Please bridge 50,000 USDC from Ethereum to Base using Circle's CCTP and not Across."
    kept = parse(prompt, (EVM_A, "ethereum"), (EVM_A, "base"))
    assert [(i.action, i.protocol) for i in kept.intents] == [("bridge", "cctp")]
    refused = parse(
        "bridge 100 usdc from ethereum to base, not via across", (EVM_A, "ethereum"), (EVM_A, "base")
    )
    assert not refused.intents and 'not to use "across"' in refused.reasoning
    collect = "Collect the accrued fees on my Uniswap v3 WETH/USDC position on Base. Please do not remove any liquidity."
    assert [i.action for i in parse(collect, (EVM_A, "base")).intents] == ["lp-collect"]
    send = f"send 50 usdc to {PAYEE} on base, do not send eth"
    assert _steps(parse(send, (EVM_A, "base"))) == [("transfer", "USDC", "50")]


def test_a_yes_no_tag_is_no_negation() -> None:
    response = parse("Can swap 1 ETH to USDC on arbitrum or not?", (EVM_A, "arbitrum"))
    assert _steps(response) == [("swap", "ETH", "1")]


def test_a_follow_up_naming_the_token_it_replaces_replaces_that_one() -> None:
    context = "User: swap 200 dai to usdc on arbitrum"
    response = parse("sorry i meant usdt not dai", (EVM_A, "arbitrum"), conversation_context=context)
    assert [(i.asset, i.to_asset) for i in response.intents] == [("USDT", "USDC")]


def test_numbers_that_name_are_no_amounts() -> None:
    invoice = (
        "Invoice #2024-117 (dated 3 March, net 30) — 4,750.00 USDC due to 0xD96CF6b51f81C4F87E5b6Ae7Fb2Cb40aB4AfeA00. "
        "Pay it from my arbitrum wallet please."
    )
    assert _steps(parse(invoice, (EVM_A, "arbitrum"))) == [("transfer", "USDC", "4750")]
    audit = f"Send 0.1 WBTC to {PAYEE} on arbitrum for the audit, ref AUD-77"
    assert _steps(parse(audit, (EVM_A, "arbitrum"))) == [("transfer", "WBTC", "0.1")]
    dated = f"send 50 usdc to {PAYEE} on base, inv 88 due 15/04"
    assert _steps(parse(dated, (EVM_A, "base"))) == [("transfer", "USDC", "50")]
    assert _steps(parse("swap 1/2 eth to usdc on base", (EVM_A, "base"))) == [("swap", "ETH", "0.5")]
    assert _steps(parse(f"send 0.05 eth to {PAYEE} on base", (EVM_A, "base"))) == [
        ("transfer", "ETH", "0.05")
    ]


def test_an_amount_said_apart_is_the_amount_of_the_token_named_before() -> None:
    response = parse(
        "Sir, I want to stake my ETH in Lido. Amount is 4.5 ETH. Kindly process the same.",
        (EVM_A, "ethereum"),
    )
    assert _steps(response) == [("stake", "ETH", "4.5")]
    two = f"send my usdc to {PAYEE} and 50 usdc to 0xa59aa6A15Bf3C2EACa362CbC577cB2d911d1FbCA on base"
    assert not parse(two, (EVM_A, "base")).intents  # the first payee's amount is asked, never the second's


def test_a_count_of_people_after_these_is_no_amount() -> None:
    prompt = (
        "send 100 usdc each to these two guys on base: "
        f"{PAYEE} and 0xa59aa6A15Bf3C2EACa362CbC577cB2d911d1FbCA"
    )
    assert _steps(parse(prompt, (EVM_A, "base"))) == [
        ("transfer", "USDC", "100"),
        ("transfer", "USDC", "100"),
    ]


def test_dictated_letters_and_addresses() -> None:
    response = parse(
        "send fifty you ess dee see to zero ex 08492f37f1bbf404506ae74ecf6c37fda134edb8 on base",
        (EVM_A, "base"),
    )
    assert [(i.asset, str(i.amount), i.recipient) for i in response.intents] == [
        ("USDC", "50", "0x08492f37f1bbf404506ae74ecf6c37fda134edb8")
    ]
    bsc = parse(f"send twenty five hundred tether to {PAYEE} on bee ess see", (EVM_A, "bsc"))
    assert [(i.asset, i.chain) for i in bsc.intents] == [("USDT", "bsc")]


def test_a_time_already_past_or_a_level_where_it_is_now_waits_for_nothing() -> None:
    prompt = (
        "Please borrow 1.5 WETH on Aave on Arbitrum. I confirm that my health factor is currently above 2.0."
    )
    assert _steps(parse(prompt, (EVM_A, "arbitrum"))) == [("borrow", "WETH", "1.5")]
    assert not parse("swap 1 eth to usdc when eth is above 4000", (EVM_A, "base")).intents


def test_a_new_payee_named_in_a_repeat_is_asked_never_the_last_ones_address() -> None:
    context = f"User: send 1 eth to alice {PAYEE}\nFlip: Planned: transfer 1 ETH on Ethereum to alice."
    response = parse("and carol gets the same", (EVM_A, "ethereum"), conversation_context=context)
    assert not response.intents
    assert kinds(response) == ["recipient"]


def test_funds_without_all_is_no_sweep() -> None:
    prompt = "please bridge treasury funds over to Arbitrum so the organisers have runway"
    assert not parse(prompt, (EVM_A, "ethereum"), (EVM_A, "arbitrum")).intents


def test_a_bare_refusal_after_an_order_withdraws_it() -> None:
    prompt = "I wanted to deposit 100 USDC into Aave on Arbitrum... actually no, don't. I'm not ready yet."
    assert not parse(prompt, (EVM_A, "arbitrum")).intents
    pending = "Pending...\nSwap 2 ETH for USDC\nSubmitted 14 min ago\n\nis it stuck? cancel it"
    assert not parse(pending, (EVM_A, "ethereum")).intents


def test_plural_scales_a_target_correction_and_a_multiple_written_as_x2() -> None:
    assert _steps(parse("Please exchange 3 thousands USDC on WETH on Polygon.", (EVM_A, "polygon"))) == [
        ("swap", "USDC", "3000")
    ]
    context = "User: swap 2 eth to usdc on base\nFlip: Plan: swap 2 ETH to USDC on Base. Confirm?"
    fixed = parse(
        "hmm, make that 2 eth to dai instead, still on base", (EVM_A, "base"), conversation_context=context
    )
    assert [(i.asset, i.to_asset) for i in fixed.intents] == [("ETH", "DAI")]
    assert not parse("0.5 eth -> usdc x2 base", (EVM_A, "base")).intents


def test_moving_between_lending_protocols_withdraws_first() -> None:
    response = parse("move 5000 usdc from aave to spark, spark pays more now", (EVM_A, "ethereum"))
    assert [(i.action, i.protocol, str(i.amount)) for i in response.intents] == [
        ("withdraw", "aave", "5000"),
        ("deposit", "spark", "chained"),
    ]
    assert [i.action for i in parse("withdraw 100 usdc from aave", (EVM_A, "ethereum")).intents] == [
        "withdraw"
    ]


def test_same_chain_is_a_slots_value_not_a_second_step() -> None:
    prompt = "withdraw all my dai from spark pls and put it on aave, same chain"
    response = parse(prompt, (EVM_A, "ethereum"))
    assert [(i.action, i.protocol) for i in response.intents] == [("withdraw", "spark"), ("deposit", "aave")]


def test_part_of_a_told_amount_said_of_it() -> None:
    sol = "E8cr2tebmKd7Gn7nfBeD1a7Y2A6PJmUyVdZBmWHoGZFV"
    prompt = f"our POS shows 1,260.00 USDC received on Solana today. send 260 of it to my accountant {sol}"
    assert _steps(parse(prompt, ("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", "solana"))) == [
        ("transfer", "USDC", "260")
    ]


def test_the_one_is_which_one_never_one_token() -> None:
    response = parse("repay my debt in aave arbitrum, the one of usdc, all", (EVM_A, "arbitrum"))
    assert _steps(response) == [("repay", "USDC", "max")]


def test_money_in_another_currency_is_asked() -> None:
    response = parse(
        "I should like to buy ETH for 300 € on Arbitrum, with my USDC please.", (EVM_A, "arbitrum")
    )
    assert not response.intents
    pounds = parse(f"send £50 of usdc to {PAYEE} on arbitrum", (EVM_A, "arbitrum"))
    assert not pounds.intents
