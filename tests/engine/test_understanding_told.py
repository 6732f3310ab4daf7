"""What people tell rather than ask (history, guesses, pasted facts), what their words point at, and the
slots a correction or a cut-off message leaves open: each read without planning an amount, a token or a
place nobody said."""

from __future__ import annotations

from decimal import Decimal

from tests.engine.test_intents_support import EVM_A, kinds, parse

PAYEE = "0x0beB760A1e27209B1db14021d4964C4c6A4A79e8"
OTHER = "0x635CC4b6dd601C16f67b39d88a5Ba983DD151B5F"


def _steps(response) -> list[tuple[str, str | None, str, str | None]]:  # type: ignore[no-untyped-def]
    return [(i.action, i.asset, str(i.amount), i.to_asset) for i in response.intents]


# -- told facts ------------------------------------------------------------------------------------------


def test_a_number_told_of_the_past_is_not_the_amount() -> None:
    response = parse("I borrowed 400 USDC on aave last month. Please repay 150 of it.", (EVM_A, "base"))
    assert _steps(response) == [("repay", "USDC", "150", None)]
    assert "last month" in response.reasoning  # set aside, and said so


def test_all_of_it_after_a_told_debt_is_the_whole_debt() -> None:
    response = parse("I borrowed 400 USDC on aave. Pay it back please, all of it.", (EVM_A, "base"))
    assert _steps(response) == [("repay", "USDC", "max", None)]


def test_a_told_guess_is_no_second_amount() -> None:
    prompt = f"send 100 usdc to {PAYEE} on base. It's about 2,000 I think"
    assert _steps(parse(prompt, (EVM_A, "base"))) == [("transfer", "USDC", "100", None)]


def test_two_amounts_of_one_token_for_one_action_are_asked_not_both_planned() -> None:
    response = parse("I lent my brother 50 usdc on base. swap 100 usdc to eth", (EVM_A, "base"))
    assert not response.intents
    question = response.clarifications[0]
    assert question.kind == "amount"
    assert [option.label for option in question.options] == ["50 USDC", "100 USDC"]
    answered = parse(
        f"I lent my brother 50 usdc on base. swap 100 usdc to eth\n\nClarification — {question.question}: 100 USDC",
        (EVM_A, "base"),
    )
    assert _steps(answered) == [("swap", "USDC", "100", "ETH")]


def test_a_comparison_with_last_week_is_no_second_step() -> None:
    response = parse("swap 100 usdc to eth, same as last week", (EVM_A, "base"))
    assert _steps(response) == [("swap", "USDC", "100", "ETH")]


# -- whose tokens, what a share is of ------------------------------------------------------------------


def test_tokens_from_someone_elses_wallet_are_refused() -> None:
    response = parse(f"send 100 usdc from {PAYEE} to {OTHER} on base", (EVM_A, "base"))
    assert not response.intents
    assert f"{PAYEE} is not one of your wallets" in response.reasoning


def test_a_share_of_a_value_that_is_no_balance_is_not_planned() -> None:
    response = parse("withdraw 40% of my collateral value from aave", (EVM_A, "base"))
    assert not response.intents
    assert response.clarifications


# -- pointing ------------------------------------------------------------------------------------------


def test_it_points_at_the_protocol_a_pasted_line_names() -> None:
    response = parse('"Aave on base pays 6% on usdc now"\n\nput 1000 usdc in it', (EVM_A, "base"))
    assert [(i.action, i.protocol, str(i.amount)) for i in response.intents] == [("deposit", "aave", "1000")]


def test_it_pointing_at_an_unknown_pool_is_refused_not_defaulted() -> None:
    response = parse('"Check out this pool, 40% APY on FarmX!"\n\nput 1000 usdc in it', (EVM_A, "base"))
    assert not response.intents
    assert "none of the protocols or vaults I plan with" in response.reasoning


def test_a_claim_under_a_pasted_airdrop_post_is_refused() -> None:
    prompt = '"$ZRO airdrop is live, claim now before it closes" — @LayerZero_Labs\n\nclaim mine'
    response = parse(prompt, (EVM_A, "arbitrum"))
    assert not response.intents
    assert "names nothing I can claim" in response.reasoning


def test_a_ticket_naming_aave_says_what_to_claim() -> None:
    prompt = "Issue: Aave rewards unclaimed on Arbitrum\nExpected: rewards in wallet\nPlease claim."
    response = parse(prompt, (EVM_A, "arbitrum"))
    assert [(i.action, i.protocol) for i in response.intents] == [("claim", "aave")]


def test_a_trusted_vault_is_named_by_its_symbol() -> None:
    response = parse("deposit 500 dai into sdai", (EVM_A, "ethereum"))
    assert [(i.action, i.asset, i.vault_address) for i in response.intents] == [
        ("deposit", "DAI", "0x83F20F44975D03b1b09e64809B757c47f942BEeA")
    ]


def test_another_token_into_a_vault_is_swapped_first() -> None:
    response = parse("put 300 usdc in sdai", (EVM_A, "ethereum"))
    assert _steps(response) == [("swap", "USDC", "300", "DAI"), ("deposit", "DAI", "chained", None)]


# -- fees, venues, cut-off messages --------------------------------------------------------------------


def test_fees_name_a_position_only_beside_a_claim() -> None:
    collect = parse("collect the fees on my eth/usdc pool", (EVM_A, "arbitrum"))
    assert [i.action for i in collect.intents] == ["lp-collect"]
    prompt = "withdraw all my usdc from aave, I need it for my daughter's college fees"
    withdraw = parse(prompt, (EVM_A, "optimism"))
    assert [(i.action, i.protocol, i.amount) for i in withdraw.intents] == [("withdraw", "aave", "max")]


def test_an_unknown_name_after_on_the_is_a_venue_asked_about() -> None:
    response = parse("Please swap 500 USDT to ETH on the Avalanche", (EVM_A, "arbitrum"))
    assert not response.intents
    assert "avalanche" in response.reasoning


def test_a_message_cut_off_at_into_asks_where_with_the_protocols_that_fit() -> None:
    response = parse("deposit 300 usdc into", (EVM_A, "arbitrum"))
    assert not response.intents
    question = response.clarifications[0]
    assert [option.label for option in question.options] == ["aave"]
    answered = parse(
        f"deposit 300 usdc into\n\nClarification — {question.question}: aave", (EVM_A, "arbitrum")
    )
    assert [(i.action, i.protocol, str(i.amount)) for i in answered.intents] == [("deposit", "aave", "300")]


def test_a_transfer_cut_off_at_to_asks_who_receives_it() -> None:
    response = parse("send 50 usdc to", (EVM_A, "arbitrum"))
    assert not response.intents
    assert kinds(response) == ["recipient"]


def test_a_bridge_cut_off_at_to_offers_chains() -> None:
    response = parse("bridge 100 usdc from arbitrum to", (EVM_A, "arbitrum"))
    assert kinds(response) == ["chain"]
    assert "Arbitrum" not in [option.label for option in response.clarifications[0].options]


# -- corrections and repeats ---------------------------------------------------------------------------


def test_a_correction_naming_what_it_replaces_replaces_that_token() -> None:
    source = parse("swap 100 dai to eth, sorry i meant usdt, not dai", (EVM_A, "arbitrum"))
    assert _steps(source) == [("swap", "USDT", "100", "ETH")]
    target = parse("swap 100 dai to eth, sorry i meant usdc not eth", (EVM_A, "arbitrum"))
    assert _steps(target) == [("swap", "DAI", "100", "USDC")]


def test_a_token_of_another_worth_does_not_inherit_the_amount() -> None:
    context = f"User: send 100 usdc to {PAYEE} on arbitrum"
    other = parse("same but eth", (EVM_A, "arbitrum"), conversation_context=context)
    assert not other.intents
    assert kinds(other) == ["amount"]
    stable = parse("same but dai", (EVM_A, "arbitrum"), conversation_context=context)
    assert [(i.asset, i.amount) for i in stable.intents] == [("DAI", Decimal(100))]
    corrected = parse(f"send 100 usdc to {PAYEE}, sorry I meant eth", (EVM_A, "arbitrum"))
    assert kinds(corrected) == ["amount"]


def test_the_same_for_another_token_repeats_the_chained_steps() -> None:
    context = "User: bridge 1000 usdc to arbitrum and deposit it into aave"
    response = parse(
        "the same for 500 dai", (EVM_A, "base"), (EVM_A, "arbitrum"), conversation_context=context
    )
    assert _steps(response) == [("bridge", "DAI", "500", None), ("deposit", "DAI", "chained", None)]


def test_a_phrasal_verb_with_it_between_reads_as_the_verb() -> None:
    response = parse("pay it back on aave, 200 usdc", (EVM_A, "base"))
    assert [(i.action, i.protocol, str(i.amount)) for i in response.intents] == [("repay", "aave", "200")]


def test_a_send_on_the_date_of_a_pasted_invite_waits_for_that_date() -> None:
    prompt = (
        "BEGIN:VEVENT\nDTSTART:20261205T100000Z\nSUMMARY:pay rent\nEND:VEVENT\n\n"
        f"send 100 usdc to {PAYEE} on that date"
    )
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents
    assert "not at a later time" in response.reasoning


def test_a_form_field_naming_two_chains_is_no_chain() -> None:
    prompt = f"Ticket #4471\nAmount: 100 USDC\nChain: base, arbitrum\nTo: {PAYEE}\n\nplease send it"
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "arbitrum"))
    assert not response.intents
    assert kinds(response) == ["chain"]
