"""Numbers that name rather than count: an invoice, ticket, order or reference number ("Invoice
#2024-117", "inv 88", "ref AUD-77", "INV-0042", "PO 7781", "ticket 4471"), payment terms ("net 30") and a
date ("dated 3 March", "due 15/04", "on the 25th"). They are taken out before reading, so they are never
an amount and never block a plan as a number nobody placed; the words around them are read as usual."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.intents.lexicon import Lexeme

# Words after which a number is a label's number, not an amount.
_LABELS: Final = frozenset(
    {"invoice", "inv", "ref", "reference", "ticket", "po", "order", "id", "case", "request", "req", "bill"}
    | {"receipt", "net", "#", "item", "batch", "week", "version", "po#", "invoice#"}
    | {"centre", "center", "code", "account", "acct", "dept", "department", "project", "gl", "ledger"}
)
_MONTHS: Final = frozenset(
    """jan january feb february mar march apr april may jun june jul july aug august sep sept september oct
    october nov november dec december""".split()  # noqa: SIM905
)
_DATE_JOINERS: Final = frozenset({"/", "-"})
_DAY_MONTH: Final = re.compile(r"(?:[1-9]|[12]\d|3[01])/(?:0[1-9]|1[0-2])")
_DATE_WORDS: Final = frozenset({"due", "dated", "on", "by", "until", "till", "from", "before"})


def without_identifiers(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """`lexemes` with the numbers that name something (and their joining marks) taken out."""
    drop: set[int] = set()
    for at, lexeme in enumerate(lexemes):
        if lexeme.kind != "number":
            continue
        before = lexemes[at - 1] if at > 0 else None
        after = lexemes[at + 1] if at + 1 < len(lexemes) else None
        label = _label_before(lexemes, at)
        if label is not None:
            drop.update(range(label, at + 1))
            drop.update(_glued_after(lexemes, at))  # "#2024-117": the part after the hyphen too
        elif (before is not None and before.text in _MONTHS) or (after is not None and after.text in _MONTHS):
            drop.add(at)  # "3 March", "March 3"
        elif _DAY_MONTH.fullmatch(lexeme.text) and (
            lexeme.text[-2] == "0"
            or (before is not None and before.text in _DATE_WORDS)
            or (after is None or (after.kind == "punct" and after.text != "%"))
        ):
            # "due 15/04", "approved by the committee 11/12.": a date, read as one ratio by the lexer; "11/12
            # of my eth" (a share, "of" after it) is left as it is.
            drop.add(at)
        elif _a_date(lexemes, at):
            drop.update(range(at, at + 3))  # "15/04", "30-04"
        elif _told_clock(lexemes, at):
            # "cust confirmed by chat 11:52", "verified at 14:02": when something was said or done.
            told_at = at > 0 and lexemes[at - 1].text in _WAITING_FOR
            drop.update(range(at - 1 if told_at else at, at + 3))
        elif _YEAR_CODE.fullmatch(lexeme.text):
            drop.add(at)  # "decision 14/2024", read as one number by the lexer
        elif _year_code(lexemes, at):
            drop.update(range(at, at + 3))  # "Resolution 2024-07"
        elif (age := _an_age(lexemes, at)) is not None:
            drop.update(range(*age))  # "my mum is 68 and ...", "I am 74", "he's 12 years old"
        elif _heading_number(lexemes, at):
            drop.add(at)  # "Diversification step 1: ...", "(phase 1)", "Budget line 3.2 (Q3 ...)"
    return [lexeme for at, lexeme in enumerate(lexemes) if at not in drop]


def _label_before(lexemes: Sequence[Lexeme], at: int) -> int | None:
    """Where the label of the number at `at` starts ("inv 88", "INV-0042", "#2024", "ref AUD-77"), or None."""
    back = at - 1
    if back >= 0 and lexemes[back].text in ("-", "#", ":", "="):
        if lexemes[back].text == "#":
            return back
        back -= 1
    if back < 0:
        return None
    word = lexemes[back]
    if word.text in _LABELS and word.kind in ("word", "unknown", "punct"):
        return back
    # "AUD-77": letters glued by a hyphen to the number (a code, not a token: "eth-2" is no amount either).
    if lexemes[at - 1].text == "-" and word.kind == "unknown" and word.asset is None:
        return back
    return None


def _glued_after(lexemes: Sequence[Lexeme], at: int) -> list[int]:
    if at + 2 < len(lexemes) and lexemes[at + 1].text == "-" and lexemes[at + 2].kind == "number":
        return [at + 1, at + 2]
    return []


# A number with a year in it, as codes and dates are written: "14/2024", "2024/07".
_YEAR_CODE: Final = re.compile(r"\d{1,2}/(?:19|20)\d\d|(?:19|20)\d\d/\d{1,2}")
# Marks after a number that make it a heading's or a label's number ("step 1:", "(phase 1)").
_HEADING_ENDS: Final = frozenset({":", ")", "("})


# Words before a clock time that make a request wait for it ("at 9:30", "by 17:00"): left for the reader.
_WAITING_FOR: Final = frozenset({"at", "by", "before", "until", "till", "around", "@", "after"})


def _told_clock(lexemes: Sequence[Lexeme], at: int) -> bool:
    """ "11:52", "16:03": a clock time (hour, colon, two-digit minutes) that no word before it makes a time
    to wait for: when something was said or done, never an amount."""
    if at + 2 >= len(lexemes) or lexemes[at + 1].text != ":" or lexemes[at + 2].kind != "number":
        return False
    hour, minutes = lexemes[at].text, lexemes[at + 2].text
    if not (
        hour.isdigit() and minutes.isdigit() and len(minutes) == 2 and int(hour) < 24 and int(minutes) < 60
    ):
        return False
    before = lexemes[at - 1].text if at > 0 else ""
    return before not in _WAITING_FOR or _told_before(lexemes, at - 1)


# Where a clause ends, looking back from a clock time.
_CLAUSE_BREAKS: Final = frozenset({",", ";", ".", "!", "?", "|", "(", ")", "-", "—"})


def _told_before(lexemes: Sequence[Lexeme], at: int) -> bool:
    """True when the clause before `at` tells something done ("verified cust via 2FA at 14:02", "confirmed
    by phone at 9:30"): a past participle and no verb to do anything, so the time is when it was done."""
    back = at - 1
    told = False
    while back >= 0 and lexemes[back].text not in _CLAUSE_BREAKS and lexemes[back].kind != "mark":
        lexeme = lexemes[back]
        if lexeme.kind == "verb":
            return False
        if lexeme.kind == "past" or (
            lexeme.kind in ("unknown", "word") and _PARTICIPLE.fullmatch(lexeme.text)
        ):
            told = True
        back -= 1
    return told


_PARTICIPLE: Final = re.compile(r"[a-z]{3,}ed")


def _year_code(lexemes: Sequence[Lexeme], at: int) -> bool:
    """ "2024-07", "2024-07-15": a year joined by a hyphen to a month (a reference or a date)."""
    lexeme = lexemes[at]
    if at + 2 >= len(lexemes) or lexemes[at + 1].text != "-" or lexemes[at + 2].kind != "number":
        return False
    value = lexeme.token.value if lexeme.token is not None else None
    return (
        value is not None
        and len(lexeme.text) == 4
        and 1900 <= value <= 2100
        and len(lexemes[at + 2].text) <= 2
    )


def _heading_number(lexemes: Sequence[Lexeme], at: int) -> bool:
    """A number between an ordinary word and ":" or a bracket ("Diversification step 1:", "(phase 1)",
    "Budget line 3.2 (Q3 ...)"): it numbers what the word names; an amount is never written so."""
    before = lexemes[at - 1] if at > 0 else None
    after = lexemes[at + 1] if at + 1 < len(lexemes) else None
    token = lexemes[at].token
    if not lexemes[at].text[:1].isdigit() or token is None or token.share:
        return False  # "send her half: 0x...": a share, or a number in words, is an amount
    return (
        before is not None
        and after is not None
        and after.text in _HEADING_ENDS
        and before.kind in ("word", "unknown")
        and before.text.isalpha()
        and before.text not in _NOT_LABELS
    )


# Words a number after them is an amount of, even before ":" or a bracket ("all but 5:", "keep 100 (gas)").
_NOT_LABELS: Final = frozenset(
    """
    but keep leave except minus plus only just about around of to for with from into in on at is are was be
    and or than over under her him them me us you his my their our your it send pay give
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)


def _a_date(lexemes: Sequence[Lexeme], at: int) -> bool:
    """ "15/04", "30-04": day and month joined, each small enough to be one."""
    if at + 2 >= len(lexemes) or lexemes[at + 1].text not in _DATE_JOINERS:
        return False
    first, second = lexemes[at], lexemes[at + 2]
    if second.kind != "number" or first.token is None or second.token is None:
        return False
    a, b = first.token.value, second.token.value
    if a is None or b is None or first.token.share or second.token.share:
        return False
    return (
        a == a.to_integral()
        and b == b.to_integral()
        and 1 <= a <= 31
        and 1 <= b <= 31
        and len(second.text) == 2
    )


# Words of a person's age: "68 years old", "aged 74", "my mum is 68", "i'm 74 and ...", "he turns 12".
_YEARS: Final = frozenset({"years", "year", "yrs", "yr", "yo", "y/o"})
_AGE_VERBS: Final = frozenset(
    {"am", "is", "'s", "s", "turned", "turning", "turns", "aged", "age", "i'm", "im"}
)
_PERSONS: Final = frozenset({"i", "he", "she", "i'm", "im", "he's", "she's", "hes", "shes"})
_POSSESSIVES: Final = frozenset({"my", "his", "her", "our", "their"})
_AFTER_AGE: Final = frozenset({"and", "now", "this", "next", "so", "but", "already", "soon"})


def _an_age(lexemes: Sequence[Lexeme], at: int) -> tuple[int, int] | None:
    """(start, end) of a person's age told around the request, or None. Only a whole number a person can
    be, said with years, or after a verb of being whose subject is a person ("she", "my mum")."""
    token = lexemes[at].token
    value = token.value if token is not None else None
    if value is None or value != int(value) or not 1 <= value <= 120:
        return None
    following = lexemes[at + 1] if at + 1 < len(lexemes) else None
    if following is not None and following.text in _YEARS:
        end = at + 2
        if end < len(lexemes) and lexemes[end].text == "old":
            end += 1
        return at, end
    before = lexemes[at - 1].text if at > 0 else ""
    if before not in _AGE_VERBS:
        return None
    if before in ("aged", "age"):
        return at, at + 1
    subject = lexemes[at - 2].text if at > 1 else ""
    person = (
        subject in _PERSONS
        or before in ("i'm", "im")
        or (at > 2 and lexemes[at - 3].text in _POSSESSIVES and lexemes[at - 2].kind in ("word", "unknown"))
    )
    ends = following is None or following.kind == "punct" or following.text in _AFTER_AGE
    return (at, at + 1) if person and ends else None
