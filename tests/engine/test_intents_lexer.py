"""Tokens, amounts as typed, and the typo tolerance (edit distance 1 on words of 4+ letters)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.intents.lexer import TypoIndex, tokenize, within_one_edit
from engine.intents.lexicon import Lexicon
from tests.engine.test_intents_support import EVM_A, SOL_A, parser


def _numbers(text: str) -> list[Decimal | None]:
    return [token.value for token in tokenize(text) if token.kind == "number"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12", "12"),
        ("12.5", "12.5"),
        ("1,000", "1000"),
        ("1,000,000.25", "1000000.25"),
        ("1.5k", "1500"),
        ("2m", "2000000"),
        ("3bn", "3000000000"),
        (".5", "0.5"),
        ("$100", "100"),
    ],
)
def test_numbers_as_users_type_them_are_exact(text: str, value: str) -> None:
    assert _numbers(text) == [Decimal(value)]


def test_a_number_glued_to_a_word_splits_into_two_tokens() -> None:
    kinds = [(token.kind, token.text) for token in tokenize("100usdc")]
    assert kinds == [("number", "100"), ("word", "usdc")]


def test_addresses_keep_their_case_and_words_are_lower_case() -> None:
    tokens = tokenize(f"Send to {EVM_A.upper().replace('0X', '0x')} and {SOL_A} on BASE")
    assert [token.kind for token in tokens] == ["word", "word", "evm", "word", "sol", "word", "word"]
    assert tokens[4].text == SOL_A
    assert tokens[-1].text == "base"


def test_ens_names_are_one_token_not_a_chain() -> None:
    assert [(token.kind, token.text) for token in tokenize("to vitalik.eth")] == [
        ("word", "to"),
        ("ens", "vitalik.eth"),
    ]


def test_possessive_s_is_dropped() -> None:
    assert [token.text for token in tokenize("solana's")] == ["solana"]


@pytest.mark.parametrize(
    ("left", "right", "close"),
    [
        ("etherum", "ethereum", True),
        ("arbitum", "arbitrum", True),
        ("usdcc", "usdc", True),
        ("swpa", "swap", True),
        ("brige", "bridge", True),
        ("bridge", "fridge", True),
        ("arbitrum", "abritrim", False),
        ("usdc", "dai", False),
    ],
)
def test_within_one_edit_counts_insertions_deletions_substitutions_and_swaps(
    left: str, right: str, close: bool
) -> None:
    assert within_one_edit(left, right) is close


def test_typo_index_leaves_short_protected_and_ambiguous_words_alone() -> None:
    index = TypoIndex({"move": "verb:move", "usdc": "asset:USDC", "usdt": "asset:USDT"}, ["more"])
    assert index.correct("mvoe") == "move"
    assert index.correct("more") is None  # a plain English word, never "move"
    assert index.correct("usd") is None  # shorter than four letters
    assert index.correct("usdx") is None  # as close to USDC as to USDT


def test_a_doubled_keystroke_breaks_a_tie() -> None:
    index = TypoIndex({"usdc": "asset:USDC", "usdce": "asset:USDC.e"}, [])
    assert index.correct("usdcc") == "usdc"


@pytest.mark.parametrize(
    ("word", "chain", "asset", "action"),
    [
        ("etherum", "ethereum", "ETH", None),
        ("arbitum", "arbitrum", None, None),
        ("usdcc", None, "USDC", None),
        ("polgon", "polygon", "POL", None),
        ("brige", None, None, "bridge"),
        ("case", None, None, None),
        ("more", None, None, None),
    ],
)
def test_the_lexicon_corrects_registry_names_and_verbs_but_not_plain_words(
    word: str, chain: str | None, asset: str | None, action: str | None
) -> None:
    lexicon: Lexicon = parser().lexicon
    (lexeme,) = lexicon.read(tokenize(word))
    assert (lexeme.chain, lexeme.asset, lexeme.action) == (chain, asset, action)


def test_multi_word_aliases_match_before_single_words() -> None:
    lexemes = parser().lexicon.read(tokenize("binance smart chain"))
    assert [(lexeme.kind, lexeme.chain) for lexeme in lexemes] == [("chain", "bsc")]
