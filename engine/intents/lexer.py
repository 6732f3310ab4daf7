"""Plain text -> tokens, and the typo tolerance (edit distance 1 on words of 4+ letters)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from engine.intents.numerals import (
    FRACTION_NAMES,
    GLUED_SCALES,
    NUMBER_WORDS,
    SCALES,
    read_fraction_words,
    read_literal,
    read_ratio,
    read_words,
    scaled,
    share,
)
from engine.intents.vocabulary import TYPO_MIN_LENGTH
from engine.intents.wording import HEART, unstretched
from engine.limits import MAX_TOKEN_AMOUNT

# EVM addresses are 0x + 40 hex digits (EIP-55 case kept as typed); Solana addresses are base58 of
# 32 to 44 characters (solana docs, "Accounts": a public key shown as a base58 string). A number is any
# run of digits with separators; numerals.read_literal decides what the separators mean.
_TOKEN_RE: Final = re.compile(
    r"""
    (?P<evm>0x[0-9a-fA-F]{40})(?![0-9a-zA-Z])
   |(?P<sol>[1-9A-HJ-NP-Za-km-z]{32,44})(?![0-9a-zA-Z])
   |(?P<ens>[a-zA-Z0-9-]+\.eth)(?![0-9a-zA-Z.])
   |(?P<sci>\d+(?:\.\d+)?[eE][+-]?\d+)(?![0-9a-zA-Z.])
   |(?P<number>\d(?:[\d.,]|['\u2019](?=\d{3}))*\d|\d|\.\d+)(?P<suffix>[a-zA-Z]+)?
   |(?P<word>[a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z](?![a-zA-Z]))?(?:'[a-zA-Z]+)?)
   |(?P<punct>->|=>|>=|<=|\u2192|[,;/$%&+?!:@#<>=~*()"\u20ac\u00a3]|\.|-|—|–)
    """,
    re.VERBOSE,
)

# Ether's symbol: "Ξ0.5" and "0.5 Ξ" are amounts of ETH.
_ETHER_BEFORE: Final = re.compile(r"\u039e\s*(\d[\d.,]*\d|\d|\.\d+)")
# A minus sign glued to a number and not to a word before it ("-1 eth", but not "eth-usdc").
_MINUS: Final = frozenset({"-", "\u2212"})

# Words that may start a spelled number or share.
_SPELLING_WORDS: Final = NUMBER_WORDS | frozenset(FRACTION_NAMES) | {"a", "an"}

# Bound on remembered corrections, so arbitrary text cannot grow memory without limit.
_CACHE_LIMIT: Final = 4096


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical item: kind is word, number, evm, sol, ens (an ENS name) or punct. Words are lower case;
    addresses keep case.

    A number carries its value, or None with `problem` when it is not one readable number. `share` marks a
    part of something rather than a quantity ("a third", "3/4"), `exact` whether that part has a finite
    decimal form, `spelled` a number written in words, `negative` a minus sign glued to it.
    """

    kind: str
    text: str
    value: Decimal | None = None
    scaled: bool = False
    spelled: bool = False
    share: bool = False
    exact: bool = True
    negative: bool = False
    problem: str | None = None


# Scale letters glued to a number that make no one scale ("kk", "kkk", "mk").
_SCALE_LETTERS: Final = re.compile(r"[kmb]{2,}")
_TWO_READINGS: Final = "written in a way that could mean two different numbers"


def _number_token(digits: str, suffix: str | None, negative: bool) -> list[Token]:
    numeral = read_literal(digits)
    value = numeral.value
    if suffix is None:
        return [Token("number", digits, value, negative=negative, problem=numeral.problem)]
    lowered = suffix.lower()
    if lowered in GLUED_SCALES:
        scaled_value = None if value is None else scaled(value, lowered)
        return [
            Token(
                "number",
                digits + lowered,
                scaled_value,
                scaled=True,
                negative=negative,
                problem=numeral.problem,
            )
        ]
    if _SCALE_LETTERS.fullmatch(lowered):
        # "1kk" is a million to some and "1, ok" to others: read as 1 it was a wrong amount, so it is asked.
        return [Token("number", digits + lowered, None, negative=negative, problem=_TWO_READINGS)]
    # "100usdc", "10x": a number glued to a word.
    return [
        Token("number", digits, value, negative=negative, problem=numeral.problem),
        Token("word", lowered),
    ]


def _scientific(text: str) -> Token:
    """ "1e3" (as JSON and spreadsheets write 1000): its value when the exponent is small enough that the
    amount can be one (bounded before any arithmetic), else asked; never read as the digits around the e."""
    mantissa, _, exponent = text.lower().partition("e")
    if len(exponent.lstrip("+-")) > 2:
        return Token("number", text, None, problem=_SCIENTIFIC)
    value = Decimal(mantissa).scaleb(int(exponent))
    if value > MAX_TOKEN_AMOUNT:
        return Token("number", text, None, problem=_SCIENTIFIC)
    return Token("number", text, Decimal(int(value)) if value == value.to_integral() else value)


_SCIENTIFIC: Final = "a number in scientific notation too large to be an amount"


def _looks_like_solana(text: str) -> bool:
    return any(char.isdigit() for char in text) or (text != text.lower() and text != text.upper())


def tokenize(text: str) -> list[Token]:
    """Split text into tokens; never raises. Possessive 's is dropped ("solana's" -> "solana"); spelled
    numbers, fractions and ratios are read into number tokens (see numerals.py)."""
    normalized = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2212", "-")
    normalized = _ETHER_BEFORE.sub(r" \1 eth ", normalized).replace("\u039e", " eth ")
    normalized = HEART.sub(" ", normalized)
    tokens: list[Token] = []
    # (start, end) of each token in `normalized`, to tell "3/4" from "3 / 4".
    spans: list[tuple[int, int]] = []
    for match in _TOKEN_RE.finditer(normalized):
        start = match.start()
        if match.group("evm"):
            tokens.append(Token("evm", match.group("evm")))
        elif match.group("ens"):
            tokens.append(Token("ens", match.group("ens").lower()))
        elif match.group("sci"):
            tokens.append(_scientific(match.group("sci")))
        elif match.group("number"):
            negative = (
                bool(tokens)
                and tokens[-1].kind == "punct"
                and tokens[-1].text in _MINUS
                and spans[-1][1] == start
                and (spans[-1][0] == 0 or not normalized[spans[-1][0] - 1].isalnum())
            )
            if negative:
                tokens.pop()
                start = spans.pop()[0]
            made = _number_token(match.group("number"), match.group("suffix"), negative)
            tokens.extend(made)
            spans.extend([(start, match.end())] * len(made))
            continue
        elif match.group("sol") and _looks_like_solana(match.group("sol")):
            tokens.append(Token("sol", match.group("sol")))
        elif match.group("sol") or match.group("word"):
            word = unstretched((match.group("sol") or match.group("word")).lower())
            if word.endswith("'s"):
                word = word[:-2]
            tokens.append(Token("word", word))
        else:
            tokens.append(Token("punct", match.group("punct")))
        spans.append((start, match.end()))
    tokens, spans = _space_groups(tokens, spans)
    return _vague(_join_and_a_part(_read_spelled(_read_ratios(tokens, spans))))


# Words that make the scale after them no number at all ("a couple thousand", "a few hundred").
_VAGUE: Final = frozenset({"couple", "few", "several", "some", "many", "bunch", "handful", "coupla"})
_VAGUE_AMOUNT: Final = "a rough amount, not a number"


def _vague(tokens: list[Token]) -> list[Token]:
    """ "like a couple thousand": the scale word alone would read as 1,000; with a vague word before it,
    the number is unsaid and asked."""
    out: list[Token] = []
    for token in tokens:
        scale_alone = token.kind == "number" and (token.text in SCALES or token.text == "hundred")
        if scale_alone and out and out[-1].kind == "word" and out[-1].text in _VAGUE:
            vague = out.pop()
            out.append(Token("number", f"{vague.text} {token.text}", None, problem=_VAGUE_AMOUNT))
            continue
        out.append(token)
    return out


_GROUP: Final = re.compile(r"\d{3}")
_LEADING_GROUP: Final = re.compile(r"\d{1,3}")


def _space_groups(
    tokens: list[Token], spans: list[tuple[int, int]]
) -> tuple[list[Token], list[tuple[int, int]]]:
    """ "1 000" (digits grouped by a space) is one unreadable number: 1000 to some, 1 and 0 to others, so
    the amount is asked rather than read as either."""
    out: list[Token] = []
    out_spans: list[tuple[int, int]] = []
    for token, span in zip(tokens, spans, strict=True):
        previous = out[-1] if out else None
        if (
            previous is not None
            and previous.kind == "number"
            and token.kind == "number"
            and _GROUP.fullmatch(token.text)
            and _LEADING_GROUP.fullmatch(previous.text.split(" ")[0])
            and all(_GROUP.fullmatch(part) for part in previous.text.split(" ")[1:])
            and span[0] == out_spans[-1][1] + 1
        ):
            text = f"{previous.text} {token.text}"
            out[-1] = Token("number", text, None, problem="digits split by a space")
            out_spans[-1] = (out_spans[-1][0], span[1])
            continue
        out.append(token)
        out_spans.append(span)
    return out, out_spans


# Parts that may follow a whole number written in digits: "1 and a half", "2 and a quarter".
_AND_A_PART: Final = frozenset({"a half", "a quarter", "three quarters"})


def _join_and_a_part(tokens: list[Token]) -> list[Token]:
    """ "1 and a half" is one number, 1.5: a whole number in digits, "and", then a spelled part."""
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        part = tokens[index + 2] if index + 2 < len(tokens) else None
        if (
            token.kind == "number"
            and token.value is not None
            and not token.share
            and token.value == token.value.to_integral_value()
            and part is not None
            and tokens[index + 1].text == "and"
            and part.kind == "number"
            and part.text in _AND_A_PART
            and part.value is not None
        ):
            text = f"{token.text} and {part.text}"
            out.append(Token("number", text, token.value + part.value, negative=token.negative))
            index += 3
            continue
        out.append(token)
        index += 1
    return out


def _read_ratios(tokens: list[Token], spans: list[tuple[int, int]]) -> list[Token]:
    """ "3/4" written without spaces is one share token (1/3 too, marked inexact)."""
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (
            token.kind == "number"
            and index + 2 < len(tokens)
            and tokens[index + 1].text == "/"
            and tokens[index + 2].kind == "number"
            and spans[index][1] == spans[index + 1][0]
            and spans[index + 1][1] == spans[index + 2][0]
        ):
            ratio = read_ratio(token.text, tokens[index + 2].text)
            text = f"{token.text}/{tokens[index + 2].text}"
            if ratio is None:
                out.append(Token("number", text, None, problem="not a fraction of a balance"))
            else:
                out.append(
                    Token("number", text, ratio[0], share=True, exact=ratio[1], negative=token.negative)
                )
            index += 3
            continue
        out.append(token)
        index += 1
    return out


def _read_spelled(tokens: list[Token]) -> list[Token]:
    """Runs of number words become number tokens: "two hundred" (200), "one and a half" (1.5), "half an"
    (0.5 of what follows), and shares: "half", "a third", "two thirds"."""
    if not any(token.kind == "word" and token.text in _SPELLING_WORDS for token in tokens):
        return tokens
    words = [token.text if token.kind in ("word", "punct") else "" for token in tokens]
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        if tokens[index].kind != "word":
            out.append(tokens[index])
            index += 1
            continue
        made, used = _spelled_at(words, index)
        if made is None:
            out.append(tokens[index])
            index += 1
        else:
            out.append(made)
            index += used
    return out


def _spelled_at(words: list[str], index: int) -> tuple[Token | None, int]:
    word = words[index]
    following = words[index + 1] if index + 1 < len(words) else ""
    if word == "half" and following in ("a", "an"):
        after = words[index + 2] if index + 2 < len(words) else ""
        if after in SCALES:
            return Token(
                "number",
                f"half {following} {after}",
                scaled(Decimal("0.5"), after),
                spelled=True,
                scaled=True,
            ), 3
        return Token("number", f"half {following}", Decimal("0.5"), spelled=True), 2
    if word in ("quarter", "third") and following == "of":
        value, exact = share(1, 4 if word == "quarter" else 3)
        return Token("number", word, value, spelled=True, share=True, exact=exact), 1
    fraction = read_fraction_words(words, index)
    if fraction is not None:
        text = " ".join(words[index : index + fraction.used])
        of_one = tuple(words[index + fraction.used : index + fraction.used + 2])
        if of_one in (("of", "a"), ("of", "an"), ("of", "one")) and fraction.exact:
            # "three quarters of an eth": a part of one token, a quantity (0.75), not a share of a balance.
            return Token("number", f"{text} of {of_one[1]}", fraction.value, spelled=True), fraction.used + 2
        return Token(
            "number", text, fraction.value, spelled=True, share=True, exact=fraction.exact
        ), fraction.used
    spelled = read_words(words, index)
    if spelled is not None:
        text = " ".join(words[index : index + spelled.used]).replace(" - ", "-")
        before = words[index - 1] if index > 0 else ""
        if word in ("hundred", "thousand") and before in _SOUNDS_LIKE_A_NUMBER:
            # "send for hundred usdt": dictation may have written "four" as "for"; asked, never guessed.
            return Token(
                "number", f"{before} {text}", None, spelled=True, problem=_HEARD_TWO_WAYS
            ), spelled.used
        return Token("number", text, spelled.value, spelled=True), spelled.used
    return None, 1


# Words dictation writes for a number word they sound like ("for" four, "to"/"too" two, "won" one).
_SOUNDS_LIKE_A_NUMBER: Final = frozenset({"for", "fore", "to", "too", "won", "ate", "tree"})
_HEARD_TWO_WAYS: Final = "heard in a way that could mean two different numbers"


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
