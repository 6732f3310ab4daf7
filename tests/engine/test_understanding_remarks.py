"""Negations that are remarks, corrections of a step said without a verb, values said twice or negated
after the fact, what is kept and the rest, a holding told after the request, and counts of payments.

Each class is read the same way whatever words fill it; the controls show where the same words still
change the plan (a negation beside a slot, a withdrawal, indecision, a foreign clause)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents.english import is_english
from tests.engine.test_intents_support import EVM_A, parse

ADDRESS = "0x138b259C07335a81B5a73BfedF459bD6343a0784"


def _amounts(prompt: str, chain: str = "base") -> list[object]:
    return [intent.amount for intent in parse(prompt, (EVM_A, chain)).intents]


@pytest.mark.parametrize(
    "remark",
    [
        "i dont want the volatility",
        "i don't want to lose money",
        "don't make me regret this",
        "so it doesn't go down in value",
        "dont ask just do",
        "i never trust banks",
    ],
)
def test_a_negation_that_says_how_the_user_feels_is_set_aside_and_named(remark: str) -> None:
    response = parse(f"swap 1 eth to usdc on base, {remark}", (EVM_A, "base"))
    assert [(i.action, i.amount) for i in response.intents] == [("swap", Decimal(1))]
    # A clause's opening joiner ("so") is not part of what is quoted back.
    assert f'"{remark.removeprefix("so ")}"' in response.reasoning


@pytest.mark.parametrize(
    "tail",
    [
        "actually no, don't",  # withdraws the request
        "don't do it yet",  # points back at the request
        "not on base",  # a slot
        "not 1 eth",  # a number
        "don't swap all of it",  # a quantity word and an action
        "no sé todavía",  # another language: nobody can say it is only a feeling
        "i don't know",  # indecision
    ],
)
def test_a_negation_that_can_change_the_plan_still_stops_it(tail: str) -> None:
    response = parse(f"swap 1 eth to usdc on base, {tail}", (EVM_A, "base"))
    assert not response.intents or "set aside" not in response.reasoning.split(tail)[0][-40:]
    assert not response.intents


def test_english_words_are_told_from_other_languages_by_frequency() -> None:
    assert all(is_english(word) for word in ("volatility", "honestly", "regret", "don't"))
    assert not any(is_english(word) for word in ("quiero", "sé", "todavía", "12", "x2", "rekt"))


@pytest.mark.parametrize(
    "prompt",
    [
        "3 eth → usdc on mainnet. no wait make it 2",
        "3 eth -> usdc on mainnet, no wait, 2",
        "3 eth to usdc on mainnet, sorry, 2",
    ],
)
def test_a_correction_amends_a_step_said_without_a_verb(prompt: str) -> None:
    assert _amounts(prompt, "ethereum") == [Decimal(2)]


def test_a_bare_number_before_a_correction_is_no_step() -> None:
    # "wait 50?? no, half of 1 eth": the 50 is quoted back, not a step to amend; still asked.
    assert _amounts("wait 50?? no. half of 1 eth i meant") in ([], [Decimal("0.5")])


@pytest.mark.parametrize(
    "prompt",
    [
        f"send 25 usdc, not 250. to {ADDRESS} on base",
        f"send 25 usdc, not 250 usdc, to {ADDRESS} on base",
        f"send 25 usdc to {ADDRESS} on base, not 250",
    ],
)
def test_a_value_negated_after_the_one_meant_leaves_the_one_meant(prompt: str) -> None:
    assert _amounts(prompt) == [Decimal(25)]


def test_a_value_said_twice_across_a_pause_is_said_once() -> None:
    prompt = "bridge 100 USDC from Base to Arbitrum with CCTP... wait, sorry, 150. 150 USDC."
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "arbitrum"))
    assert [(i.action, i.amount) for i in response.intents] == [("bridge", Decimal(150))]


def test_two_different_values_across_a_pause_are_not_merged() -> None:
    assert _amounts(f"send 100 usdc to {ADDRESS} on base. 200.") != [Decimal(100)]


def test_the_rest_after_a_told_holding_and_what_is_kept_is_exact() -> None:
    prompt = (
        "I have 0.8 ETH on Base and I'd like to keep 0.05 for fees. Could you swap the rest to USDC so "
        "it doesn't go down in value?"
    )
    assert _amounts(prompt) == [Decimal("0.75")]


@pytest.mark.parametrize(
    "prompt",
    [
        "keep 0.05 eth for gas and swap the rest to usdc on base",
        "leave 0.05 eth, swap what's left to usdc on base",
        "swap the rest of my eth to usdc on base except keep 0.05",
    ],
)
def test_what_is_kept_before_the_rest_is_all_but_it(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    # The parser alone knows no balance: it asks, naming what it would work out ("all ... but 0.05").
    assert not response.intents
    assert "all of your ETH but 0.05" in response.reasoning


def test_the_rest_after_an_earlier_step_is_never_the_whole_balance_less_what_is_kept() -> None:
    prompt = f"send 0.69 eth to {ADDRESS} on base, then swap the remaining eth on base to usdc except 0.05"
    response = parse(prompt, (EVM_A, "base"))
    assert "all of your ETH but 0.05" not in response.reasoning


def test_a_count_of_payments_is_asked_never_one_payment() -> None:
    assert _amounts(f"send 2 payments of 500 usdc to {ADDRESS} on base") == []
    # A count of people is no amount: the recipient is what is missing.
    assert _amounts("send 500 usdc to my two nephews on base") == []


def test_a_share_of_a_stated_number_after_its_owner() -> None:
    assert _amounts("swap a third of my 900 usdt on bsc to bnb", "bsc") == [Decimal(300)]
    assert _amounts("withdraw 1/3 of my 9k usdc from aave op", "optimism") == [Decimal(3000)]


def test_a_holding_told_after_the_request_is_no_step_and_sizes_a_share_before_it() -> None:
    assert _amounts("stake half my eth with lido. i have 6 eth", "ethereum") == [Decimal(3)]
    prompt = 'He said to "put the ETH into that Lido thing, all of it except one". He\'s got 3.2 ETH.'
    response = parse(prompt, (EVM_A, "ethereum"))
    assert len(response.intents) <= 1
    assert all(intent.amount != Decimal("3.2") for intent in response.intents)


CHAINS = ("arbitrum", "base", "optimism", "polygon")


def _moves(prompt: str, context: str | None = None) -> list[tuple[object, ...]]:
    response = parse(prompt, *((EVM_A, chain) for chain in CHAINS), conversation_context=context)
    return [(i.from_chain, i.to_chain, i.amount) for i in response.intents]


def test_a_correction_inside_an_answer_replaces_the_chain_it_names() -> None:
    context = f"User: send eth to {ADDRESS}\nFlip: How much ETH, and on which chain?"
    response = parse(
        "0.3, base. no wait arbitrum", *((EVM_A, c) for c in CHAINS), conversation_context=context
    )
    assert [(i.chain, i.amount) for i in response.intents] == [("arbitrum", Decimal("0.3"))]


@pytest.mark.parametrize(
    ("prompt", "context"),
    [
        ("same for polygon", "User: bridge 1000 usdc from arbitrum to optimism\nFlip: Bridging 1,000 USDC."),
        ("bridge 100 usdc from arbitrum to optimism, and the same for polygon", None),
    ],
)
def test_a_chain_in_a_repeated_move_with_no_side_is_asked_which_end(prompt: str, context: str | None) -> None:
    response = parse(prompt, *((EVM_A, chain) for chain in CHAINS), conversation_context=context)
    assert not response.intents
    (question,) = response.clarifications
    assert [option.label for option in question.options] == ["From Polygon", "To Polygon"]


@pytest.mark.parametrize(
    ("label", "expected"),
    [("From Polygon", ("polygon", "optimism")), ("To Polygon", ("arbitrum", "polygon"))],
)
def test_each_answer_to_which_end_compiles_to_that_end(label: str, expected: tuple[str, str]) -> None:
    context = "User: bridge 1000 usdc from arbitrum to optimism\nFlip: Bridging 1,000 USDC."
    question = "Should the bridge leave from Polygon or go to Polygon?"
    prompt = f"same for polygon\n\nClarification — {question}: {label}"
    assert _moves(prompt, context) == [(*expected, Decimal(1000))]


def test_tokens_said_to_be_on_a_chain_leave_from_it_in_a_repeat() -> None:
    context = "User: bridge 1 eth from arbitrum to base\nFlip: Planned: bridge 1 ETH from Arbitrum to Base."
    assert _moves("and the same for my optimism eth", context)[-1] == ("optimism", "base", Decimal(1))


def test_a_teen_before_tens_is_asked_a_unit_before_tens_is_hundreds() -> None:
    assert _amounts("swap fifteen fifty eth to usdc on base") == []
    assert _amounts("swap one twenty usdc to eth on base") == [Decimal(120)]


LIST = "1. swap 0.4 weth to usdc on arbitrum\n2. swap all usdc to dai on arbitrum\n\n"


@pytest.mark.parametrize(
    ("request_", "assets"),
    [
        ("only do the first one for now", ["WETH"]),
        ("just do the second one", ["USDC"]),
        ("do step 2 only", ["USDC"]),
        ("do all but the last one", ["WETH"]),
        ("skip the first one, do the rest", ["USDC"]),
        ("do it", ["WETH", "USDC"]),
    ],
)
def test_a_request_picks_items_of_a_pasted_list_by_place(request_: str, assets: list[str]) -> None:
    response = parse(LIST + request_, (EVM_A, "arbitrum"))
    assert [intent.asset for intent in response.intents] == assets


def test_a_pick_the_list_does_not_have_plans_nothing_of_it() -> None:
    assert parse(LIST + "only do the third one", (EVM_A, "arbitrum")).intents == ()


@pytest.mark.parametrize(
    ("context", "prompt"),
    [
        ("User: send 0.3 eth to my cold wallet on base\nFlip: What's the address of your cold wallet?", ""),
        (
            f"User: send 0.3 eth to {ADDRESS} on base\nFlip: Planned: transfer 0.3 ETH on Base.",
            "sorry wrong address, it's ",
        ),
    ],
)
def test_an_address_answer_names_who_is_paid(context: str, prompt: str) -> None:
    payee = "0x9BF3AE675f3EcbaF8Faf3C11F0c5c5cF0356F18e"
    response = parse(prompt + payee, (EVM_A, "base"), conversation_context=context)
    assert [(i.action, i.amount, i.recipient) for i in response.intents] == [
        ("transfer", Decimal("0.3"), payee)
    ]


def test_an_address_after_a_request_that_pays_nobody_is_never_dropped_silently() -> None:
    context = "User: swap 1 eth to usdc on base\nFlip: Swapping 1 ETH for USDC on Base. Confirm?"
    response = parse(
        "0x9BF3AE675f3EcbaF8Faf3C11F0c5c5cF0356F18e", (EVM_A, "base"), conversation_context=context
    )
    assert not response.intents


def test_an_amount_with_no_token_after_a_step_is_of_what_that_step_gives() -> None:
    payee = "0x41b9bB1DA309Acc610031bBd6CaA9AAb87a21FF5"
    prompt = f"bridge 5,000 USDC from base to polygon, then pay him 4,750 at {payee}"
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "polygon"))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [
        ("bridge", "USDC", Decimal(5000)),
        ("transfer", "USDC", Decimal(4750)),
    ]


def test_part_of_an_exact_withdrawal_is_exact_and_a_part_with_no_exact_value_is_asked() -> None:
    prompt = f"withdraw 300 usdc from aave on polygon, send a third to {ADDRESS}"
    assert _amounts(prompt, "polygon") == [Decimal(300), Decimal(100)]
    assert _amounts(f"withdraw 100 usdc from aave on polygon, send a third to {ADDRESS}", "polygon") == []


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("1.250,50", "1250.50"),
        ("2.000,00", "2000"),
        ("1.000.000", "1000000"),
        ("1'500", "1500"),
        ("1’500", "1500"),
    ],
)
def test_european_and_swiss_numbers_with_one_reading_are_read(written: str, value: str) -> None:
    assert _amounts(f"swap {written} usdc to weth on base") == [Decimal(value)]


def test_a_dot_before_three_digits_is_asked_with_both_readings() -> None:
    response = parse("deposit 2.000 usdc in aave on base", (EVM_A, "base"))
    (question,) = response.clarifications
    assert [option.label for option in question.options] == ["2 USDC", "2,000 USDC", "All of it"]
    answered = "deposit 2.000 usdc in aave on base\n\nClarification — How much USDC do you want to deposit?: "
    assert _amounts(answered + "2,000 USDC") == [Decimal(2000)]
    assert _amounts(answered + "2 USDC") == [Decimal(2)]


@pytest.mark.parametrize("courtesy", ["if you please", "if possible", "if this is a silly question"])
def test_a_courtesy_written_as_a_condition_is_set_aside(courtesy: str) -> None:
    response = parse(f"swap 1 eth to usdc on base, {courtesy}", (EVM_A, "base"))
    assert [intent.amount for intent in response.intents] == [Decimal(1)]
    assert f'"{courtesy}"' in response.reasoning


@pytest.mark.parametrize(
    "condition",
    ["if gas is cheap", "if needed", "if it's safe", "if eth drops below 3000", "if"],
)
def test_a_condition_the_plan_would_wait_for_or_depend_on_still_stops_it(condition: str) -> None:
    assert parse(f"swap 1 eth to usdc on base, {condition}", (EVM_A, "base")).intents == ()


@pytest.mark.parametrize(
    "prompt",
    [
        f"send 100 usdc on base to {ADDRESS} on behalf of my mum",
        f"send 0.2 eth on base to this address, I typed it in lowercase: {ADDRESS.lower()}",
        "repay all of my dai debt on spark. she has the dai in her wallet already",
    ],
)
def test_a_persons_word_or_a_phrase_after_a_preposition_is_no_venue(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "ethereum"))
    assert "I don't know" not in response.reasoning


def test_an_unknown_name_where_a_venue_goes_is_still_refused() -> None:
    assert "I don't know 'morpho'" in parse("deposit 100 usdc in morpho on base", (EVM_A, "base")).reasoning
    assert (
        "I don't know 'compound'" in parse("deposit 100 usdc on compound on base", (EVM_A, "base")).reasoning
    )


def test_a_correction_naming_the_protocol_it_replaces_replaces_it() -> None:
    context = (
        "User: withdraw 1 weth from aave on ethereum\nFlip: Plan: withdraw 1 WETH from Aave v3. Confirm?"
    )
    response = parse("hmm no, it's on spark not aave", (EVM_A, "ethereum"), conversation_context=context)
    assert [(i.action, i.protocol, i.amount) for i in response.intents] == [("withdraw", "spark", Decimal(1))]


def test_what_to_keep_said_in_answer_to_all_is_all_but_it() -> None:
    context = "User: stake all my eth\nFlip: That would leave no ETH for gas. How much should I keep?"
    response = parse("leave 0.5", (EVM_A, "ethereum"), conversation_context=context)
    # The parser alone knows no balance: it asks, naming what it would work out.
    assert "all of your ETH but 0.5" in response.reasoning
    assert "isn't in your request" not in response.reasoning


@pytest.mark.parametrize(
    ("prompt", "amount"),
    [
        (f"send 50 (fifty) usdc to {ADDRESS} on base", Decimal(50)),
        ("move 150,000 USDC (one hundred fifty thousand) from base to arbitrum using cctp", Decimal(150000)),
        ("Treasury Committee decision 14/2024: supply 500,000 USDC to Aave on Base.", Decimal(500000)),
        ("Resolution 2024-07 (Idle Assets): supply 25 USDC to Aave on Base.", Decimal(25)),
        ("Liquidity program (phase 1): deposit 10 USDC into Aave on Base.", Decimal(10)),
        ("Diversification step 1: swap 2 ETH to USDC on Base.", Decimal(2)),
    ],
)
def test_numbers_that_restate_or_label_are_no_second_amount(prompt: str, amount: Decimal) -> None:
    assert _amounts(prompt)[:1] == [amount]


def test_a_different_number_in_brackets_is_still_asked() -> None:
    assert _amounts(f"send 50 (60) usdc to {ADDRESS} on base") == []


def test_a_share_before_a_colon_is_still_the_amount() -> None:
    prompt = f"I have 500 USDC on Arbitrum. My sister and I share it. Please send her half: {ADDRESS}"
    # Never the whole told holding: the share is the amount (sized once a balance or the holding is read).
    assert Decimal(500) not in _amounts(prompt, "arbitrum")
    assert _amounts(f"send 40 usdc to her: {ADDRESS} on base") == [Decimal(40)]


@pytest.mark.parametrize(
    "prompt",
    [
        "sales were good this month, repay 1,000 usdc to aave on base",
        "customers paid me in USDC on base this week, swap all of it to eth there",
        "swap 1 eth to usdc on base, i need it by tomorrow",
    ],
)
def test_a_time_told_about_rather_than_asked_for_does_not_wait(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert response.intents, response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 1 eth to usdc on base tomorrow",
        "tomorrow, swap 1 eth to usdc on base",
        "pay 320 usdc to 0x0 every friday",
    ],
)
def test_a_time_the_action_is_asked_for_still_waits(prompt: str) -> None:
    assert parse(prompt, (EVM_A, "base")).intents == ()


@pytest.mark.parametrize(
    ("prompt", "unknown"),
    [
        (f"send 150 to {ADDRESS} on base for the plumber", False),
        ("wrap 10 pol pls, is for a game", False),
        (f"send 100 pepe to {ADDRESS} on base", True),
        (f"send 100 of pepe to {ADDRESS} on base", True),
    ],
)
def test_a_word_is_a_token_only_beside_its_amount_never_what_it_is_for(prompt: str, unknown: bool) -> None:
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "polygon"))
    assert ("I don't know a token called" in response.reasoning) is unknown


@pytest.mark.parametrize(
    "tail",
    ["keep a bit", "but leave some please", "but leave enough for the fee please, I don't know how much"],
)
def test_a_sentence_that_holds_part_back_is_never_set_aside_as_talk(tail: str) -> None:
    response = parse(f"swap all my usdc to eth on base. {tail}", (EVM_A, "base"))
    assert response.intents == ()


def test_a_told_sentence_with_keep_in_it_is_still_talk() -> None:
    prompt = (
        "Hello, my grandson said I should always keep a little ETH for the 'gas'. Could you swap all of my "
        "ETH on Base except 0.5 into USDC please?"
    )
    assert "all of your ETH but 0.5" in parse(prompt, (EVM_A, "base")).reasoning


def test_it_in_a_turn_that_replaces_the_request_is_what_that_request_would_have_spent() -> None:
    context = "User: stake 1 eth\nFlip: Planned: stake 1 ETH with Lido on Ethereum."
    response = parse("never mind, swap it to usdc instead", (EVM_A, "ethereum"), conversation_context=context)
    assert [(i.action, i.asset, i.to_asset, i.amount) for i in response.intents] == [
        ("swap", "ETH", "USDC", Decimal(1))
    ]


def test_where_an_amount_stays_is_no_count_of_things() -> None:
    context = "User: bridge all my usdc from polygon to base\nFlip: Planned: bridge all USDC Polygon to Base."
    response = parse("leave 50 behind", (EVM_A, "polygon"), (EVM_A, "base"), conversation_context=context)
    assert "all of your USDC but 50" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        f"I have 0.8 ETH on Base. send 0.3 to {ADDRESS} and swap the rest to USDC.",
        f"In my wallet is 0,8 ETH on Base. I want send 0,3 to {ADDRESS} and the rest please change on USDC.",
    ],
)
def test_the_rest_after_spending_part_of_a_told_holding_is_what_it_leaves(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == [
        ("transfer", "ETH", Decimal("0.3")),
        ("swap", "ETH", Decimal("0.5")),
    ]


def test_a_step_said_vaguely_then_in_full_is_one_step_with_what_both_say() -> None:
    solana = "J9z5pPp6ydUsgy8xDPgxYu1ioRGGJRhSVxFNsHcettnT"
    prompt = (
        f"I want to give my brother some money, he uses Solana. His address is {solana}. "
        "I want to give him 30 USDC from my Solana wallet."
    )
    response = parse(prompt, ("8oVUEDdEfMsVUSujPcAnS1aBWTRLEKwFHZHrSpfsNUbm", "solana"))
    assert [(i.action, i.amount, i.recipient) for i in response.intents] == [
        ("transfer", Decimal(30), solana)
    ]


def test_a_clock_time_told_is_no_amount_and_one_to_wait_for_still_waits() -> None:
    payee = "0x849a6351ca822897EDa832E9667FEBd76DBC11B9"
    prompt = (
        f"cust wants to send 25 usdt on Arbitrum to their partner at {payee} (confirmed by phone, 16:03)."
    )
    assert _amounts(prompt, "arbitrum") == [Decimal(25)]
    assert _amounts("swap 1 eth to usdc on base at 9:30") == []


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("borrow a grand of USDC on aave arbitrum against me eth, ta", [("borrow", "USDC", Decimal(1000))]),
        (
            "need a new oven. borrow 3000 usdc on aave arbitrum against my eth",
            [("borrow", "USDC", Decimal(3000))],
        ),
        (
            "lol my cat walked across my keyboard. anyway: swap 0.5 eth to usdc on arbitrum",
            [("swap", "ETH", Decimal("0.5"))],
        ),
    ],
)
def test_collateral_pledged_dialect_me_and_across_as_a_preposition(
    prompt: str, expected: list[tuple[object, ...]]
) -> None:
    response = parse(prompt, (EVM_A, "arbitrum"))
    assert [(i.action, i.asset, i.amount) for i in response.intents] == expected


def test_across_as_the_bridge_is_still_the_bridge() -> None:
    response = parse("bridge 100 usdc from base to arbitrum via across", (EVM_A, "base"), (EVM_A, "arbitrum"))
    assert [i.protocol for i in response.intents] == ["across"]


def test_a_borrow_of_all_is_asked_with_no_all_of_it_option() -> None:
    response = parse("max borrow usdc on aave arb against my eth", (EVM_A, "arbitrum"))
    assert response.intents == ()
    (question,) = response.clarifications
    assert question.kind == "amount" and all(option.id != "amount:max" for option in question.options)
