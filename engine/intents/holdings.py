"""Amounts told as history ("i borrowed 400 usdc", "i deposited 2 eth last month"), never the amount to
act on. Shares of an amount the words themselves state: "a third of 1200 usdc", and a holding told before the
share of it ("i have 1200 usdc on base, swap half of it for eth", "out of my 800 usdc swap 25%"). The share
is worked out from the stated number, exactly, and written back as that many tokens; a share with no exact
decimal value ("a third of 1000") is left as a number to ask about. The stated number is never itself the
amount: "i have 1200 usdc, swap half of it" is 600, not 1200."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Final

from engine.intents.lexer import Token
from engine.intents.lexicon import Lexeme
from engine.intents.numerals import SCALES
from engine.intents.vocabulary import MAX_WORDS, PERCENT_WORDS, PRONOUNS, USD_WORDS

# Words that tell what the user holds ("i have", "i've got", "holding", "sitting on").
_HOLDING_WORDS: Final = frozenset({"have", "got", "hold", "holding", "own", "sitting"})
# "in my wallet is 0,8 eth", "my account has 2 eth", "there is 500 usdc": a holding told with a verb of
# being or having after the place it is in.
_BEING: Final = frozenset({"is", "are", "has", "shows", "holds"})
_PLACES_HELD: Final = frozenset({"wallet", "account", "there", "safe"})
# Words after the held asset that only say it sits somewhere ("1200 usdc sitting on base").
_RESTING_WORDS: Final = frozenset({"sitting", "sat", "parked", "lying", "chilling", "idle"})
# Approximations between a holding word and its number ("i have about 1200 usdc").
ABOUT: Final = frozenset({"about", "around", "roughly", "approximately", "approx", "like", "~"})
# "out of my 800 usdc": the holding named as where the share comes from.
_OUT_OF: Final = ("out", "of", "my")
# Whose the stated number is, between a share's "of" and the number ("a third of my 900 usdt").
_OWNERS: Final = frozenset({"my", "our", "the", "his", "her", "their", "your", "this", "that"})


@dataclass(frozen=True, slots=True)
class _Held:
    start: int  # first lexeme of the words telling the holding
    end: int  # one past its asset
    value: Decimal
    asset: Lexeme
    # Told with a holding word ("i have", "out of my"); a message that only opens with "1200 usdc" is read
    # as a holding only by a share "of it" later.
    told: bool = True


@dataclass(frozen=True, slots=True)
class _Share:
    start: int
    end: int  # one past the share's words ("half", "of", "it")
    share: Fraction


def number_at(lexemes: Sequence[Lexeme], at: int) -> tuple[Decimal, int] | None:
    """A plain number at `at` (with a scale word after it) -> (value, lexemes used)."""
    lexeme = lexemes[at] if at < len(lexemes) else None
    token = lexeme.token if lexeme is not None else None
    if lexeme is None or lexeme.kind != "number" or token is None or token.value is None or token.share:
        return None
    if token.negative:
        return None
    following = lexemes[at + 1] if at + 1 < len(lexemes) else None
    if following is not None and following.text in SCALES and not token.scaled:
        return token.value * SCALES[following.text], 2
    return token.value, 1


def _held(lexemes: Sequence[Lexeme], at: int) -> _Held | None:
    """ "have 1200 usdc", "got 2k usdc", "out of my 800 usdc" at `at`."""
    words = tuple(lexeme.text for lexeme in lexemes[at : at + 3])
    if words == _OUT_OF:
        after = at + 3
    elif lexemes[at].kind in ("word", "past", "unknown", "verb") and lexemes[at].text in _HOLDING_WORDS:
        after = at + 1
    elif lexemes[at].text in _BEING and at > 0 and lexemes[at - 1].text in _PLACES_HELD:
        after = at + 1  # "in my wallet is 0,8 eth", "my wallet has 2 eth"
    elif at == 0 and lexemes[at].kind == "number":
        after = at  # "1200 usdc on base - swap a third of it": the message opens with what is held
    else:
        return None
    while after < len(lexemes) and lexemes[after].text in ABOUT:
        after += 1  # "i have about 1200 usdc"
    number = number_at(lexemes, after)
    if number is None:
        return None
    value, used = number
    asset_at = after + used
    if asset_at >= len(lexemes) or lexemes[asset_at].asset is None:
        return None
    end = asset_at + 1
    while end < len(lexemes) and lexemes[end].text in _RESTING_WORDS:
        end += 1
    return _Held(at, end, value, lexemes[asset_at], told=lexemes[at].kind != "number")


def _share(lexemes: Sequence[Lexeme], at: int) -> tuple[Fraction, int] | None:
    """A share at `at`: "half", "a third", "3/4", "25%", "10 percent" -> (share, lexemes used)."""
    lexeme = lexemes[at]
    token = lexeme.token
    if lexeme.kind != "number" or token is None or token.value is None or token.negative:
        return None
    if token.share:
        ratio = Fraction(token.value) if token.exact else Fraction(token.value).limit_denominator(100)
        return ratio, 1
    following = lexemes[at + 1] if at + 1 < len(lexemes) else None
    if following is not None and (following.text == "%" or following.text in PERCENT_WORDS):
        return Fraction(token.value) / 100, 2
    return None


def _of_it(lexemes: Sequence[Lexeme], at: int) -> int:
    """How many lexemes at `at` say "of it" / "of that" (0 when none)."""
    words = tuple(lexeme.text for lexeme in lexemes[at : at + 2])
    return 2 if len(words) == 2 and words[0] == "of" and words[1] in PRONOUNS else 0


def _exact(value: Fraction) -> Decimal | None:
    """The fraction as a Decimal when it has a finite decimal form."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return None
    return (Decimal(value.numerator) / Decimal(value.denominator)).normalize()


def _amount(share: Fraction, whole: Decimal, written: str) -> Lexeme:
    value = _exact(share * Fraction(whole))
    if value is None or share <= 0 or share > 1:
        # No exact number of tokens (or more than all of it): a number to ask about, never rounded.
        return Lexeme("number", written, token=Token("number", written, None, problem="not exact"))
    text = f"{value:f}"
    return Lexeme("number", text, token=Token("number", text, value))


def of_stated(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """The lexemes with each share of a stated amount written as that many tokens."""
    out = list(lexemes)
    at = 0
    while at < len(out):
        found = _share(out, at)
        if found is not None and at + found[1] < len(out) and out[at + found[1]].text == "of":
            # "a third of 1200 usdc": the share of the number right after it.
            share, used = found
            owner = 1 if at + used + 1 < len(out) and out[at + used + 1].text in _OWNERS else 0
            number = number_at(out, at + used + 1 + owner)
            if number is not None:
                value, taken = number
                asset_at = at + used + 1 + owner + taken
                if asset_at < len(out) and out[asset_at].asset is not None:
                    written = " ".join(lexeme.text for lexeme in out[at:asset_at])
                    out[at:asset_at] = [_amount(share, value, written)]
        held = _held(out, at)
        if held is not None:
            out, at = _told_holding(out, held)
        at += 1
    return out


def _told_holding(lexemes: list[Lexeme], held: _Held) -> tuple[list[Lexeme], int]:
    """A holding told before the request: a share of it ("half of it", "25% into eth") becomes its tokens,
    "500 of it" becomes 500 of the held asset, and once the request names an amount of its own the telling
    is dropped (its chain words stay: "i have 1200 usdc on base" still says where). Told and nothing more
    ("i have 1200 usdc, swap it"), the telling is left for the reader."""
    at = held.end
    while at < len(lexemes):
        found = _share(lexemes, at)
        number = number_at(lexemes, at)
        if found is not None or number is not None:
            used = found[1] if found is not None else number[1] if number is not None else 0
            pronoun = _of_it(lexemes, at + used)
            following = lexemes[at + used + pronoun] if at + used + pronoun < len(lexemes) else None
            written = " ".join(lexeme.text for lexeme in lexemes[at : at + used + pronoun])
            told_away = [*lexemes[: held.start], *lexemes[held.end : at]]
            if not held.told and not (found is not None and pronoun):
                break
            if found is not None and found[0] <= 1 and (pronoun or _aims(following)):
                amount = [_amount(found[0], held.value, written), held.asset]
                return [*told_away, *amount, *lexemes[at + used + pronoun :]], held.start
            if found is None and pronoun:
                # "500 of it" is 500 of the held token; more than was told ("2000 of it") is asked.
                said = lexemes[at : at + used]
                if number is not None and number[0] > held.value:
                    said = [Lexeme("number", written, token=Token("number", written, None, problem="more"))]
                return [*told_away, *said, held.asset, *lexemes[at + used + pronoun :]], held.start
            if found is None and number is not None and number[0] < held.value:
                rest = _rest_after(lexemes, at + used)
                if rest is not None:
                    # "i have 0.8 eth on base. send 0.3 to 0x... and swap the rest": the rest is what the
                    # told holding leaves after the amount spent, exactly (0.5 ETH).
                    start, end = rest
                    left = held.value - number[0]
                    said = [
                        Lexeme("number", f"{left:f}", token=Token("number", f"{left:f}", left)),
                        held.asset,
                    ]
                    spent = [*lexemes[at : at + used]]
                    named = at + used < len(lexemes) and lexemes[at + used].asset is not None
                    middle = [*([] if named else [held.asset]), *lexemes[at + used : start]]
                    return [*told_away, *spent, *middle, *said, *lexemes[end:]], held.start
            return [*told_away, *lexemes[at:]], held.start
        at += 1
    if held.told and any(lexeme.kind == "verb" for lexeme in lexemes[: held.start]):
        # "put it into lido, all of it except one. he's got 3.2 eth on mainnet": a holding told after the
        # request says what there is, never a step of its own; its chain words stay and say where. A
        # share said before it ("only the half, i have 6 eth") is a share of what is told.
        before = list(lexemes[: held.start])
        shares = [at for at in range(len(before)) if _share(before, at) is not None]
        plain = any(number_at(before, at) is not None for at in range(len(before)))
        if len(shares) == 1 and not plain:
            at = shares[0]
            share, used = _share(before, at) or (Fraction(0), 0)
            written = " ".join(lexeme.text for lexeme in before[at : at + used])
            before[at : at + used] = [_amount(share, held.value, written)]
        return [*before, *lexemes[held.end :]], len(before)
    return lexemes, held.end - 1


# Words after a bare share that aim it somewhere ("swap half into eth"): the share is of the holding.
_AIMS: Final = frozenset({"into", "to", "for", "in", "->", "=>", "\u2192", ",", "."})


def _aims(following: Lexeme | None) -> bool:
    return following is None or following.text in _AIMS or following.kind in ("chain", "protocol")


# Words that hold part of a balance back ("..., keep 100 tho"): what is kept is written after them.
_KEEP_WORDS: Final = frozenset({"keep", "keeping", "leave", "leaving", "minus", "except", "excluding"})


def every_one(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "bridge every usdt i've got": "every" before a token is all of it; "except for 100" is "except
    100"."""
    out: list[Lexeme] = []
    for at, lexeme in enumerate(lexemes):
        after = lexemes[at + 1] if at + 1 < len(lexemes) else None
        if lexeme.text == "single" and out and out[-1].text == "all" and after is not None and after.asset:
            continue  # "every single usdc"
        if (
            lexeme.text == "every"
            and after is not None
            and (after.asset is not None or after.text == "single")
        ):
            lexeme = Lexeme("word", "all")
        excepted = out and out[-1].text == "except" and after is not None and after.kind == "number"
        if lexeme.text == "for" and excepted:
            continue
        out.append(lexeme)
    return out


def kept_back(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "swap my usdc for eth, keep 100": a balance named with no amount ("my usdc") and a number kept back
    later is the whole balance but that number, read as "all my usdc ... keep 100"."""
    kept = next(
        (
            at
            for at, lexeme in enumerate(lexemes)
            if lexeme.text in _KEEP_WORDS and number_at(lexemes, at + 1) is not None
        ),
        None,
    )
    if kept is None or any(lexeme.text in MAX_WORDS for lexeme in lexemes[:kept]):
        return list(lexemes)
    if any(lexeme.kind == "number" for lexeme in lexemes[:kept]):
        return list(lexemes)  # an amount is written: the kept number is read with it, or asked about
    mine = next(
        (
            at
            for at in range(kept - 1)
            if lexemes[at].text == "my"
            and lexemes[at + 1].asset is not None
            and lexemes[at + 1].chain is None
        ),
        None,
    )
    if mine is None:
        return list(lexemes)
    return [*lexemes[:mine], Lexeme("word", "all"), *lexemes[mine:]]


def worth_after(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "swap eth worth $500 to usdc", "sell eth worth 500 dollars": a dollar amount written after the token
    it is worth, read as "$500 of eth"."""
    out = list(lexemes)
    for at in range(len(out) - 2):
        if out[at].asset is None or out[at + 1].text != "worth":
            continue
        start = at + 2
        sign = out[start].text == "$"
        number = number_at(out, start + sign)
        if number is None:
            continue
        end = start + sign + number[1]
        dollars = end < len(out) and out[end].text in USD_WORDS
        if not (sign or dollars):
            continue  # "eth worth 500" says no currency: left as written, and asked about
        end += dollars
        return [*out[:at], *out[start:end], out[at], *out[end:]]
    return out


# What is left once something is kept back ("keep 0.05 for gas, swap the rest").
_REST: Final = (
    ("the", "rest"),
    ("the", "remainder"),
    ("the", "remaining"),
    ("the", "leftover"),
    ("what's", "left"),
    ("whats", "left"),
    ("what", "left"),
    ("what", "is", "left"),
    ("everything", "else"),
    ("rest",),
    ("remainder",),
)
_KEEP_FIRST: Final = frozenset({"keep", "keeping", "leave", "leaving"})


def kept_rest(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "keep 0.05 eth for gas and swap the rest", "i have 0.8 eth on base, keep 0.05, swap the rest": what
    is kept is said first and the rest later. With a holding told before it, the rest is that holding less
    what is kept, exactly (0.75 ETH); without one it is the whole balance but what is kept, read as "all
    but 0.05 eth". Nothing is guessed: a kept number larger than the told holding is left as written."""
    keep = next(
        (
            at
            for at, lexeme in enumerate(lexemes)
            if lexeme.text in _KEEP_FIRST and number_at(lexemes, at + 1) is not None
        ),
        None,
    )
    if keep is None:
        return _rest_then_kept(lexemes)
    kept = number_at(lexemes, keep + 1)
    assert kept is not None
    value, used = kept
    end = keep + 1 + used
    asset = lexemes[end] if end < len(lexemes) and lexemes[end].asset is not None else None
    end += asset is not None
    rest = next(
        (
            (at, len(phrase))
            for at in range(end, len(lexemes))
            for phrase in _REST
            if tuple(lexeme.text for lexeme in lexemes[at : at + len(phrase)]) == phrase
        ),
        None,
    )
    if rest is None:
        return _rest_then_kept(lexemes)
    at, length = rest
    if _acts_before(lexemes, at):
        return list(lexemes)
    after = at + length
    if after < len(lexemes) and lexemes[after].text == "of":
        owner = after + 1 + (after + 1 < len(lexemes) and lexemes[after + 1].text in _OWNERS)
        if owner < len(lexemes) and lexemes[owner].asset is not None:
            asset, after = asset or lexemes[owner], owner + 1  # "the rest of my eth"
    held = next(
        (
            one
            for start in range(keep)
            if (one := _held(lexemes, start)) is not None
            and one.told
            and (asset is None or one.asset.asset == asset.asset)
        ),
        None,
    )
    if held is not None and value < held.value:
        left = held.value - value
        said = [Lexeme("number", f"{left:f}", token=Token("number", f"{left:f}", left)), held.asset]
        before = [*lexemes[: held.start], *lexemes[held.end : keep]]
    else:
        number = Lexeme("number", f"{value:f}", token=Token("number", f"{value:f}", value))
        said = [Lexeme("word", "all"), Lexeme("word", "but"), number, *([asset] if asset else [])]
        before = list(lexemes[:keep])
    return [*before, *lexemes[end:at], *said, *lexemes[after:]]


def _rest_then_kept(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "stake the rest of my eth except keep one for gas": the rest named first and what is kept after it
    is all of it but what is kept, read as "all of my eth except ..."."""
    for at in range(len(lexemes)):
        if _acts_before(lexemes, at):
            break  # "send 0.69 eth, then swap the remaining eth": what remains after a step, not all of it
        for phrase in _REST:
            if tuple(lexeme.text for lexeme in lexemes[at : at + len(phrase)]) != phrase:
                continue
            later = [
                one
                for one in range(at + len(phrase), len(lexemes) - 1)
                if lexemes[one].text in _KEEP_WORDS and number_at(lexemes, one + 1) is not None
            ]
            if later:
                return [*lexemes[:at], Lexeme("word", "all"), *lexemes[at + len(phrase) :]]
    return list(lexemes)


def _acts_before(lexemes: Sequence[Lexeme], at: int) -> bool:
    """True when a step acts before the verb that takes the rest at `at`: what remains is then what that
    step leaves, which the planner works out from the step (never the whole balance less what is kept)."""
    return sum(lexeme.kind == "verb" for lexeme in lexemes[:at]) > 1


def _rest_after(lexemes: Sequence[Lexeme], at: int) -> tuple[int, int] | None:
    """(start, end) of "the rest" after `at` with no other number between, or None."""
    for start in range(at, len(lexemes)):
        if lexemes[start].kind == "number":
            return None
        for phrase in _REST:
            if tuple(lexeme.text for lexeme in lexemes[start : start + len(phrase)]) != phrase:
                continue
            before = lexemes[start - 1].text if start > 0 else ""
            after = lexemes[start + len(phrase)].text if start + len(phrase) < len(lexemes) else ""
            if before in _KEEP_WORDS or after in _STAYING:
                return None  # "keep the rest in my wallet", "the rest stays": nothing is done with it
            return start, start + len(phrase)
    return None


_STAYING: Final = frozenset({"stays", "stay", "remains", "remain", "sits", "sit"})
