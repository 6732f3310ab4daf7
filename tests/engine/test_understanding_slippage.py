"""Slippage the user states is a bound every swap of the request keeps, never a number set aside."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.intents.slippage import stated_slippage
from engine.limits import MAX_SLIPPAGE_BPS
from tests.engine.test_intents_support import EVM_A, parse


@pytest.mark.parametrize(
    ("prompt", "bps"),
    [
        ("swap 2 eth to usdc on base with max 0.5% slippage", 50),
        ("swap 1 eth -> usdc @ base, slippage=0.5%", 50),
        ("swap 1 eth to usdc on base, slippage 30 bps", 30),
        ("0.3% slippage max, swap 1 eth to usdc on base", 30),
        ("swap 1 eth to usdc on base, ensure slippage does not exceed 0.10%", 10),
        ("swap 1 eth to usdc on base with a slippage tolerance of 1%", 100),
        ("swap 1 eth to usdc on base, set slippage to 0,5%", 50),
    ],
)
def test_a_stated_slippage_bounds_the_swap(prompt: str, bps: int) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert [(i.action, i.amount, i.slippage_bps) for i in response.intents] == [
        ("swap", i.amount, bps) for i in response.intents
    ]
    assert len(response.intents) == 1
    assert "slippage" in response.reasoning


def test_every_swap_of_the_request_keeps_it_and_other_steps_carry_none() -> None:
    response = parse(
        "swap 1 eth to usdc on base then swap 500 usdc to dai on base, max slippage 0.3%", (EVM_A, "base")
    )
    assert [i.slippage_bps for i in response.intents] == [30, 30]
    bridged = parse(
        "bridge 100 usdc from ethereum to base with 0.5% slippage", (EVM_A, "ethereum"), (EVM_A, "base")
    )
    assert [(i.action, i.slippage_bps) for i in bridged.intents] == [("bridge", None)]
    assert "only a swap has a slippage" in bridged.reasoning


@pytest.mark.parametrize(
    "prompt",
    ["swap 1 eth to usdc on base, slippage 20%", "swap 1 eth to usdc on base with 0% slippage"],
)
def test_a_slippage_out_of_bounds_is_refused_with_the_range(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents and not response.clarifications
    assert "0.01% and 10%" in response.reasoning


@pytest.mark.parametrize(
    "prompt",
    [
        "swap 1 eth to usdc on base slippage 0.5",  # a percent or a fraction: nobody can say
        "swap 1 eth to usdc on base with 1% slippage, no, 2% slippage",  # two bounds are not one
    ],
)
def test_a_slippage_nobody_can_place_is_asked_never_guessed(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents


@pytest.mark.parametrize(
    "prompt", ["swap 10% of my eth to usdc on base", "sell 0.5% of my wbtc", "fees are 0.3% on that pool"]
)
def test_a_percent_that_is_no_slippage_is_left_to_the_reader(prompt: str) -> None:
    assert stated_slippage(prompt) == (prompt, None)


@given(st.integers(min_value=1, max_value=MAX_SLIPPAGE_BPS * 2))
def test_any_stated_basis_points_are_kept_exactly_or_refused(bps: int) -> None:
    _, said = stated_slippage(f"swap 1 eth to usdc, slippage {bps} bps")
    assert said is not None
    assert said.bps == (bps if bps <= MAX_SLIPPAGE_BPS else None)


@pytest.mark.parametrize(
    "prompt", ["send 100 USDC to 0x12ab...9f3e please. on base", "send 1 eth 0x9D59\u20261f5c on base"]
)
def test_a_shortened_address_is_never_a_payee_and_the_full_one_is_asked(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents
    assert [c.kind for c in response.clarifications] == ["recipient"]
    assert "shortened address" in response.reasoning


def test_an_address_prefix_is_no_leverage() -> None:
    response = parse("my cousin says his address starts with 0x, send him 5 usdc on base", (EVM_A, "base"))
    assert "leverage" not in response.reasoning
    assert not response.intents


@pytest.mark.parametrize(
    ("prompt", "bps"),
    [
        ('{"action":"swap","from":"USDC","to":"WETH","amount":"250","chain":"base","slippage":"0.3%"}', 30),
        ('{"action":"swap","from":"USDC","to":"WETH","amount":"250","chain":"base","slippage_bps":30}', 30),
        ("action=swap from=USDC to=WETH amount=250 chain=base slippage=0.3%", 30),
    ],
)
def test_a_scripts_slippage_field_bounds_its_swap(prompt: str, bps: int) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert [(i.action, i.slippage_bps) for i in response.intents] == [("swap", bps)]


def test_a_scripts_slippage_with_no_unit_is_asked_never_dropped() -> None:
    prompt = '{"action":"swap","from":"USDC","to":"WETH","amount":"250","chain":"base","slippage":0.5}'
    assert not parse(prompt, (EVM_A, "base")).intents
