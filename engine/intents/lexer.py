"""Plain text -> tokens, and the typo tolerance (edit distance 1 on words of 4+ letters)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from engine.intents.vocabulary import SCALES, TYPO_MIN_LENGTH

# EVM addresses are 0x + 40 hex digits (EIP-55 case kept as typed); Solana addresses are base58 of
# 32 to 44 characters (solana docs, "Accounts": a public key shown as a base58 string).
_TOKEN_RE: Final = re.compile(
    r"""
    (?P<evm>0x[0-9a-fA-F]{40})(?![0-9a-zA-Z])
   |(?P<sol>[1-9A-HJ-NP-Za-km-z]{32,44})(?![0-9a-zA-Z])
   |(?P<ens>[a-zA-Z0-9-]+\.eth)(?![0-9a-zA-Z.])
   |(?P<number>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?P<suffix>[a-zA-Z]+)?
   |(?P<word>[a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z](?![a-zA-Z]))?(?:'[a-zA-Z]+)?)
   |(?P<punct>->|=>|\u2192|[,;/$%&+?!:]|\.|-|—|–)
    """,
    re.VERBOSE,
)

# Bound on remembered corrections, so arbitrary text cannot grow memory without limit.
_CACHE_LIMIT: Final = 4096


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical item: kind is word, number, evm, sol, ens (an ENS name) or punct. Words are lower case; addresses keep case."""

    kind: str
    text: str
    value: Decimal | None = None
    scaled: bool = False


def _number_token(digits: str, suffix: str | None) -> list[Token]:
    value = Decimal(digits.replace(",", ""))
    if suffix is None:
        return [Token("number", digits, value)]
    lowered = suffix.lower()
    if lowered in SCALES:
        return [Token("number", digits + lowered, value * SCALES[lowered], scaled=True)]
    # "100usdc", "10x": a number glued to a word.
    return [Token("number", digits, value), Token("word", lowered)]


def _looks_like_solana(text: str) -> bool:
    return any(char.isdigit() for char in text) or (text != text.lower() and text != text.upper())


def tokenize(text: str) -> list[Token]:
    """Split text into tokens; never raises. Possessive 's is dropped ("solana's" -> "solana")."""
    normalized = text.replace("\u2019", "'").replace("\u2018", "'")
    tokens: list[Token] = []
    for match in _TOKEN_RE.finditer(normalized):
        if match.group("evm"):
            tokens.append(Token("evm", match.group("evm")))
        elif match.group("ens"):
            tokens.append(Token("ens", match.group("ens").lower()))
        elif match.group("number"):
            tokens.extend(_number_token(match.group("number"), match.group("suffix")))
        elif match.group("sol") and _looks_like_solana(match.group("sol")):
            tokens.append(Token("sol", match.group("sol")))
        elif match.group("sol") or match.group("word"):
            word = (match.group("sol") or match.group("word")).lower()
            if word.endswith("'s"):
                word = word[:-2]
            tokens.append(Token("word", word))
        else:
            tokens.append(Token("punct", match.group("punct")))
    return tokens


def within_one_edit(left: str, right: str) -> bool:
    """True when the strings differ by at most one insertion, deletion, substitution or adjacent swap."""
    if left == right:
        return True
    len_left, len_right = len(left), len(right)
    if abs(len_left - len_right) > 1:
        return False
    if len_left == len_right:
        diffs = [index for index in range(len_left) if left[index] != right[index]]
        if len(diffs) == 1:
            return True
        first = diffs[0]
        return (
            len(diffs) == 2
            and diffs[1] == first + 1
            and left[first] == right[first + 1]
            and left[first + 1] == right[first]
        )
    short, long = (left, right) if len_left < len_right else (right, left)
    return any(long[:index] + long[index + 1 :] == short for index in range(len(long)))


class TypoIndex:
    """Corrects a word to the one vocabulary entry within edit distance 1; ambiguous words stay unknown."""

    def __init__(self, entries: Mapping[str, str], protected: Iterable[str]) -> None:
        self._entries = dict(entries)
        self._protected = frozenset(protected)
        self._cache: dict[str, str | None] = {}

    def correct(self, word: str) -> str | None:
        """The vocabulary key the word is a typo of, or None (exact words, short words, ties: None)."""
        if len(word) < TYPO_MIN_LENGTH or word in self._entries or word in self._protected:
            return None
        if word in self._cache:
            return self._cache[word]
        hits = {key for key in self._entries if len(key) >= 3 and within_one_edit(word, key)}
        meanings = {self._entries[key] for key in hits}
        result = min(hits) if len(meanings) == 1 else None
        if len(meanings) > 1:
            # A doubled keystroke ("usdcc") is the likeliest slip: prefer the key it collapses to.
            collapsed = {
                word[:index] + word[index + 1 :]
                for index in range(1, len(word))
                if word[index] == word[index - 1]
            }
            doubled = sorted(hits & collapsed)
            result = doubled[0] if len(doubled) == 1 else None
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[word] = result
        return result
