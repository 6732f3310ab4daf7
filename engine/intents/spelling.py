"""A token name the registry does not know but that is one keystroke from names it does ("eht"): the
reader asks which was meant, offering those names, and reads the picked name in place of the misspelling.
Nothing is guessed: a short word is too close to too many names to be corrected silently."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from engine.intents.lexer import within_one_edit
from engine.intents.vocabulary import VERBS

# Contract: a clarification offers at most 4 options.
_MOST: Final = 4
_QUESTION: Final = 'I don\'t know a token called "{word}". Did you mean one of these?'
_VENUE_QUESTION: Final = 'I don\'t know a protocol or chain called "{word}". Did you mean one of these?'
_ASKED: Final = re.compile(
    r"^I don't know a (?:token|protocol or chain) called \"(?P<word>[^\"]+)\"\. Did you mean one of "
    r"these\?$",
    re.I,
)


def token_question(word: str) -> str:
    """The question that asks which token a misspelt name meant."""
    return _QUESTION.format(word=word)


def venue_question(word: str) -> str:
    """The question that asks which protocol or chain a misspelt name meant."""
    return _VENUE_QUESTION.format(word=word)


def near_names(word: str, aliases: Mapping[str, str]) -> list[str]:
    """The names `word` may be a slip of (at most four, in name order): one edit away ("eht"), the same
    when heard ("die", "dye" for DAI; "ave" for aave; "leedo" for lido: `sounds_like`), or a long name's
    first five letters ("arbitrary" for arbitrum). None for words shorter than three letters, which are
    one edit from almost anything."""
    if len(word) < 3:
        return []
    symbols = {
        symbol
        for alias, symbol in aliases.items()
        if len(alias) >= 3
        and (
            within_one_edit(word, alias)
            or sounds_like(word, alias)
            or (len(alias) >= 6 and len(word) >= 6 and word[:5] == alias[:5])
        )
    }
    return sorted(symbols)[:_MOST]


_VOWEL_LIKE: Final = frozenset("aeiouyhw")


def sounds_like(word: str, name: str) -> bool:
    """True when two words of letters share their sound skeleton: the first letter, then the consonants
    in order with repeats merged ("leedo" and "lido" are l-d; "dye" and "dai" are d). Evaluated beside
    jellyfish's Metaphone and NYSIIS (docs/decisions.md): those miss "dye"/DAI and "ave"/aave."""
    if not (word.isalpha() and name.isalpha()) or word == name:
        return False
    return _skeleton(word) == _skeleton(name) and abs(len(word) - len(name)) <= 2


def _skeleton(word: str) -> str:
    out = word[0]
    for char in word[1:]:
        if char in _VOWEL_LIKE or char == out[-1]:
            continue
        out += char
    return out


def respelled(prompt: str, answers: Sequence[tuple[str, str]]) -> str:
    """The prompt with each misspelling an answer names replaced by the picked token name."""
    for question, label in answers:
        asked = _ASKED.match(question.strip())
        if asked is not None and label.strip():
            word = re.escape(asked.group("word"))
            prompt = re.sub(rf"(?<![\w.]){word}(?![\w])", label.strip(), prompt, flags=re.I)
    return prompt


# A chat fix: "*eth" after the message, alone or on a line of its own, respells the word it is one
# keystroke from ("swap 100 usdc for eht on base *eth").
_STAR_FIX: Final = re.compile(r"(?:(?<=\s)|^)\*(?P<word>[A-Za-z][\w.]*)(?=\W*$|\s)", re.M)
_WORD: Final = re.compile(r"[A-Za-z][\w.]*")


def star_fixed(prompt: str) -> str:
    """The prompt with each "*word" fix applied: the last earlier word one edit from it (and not already
    it) is replaced by it and the fix is dropped. A fix that is one edit from no earlier word is left where
    it is: the reader reads it as a correction of its own ("..., *optimism") or asks about it."""
    for match in reversed(list(_STAR_FIX.finditer(prompt))):
        fix = match.group("word")
        before = prompt[: match.start()]
        candidates = [
            word
            for word in _WORD.finditer(before)
            if len(word.group()) >= 3
            and word.group().lower() != fix.lower()
            and within_one_edit(word.group().lower(), fix.lower())
        ]
        if not candidates:
            continue
        last = candidates[-1]
        prompt = before[: last.start()] + fix + before[last.end() :] + prompt[match.end() :]
    return prompt


# A cashtag: "$usdc" names the token, it is no dollar sign ("swap 62.125 $dai to usdc").
_CASHTAG: Final = re.compile(r"(?<![\w$])\$(?=[A-Za-z])")


def chat_text(prompt: str) -> str:
    """The prompt with chat spelling undone: "*word" fixes applied, cashtags read as token names, and an
    address dictated as "zero ex" and its 40 hex digits written as one."""
    text = _DICTATED_ADDRESS.sub(r"0x\1", _CASHTAG.sub("", star_fixed(prompt)))
    return _GLUED_ADDRESS.sub(r"\1 \2", _GLUED_VERB.sub(_unglued, text))


# Words typed fast without their space: "bridge100 usdc", "send50 dai", "to0x60c9...". Only a verb before
# digits, or a preposition before an address, is split: a token name with digits ("usdc2") is left alone.
_GLUED_VERB: Final = re.compile(r"\b([a-z]{3,12})(\d[\d.,]*)(?=\s|$)", re.IGNORECASE)
_GLUED_ADDRESS: Final = re.compile(r"\b(to|for|at|from)(0x[0-9a-fA-F]{40})\b", re.IGNORECASE)


def _unglued(match: re.Match[str]) -> str:
    word = match.group(1)
    return f"{word} {match.group(2)}" if word.lower() in VERBS else match.group(0)


# "to zero ex 08492f37f1bb...": dictation writes "0x" as words; the 40 hex digits after it are the address.
_DICTATED_ADDRESS: Final = re.compile(
    r"\bzero[\s-]*(?:ex|x)\s+([0-9a-fA-F]{40})(?![0-9a-zA-Z])", re.IGNORECASE
)
