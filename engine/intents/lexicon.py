"""Tokens -> lexemes: which chain, asset, protocol or verb a word (or a run of words) names."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from engine.intents.english import is_common
from engine.intents.lexer import Token, TypoIndex, tokenize
from engine.intents.numerals import FRACTION_NAMES, NUMBER_WORDS, SCALES
from engine.intents.universe import AssetUniverse, VaultName
from engine.intents.vocabulary import (
    ALL_BUT_WORDS,
    CHAIN_NICKNAMES,
    EACH_WORDS,
    EVERYTHING_WORDS,
    FEE_WORDS,
    FOLLOW_UP_WORDS,
    FOR_WORDS,
    FROM_WORDS,
    LIQUIDITY_WORDS,
    MAX_WORDS,
    MULTIPLES,
    ON_WORDS,
    PERCENT_WORDS,
    PHRASAL_VERBS,
    PLAIN_WORDS,
    PRONOUNS,
    PROTOCOL_ALIASES,
    SPLIT_WORDS,
    STEP_JOINERS,
    TO_WORDS,
    UNSUPPORTED,
    USD_WORDS,
    VERBS,
    WITH_WORDS,
    past_of,
)
from engine.intents.wording import CONDITION_WORDS, FILLER, NEGATIONS, TIME_UNITS, TIME_WORDS

# Letters as dictation spells them out by name ("you ess dee see" is USDC, "bee ess see" BSC).
_LETTER_NAMES: Final[dict[str, str]] = {
    **dict.fromkeys(("ay", "a"), "a"),
    **dict.fromkeys(("bee", "be", "b"), "b"),
    **dict.fromkeys(("see", "sea", "cee", "c"), "c"),
    **dict.fromkeys(("dee", "d"), "d"),
    **dict.fromkeys(("ee", "e"), "e"),
    **dict.fromkeys(("ef", "eff", "f"), "f"),
    **dict.fromkeys(("gee", "g"), "g"),
    **dict.fromkeys(("aitch", "h"), "h"),
    **dict.fromkeys(("eye", "i"), "i"),
    **dict.fromkeys(("jay", "j"), "j"),
    **dict.fromkeys(("kay", "k"), "k"),
    **dict.fromkeys(("el", "ell", "l"), "l"),
    **dict.fromkeys(("em", "m"), "m"),
    **dict.fromkeys(("en", "n"), "n"),
    **dict.fromkeys(("oh", "o"), "o"),
    **dict.fromkeys(("pee", "pea", "p"), "p"),
    **dict.fromkeys(("cue", "queue", "q"), "q"),
    **dict.fromkeys(("ar", "r"), "r"),
    **dict.fromkeys(("ess", "es", "s"), "s"),
    **dict.fromkeys(("tee", "tea", "t"), "t"),
    **dict.fromkeys(("you", "u"), "u"),
    **dict.fromkeys(("vee", "v"), "v"),
    **dict.fromkeys(("ex", "x"), "x"),
    **dict.fromkeys(("why", "y"), "y"),
    **dict.fromkeys(("zee", "zed", "z"), "z"),
}

# Texts whose lexemes are kept (a request's sentences and its earlier turns, for the grounding check's
# second reading); bounded, so one process's memory does not grow with the requests it reads.
_READ_CACHE: Final = 1024

# Longest alias, in words, the lexicon tries to match ("binance smart chain").
_MAX_PHRASE_WORDS: Final = 3
# Most pieces a name said in pieces is joined from ("u s d c").
_MAX_SPOKEN_PIECES: Final = 5

# Words of the parser's own grammar: typo targets too ("liquidty" -> "liquidity").
_GRAMMAR_WORDS: Final[frozenset[str]] = (
    LIQUIDITY_WORDS
    | FEE_WORDS
    | EVERYTHING_WORDS
    | MAX_WORDS
    | frozenset(FRACTION_NAMES)
    | NUMBER_WORDS
    | PRONOUNS
    | FOLLOW_UP_WORDS
    | frozenset({"worth", "rewards", "wallet"})
)

# Verbs a misspelling is never corrected to: one keystroke from token names or words ("shib" is not
# "ship", "drops" is not "drop").
_NO_TYPO_VERBS: Final = frozenset({"ship", "hop", "drop"})

# Words the reader understands without a table entry, so they are never typo-corrected.
_KNOWN_WORDS: Final[frozenset[str]] = (
    PLAIN_WORDS
    | FROM_WORDS
    | TO_WORDS
    | ON_WORDS
    | WITH_WORDS
    | FOR_WORDS
    | STEP_JOINERS
    | USD_WORDS
    | frozenset(SCALES)
    | frozenset(UNSUPPORTED)
    | frozenset(MULTIPLES)
    | EACH_WORDS
    | SPLIT_WORDS
    | PERCENT_WORDS
    | ALL_BUT_WORDS
    | FILLER
    | NEGATIONS
    | CONDITION_WORDS
    | TIME_WORDS
    | TIME_UNITS
    # The first word of a two-word verb ("pick up", "market buy") is read with the word after it.
    | frozenset(first for first, _ in PHRASAL_VERBS)
)


@dataclass(frozen=True, slots=True)
class Lexeme:
    """A classified token run. kind: chain, asset, protocol, verb, number, evm, sol, ens, punct, word (a
    word of the grammar or of plain English) or unknown (a word nobody knows, maybe a token).

    A word naming both a chain and an asset ("eth", "sol", "bnb") carries both `chain` and `asset`; a verb
    written as "-ing" ("after bridging it") is marked `gerund`.
    """

    kind: str
    text: str
    chain: str | None = None
    asset: str | None = None
    protocol: str | None = None
    action: str | None = None
    token: Token | None = None
    gerund: bool = False
    guessed: bool = False  # read as the one known word within an edit of a misspelling
    vault: VaultName | None = None  # a trusted vault named by its symbol or name ("sDAI")


class Lexicon:
    """The words of one asset universe; build once and reuse (construction walks the registry aliases)."""

    def __init__(self, universe: AssetUniverse) -> None:
        self.universe = universe
        self._read_cached = functools.lru_cache(maxsize=_READ_CACHE)(self._read_tuple)
        self._chains = {tuple(alias.split()): slug for alias, slug in universe.chain_aliases().items()}
        known_chains = set(self._chains.values())
        for nickname, slug in CHAIN_NICKNAMES.items():
            if slug in known_chains:
                self._chains.setdefault((nickname,), slug)
        self._assets = {tuple(alias.split()): symbol for alias, symbol in universe.asset_aliases().items()}
        known_protocols = {name.lower() for name in universe.protocol_names()}
        self._protocols: dict[tuple[str, ...], str] = {(name,): name for name in known_protocols}
        for alias, name in PROTOCOL_ALIASES.items():
            if name in known_protocols:
                self._protocols[(alias,)] = name
        self._vaults = {tuple(alias.split()): vault for alias, vault in universe.vault_aliases().items()}
        entries: dict[str, str] = {}
        for table, tag in ((self._chains, "chain"), (self._assets, "asset"), (self._protocols, "protocol")):
            for words, value in table.items():
                if len(words) == 1:
                    entries.setdefault(words[0], f"{tag}:{value}")
        for verb in VERBS.keys() - _NO_TYPO_VERBS:
            entries.setdefault(verb, f"verb:{verb}")
        for word in _GRAMMAR_WORDS | FROM_WORDS | TO_WORDS | ON_WORDS | WITH_WORDS:
            entries.setdefault(word, f"word:{word}")
        self._typos = TypoIndex(entries, _KNOWN_WORDS)

    def clear_cache(self) -> None:
        """Forget every text read so far (benchmarks time a prompt never seen before)."""
        self._read_cached.cache_clear()

    def read_text(self, text: str) -> list[Lexeme]:
        """The lexemes of `text`. A request is read by the parser and again by the grounding check (and its
        sentences apart): the same text's lexemes, which never change, are kept for the next reading."""
        return list(self._read_cached(text))

    def _read_tuple(self, text: str) -> tuple[Lexeme, ...]:
        return tuple(self.read(tokenize(text)))

    def read(self, tokens: Sequence[Token]) -> list[Lexeme]:
        """Classify tokens, matching multi-word aliases greedily and correcting single-word typos."""
        lexemes: list[Lexeme] = []
        index = 0
        while index < len(tokens):
            lexeme, used = self._read_at(tokens, index)
            lexemes.append(lexeme)
            index += used
        return _dialect(lexemes)

    def _read_at(self, tokens: Sequence[Token], index: int) -> tuple[Lexeme, int]:
        token = tokens[index]
        if token.kind != "word":
            return Lexeme(token.kind, token.text, token=token), 1
        spoken = self._spoken(tokens, index)
        if spoken is not None:
            return spoken
        for size in range(_MAX_PHRASE_WORDS, 1, -1):
            window = tokens[index : index + size]
            if len(window) == size and all(item.kind == "word" for item in window):
                lexeme = self._lookup(tuple(item.text for item in window))
                if lexeme is not None:
                    return lexeme, size
        word = token.text
        lexeme = self._lookup((word,))
        if lexeme is not None:
            return lexeme, 1
        if word in _KNOWN_WORDS or word in _GRAMMAR_WORDS:
            return Lexeme("word", word), 1
        gerund = _gerund(word)
        if gerund is not None:
            return Lexeme("verb", word, action=VERBS[gerund], gerund=True), 1
        past = past_of(word)
        if past is not None:
            return Lexeme("past", word, action=VERBS[past]), 1  # never corrected to the verb it was
        # An ordinary English word is never corrected into a name or a verb it is one keystroke from ("uses" is
        # not USDS, "die" not DAI): where a name belongs, the reader asks which one was meant.
        corrected = None if is_common(word) else self._typos.correct(word)
        if corrected is not None:
            fixed = self._lookup((corrected,))
            if fixed is not None:
                return replace(fixed, guessed=True, token=token), 1  # the token keeps what was typed
            return Lexeme("word", corrected), 1
        return Lexeme("unknown", word), 1

    def _spoken(self, tokens: Sequence[Token], index: int) -> tuple[Lexeme, int] | None:
        """A name said in pieces, as dictation writes it: letter by letter ("u s d c", "w b t c"), or a word
        cut in two ("so lana", "w eth"). Read as the name only when the pieces join into one the registry
        knows and one of them is a lone letter or a word nobody knows, so words that are words stay so."""
        for size in range(_MAX_SPOKEN_PIECES, 1, -1):
            window = tokens[index : index + size]
            if len(window) < size or not all(item.kind == "word" for item in window):
                continue
            joined = "".join(item.text for item in window)
            lexeme = self._lookup((joined,))
            if (
                lexeme is not None
                and lexeme.kind != "verb"
                and any(len(item.text) == 1 or self._unknown_word(item.text) for item in window)
            ):
                return lexeme, size
            # "you ess dee see", "bee ess see": letters said by their names; every piece must be one.
            letters = [_LETTER_NAMES.get(item.text) for item in window]
            if all(letters):
                named = self._lookup(("".join(letter or "" for letter in letters),))
                if named is not None and named.kind in ("asset", "chain"):
                    return named, size
        return None

    def _unknown_word(self, word: str) -> bool:
        return (
            self._lookup((word,)) is None
            and word not in _KNOWN_WORDS
            and word not in _GRAMMAR_WORDS
            and self._typos.correct(word) is None
        )

    def _lookup(self, words: tuple[str, ...]) -> Lexeme | None:
        text = " ".join(words)
        chain = self._chains.get(words)
        asset = self._assets.get(words)
        if chain is not None or asset is not None:
            return Lexeme("chain" if asset is None else "asset", text, chain=chain, asset=asset)
        protocol = self._protocols.get(words)
        if protocol is not None:
            return Lexeme("protocol", text, protocol=protocol)
        vault = self._vaults.get(words)
        if vault is not None:
            return Lexeme("vault", text, vault=vault)
        if len(words) == 1 and words[0] in VERBS:
            return Lexeme("verb", text, action=VERBS[words[0]])
        return None


# "-ing" forms that tell what is going on, never name a step: "just getting it off the hot wallet".
_TELLING_GERUNDS: Final = frozenset({"getting"})


def _gerund(word: str) -> str | None:
    """The verb a "-ing" word is made of ("bridging" -> bridge, "swapping" -> swap), or None."""
    if not word.endswith("ing") or len(word) < 5 or word in _TELLING_GERUNDS:  # "aping" is the shortest
        return None
    stem = word[:-3]
    for candidate in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""):
        if candidate in VERBS:
            return candidate
    return None


# Prepositions and determiners after "across" that make it the preposition ("walked across my keyboard"),
# never the Across bridge.
_ACROSS_PREPOSITION: Final = frozenset({"my", "the", "a", "an", "his", "her", "our", "their", "your", "this"})


def _dialect(lexemes: list[Lexeme]) -> list[Lexeme]:
    """Words whose reading depends on the next one: "me" before a token is "my" in British and Irish
    English ("half me eth", "against me eth"); "across" before "my"/"the" is a preposition, not the
    Across bridge ("walked across my keyboard")."""
    out: list[Lexeme] = []
    for at, lexeme in enumerate(lexemes):
        following = lexemes[at + 1] if at + 1 < len(lexemes) else None
        previous = out[-1] if out else None
        after_verb = previous is not None and previous.kind == "verb"  # "send me usdc": to me
        if (
            lexeme.text == "me"
            and lexeme.kind == "word"
            and following is not None
            and following.asset
            and not after_verb
        ):
            lexeme = Lexeme("word", "my")
        elif lexeme.protocol == "across" and following is not None and following.text in _ACROSS_PREPOSITION:
            lexeme = Lexeme("word", "across")
        out.append(lexeme)
    return out
