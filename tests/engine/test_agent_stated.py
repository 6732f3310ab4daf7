"""What a request's words state on their own (the model path's check of a restatement): the condition's
sides outside any follow-on action, "either way", the action itself and the portfolio windows."""

from __future__ import annotations

import pytest

from engine.agents.stated import stated


@pytest.mark.parametrize(
    ("text", "sides", "action"),
    [
        ("if eth pumps 10% take profit", {"above"}, "take profit"),
        ("tell me if eth drops below 3000", {"below"}, None),
        ("ping me when eth hits 4000", set(), None),
        # "dump" is a move word, but here it is the action: it names no side.
        ("if eth hits 4k dump it", set(), "dump it"),
        ("repay 200 dai if my aave health on base drops below 1.5", {"below"}, "repay 200 dai"),
    ],
)
def test_sides_outside_the_action(text: str, sides: set[str], action: str | None) -> None:
    said = stated(text)
    assert (set(said.sides), said.action) == (sides, action)


def test_an_answer_line_states_its_side() -> None:
    said = stated("ping me when eth hits 4000\n\nClarification \u2014 Which side?: Above $4,000")
    assert said.sides == {"above"}


def test_either_way_and_windows() -> None:
    said = stated("my portfolio moves 10% either way over a week")
    assert said.either_way and not said.sides and said.windows == {"7d"}
    said = stated("my bag drops 10% in a day")
    assert not said.either_way and said.sides == {"below"} and said.windows == {"24h"}


def test_a_windows_own_words_name_no_side() -> None:
    assert stated("eth dumps 10% over a day").sides == {"below"}
