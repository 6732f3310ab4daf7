"""Sentences of a request: which ones ask for the transaction, which only talk around it.

People wrap an order in questions and feelings: "What are the charges to withdraw my USDC from aave? Please
withdraw it", "Is it safe to keep everything on one chain? I'm not sure. Anyway, move all my USDC from
Polygon to Arbitrum", "How I do to bridge from solana to base? Is for my USDC, 75 of them". A sentence is
read for the request when it says something a transaction is made of (a verb of an action, an amount, an
asset, a chain, a protocol, an address); a question or a remark that says none of it is set aside. A
question that does is a question only when nothing else in the message asks for the transaction: with an
order, a confirmation ("do it", "go ahead") or a detail beside it, it is the request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.intents.lexicon import Lexeme, Lexicon
from engine.intents.meaning import WHETHER, meaning_words
from engine.intents.message import Message, find_request
from engine.intents.shape import is_question
from engine.intents.vocabulary import MAX_WORDS

# Sentence ends: ".", "?", "!" before a space or a line end, and line breaks (a decimal point is not).
_END: Final = re.compile(r"(?<=[.?!])\s+|\n+")
# Words that open a question whatever mark ends it.
_ASKING: Final = frozenset({"what", "what's", "whats", "how", "why", "which", "who", "where", "whose"})
# Lexemes that say something a transaction is made of.
_CONTENT: Final = frozenset({"verb", "asset", "chain", "protocol", "evm", "sol", "ens", "number"})
_NAMED: Final = frozenset({"asset", "chain", "protocol", "number", "evm", "sol", "ens"})
_IT: Final = frozenset({"it", "them", "that", "this"})
# Words of a sentence that only confirms the request around it ("do it", "go ahead", "gawin mo na po").
_CONFIRMING: Final = frozenset(
    """
    do it go ahead please pls plz now proceed yes yeah yep ok okay sure that this make can kindly just
    execute run then fine alright let's lets gawin mo na po
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)
# First words of a sentence that change the request said before it ("Actually no, leave it.").
_AMENDING: Final = frozenset(
    {
        "actually",
        "no",
        "nah",
        "nope",
        "wait",
        "sorry",
        "sry",
        "cancel",
        "scratch",
        "forget",
        "nvm",
        "nevermind",
    }
    | {"never", "oops", "correction", "make", "change", "instead", "rather", "but", "don't", "dont"}
)
_CONFIRMING_VERBS: Final = frozenset({"do", "go", "proceed", "execute", "run", "gawin"})
# Words that report what someone said or advise in general: a sentence with one tells, it does not ask.
_REPORTING: Final = frozenset(
    {"said", "says", "told", "tells", "suggested", "recommended", "advised", "should", "always", "usually"}
)


def _tells(lexemes: Sequence[Lexeme]) -> bool:
    """True for a sentence that tells what was done or said ("my grandson said I should keep a little")."""
    return any(lexeme.kind == "past" or lexeme.text in _REPORTING for lexeme in lexemes)


# Words that hold part of an amount back: a sentence with one changes how much, never only talk.
_HOLDING_BACK: Final = frozenset(
    {"keep", "keeping", "leave", "leaving", "except", "minus", "rest", "remaining", "remainder", "reserve"}
)


@dataclass(slots=True)
class Focus:
    """The request's text to read, whether it is a question (None: the whole text's shape decides), and
    the sentences set aside (for the reasoning)."""

    text: str
    question: bool | None = None
    set_aside: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Sentence:
    text: str
    lexemes: list[Lexeme]
    question: bool
    content: bool
    verb: bool
    confirms: bool
    # The actions its verbs name, and whether it names nothing but them and "it" ("Please withdraw it").
    actions: set[str] = field(default_factory=set)
    refers: bool = False


def split(text: str) -> list[str]:
    """The sentences of a text: split at ".", "?" or "!" before a space, and at line breaks."""
    return [part.strip() for part in _END.split(text) if part and part.strip()]


def focus(text: str, lexicon: Lexicon) -> Focus:
    """The sentences of `text` a transaction is read from (see the module docstring)."""
    parts = split(text)
    if len(parts) <= 1:
        return Focus(text)
    sentences = [_read(part, lexicon) for part in parts]
    for at, sentence in enumerate(sentences):
        words = [lexeme.text for lexeme in sentence.lexemes if lexeme.kind != "punct"]
        if words and words[0] in _AMENDING and any(s.content for s in sentences[:at]):
            sentence.content = True  # "... Actually no, leave it.": it changes the request before it
    talk = [s for s in sentences if not s.content and not s.confirms]
    if not any(s.question for s in sentences) and not talk:
        return Focus(text)
    orders = [s for s in sentences if s.content and not s.question]
    asked = [s for s in sentences if s.content and s.question]
    if not orders and not any(s.confirms for s in sentences):
        return Focus(text)  # nothing but questions and talk: the shape of the whole decides
    kept: list[_Sentence] = []
    actions: set[str] = set()
    for sentence in sentences:
        if not sentence.content:
            continue
        if sentence.refers and sentence.actions <= actions and _only_points(sentence):
            continue  # "Please withdraw it" after the question that names what to withdraw
        kept.append(sentence)
        actions |= sentence.actions
    if any(s.verb for s in kept):
        # Background that names only an asset ("My daughter wants some ETH for a game") is set aside
        # beside a sentence that says what to do.
        background = [
            s
            for s in kept
            if not s.verb
            and not _detail(s)
            and s not in asked
            and not _withholds(s)
            and not ({lexeme.text for lexeme in s.lexemes} & _HOLDING_BACK and not _tells(s.lexemes))
        ]
        kept = [s for s in kept if s not in background]
        talk += background
    if not kept:
        return Focus(text)
    return Focus(" ".join(s.text for s in kept), question=False, set_aside=[s.text for s in talk])


# Bare refusals that withdraw a request when a sentence says nothing else ("actually no, don't.").
_BARE: Final = 4
_REFUSING: Final = frozenset({"don't", "dont", "nope", "cancel", "stop"})


def _withholds(sentence: _Sentence) -> bool:
    words = {lexeme.text for lexeme in sentence.lexemes}
    bare = not sentence.verb and len(sentence.lexemes) <= _BARE + 2 and bool(words & _REFUSING)
    return bool(words & WHETHER) or bare


def _only_points(sentence: _Sentence) -> bool:
    """A sentence that names nothing but the action and "it" ("Could you please send it?", "Please withdraw
    it, I need it for my daughter's fees"): no amount, place or name, and no word that changes meaning
    ("on that date", "only half of it")."""
    return not any(lexeme.kind in _NAMED for lexeme in sentence.lexemes) and not meaning_words(
        " ".join(lexeme.text for lexeme in sentence.lexemes)
    )


def _detail(sentence: _Sentence) -> bool:
    """A sentence that adds what an order needs: an amount, an address, a chain or a protocol."""
    return any(
        lexeme.kind in ("number", "evm", "sol", "ens", "protocol")
        or lexeme.text in MAX_WORDS
        or (lexeme.kind == "chain" and lexeme.asset is None)
        for lexeme in sentence.lexemes
    )


# A word or phrase in quotes: in a question about it ("is "unstaking" the right word?") it is named, not used.
_QUOTED: Final = re.compile(r"[\"\u201c\u2018']([^\"\u201c\u201d\u2018\u2019']{1,40})[\"\u201d\u2019']")


def _read(text: str, lexicon: Lexicon) -> _Sentence:
    lexemes = lexicon.read_text(text)
    mentioned = {word.lower() for quote in _QUOTED.findall(text) for word in quote.split()}
    if text.rstrip().endswith("?") and mentioned:
        # "is "unstaking" the right word?": the quoted verb is asked about, not asked for.
        lexemes = [lexeme for lexeme in lexemes if not (lexeme.kind == "verb" and lexeme.text in mentioned)]
    verbs = [lexeme for lexeme in lexemes if lexeme.kind == "verb" and not lexeme.gerund]
    words = [lexeme.text for lexeme in lexemes if lexeme.kind != "punct"]
    # A question by its mark, or by a question word first; an auxiliary first without a mark ("Is for my
    # USDC, 75 of them") is as often a statement in the English people write.
    question = text.rstrip().endswith("?") or (is_question(lexemes) and bool(words) and words[0] in _ASKING)
    confirms = (
        bool(words)
        and all(word in _CONFIRMING for word in words)
        and any(word in _CONFIRMING_VERBS for word in words)
    )
    # A sentence that withdraws or holds the request ("cancel.", "never mind.", "wait.") is part of it.
    named_any = any(lexeme.kind in _NAMED for lexeme in lexemes)
    withholds = any(word in WHETHER for word in words) or (
        not verbs and not named_any and len(words) <= _BARE and any(word in _REFUSING for word in words)
    )  # "actually no, don't.": a bare refusal withdraws what came before
    # "All of it please.", "Keep a bit.", "But leave some": how much, said in a sentence of its own.
    told = _tells(lexemes)  # "my grandson said I should always keep a little"
    sizes = any(word in MAX_WORDS or (word in _HOLDING_BACK and not told) for word in words)
    content = (any(lexeme.kind in _CONTENT for lexeme in lexemes) or withholds or sizes) and not confirms
    named = any(lexeme.kind in _NAMED for lexeme in lexemes)
    refers = bool(verbs) and not named and any(word in _IT for word in words)
    actions = {lexeme.action for lexeme in verbs if lexeme.action is not None}
    return _Sentence(text, list(lexemes), question, content, bool(verbs), confirms, actions, refers)


def read_message(prompt: str, lexicon: Lexicon) -> tuple[Message, Focus]:
    """The request of a prompt (engine.intents.message) and the sentences of it to read: what both the
    reader and the grounding check read."""
    message = find_request(prompt, lexicon.universe)
    return message, focus(message.request, lexicon)
