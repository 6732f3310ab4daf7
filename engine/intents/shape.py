"""The shape of a whole request, read before its clauses: is it a question, does it wait for a time or a
condition, which words link its steps ("once it lands", "after bridging it") and which correct them ("no
wait", "actually", "scratch that").

Links and corrections are rewritten into marks (Lexeme kind `mark`) that clauses.py splits on: `link` (a
step boundary), `correct` (the next statement replaces the one before), `reset` (it replaces everything
before), `before` (the next clause happens before the one it follows: "deposit it after bridging 100 usdc").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from engine.intents.exclusions import excluded
from engine.intents.lexicon import Lexeme
from engine.intents.vocabulary import PRONOUNS, past_of
from engine.intents.wording import (
    CHAT_FILLER,
    CORRECTIONS,
    FILLER,
    FOLLOW_UP_QUESTIONS,
    HOW_TO_OPENERS,
    LINK_EVENTS,
    LINK_OPENERS,
    LINK_SUBJECTS,
    POLITE_PHRASES,
    QUESTION_AUXILIARIES,
    QUESTION_VERBS,
    QUESTION_WORDS,
    REQUEST_OPENERS,
    REQUEST_SUBJECTS,
    RESETS,
    SUBJECT_AUXILIARIES,
    SUBJECTS,
)

# Words that end the quoted part of a wait ("if eth drops below 3000, sell" quotes up to the comma).
_CLAUSE_END: Final = frozenset({",", ";", ".", "!", "?"})
_GREETED: Final = frozenset({"morning", "afternoon", "evening", "night"})


def _by_first_word(phrases: Sequence[tuple[str, ...]]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Phrases grouped by their first word, in their order: a word is only compared with the phrases it can
    start (this runs at every word of every request)."""
    grouped: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        grouped.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(group) for first, group in grouped.items()}


_POLITE: Final = _by_first_word(POLITE_PHRASES)
_RESETS: Final = _by_first_word(RESETS)
_CORRECTIONS: Final = _by_first_word(CORRECTIONS)


def _starting(
    grouped: dict[str, tuple[tuple[str, ...], ...]], lexemes: Sequence[Lexeme], index: int
) -> tuple[tuple[str, ...], ...]:
    return grouped.get(lexemes[index].text, ()) if index < len(lexemes) else ()


def mark(name: str) -> Lexeme:
    """A mark for clauses.py (see the module docstring)."""
    return Lexeme("mark", name)


def is_question(lexemes: Sequence[Lexeme]) -> bool:
    """A question rather than a request: "what is a bridge", "how much eth do i have", "should i stake",
    "do you support solana" (but not "can you swap ...", "what about base", "do the same on base")."""
    kept = [
        lexeme
        for lexeme in lexemes
        if lexeme.kind not in ("punct", "mark")
        and not (lexeme.kind == "word" and lexeme.text in _OPENING_FILLER)
    ]
    words = [
        lexeme.token.text if lexeme.guessed and lexeme.token is not None else lexeme.text for lexeme in kept
    ]
    if not words:
        return False
    first, second = words[0], words[1] if len(words) > 1 else ""
    said = [lexeme.text for lexeme in lexemes if lexeme.kind not in ("punct", "mark")]
    if any(tuple(seen[: len(opener)]) == opener for opener in REQUEST_OPENERS for seen in (words, said)):
        return False  # "is it possible to swap ...", "would it be okay to send ...": a request
    if tuple(words[:3]) in HOW_TO_OPENERS:
        # "how do i swap 60 usdc to eth on arb" asks for that swap; "how do i bridge" asks to be told.
        rest = kept[3:]
        return not (rest and rest[0].kind == "verb" and any(lexeme.kind == "number" for lexeme in rest))
    if any(word in QUESTION_VERBS for word in words[:3]):
        return True  # "explain bridging", "can you explain ..."
    told = next((at for at in range(min(len(words), 4)) if tuple(words[at : at + 2]) == ("tell", "me")), None)
    if told is not None and len(words) > told + 2 and words[told + 2] in _TOLD_ABOUT:
        return True  # "tell me about uniswap", "can u tell me how to bridge 100 usdc ..."
    if first in QUESTION_WORDS:
        return (first, second) not in FOLLOW_UP_QUESTIONS
    if first in QUESTION_AUXILIARIES:
        return True
    if first == "do":
        return second in REQUEST_SUBJECTS | {"they"}  # "do i have", "do you support"; not "do it again"
    if first in SUBJECT_AUXILIARIES:
        return second in SUBJECTS  # "will it", "can there"; "can you", "could i" are requests
    return False


# Words after "tell me" that ask to be told something, not to be alerted ("tell me when ..." waits).
_TOLD_ABOUT: Final = frozenset({"about", "how", "what", "why", "more", "who", "which", "whether"})
# Filler that may open a question ("hey, what is a bridge", "quick question: how ...").
_OPENING_FILLER: Final = frozenset(
    {"hey", "hi", "hello", "yo", "gm", "so", "ok", "okay", "um", "quick", "question"}
)


# Words that wish for something done ("i need 100 usdc moved ...").
_WISHES: Final = frozenset({"need", "needs", "want", "wants", "like", "get"})
# Someone who did the deed, between the wish and the past form ("i need the usdc you sent").
_DOERS: Final = frozenset({"i", "we", "you", "u", "they", "he", "she"})


def _wished_done(lexemes: Sequence[Lexeme], index: int) -> Lexeme | None:
    """ "need 100 usdc moved from base to op", "want my eth swapped": a past form right after the tokens a
    wish names asks for the deed, so it is read as its verb. A subject in between ("i need the usdc i sent")
    keeps it a telling of what was done."""
    lexeme = lexemes[index]
    if lexeme.kind != "past" or index == 0 or lexemes[index - 1].kind != "asset":
        return None
    for earlier in reversed(lexemes[:index]):
        if earlier.text in _WISHES:
            verb = past_of(lexeme.text)
            return None if verb is None else replace(lexeme, kind="verb", text=verb)
        if earlier.text in _DOERS or earlier.kind in ("verb", "past", "mark"):
            return None
    return None


def rewrite(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """The lexemes with links and corrections replaced by marks, politeness phrases dropped, and a past
    form a wish asks for read as its verb."""
    lexemes = _all_of_it(
        _restated([_wished_done(lexemes, at) or lexeme for at, lexeme in enumerate(lexemes)])
    )
    out: list[Lexeme] = []
    index = 0
    while index < len(lexemes):
        polite = next(
            (len(p) for p in _starting(_POLITE, lexemes, index) if _texts(lexemes, index, len(p)) == p), 0
        )
        if polite:
            index += polite
            continue
        # After a correction, "usdt not dai" says what the correction replaces (below), not what to avoid.
        corrected = any(lexeme.kind == "mark" and lexeme.text == "correct" for lexeme in out)
        ruled_out = None if corrected else excluded(lexemes, index)
        if ruled_out:
            used, made = ruled_out
            out.extend(made)
            index += used
            continue
        if corrected and _names_what_it_replaces(lexemes, index, out):
            index += 2  # "hmm no, it's on spark not aave": the value said replaces the one negated
            continue
        framing = _chat_framing(lexemes, index, out)
        replaced = lexemes[index + framing - 1] if framing >= 2 else None
        if replaced is not None and replaced.asset is not None and lexemes[index].text in ("not", "instead"):
            # "sorry i meant usdt, not dai": which token the correction replaces is kept, so it replaces
            # the slot that token is in (the source or the target), never the other one.
            out.extend([Lexeme("punct", ","), Lexeme("replaced", replaced.text, asset=replaced.asset)])
            index += framing
            continue
        if framing:
            # A clause end keeps what followed the dropped words apart from what came before ("200 not
            # 100 k thx": the "k" is chat, not thousands of 200).
            out.append(Lexeme("punct", ","))
            index += framing
            continue
        used, made = _moved_it(lexemes, index, out)
        if not used:
            used, made = _link(lexemes, index)
        if not used:
            used, made = _correction(lexemes, index, bool(out))
        if not used and out and _star_fix(lexemes, index):
            used, made = 1, [mark("correct")]
        if used:
            out.extend(made)
            index += used
        else:
            out.append(lexemes[index])
            index += 1
    return out


# What a correction may name again to say what it replaces ("sry, 200 not 100", "base not arbitrum").
_REPLACED_KINDS: Final = frozenset({"number", "chain", "asset"})


# Verbs that move "it" somewhere after the tokens were named ("take it from op", "and put it on base").
_TAKING: Final = frozenset({"take", "grab", "pull", "get"})
_PUTTING: Final = frozenset({"put", "move", "send", "drop", "stick", "get"})
_IT: Final = frozenset({"it", "them", "that"})
# "i'd like eth for 80 usdc": "like" after these is a wish, as "want" is.
_WOULD: Final = frozenset({"i'd", "id", "would", "we'd", "wed"})


def _moved_it(lexemes: Sequence[Lexeme], index: int, out: Sequence[Lexeme]) -> tuple[int, list[Lexeme]]:
    """Places said with "it" after the tokens were named: "..., take it from op" says where they come
    from ("from op"); "take 100 dai off op and put it on base" says where they go ("to base"); and a
    "minus" before a number makes it negative ("send minus 5 usdc"), which is refused. The cheap word
    tests come first: this runs at every word of every request."""
    words = _texts(lexemes, index, 4)
    first = words[0]
    taking = first in _TAKING and len(words) >= 3 and words[1] in _IT and words[2] in ("from", "off")
    if taking and any(lexeme.asset is not None for lexeme in out):
        return 3, [Lexeme("word", "from")]
    if (
        first == "and"
        and len(words) == 4
        and words[1] in _PUTTING
        and words[2] in _IT
        and words[3] in ("on", "onto", "to", "over")
        and index + 4 < len(lexemes)
        and lexemes[index + 4].chain is not None
        and any(lexeme.text == "take" for lexeme in out)
    ):
        return 4, [Lexeme("word", "to")]
    wished = first in ("want", "need") or (first == "like" and bool(out) and out[-1].text in _WOULD)
    if wished and _wished_buy(lexemes, index, out):
        # "i want eth for 100 usdc": a token wished for, paid with another, is bought.
        return 1, [lexemes[index], Lexeme("verb", "buy", action="swap")]
    if first not in ("minus", "negative"):
        return 0, []
    number = lexemes[index + 1] if index + 1 < len(lexemes) else None
    previous = out[-1] if out else None
    if (
        number is not None
        and number.kind == "number"
        and number.token is not None
        and (previous is None or previous.kind == "verb")
    ):
        return 2, [replace(number, token=replace(number.token, negative=True))]
    return 0, []


def _wished_buy(lexemes: Sequence[Lexeme], index: int, out: Sequence[Lexeme]) -> bool:
    """At a wish word ("want", "need"), with no verb said before it: a token, then "for"/"with"/"using" and
    another token ("i want eth for 100 usdc", "need some dai with 50 usdc", "i want $1k of eth with usdc")."""
    if lexemes[index].text not in ("want", "need", "like") or any(lexeme.kind == "verb" for lexeme in out):
        return False
    rest = lexemes[index + 1 :]
    if any(lexeme.kind == "verb" for lexeme in rest):
        return False  # "i want to swap ...": the verb says it
    wanted = next((at for at, lexeme in enumerate(rest) if lexeme.asset is not None), None)
    if wanted is None:
        return False
    return any(
        lexeme.text in ("for", "with", "using", "w")
        and any(later.asset is not None for later in rest[at + 1 : at + 4])
        for at, lexeme in enumerate(rest)
        if at > wanted
    )


def _star_fix(lexemes: Sequence[Lexeme], index: int) -> bool:
    """ "..., *optimism": a chat fix naming a chain or token that respells no earlier word (those are fixed
    before reading, see spelling.py) corrects the request like "actually optimism" does."""
    following = lexemes[index + 1] if index + 1 < len(lexemes) else None
    return (
        lexemes[index].kind == "punct"
        and lexemes[index].text == "*"
        and following is not None
        and following.kind in ("chain", "asset", "number")
    )


def _chat_framing(lexemes: Sequence[Lexeme], index: int, out: Sequence[Lexeme]) -> int:
    """How many lexemes at `index` only frame the request: a greeting ("morning!"), "how about" before a
    verb ("how about swapping 150 usdc ..."; "how about 50" stays a follow-up), "while on", "followed by",
    "second" after "first", and the value a correction names as replaced ("..., sry 200 not 100", "200
    instead of 100": the later value wins, the replaced one is no second value)."""
    word = lexemes[index].text
    following = lexemes[index + 1] if index + 1 < len(lexemes) else None
    after = following.text if following is not None else ""
    if word == "good" or word in _GREETED:
        opening = all(earlier.kind == "punct" or earlier.text in CHAT_FILLER for earlier in out)
        if opening and word == "good" and after in _GREETED:
            return 2  # "good morning, swap ..."
        if opening and word in _GREETED and after in _CLAUSE_END:
            return 1  # "morning! swap ...": a greeting that opens the message, not a time to wait for
        return 0
    if (word, after) == ("send", "it") and _opens(out) and _texts(lexemes, index + 2, 1) in _CHEERS_END:
        return 2  # "send it: 250 usdc into eth": chat for "go for it" opening the message, not a transfer
    if word == "while":
        return 1 if after in ("on", "in", "over") else 0  # "while on base, swap ...": where, not when
    if word in ("second", "third"):
        # "first bridge ..., second deposit it": a step boundary
        return 1 if any(earlier.text == "first" for earlier in out) else 0
    if (word, after) == ("followed", "by"):
        return 2  # "bridge ... followed by depositing it": a step boundary (the clause end stands for it)
    if (word, after) == ("how", "about"):
        verb = lexemes[index + 2] if index + 2 < len(lexemes) else None
        return 2 if verb is not None and verb.kind == "verb" else 0
    if word not in ("instead", "not") or not any(
        lexeme.kind == "mark" and lexeme.text == "correct" for lexeme in out
    ):
        return 0
    if word == "instead":
        # "make it 200 instead (of 100)": the replaced value is no second value
        replaced = after == "of" and index + 2 < len(lexemes)
        return 3 if replaced and lexemes[index + 2].kind in _REPLACED_KINDS else 1
    return 2 if following is not None and following.kind in _REPLACED_KINDS else 0


# What follows "send it" when it is a cheer rather than a transfer of something named before.
_CHEERS_END: Final = frozenset({(":",), ("!",), ("-",), ("—",), (",",)})


def _opens(out: Sequence[Lexeme]) -> bool:
    """True when nothing but punctuation and chat filler came before: the words open the message."""
    return all(earlier.kind == "punct" or earlier.text in CHAT_FILLER for earlier in out)


def _texts(lexemes: Sequence[Lexeme], start: int, count: int) -> tuple[str, ...]:
    return tuple(lexeme.text for lexeme in lexemes[start : start + count])


def _link(lexemes: Sequence[Lexeme], index: int) -> tuple[int, list[Lexeme]]:
    """ "once it lands", "when that's done", "as soon as it arrives", "once bridged": a step boundary.
    "after bridging it": a boundary too; "after bridging 100 usdc to base": a clause that comes first."""
    word = lexemes[index].text
    if word not in LINK_OPENERS or lexemes[index].kind != "word":
        return 0, []
    at = index + 1
    if word == "as":
        if _texts(lexemes, at, 2) != ("soon", "as"):
            return 0, []
        at += 2
    if word == "after" and at < len(lexemes) and lexemes[at].kind == "verb" and lexemes[at].gerund:
        rest = at + 1
        while rest < len(lexemes) and lexemes[rest].text in PRONOUNS | FILLER:
            rest += 1
        if rest >= len(lexemes) or lexemes[rest].text in _CLAUSE_END or lexemes[rest].kind == "verb":
            return rest - index, [mark("link")]
        # The gerund stays: its clause is a step of its own, done before the one it follows.
        return 1, [mark("before")]
    while at < len(lexemes) and lexemes[at].text in LINK_SUBJECTS | {"is", "has", "been", "gets", "get"}:
        at += 1
    if at < len(lexemes) and lexemes[at].text in LINK_EVENTS:
        # "once it lands on base": "on base" stays and places the next step.
        return at + 1 - index, [mark("link")]
    ends = at + 1 >= len(lexemes) or lexemes[at + 1].text in _CLAUSE_END
    if at > index + 1 and at < len(lexemes) and lexemes[at].text in ("in", "out") and ends:
        return at + 1 - index, [mark("link")]  # "once that's in, borrow 1 eth against it"
    return 0, []


# Words that confirm a value just said when it is said again ("a quarter. yes, a quarter").
_AFFIRM: Final = frozenset({"yes", "yeah", "yep", "yup", "ok", "okay", "so"})


def _restated(lexemes: list[Lexeme]) -> list[Lexeme]:
    """A value said twice in a row across a pause is said once: "..., sorry, 150. 150 usdc", "maybe just
    a quarter. yes, a quarter", and in words in brackets ("150,000 usdc (one hundred fifty thousand)").
    Only the same number (written alike, unless the second is in brackets) with nothing but punctuation
    and a yes between; anything else is two values and left to the reader."""
    out: list[Lexeme] = []
    for lexeme in lexemes:
        if lexeme.kind == "number" and lexeme.token is not None and lexeme.token.value is not None:
            bracketed = bool(out) and out[-1].text == "("
            back = len(out) - 1
            while back >= 0 and (out[back].text in _AFFIRM or out[back].kind == "punct"):
                back -= 1
            token = back if bracketed and back >= 0 and out[back].kind == "asset" else None
            if token is not None:
                back -= 1  # "150,000 usdc (one hundred fifty thousand)": the token stays with the first
            said = out[back] if back >= 0 else None
            paused = any(one.text in _CLAUSE_END for one in out[back + 1 :])
            if (
                said is not None
                and (paused or bracketed)
                and said.kind == "number"
                and (said.text == lexeme.text or bracketed)
                and said.token is not None
                and said.token.value == lexeme.token.value
            ):
                if token is not None:
                    del out[token + 1 :]  # the bracketed number is dropped; its ")" is punctuation
                    continue
                del out[back:]
        out.append(lexeme)
    return out


def _names_what_it_replaces(lexemes: Sequence[Lexeme], index: int, out: Sequence[Lexeme]) -> bool:
    """After a correction, "<protocol or chain> not <another of its kind>" ("spark not aave", "base not
    arbitrum"): the negated one is what the correction replaces, said only to be clear."""
    if lexemes[index].text != "not" or index + 1 >= len(lexemes) or not out:
        return False
    said, negated = out[-1], lexemes[index + 1]
    return said.kind in ("protocol", "chain") and negated.kind == said.kind and said.text != negated.text


def _correction(lexemes: Sequence[Lexeme], index: int, said_before: bool) -> tuple[int, list[Lexeme]]:
    """A correction phrase at a clause boundary; the later statement wins."""
    if not said_before:
        # Nothing to correct yet: "actually, swap 2 eth", "no, make it 2" open the request (a change of
        # the previous turn is read as a follow-up).
        for phrase in (*_starting(_RESETS, lexemes, index), *_starting(_CORRECTIONS, lexemes, index)):
            if _texts(lexemes, index, len(phrase)) == phrase:
                return len(phrase), []
        following = lexemes[index + 1] if index + 1 < len(lexemes) else None
        if lexemes[index].text == "no" and following is not None and following.text in _CLAUSE_END:
            return 1, []
        return 0, []
    before = index - 1
    while before >= 0 and lexemes[before].kind == "word" and lexemes[before].text in CHAT_FILLER:
        before -= 1  # "..., hmm no, 300": a hesitation does not hide the boundary
    previous = lexemes[before] if before >= 0 else None
    boundary = previous is None or previous.kind == "mark" or previous.text in _CLAUSE_END | {"-", "—", "..."}
    for phrase in _starting(_RESETS, lexemes, index):
        if _texts(lexemes, index, len(phrase)) == phrase:
            return len(phrase), [mark("reset")]
    if _texts(lexemes, index, 2) in (("leave", "it"), ("leave", "that"), ("skip", "it")) and all(
        lexeme.kind == "punct" for lexeme in lexemes[index + 2 :]
    ):
        return len(lexemes) - index, [
            mark("reset")
        ]  # "..., actually no, leave it": nothing is asked any more
    for phrase in _starting(_CORRECTIONS, lexemes, index):
        if _texts(lexemes, index, len(phrase)) != phrase:
            continue
        single_word = len(phrase) == 1 and phrase[0] in ("wait", "rather", "sorry", "err", "er", "erm")
        if single_word and not boundary and not _correction_follows(lexemes, index + 1):
            return 0, []
        return len(phrase), [mark("correct")]
    if lexemes[index].text == "no" and boundary:
        following = lexemes[index + 1] if index + 1 < len(lexemes) else None
        if following is not None and (following.text in _CLAUSE_END | {"make"} or following.kind == "number"):
            return 1, [mark("correct")]  # "..., no, 1 eth": a correction, not a negation
    return _replaced_value(lexemes, index) if boundary else (0, [])


def _replaced_value(lexemes: Sequence[Lexeme], index: int) -> tuple[int, list[Lexeme]]:
    """At a clause boundary, a value said to replace another: "..., not 100, 200" (the value after the
    negated one wins) and "..., 200 instead (of 100)" (the value before "instead" wins)."""
    texts = _texts(lexemes, index, 4)
    kinds = [lexeme.kind for lexeme in lexemes[index : index + 4]]
    negated = len(texts) == 4 and texts[0] == "not" and texts[2] in _CLAUSE_END
    if negated and kinds[1] in _REPLACED_KINDS and kinds[3] == kinds[1]:
        return 3, [mark("correct")]
    if len(texts) >= 2 and texts[0] == "not" and kinds[1] == "number":
        # "send 25 usdc, not 250. to 0x...": the value said before stands; the negated one (with its
        # token, when it repeats it) is only what the user did not mean.
        end = 2 + (len(kinds) > 2 and kinds[2] == "asset")
        denied = lexemes[index + 1].token
        negated_value = denied.value if denied is not None else None
        said = any(
            one.kind == "number" and one.token is not None and one.token.value == negated_value
            for one in lexemes[:index]
        )
        if not said and (end >= len(texts) or texts[end] in _CLAUSE_END):
            return end, [Lexeme("punct", ",")]
    if len(texts) >= 2 and kinds[0] in _REPLACED_KINDS and texts[1] == "instead":
        dropped = 2 if len(texts) == 4 and texts[2] == "of" and kinds[3] == kinds[0] else 0
        return 2 + dropped, [mark("correct"), lexemes[index]]
    return 0, []


def _correction_follows(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when a correction or a new value starts at `index` ("... sorry i meant 1000", "... wait 200")."""
    following = lexemes[index] if index < len(lexemes) else None
    if following is None:
        return False
    if following.text in _CLAUSE_END and index + 1 < len(lexemes):
        # "... on base sorry, dai not eth": a value named right after the pause is what is corrected
        return lexemes[index + 1].kind in _REPLACED_KINDS
    return following.kind == "number" or any(
        _texts(lexemes, index, len(phrase)) == phrase for phrase in _starting(_CORRECTIONS, lexemes, index)
    )


_POINTERS: Final = frozenset({"it", "them", "that", "those", "this", "these"})


def _all_of_it(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "swap it all to usdc", "send them all": the whole of what the pronoun points at, said as "all of
    it", so "all" never falls on the token named after it (the swap's target)."""
    out = list(lexemes)
    at = 0
    while at < len(out) - 1:
        if out[at].text in _POINTERS and out[at].kind == "word" and out[at + 1].text == "all":
            out[at : at + 2] = [out[at + 1], Lexeme("word", "of"), out[at]]
            at += 3
            continue
        at += 1
    return out
