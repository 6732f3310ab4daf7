"""Parser behaviour: actions, chaining, wallet rules, routing defaults and honest refusals."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents import Balance
from tests.engine.test_intents_support import EVM_A, EVM_B, EVM_C, SDAI_VAULT, SOL_A, intents, kinds, parse


def test_bridge_then_deposit_chains_the_amount_and_lands_on_the_destination_chain() -> None:
    response = parse(
        "bridge 100 usdc from ethereum to base and then deposit it into aave", (EVM_A, "ethereum")
    )
    assert intents(response) == [
        {
            "action": "bridge",
            "asset": "USDC",
            "protocol": "across",
            "from_chain": "ethereum",
            "to_chain": "base",
            "amount": Decimal("100"),
        },
        {"action": "deposit", "asset": "USDC", "protocol": "aave", "chain": "base", "amount": "chained"},
    ]
    assert response.clarifications == ()
    assert "chained" not in response.suggested_name and response.suggested_name


@pytest.mark.parametrize("joiner", [" and ", " then ", " and then ", ", ", ", then "])
def test_steps_split_on_and_then_and_commas(joiner: str) -> None:
    response = parse(f"swap 1 eth to usdc on base{joiner}bridge it to arbitrum")
    assert [intent.action for intent in response.intents] == ["swap", "bridge"]
    assert response.intents[1].from_chain == "base"
    assert response.intents[1].amount == "chained"


def test_a_piece_without_a_verb_stays_in_its_step() -> None:
    response = parse("deposit 100 usdc and 50 dai into aave on base")
    assert [(intent.action, intent.asset, intent.amount) for intent in response.intents] == [
        ("deposit", "USDC", Decimal("100")),
        ("deposit", "DAI", Decimal("50")),
    ]


@pytest.mark.parametrize(
    ("prompt", "action"),
    [
        (f"send 1 usdc to {EVM_C}", "transfer"),
        ("move everything from base to arbitrum", "sweep"),
        ("bridge 1 usdc to arbitrum", "bridge"),
        ("deposit 1 usdc into aave", "deposit"),
        ("withdraw 1 usdc from aave", "withdraw"),
        ("stake 1 eth", "stake"),
        ("unstake 1 steth", "unstake"),
        ("claim my aave rewards", "claim"),
        ("approve 1 usdc for aave", "approve"),
        ("swap 1 usdc to eth", "swap"),
        ("borrow 1 usdc from aave", "borrow"),
        ("repay 1 usdc to aave", "repay"),
        ("add liquidity to eth/usdc with 1 usdc", "lp-add"),
        ("remove my eth/usdc liquidity", "lp-remove"),
        ("collect fees from my eth/usdc position", "lp-collect"),
    ],
)
def test_every_contract_action_is_understood(prompt: str, action: str) -> None:
    response = parse(prompt, (EVM_A, "base"), (EVM_A, "ethereum"), (EVM_A, "arbitrum"))
    planned = [intent.action for intent in response.intents]
    assert planned == [action] or (not planned and response.clarifications), response.reasoning
    if not planned:
        assert f"{action}" in response.suggested_name.lower() or response.clarifications


def test_every_intent_carries_its_required_fields() -> None:
    prompts = [
        f"send 1 usdc to {EVM_C}",
        "move everything to arbitrum",
        "bridge 1 usdc to arbitrum",
        "stake 1 eth",
        "claim my aave rewards",
        "add liquidity to eth/usdc with 1 usdc",
        "collect fees from my eth/usdc position",
    ]
    for prompt in prompts:
        for intent in parse(prompt).intents:
            assert intent.missing_fields() == [], (prompt, intent)


def test_an_evm_address_is_reused_on_any_evm_chain() -> None:
    response = parse(f"send 5 usdc to {EVM_C} on optimism", (EVM_A, "base"))
    assert intents(response)[0]["chain"] == "optimism"


def test_a_chain_no_wallet_covers_is_refused() -> None:
    response = parse("bridge 5 usdc from base to solana", (EVM_A, "base"))
    assert response.intents == () and response.clarifications == ()
    assert "solana" in response.reasoning.lower()


def test_the_single_wallet_chain_is_the_default() -> None:
    response = parse("swap 1 eth to usdc", (EVM_A, "arbitrum"))
    assert response.intents[0].chain == "arbitrum"


def test_wallets_on_several_chains_make_the_chain_a_question() -> None:
    response = parse("swap 1 eth to usdc", (EVM_A, "arbitrum"), (EVM_A, "base"))
    assert kinds(response) == ["chain"]
    # Options follow the order of the request's wallets.
    assert [option.id for option in response.clarifications[0].options] == ["chain:arbitrum", "chain:base"]
    assert response.clarifications[0].id == "clarify_chain_0"


def test_only_one_chain_supporting_the_protocol_is_chosen_and_said() -> None:
    response = parse("stake 1 eth", (EVM_A, "base"))
    assert response.intents[0].chain == "ethereum"
    assert "ethereum" in response.reasoning


def test_two_wallets_that_could_serve_make_the_wallet_a_question() -> None:
    response = parse("swap 1 eth to usdc on base", (EVM_A, "base"), (EVM_B, "base"))
    assert kinds(response) == ["wallet"]
    assert [option.id for option in response.clarifications[0].options] == [
        f"wallet:{EVM_A}",
        f"wallet:{EVM_B}",
    ]


def test_the_wallet_listed_on_the_chain_is_preferred_and_named() -> None:
    response = parse("swap 1 eth to usdc on arbitrum", (EVM_A, "ethereum"), (EVM_B, "arbitrum"))
    assert response.intents[0].wallet == EVM_B


def test_the_same_address_on_several_chains_is_one_wallet() -> None:
    response = parse(
        "swap 1 eth to usdc on base", (EVM_A, "base"), (EVM_A.upper().replace("0X", "0x"), "ethereum")
    )
    assert response.intents[0].wallet is None


@pytest.mark.parametrize(
    ("prompt", "protocol"),
    [
        ("bridge 10 usdc from base to arbitrum", "across"),
        ("bridge 10 usdc from base to solana", "cctp"),
        ("bridge 10 usdc from solana to base", "cctp"),
        ("bridge 10 usdc from base to arbitrum via cctp", "cctp"),
    ],
)
def test_bridge_routing_defaults(prompt: str, protocol: str) -> None:
    response = parse(prompt, (EVM_A, "base"), (SOL_A, "solana"))
    assert response.intents[0].protocol == protocol


def test_a_trusted_vault_fixes_the_chain_and_takes_no_protocol() -> None:
    response = parse(f"deposit 10 dai into {SDAI_VAULT}", (EVM_A, "ethereum"), (EVM_A, "base"))
    assert intents(response) == [
        {
            "action": "deposit",
            "asset": "DAI",
            "chain": "ethereum",
            "amount": Decimal("10"),
            "vault_address": SDAI_VAULT,
        }
    ]


def test_an_untrusted_vault_is_refused_naming_it() -> None:
    response = parse(f"deposit 10 usdc into {EVM_C} on base")
    assert response.intents == () and response.clarifications == ()
    assert EVM_C in response.reasoning and "trusts" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "buy an nft",
        "short eth with 10x leverage",
        "swap 100 pepe for eth",
        "stake eth on rocketpool",
        "hello there",
    ],
)
def test_what_the_service_cannot_do_is_refused_without_invented_intents(prompt: str) -> None:
    response = parse(prompt)
    assert response.intents == () and response.clarifications == ()
    assert response.reasoning


def test_a_fraction_is_resolved_from_the_requests_balances_rounded_down_to_decimals() -> None:
    response = parse(
        "swap a third of my usdc to eth on base",
        balances=(Balance(chain="base", asset="USDC", amount=Decimal("100")),),
    )
    assert response.intents[0].amount == Decimal("33.333333")


def test_a_fraction_without_a_balance_asks_how_much() -> None:
    response = parse("swap half my usdc to eth on base")
    assert kinds(response) == ["amount"]
    assert [option.id for option in response.clarifications[0].options] == ["amount:max"]
    assert "balance" in response.reasoning


def test_a_dollar_amount_without_a_price_asks_instead_of_guessing() -> None:
    response = parse("swap $100 worth of eth to usdc on base")
    assert kinds(response) == ["amount"]
    assert "price" in response.reasoning


def test_max_stays_symbolic_and_a_known_zero_balance_is_refused() -> None:
    assert parse("swap all my eth to usdc on base").intents[0].amount == "max"
    empty = parse(
        "swap all my eth to usdc on base", balances=(Balance(chain="base", asset="ETH", amount=Decimal("0")),)
    )
    assert empty.intents == () and "0" in empty.reasoning


def test_more_decimals_than_the_token_has_are_refused() -> None:
    response = parse("send 1.0000001 usdc to " + EVM_C)
    assert response.intents == () and "6 decimals" in response.reasoning


def test_usdc_on_bsc_takes_eighteen_decimals_from_the_registry() -> None:
    response = parse(f"send 1.0000001 usdc to {EVM_C} on bsc")
    assert response.intents[0].amount == Decimal("1.0000001")


def test_an_output_sent_to_another_chain_in_one_clause_becomes_a_chained_bridge() -> None:
    response = parse("withdraw 100 usdc from aave on arbitrum to base", (EVM_A, "arbitrum"))
    assert [(i.action, i.chain, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("withdraw", "arbitrum", None, None, Decimal(100)),
        ("bridge", None, "arbitrum", "base", "chained"),
    ]


def test_a_bridge_to_someone_elses_address_delivers_to_them() -> None:
    response = parse(f"bridge 100 usdc from ethereum to base to {EVM_C}", (EVM_A, "ethereum"))
    assert [(i.action, i.to_chain, i.recipient) for i in response.intents] == [("bridge", "base", EVM_C)]


def test_a_later_step_waits_for_the_chain_question_of_the_step_it_follows() -> None:
    response = parse("deposit 100 usdc into aave. then borrow 50 dai", (EVM_A, "ethereum"), (EVM_A, "base"))
    assert [item.id for item in response.clarifications] == ["clarify_chain_0"]


def test_the_step_after_an_answered_chain_inherits_it_and_the_protocol() -> None:
    first = parse("deposit 100 usdc into aave. then borrow 50 dai", (EVM_A, "ethereum"), (EVM_A, "base"))
    prompt = f"deposit 100 usdc into aave. then borrow 50 dai\n\nClarification \u2014 {first.clarifications[0].question}: Base"
    final = parse(prompt, (EVM_A, "ethereum"), (EVM_A, "base"), clarify_follow_up=True)
    assert [(i.action, i.chain, i.protocol) for i in final.intents] == [
        ("deposit", "base", "aave"),
        ("borrow", "base", "aave"),
    ]


def test_part_of_an_output_not_yet_landed_is_asked_not_guessed() -> None:
    response = parse(
        "bridge 0.5 eth from ethereum to arbitrum and swap half of it to usdc", (EVM_A, "ethereum")
    )
    assert [(item.id, item.kind) for item in response.clarifications] == [("clarify_amount_1", "amount")]


def test_lp_it_with_another_asset_pairs_the_carried_asset() -> None:
    response = parse(
        "bridge 100 usdc from ethereum to base then lp it with eth on uniswap", (EVM_A, "ethereum")
    )
    assert intents(response)[1] == {
        "action": "lp-add",
        "asset": "USDC",
        "protocol": "uniswap",
        "chain": "base",
        "amount": "chained",
        "pool_id": "USDC-ETH",
    }


@pytest.mark.parametrize(
    ("prompt", "action"), [("withdraw 1 eth from lido", "unstake"), ("deposit 2 eth into lido", "stake")]
)
def test_a_protocol_that_serves_the_neighbouring_action_takes_it(prompt: str, action: str) -> None:
    response = parse(prompt, (EVM_A, "ethereum"))
    assert [(i.action, i.protocol) for i in response.intents] == [(action, "lido")]


def test_each_item_of_a_clause_keeps_its_own_recipient() -> None:
    response = parse(f"send 0.1 eth to {EVM_C} and 0.2 eth to {EVM_B} on base")
    assert [(i.amount, i.recipient) for i in response.intents] == [
        (Decimal("0.1"), EVM_C),
        (Decimal("0.2"), EVM_B),
    ]


def test_sibling_items_do_not_chain_from_each_other() -> None:
    response = parse(
        "bridge 100 usdc from ethereum to base and 50 dai from ethereum to arbitrum", (EVM_A, "ethereum")
    )
    assert [(i.asset, i.from_chain, i.to_chain, i.amount) for i in response.intents] == [
        ("USDC", "ethereum", "base", Decimal(100)),
        ("DAI", "ethereum", "arbitrum", Decimal(50)),
    ]


@pytest.mark.parametrize(
    ("prompt", "from_chain", "to_chain", "asset"),
    [
        ("bridge 1 eth from mainnet to op", "ethereum", "optimism", "ETH"),
        ("bridge 1 ether from eth to arb", "ethereum", "arbitrum", "ETH"),
        ("bridge 1 usdc from matic to bnb", "polygon", "bsc", "USDC"),
        ("bridge 1 usdc from Arbitrum One to BNB Chain", "arbitrum", "bsc", "USDC"),
        ("bridge 1 usdc from sol to base", "solana", "base", "USDC"),
        ("brige 1 usdcc from etherum to arbitum", "ethereum", "arbitrum", "USDC"),
    ],
)
def test_chains_and_assets_resolve_by_alias_case_and_typo(
    prompt: str, from_chain: str, to_chain: str, asset: str
) -> None:
    response = parse(prompt, (EVM_A, "ethereum"), (SOL_A, "solana"))
    assert [(i.from_chain, i.to_chain, i.asset) for i in response.intents] == [(from_chain, to_chain, asset)]


def test_percent_words_and_number_words_read_as_amounts_only_before_an_asset() -> None:
    half = parse(
        "swap 50 percent of my eth to usdc on base",
        balances=(Balance(chain="base", asset="ETH", amount=Decimal("3")),),
    )
    assert half.intents[0].amount == Decimal("1.5")
    assert parse("swap one eth to usdc on base").intents[0].amount == Decimal(1)
    assert [item.kind for item in parse("send 5 usdc to my other one on base").clarifications] == [
        "recipient"
    ]


def test_wallet_chains_are_read_through_the_registry_names() -> None:
    response = parse("swap 1 eth to usdc", (EVM_A, "Arbitrum One"))
    assert response.intents[0].chain == "arbitrum"


def test_wallets_on_unknown_chains_are_ignored_and_none_left_is_refused() -> None:
    response = parse("swap 1 eth to usdc", (EVM_A, "dogechain"))
    assert response.intents == () and response.clarifications == ()
