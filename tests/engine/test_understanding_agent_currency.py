"""/agents: a threshold in a currency other than the US dollar is asked, never read as dollars."""

from __future__ import annotations

import pytest

from engine.agents import Compiled, NeedsClarification, compile_request

WALLET = "0x1111111111111111111111111111111111111111"


@pytest.mark.parametrize(
    "request_",
    [
        "Let me know if BNB falls under 500 quid",
        "alert me when eth is above £3,000",
        "tell me if btc drops below 50,000 €",
        "ping me if my portfolio is worth less than 20k euros",
    ],
)
def test_a_foreign_currency_figure_is_asked_and_the_answer_compiles(request_: str) -> None:
    asked = compile_request(request_, [WALLET])
    assert isinstance(asked, NeedsClarification)
    assert "US dollars" in asked.question
    (option,) = asked.options
    answered = compile_request(f"{request_}\n\nClarification — {asked.question}: {option.label}", [WALLET])
    assert isinstance(answered, Compiled | NeedsClarification)
    if isinstance(answered, NeedsClarification):
        assert "US dollars" not in answered.question


def test_dollar_figures_are_not_asked_about_their_currency() -> None:
    for request_ in ("alert me if eth drops below 2500", "alert me if eth drops below $2,500"):
        result = compile_request(request_, [WALLET])
        assert not (isinstance(result, NeedsClarification) and "US dollars" in result.question)
