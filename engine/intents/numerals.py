"""Numbers as people write them: digit literals with separators and suffixes, number words, fractions.

One reader for the intent parser and the agent compiler, so "three thousand" means 3000 in both. The rules
for forms that could be read two ways are fixed here and recorded in docs/decisions.md:
- a comma followed by groups of exactly three digits is a thousands separator ("1,000", "12,500,000"),
  unless the whole part is 0 ("0,500" is a half); any other single comma is a decimal comma ("0,5", "2,75");
- "1,000.5" is English notation; "1.250,50" and "2.000,00" (dots between groups of three, then a decimal
  comma), "1.000.000" (two or more dot groups of three) and the Swiss "1'500" have one reading only and
  are read so; a literal that mixes separators any other way ("1,00,000", "1.000,5.0") is ambiguous and
  never read as a number (the reader asks instead);
- suffixes k, m, mm, mil, b, bn (and the words thousand, million, billion, grand) multiply: "2m" is two
  million, never two minutes, in an amount.
Every literal goes through engine.numbers.parse_decimal (bounded) before any arithmetic.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, localcontext
from fractions import Fraction
from typing import Final

from engine.numbers import NumberOutOfRange, parse_decimal

# Scale words and suffixes -> multiplier. "hundred" only as a separate word ("5 hundred").
SCALES: Final[dict[str, int]] = {
    "k": 1_000,
    "thousand": 1_000,
    "grand": 1_000,
    "m": 1_000_000,
    "mm": 1_000_000,
    "mil": 1_000_000,
    "mln": 1_000_000,
    "million": 1_000_000,
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
    # South Asian English: a lakh is a hundred thousand, a crore ten million ("2 lakh usdc").
    "lakh": 100_000,
    "lakhs": 100_000,
    "lac": 100_000,
    "lacs": 100_000,
    "crore": 10_000_000,
    "crores": 10_000_000,
    # As learners write them after a number ("3 thousands USDC"); alone ("thousands of usdc") they are no
    # number, and the lexer reads no number word from them.
    "thousands": 1_000,
    "millions": 1_000_000,
    "billions": 1_000_000_000,
}
# Suffixes that may be glued to digits ("1.5k"); "hundred" is a word only.
GLUED_SCALES: Final = frozenset(SCALES) - {"thousands", "millions", "billions"}

_UNITS: Final[dict[str, int]] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_TEENS: Final[dict[str, int]] = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS: Final[dict[str, int]] = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_BIG: Final[dict[str, int]] = {
    "thousand": 1_000,
    "grand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "lakh": 100_000,
    "lakhs": 100_000,
    "crore": 10_000_000,
    "crores": 10_000_000,
}

# Fraction words -> the share they name ("a third", "two thirds", "three quarters").
FRACTION_NAMES: Final[dict[str, tuple[int, int]]] = {
    "half": (1, 2),
    "halves": (1, 2),
    "third": (1, 3),
    "thirds": (1, 3),
    "quarter": (1, 4),
    "quarters": (1, 4),
    "fourth": (1, 4),
    "fourths": (1, 4),
    "fifth": (1, 5),
    "fifths": (1, 5),
    "tenth": (1, 10),
    "tenths": (1, 10),
}

# Every word that can be part of a spelled number.
NUMBER_WORDS: Final[frozenset[str]] = frozenset(
    {*_UNITS, *_TEENS, *_TENS, "hundred", *_BIG, "dozen", "point"}
)

# Longest run of words read as one number; longer runs are not numbers people write.
_MAX_WORDS: Final = 12
# Largest numerator or denominator of a written ratio ("3/4"); beyond it it is not a fraction of a balance.
_MAX_RATIO_TERM: Final = 1000

_THOUSANDS: Final = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_DECIMAL_COMMA: Final = re.compile(r"\d+,\d+")
_PLAIN: Final = re.compile(r"\d+(?:\.\d+)?|\.\d+")
# "1.250,50", "2.000,00": dots between groups of three and a decimal comma (only one reading).
_DOT_GROUPS_COMMA: Final = re.compile(r"\d{1,3}(?:\.\d{3})+,\d+")
# "1.000.000": two or more dot groups of three cannot be a decimal point.
_DOT_GROUPS: Final = re.compile(r"\d{1,3}(?:\.\d{3}){2,}")
# "1'500", "12'000.50": the Swiss thousands apostrophe (straight or typographic).
_APOSTROPHE_GROUPS: Final = re.compile(r"\d{1,3}(?:['\u2019]\d{3})+(?:\.\d+)?")
# "1.500", "2.000", "12.250": a dot before three digits that end in a zero, after a whole part that is not
# 0, is a thousands separator to many ("1.500" is 1500 in much of Europe) and a decimal point to others;
# nobody writes 1.5 padded to three places, so the amount is asked rather than read a thousand times off.
_DOT_THOUSANDS: Final = re.compile(r"[1-9]\d{0,2}\.\d\d0")


@dataclass(frozen=True, slots=True)
class Numeral:
    """A literal as read: its value, or None with the reason it is not read as one number."""

    value: Decimal | None
    problem: str | None = None


def read_literal(raw: str) -> Numeral:
    """The value of a digit literal with separators ("1,000", "0,5", "12.5"), by the rules above."""
    try:
        if _DOT_THOUSANDS.fullmatch(raw):
            return Numeral(None, "written in a way that could mean two different numbers")
        if _PLAIN.fullmatch(raw):
            return Numeral(parse_decimal(raw))
        if _THOUSANDS.fullmatch(raw) and not raw.startswith("0,"):
            return Numeral(parse_decimal(raw.replace(",", "")))
        if _DECIMAL_COMMA.fullmatch(raw):
            return Numeral(parse_decimal(raw.replace(",", ".")))
        if _DOT_GROUPS_COMMA.fullmatch(raw):
            return Numeral(parse_decimal(raw.replace(".", "").replace(",", ".")))
        if _DOT_GROUPS.fullmatch(raw):
            return Numeral(parse_decimal(raw.replace(".", "")))
        if _APOSTROPHE_GROUPS.fullmatch(raw):
            return Numeral(parse_decimal(raw.replace("'", "").replace("\u2019", "")))
    except NumberOutOfRange:
        return Numeral(None, "too large or too long to be an amount")
    except ValueError:
        pass
    return Numeral(None, "written in a way that could mean two different numbers")


def two_readings(raw: str) -> tuple[Decimal, Decimal] | None:
    """The two numbers a literal such as "2.000" or "1.500" can mean (2 and 2000), for asking which; None
    for any literal that is not written that way."""
    if not _DOT_THOUSANDS.fullmatch(raw):
        return None
    return parse_decimal(raw).normalize(), parse_decimal(raw.replace(".", ""))


def scaled(value: Decimal, suffix: str) -> Decimal:
    """value x the scale a suffix or scale word names (the caller checks the suffix is in SCALES)."""
    return value * SCALES[suffix]


def read_ratio(numerator: str, denominator: str) -> tuple[Decimal, bool] | None:
    """A written ratio "3/4" -> (value, exact) for a proper fraction (0 < n < d <= 1000); `exact` is False
    when the value has no finite decimal form (1/3). None when it is not a proper fraction."""
    if not (numerator.isdigit() and denominator.isdigit()) or len(numerator) > 4 or len(denominator) > 4:
        return None
    top, bottom = int(numerator), int(denominator)
    if not 0 < top < bottom <= _MAX_RATIO_TERM:
        return None
    return share(top, bottom)


def share(top: int, bottom: int) -> tuple[Decimal, bool]:
    """top/bottom as a Decimal, and whether that is exact (the reduced denominator is 2^a * 5^b)."""
    rest = bottom // _gcd(top, bottom)
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    # Rounded down, so a share of a balance never comes out above the exact share.
    with localcontext(rounding=ROUND_DOWN):
        return Decimal(top) / Decimal(bottom), rest == 1


def exact_ratio(value: Decimal) -> tuple[int, int] | None:
    """The small fraction (denominator up to _MAX_RATIO_TERM) whose rounded-down decimal, as `share`
    computes it, is exactly `value`; None when there is none. It recovers 1/3 from 0.3333..."""
    approx = Fraction(value).limit_denominator(_MAX_RATIO_TERM)
    if approx.denominator == 1 or share(approx.numerator, approx.denominator)[0] != value:
        return None
    return approx.numerator, approx.denominator


def _gcd(left: int, right: int) -> int:
    while right:
        left, right = right, left % right
    return left


@dataclass(frozen=True, slots=True)
class Spelled:
    """A run of number words: its value, how many words it used, and whether it names a share of
    something ("two thirds", "a quarter") rather than a quantity."""

    value: Decimal
    used: int
    fraction: bool = False
    exact: bool = True


def read_words(words: Sequence[str], start: int) -> Spelled | None:
    """The number spelled by the words from `start` ("two hundred", "a thousand", "one and a half",
    "twenty-five" as "twenty", "-", "five"), or None when no number starts there."""
    total, current, index, last = 0, 0, start, ""
    best: tuple[int, Decimal] | None = None
    end = min(len(words), start + _MAX_WORDS)
    while index < end:
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in ("a", "an") and last == "" and following in ("hundred", *_BIG, "dozen"):
            current, last = 1, "a"
        elif word in _UNITS and last in ("", "tens", "hundred", "big", "and", "dash"):
            current += _UNITS[word]
            last = "unit"
        elif word in _TEENS and last in ("", "hundred", "big", "and"):
            current += _TEENS[word]
            last = "teen"
        elif word in _TENS and last in ("", "hundred", "big", "and"):
            current += _TENS[word]
            last = "tens"
        elif (
            word in _TENS
            and last in ("unit", "teen")
            and total == 0
            and 0 < current < 10
            and start == index - 1
        ):
            # Said as a price is said: "one twenty" is 120, "two fifty" 250 ("one twenty-five" 125). A
            # teen before the tens ("fifteen fifty") is as often 15.50 as 1,550, so it is not joined: the
            # two numbers are left for the reader, which asks.
            current = current * 100 + _TENS[word]
            last = "tens"
        elif word == "-" and last == "tens" and following in _UNITS:
            last = "dash"
        elif word == "hundred" and last in ("unit", "teen", "", "a"):
            current = (current or 1) * 100
            last = "hundred"
        elif word == "dozen" and last in ("unit", "teen", "tens", "", "a"):
            current = (current or 1) * 12
            last = "dozen"
        elif (
            word in _BIG
            and last in ("unit", "teen", "tens", "hundred", "dozen", "", "a")
            and not (word == "grand" and last == "")
        ):
            total += (current or 1) * _BIG[word]
            current, last = 0, "big"
        elif (
            word == "point" and last in ("unit", "teen", "tens", "hundred", "big", "") and following in _UNITS
        ):
            # "one point five": the digits after "point" are read one by one ("two point two five" is 2.25).
            digits = list(itertools.takewhile(lambda later: later in _UNITS, words[index + 1 :]))
            fraction = "".join(str(_UNITS[digit]) for digit in digits)
            return Spelled(Decimal(f"{total + current}.{fraction}"), index + 1 + len(digits) - start)
        elif word == "and" and last in ("unit", "teen", "tens", "hundred", "big", "dozen"):
            if following in ("a", "an") and index + 2 < len(words) and words[index + 2] == "half":
                return Spelled(Decimal(total + current) + Decimal("0.5"), index + 3 - start)
            if following not in NUMBER_WORDS or last not in ("hundred", "big"):
                break
            last = "and"
        else:
            break
        index += 1
        if last not in ("and", "dash", "a"):
            best = (index, Decimal(total + current))
    if best is None:
        return None
    return Spelled(best[1], best[0] - start)


def read_fraction_words(words: Sequence[str], start: int) -> Spelled | None:
    """A share spelled out: "half", "a third", "one quarter", "two thirds", "three quarters"."""
    word = words[start]
    if word in ("half",):
        return Spelled(Decimal("0.5"), 1, fraction=True)
    count = 1
    offset = 0
    if word in ("a", "an", "one"):
        offset = 1
    elif word in _UNITS and word != "zero":
        count, offset = _UNITS[word], 1
    if offset == 0 or start + offset >= len(words):
        return None
    name = words[start + offset]
    if name not in FRACTION_NAMES or (count == 1 and name.endswith("s") and name != "halves"):
        return None
    if count > 1 and not name.endswith("s"):
        return None
    top, bottom = FRACTION_NAMES[name]
    if count * top >= bottom:
        return None
    value, exact = share(count * top, bottom)
    return Spelled(value, offset + 1, fraction=True, exact=exact)


_WORD_RUN: Final = re.compile(r"[a-z]+|-")


def spell_digits(text: str) -> str:
    """Text with every spelled number rewritten in digits ("below three thousand" -> "below 3000"); the
    rest of the text is kept character for character. A lone "one" is left as written ("the other one")."""
    found = [(match.start(), match.end(), match.group()) for match in _WORD_RUN.finditer(text)]
    if not any(word in NUMBER_WORDS for _, _, word in found):
        return text
    words = [word for _, _, word in found]
    pieces: list[str] = []
    cursor = 0
    index = 0
    while index < len(found):
        spelled = read_words(words, index)
        if spelled is not None and not (spelled.used == 1 and words[index] == "one"):
            last = index + spelled.used - 1
            between = [text[found[i][1] : found[i + 1][0]] for i in range(index, last)]
            if all(gap.strip() == "" for gap in between):
                pieces.append(text[cursor : found[index][0]])
                pieces.append(f"{spelled.value.normalize():f}")
                cursor = found[last][1]
                index = last + 1
                continue
        index += 1
    pieces.append(text[cursor:])
    return "".join(pieces)
