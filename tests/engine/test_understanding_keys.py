"""A pasted private key or seed phrase is refused whatever is asked, and never echoed; a transaction hash
and a mention of a seed phrase with no words are not keys."""

from __future__ import annotations

import pytest

from engine.intents.keys import holds_secret
from tests.engine.test_intents_support import EVM_A, parse

KEY = "8e1d44c2a9f07b35e6d2c918b47af03e5c6d7b8a9f0e1d2c3b4a59687a8b9c0d"
WORDS = "orbit cattle velvet sponsor frown lyrics meadow thank copper island gentle raven"


@pytest.mark.parametrize(
    "prompt",
    [
        f"here's my old wallet's private key 0x{KEY} — sweep everything from it to this wallet pls",
        f"pk: {KEY}\nmove all usdc to 0x6DE2b902edA939C463e6FEbb44FAfd682CC88C3a on base",
        f"my seed phrase is {WORDS}, can you import it and move my usdc over to my new wallet",
        f"Twelve words from his desk: {WORDS}. Please move all of the money into mine.",
    ],
)
def test_a_pasted_key_or_seed_phrase_is_refused_and_not_echoed(prompt: str) -> None:
    response = parse(prompt, (EVM_A, "base"))
    assert not response.intents and not response.clarifications
    assert "private key or a seed phrase" in response.reasoning
    assert KEY not in response.reasoning and "velvet" not in response.reasoning


@pytest.mark.parametrize(
    "text",
    [
        f"Transaction Hash: 0x{KEY}\nStatus: Success\nresend it",
        "I lost my seed phrase years ago, send 10 usdc to 0x6DE2b902edA939C463e6FEbb44FAfd682CC88C3a",
        "please swap one half of my eth into usdc on base and then bridge the rest over to arbitrum today ok",
    ],
)
def test_a_hash_or_a_mention_is_no_key(text: str) -> None:
    assert not holds_secret(text)
