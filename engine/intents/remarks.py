"""Remarks: negations that only say how the user feels or why, and courtesies written as conditions.

Negations that only say how the user feels or why: "i dont want the volatility", "so it doesn't go down
in value", "don't make me regret this", "anyway not me". A negation changes a plan only through what it
governs; where its clause names nothing a plan is made of (no action, amount, asset, chain, protocol or
address) and no other word of the closed classes that change meaning (engine.intents.meaning), and the
negated verb does not point back at the request ("don't do it", "dont want that" withdraw it), the clause
is a remark, when every word after the negation is one English text uses (engine.intents.english) and none says the user has not
decided ("i don't know what's best" is indecision, asked as before). A remark becomes one `remark` lexeme, set aside and named in the reasoning, never a reason to stop.
Courtesies written as conditions ("if you please", "if possible", "if this is a silly question") are
remarks too, when their clause names nothing a plan is made of and nothing a condition could measure or
depend on (a level, a time, gas, a need, another step's outcome, safety); a real condition is left for
the reader, which answers that it waits for it. Read before the message's links and corrections are
marked, while its punctuation still bounds clauses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.intents.english import is_english
from engine.intents.lexicon import Lexeme
from engine.intents.meaning import MEANING_WORDS
from engine.intents.wording import FILLER, LEVEL_WORDS, NEGATIONS, TIME_OPENERS, TIME_UNITS, TIME_WORDS

# Where a negation's clause ends: a pause, or a word that starts another clause.
_BREAKS: Final = frozenset(
    {",", ";", ".", "!", "?", ":", "-", "—", "...", "so", "because", "cause", "coz", "but", "and", "then"}
)
# Lexemes a plan is made of: a negation beside one of them changes the plan ("not on base").
_SLOTS: Final = frozenset(
    {"verb", "asset", "chain", "protocol", "number", "evm", "sol", "ens", "vault", "excluded", "replaced"}
)
# A negated knowing is indecision, not a feeling: "i don't know what's best", "not sure", "no idea".
_UNDECIDED: Final = frozenset(
    {"know", "sure", "certain", "decided", "decide", "idea", "understand", "clue", "remember"}
)
# What a negated verb points back at when it withdraws the request ("don't do it", "dont want that").
_BACK: Final = frozenset({"it", "that", "this", "them", "anything", "any", "those", "these"})


def remarks(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """The lexemes with every remark clause (see the module docstring) made one `remark` lexeme."""
    out: list[Lexeme] = []
    index = 0
    while index < len(lexemes):
        clause = (
            _confusion_at(lexemes, index)
            or _remark_at(lexemes, index)
            or _idle_condition_at(lexemes, index)
            or _told_time_at(lexemes, index)
            or _aside_at(lexemes, index)
            or _source_at(lexemes, index)
            or _plain_sense_at(lexemes, index)
            or _instead_of_at(lexemes, index)
            or _restated_balance_at(lexemes, index)
            or _hedge_at(lexemes, index)
        )
        if clause is None:
            out.append(lexemes[index])
            index += 1
            continue
        start, end = clause
        del out[len(out) - (index - start) :]
        text = _spoken(lexemes[start:end])
        out.append(Lexeme("hedge" if _hedge_at(lexemes, start) else "remark", text))
        index = end
    return out


def _clause_around(lexemes: Sequence[Lexeme], first: int, after: int) -> tuple[int, int]:
    """(start, end) of the clause holding lexemes first..after-1: back and on to a break."""
    start = first
    while start > 0 and lexemes[start - 1].text not in _BREAKS and lexemes[start - 1].kind != "remark":
        start -= 1
    end = after
    while end < len(lexemes) and lexemes[end].text not in _BREAKS:
        end += 1
    return start, end


def _remark_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of the remark clause whose negation is at `index`, or None."""
    if lexemes[index].text not in NEGATIONS:
        return None
    start, end = _clause_around(lexemes, index, index + 1)
    tail = [one.text for one in lexemes[index + 1 : end] if one.kind != "punct"]
    if tail[-2:] in (["anything", "else"], ["nothing", "else"], ["any", "other"]) and len(tail) <= 5:
        return start, end  # "dont change anything else": the plan does only what is asked anyway
    content = [one for one in lexemes[index + 1 : end] if one.kind != "punct" and one.text not in FILLER]
    if not content or content[0].text in _BACK or any(one.text in _BACK for one in content[1:3]):
        return None
    if any(one.text in _UNDECIDED or not is_english(one.text) for one in content):
        return None  # indecision, or words nobody can say are only a feeling ("no sé todavía")
    clause = lexemes[start:end]
    if any(one.kind in _SLOTS for one in clause):
        return None
    if any(one.text in MEANING_WORDS for at, one in enumerate(clause, start) if at != index):
        return None
    return start, end


# "i don't really get how aave works, but ...": not understanding a topic, said before an order.
_GRASP: Final = frozenset({"understand", "get", "know", "grasp", "follow"})
_DEGREE: Final = frozenset({"really", "fully", "quite", "totally", "even", "entirely", "completely", "100%"})
# After a verb of knowing, a choice the request leaves open: "how much", "which", "whether", "what to"
# are the user undecided, not a topic ("how it works", "what slippage is").
_UNDECIDED_AFTER: Final = frozenset({"much", "many", "to", "which", "whether", "if"})
_YET_ORDER: Final = frozenset({"but", "anyway", "anyways", "though", "tho", "still", "regardless"})


def _confusion_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of a clause saying the user does not understand a topic ("i dont really get how aave
    works", "i'm not sure i understand bridges yet") when an order follows it after "but" or "anyway", or
    None. The clause may name the topic (a protocol, a token); a choice left open ("i don't know how much",
    "not sure which chain") is indecision, asked as before."""
    if lexemes[index].text not in NEGATIONS - {"without", "except", "excluding", "exclude", "nothing"}:
        return None
    at = index + 1
    while at < len(lexemes) and lexemes[at].text in _DEGREE:
        at += 1
    if at < len(lexemes) and lexemes[at].text == "sure":
        at += 1  # "not sure i understand ..."
        if at < len(lexemes) and lexemes[at].text in ("i", "if"):
            at += 1 if lexemes[at].text == "i" else 0
    if at >= len(lexemes) or lexemes[at].text not in _GRASP:
        return None
    following = lexemes[at + 1].text if at + 1 < len(lexemes) else ""
    after = lexemes[at + 2].text if at + 2 < len(lexemes) else ""
    if following in _UNDECIDED_AFTER or after in _UNDECIDED_AFTER:
        return None
    start, end = _clause_around(lexemes, index, at + 1)
    # Before the verb of knowing nothing may be asked; after it, the topic may name an action ("how
    # bridges work") or a venue, never a value.
    if any(one.kind == "verb" for one in lexemes[start:index]):
        return None
    if any(one.kind in ("number", "evm", "sol", "ens") for one in lexemes[start:end]):
        return None
    rest = [one for one in lexemes[end:] if one.kind != "punct"]
    if not rest or rest[0].text not in _YET_ORDER or not any(one.kind == "verb" for one in rest):
        return None
    return start, end


# Condition words whose clause can be a courtesy rather than a condition ("if you please", "if possible").
_IF: Final = frozenset({"if", "provided", "assuming"})
# Words that make a condition one the plan would wait for or depend on: a measure, a market move, a need,
# an outcome of another step, safety ("if gas is cheap", "if needed", "if it lands", "if it's safe").
_CONDITIONAL: Final = (
    LEVEL_WORDS
    | TIME_WORDS
    | TIME_UNITS
    | frozenset(
        """
        price prices gas fee fees apy apr yield rate rates cheap cheaper expensive low lower high higher up
        down green red moon crash crashes peg depeg worth value market needed necessary required need needs
        enough insufficient short empty fail fails failed works succeeds lands landed arrives arrived
        confirms confirmed through approved cleared done finished ready available sufficient safe risky
        better worse best worst profit loss
        """.split()  # noqa: SIM905 - a word list reads and diffs better as text
    )
)


def _idle_condition_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of a courtesy written as a condition at `index` ("if you please", "if possible", "if
    this is a silly question", "if it is possible, please do it"): its clause names nothing a plan is made
    of, nothing a condition could measure or depend on, and only English words. None otherwise: a real
    condition is left for the reader, which answers that it waits for it."""
    if lexemes[index].text not in _IF or lexemes[index].kind != "word":
        return None
    end = index + 1
    while end < len(lexemes) and lexemes[end].text not in _BREAKS - {"and", "so", "but"}:
        end += 1
    said = [one for one in lexemes[index + 1 : end] if one.kind != "punct"]
    content = [one for one in said if one.text not in FILLER]
    if not said or any(one.kind in _SLOTS for one in lexemes[index + 1 : end]):
        return None  # "..., if": cut off, left for the reader
    if any(one.text in _CONDITIONAL or one.text in MEANING_WORDS for one in said):
        return None
    if not all(is_english(one.text) for one in content):
        return None
    return index, end


# Verbs that tell rather than ask: a time in their clause is when something is or was, not when to act
# ("i need the money liquid for this month", "we need cash for saturday", "sales were good this month").
_TELLING: Final = frozenset(
    """
    need needs needed was were is are am be been have has had got gets want wants wanted
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)
# Times that repeat ("every friday") are never a told time: the request asks for a repeat.
_REPEATING: Final = frozenset({"every", "each", "daily", "weekly", "monthly", "yearly", "hourly"})
_CLAUSE_ENDS: Final = frozenset({",", ";", ".", "!", "?", ":"})


def _told_time_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of a time told about rather than asked for ("sales were good this month", "customers
    paid me ... this week", "we need cash for saturday"): its clause, between pauses, has no action verb
    and tells (a past form, or a verb of being, having or needing). A time alone in its clause ("tomorrow,
    swap 1 eth") or beside an action verb is left for the reader, which answers that it waits for it."""
    word = lexemes[index].text
    following = lexemes[index + 1].text if index + 1 < len(lexemes) else ""
    if word in TIME_OPENERS and (following in TIME_UNITS or following in TIME_WORDS):
        end = index + 2
    elif word in TIME_WORDS and lexemes[index].kind == "word":
        end = index + 1
    else:
        return None
    start = index
    while start > 0 and lexemes[start - 1].text not in _CLAUSE_ENDS and lexemes[start - 1].kind != "mark":
        start -= 1
    stop = end
    while stop < len(lexemes) and lexemes[stop].text not in _CLAUSE_ENDS and lexemes[stop].kind != "mark":
        stop += 1
    clause = lexemes[start:stop]
    if any(one.kind == "verb" or one.text in _REPEATING for one in clause):
        return None
    if not any(one.kind == "past" or one.text in _TELLING for one in clause):
        return None
    return index, end


# What an aside in brackets may not hold to be only an aside: anything a plan is made of.
_ASIDE_SLOTS: Final = _SLOTS | {"number"}
_ASIDE_WORDS: Final = 16


def _aside_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of words in brackets that hold nothing a plan is made of ("(sorry, I asked a lot of
    questions before)", "(tokenomics v2, section 4)" once its section number is read as a label): an
    aside, set aside whole, whatever closed-class word it holds. None otherwise."""
    if lexemes[index].text != "(":
        return None
    end = index + 1
    while end < len(lexemes) and lexemes[end].text != ")" and end - index <= _ASIDE_WORDS:
        end += 1
    if end >= len(lexemes) or lexemes[end].text != ")" or end == index + 1:
        return None
    inside = lexemes[index + 1 : end]
    if inside[0].text in _ABOUT and any(one.kind == "number" for one in inside):
        return index, end + 1  # "repay the full usdc debt (~4k)": a guess at what "full" is, no amount
    if any(one.kind in _ASIDE_SLOTS or one.text in NEGATIONS for one in inside):
        return None
    return index, end + 1


# Words that open a guess at a figure ("(~4k)", "(about 2,000)").
_ABOUT: Final = frozenset(
    {"~", "about", "approx", "approximately", "around", "roughly", "ca", "circa", "est"}
)


def _source_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of "per"/"as per" that names where an order comes from ("Per the proposal: ...", "As
    per TIP-14, ..."): at the start of a clause it means "according to", never "each"."""
    word = lexemes[index].text
    if word == "as" and index + 1 < len(lexemes) and lexemes[index + 1].text == "per":
        end = index + 2
    elif word == "per":
        end = index + 1
    else:
        return None
    if index > 0 and lexemes[index - 1].text not in _BREAKS | {"(", ":"}:
        return None
    following = lexemes[end] if end < len(lexemes) else None
    if following is None or following.kind == "number" or following.text in TIME_UNITS:
        return None  # "per 100", "per month": how much, how often
    return index, end


# Words of the closed classes that also have an everyday sense, told apart by their neighbours: "i hold
# some pol" (own), "there is a wait" (a noun), "at the moment" (now), "whatever that may mean" (signify).
# In those senses they change nothing in the plan; "hold on", "hold the swap", "wait", "no wait", "wait a
# moment", "i mean 200" keep their meaning and are left for the reader.
_HOLD: Final = frozenset({"hold", "holds", "holding"})
_HELD_BY: Final = frozenset(
    {"i", "we", "he", "she", "they", "you", "u", "to", "also", "currently", "still", "already", "just", "now"}
)
_HELD_WHAT: Final = frozenset(
    {"a", "an", "some", "too", "lots", "plenty", "quite", "much", "many", "mostly", "mainly", "little", "few"}
)
_TOO_MUCH: Final = frozenset({"too", "much", "many", "lots", "of", "way", "a", "lot", "plenty"})
_WAIT_AS_NOUN: Final = frozenset({"a", "the", "short", "long", "any", "some", "little", "small", "bit"})
_WAITED: Final = frozenset({"wait", "waited", "waiting"})
_WAITERS: Final = frozenset(
    {"i", "we", "he", "she", "they", "been", "am", "was", "were", "i've", "ive", "we've"}
)
_QUALITIES: Final = frozenset(
    {"ok", "okay", "good", "nice", "cheap", "expensive", "high", "low", "correct", "right", "fine", "safe"}
    | {"fast", "slow", "best", "better", "worse", "bad", "cheaper"}
)
_MOMENT_NOW: Final = frozenset({"at", "for"})
_MEAN: Final = frozenset({"mean", "means", "meant"})
_MEAN_SIGNIFY: Final = frozenset(
    {"may", "might", "could", "would", "does", "do", "did", "what", "whatever", "which", "it", "that", "this"}
    | {"he", "she", "they", "you", "u", "to", "that's", "what's", "it's", "s"}
)


def _plain_sense_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of a closed-class word used in its everyday sense (see above), or None."""
    word = lexemes[index].text
    before = lexemes[index - 1].text if index > 0 else ""
    after = lexemes[index + 1] if index + 1 < len(lexemes) else None
    if lexemes[index].kind not in ("word", "unknown"):
        return None
    if word in _HOLD and before in _HELD_BY and after is not None:
        if after.text in _TOO_MUCH:
            # "i hold too much eth": why, and its asset is what is held, not a second thing to move.
            end = index + 1
            while end < len(lexemes) and lexemes[end].text in _TOO_MUCH:
                end += 1
            if end < len(lexemes) and lexemes[end].kind == "asset":
                return index, end + 1
        if after.text in _HELD_WHAT or after.kind in ("asset", "number"):
            return index, index + 1  # "i hold some pol", "to hold a little"
    if word == "wait" and before in _WAIT_AS_NOUN and index > 1 and lexemes[index - 2].text != "no":
        return index, index + 1  # "i understand there is a wait", "after a short wait"
    if word in _WAITED and before in _WAITERS:
        return index, index + 1  # "i wait for long time already", "i've been waiting": told, not asked
    if word == "one" and before in _QUALITIES and (after is None or after.kind == "punct"):
        return index, index + 1  # "the eth price now ok one": a sentence-final particle, no amount
    if (
        word == "moment"
        and before in ("the", "this")
        and index > 1
        and lexemes[index - 2].text in _MOMENT_NOW
    ):
        return index - 2, index + 1  # "at the moment": now, which every plan is
    if word in _MEAN and before in _MEAN_SIGNIFY:
        return index, index + 1  # "whatever that may mean", "not sure what he means"
    return None


_THAT: Final = frozenset({"that", "which", "this", "it", "thats", "that's", "it's", "its"})
_HOLDINGS: Final = frozenset({"balance", "balances", "holdings", "holding", "stack", "bag"})


def _restated_balance_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of a clause saying what the amount just asked for is ("- that's our full DAI balance on
    mainnet", "which is all my usdc"): it tells, it asks for nothing more. Only a clause opening with
    "that"/"which"/"it", naming a balance, with no number and no verb."""
    if lexemes[index].text not in _THAT or (index > 0 and lexemes[index - 1].text not in _BREAKS):
        return None
    if not any(one.kind == "number" for one in lexemes[:index]):
        return None  # nothing said before it for it to restate
    _, end = _clause_around(lexemes, index, index + 1)
    clause = lexemes[index:end]
    if any(one.kind in ("number", "verb", "evm", "sol", "ens") for one in clause):
        return None
    if not any(one.text in _HOLDINGS for one in clause):
        return None
    return index, end


_HEDGE_WORDS: Final = frozenset({"was", "it", "is", "maybe", "perhaps", "possibly", "rather", "even", "like"})


def _hedge_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of a second amount offered beside the first ("swap 1 eth, or was it 2?", "send 50, or
    maybe 60"): which one is meant nobody can say, so it is asked, never dropped (a `hedge`)."""
    if lexemes[index].text != "or" or not any(one.kind == "number" for one in lexemes[:index]):
        return None
    at = index + 1
    while at < len(lexemes) and lexemes[at].text in _HEDGE_WORDS:
        at += 1
    if at >= len(lexemes) or lexemes[at].kind != "number":
        return None
    end = at + 1
    if end < len(lexemes) and lexemes[end].kind == "asset":
        end += 1
    return index, end


def _instead_of_at(lexemes: Sequence[Lexeme], index: int) -> tuple[int, int] | None:
    """(start, end) of "instead of 1" (with its token) after a number said first ("do 2 eth instead of 1",
    "swap 2 eth to usdc instead of 1"): the value it replaces, which is only what the user did not mean."""
    if lexemes[index].text != "instead" or index + 2 >= len(lexemes) or lexemes[index + 1].text != "of":
        return None
    if lexemes[index + 2].kind != "number" or not any(one.kind == "number" for one in lexemes[:index]):
        return None
    end = index + 3
    if end < len(lexemes) and lexemes[end].kind == "asset":
        end += 1
    return index, end


def _spoken(lexemes: Sequence[Lexeme]) -> str:
    """The words as the user wrote them, for the reasoning: punctuation against its word, no brackets."""
    text = " ".join(lexeme.text for lexeme in lexemes if lexeme.text not in ("(", ")"))
    return re.sub(r" ([,;:.!?])", r"\1", text)
