"""Forms people say, and the words around a request that say nothing to watch, written as the compiler reads
them: spoken times and cents ("nine a m", "ninety nine cents"), multiples and parts ("doubles", "goes up by a
fifth", "halves", "another 10%"), letters said by name ("bee en bee"), list framing ("ok last one:"), a
gloss after "=" ("under 0.04 = alt szn over"), a norm the alert guards ("it should stay above 1.5 ... tell
me if it goes under that") and a chain's own coin ("Polygon's coin")."""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from engine.agents.phrases import TRAILING_ACTION
from engine.agents.vocabulary import vocabulary
from engine.intents.numerals import spell_digits
from engine.registry import load_registry

# Spoken forms: "nine a m", "ninety nine cents", "doubles", "goes up by a fifth".
_SPOKEN_TIME: Final = re.compile(r"\b([ap])\s?\.?\s?m\b\.?", re.IGNORECASE)
_CENTS: Final = re.compile(r"\b(\d{1,2})\s+cents?\b", re.IGNORECASE)
_SPELLED_CENTS: Final = re.compile(
    r"\b(?P<words>(?:[a-z]+[\s-]){1,2}[a-z]+|[a-z]+)\s+cents?\b", re.IGNORECASE
)
_PARTS: Final = {"half": 50, "quarter": 25, "fifth": 20, "tenth": 10}
_BY_PART: Final = re.compile(
    r"\b(up|down|rises?|falls?|drops?|gains?|loses?|goes up|goes down|increases?|decreases?)\s+by\s+(?:a|one)\s+"
    r"(half|quarter|fifth|tenth)\b",
    re.IGNORECASE,
)
_MULTIPLE: Final = re.compile(
    r"\b(doubles|doubled|triples|tripled)\b"
    # The verb after a modal ("might double", "could triple"): a noun elsewhere ("a double top").
    r"|\b(?:might|could|would|will|may|can|to|does|should)\s+(?:double|triple)\b",
    re.IGNORECASE,
)
_HALVES: Final = re.compile(r"\b(halves|halved|is cut in half|cut in half)\b", re.IGNORECASE)
# "drops another 10%", "a further 5%": one more move of that size, which a move from the price when the agent
# starts already is.
_FURTHER: Final = re.compile(
    r"\b(?:another|a\s+further|an\s+additional|an\s+extra)\s+(?=\d[\d.,]*\s?(?:%|percent\b|pct\b))",
    re.IGNORECASE,
)


# Letters said by their names ("bee en bee", "you ess dee see"), as speech-to-text writes a spelt ticker.
_LETTERS: Final = {
    "ay": "a", "bee": "b", "be": "b", "see": "c", "cee": "c", "sea": "c", "dee": "d", "ee": "e", "ef": "f",
    "eff": "f", "gee": "g", "aitch": "h", "haitch": "h", "eye": "i", "jay": "j", "kay": "k", "el": "l",
    "ell": "l", "em": "m", "en": "n", "oh": "o", "pee": "p", "cue": "q", "ar": "r", "ess": "s", "tee": "t",
    "tea": "t", "you": "u", "vee": "v", "ex": "x", "why": "y", "zee": "z", "zed": "z",
}  # fmt: skip
_SPELT: Final = re.compile(
    r"\b(?:(?:" + "|".join(_LETTERS) + r"|[a-z])\s+){1,5}(?:" + "|".join(_LETTERS) + r"|[a-z])\b",
    re.IGNORECASE,
)


def _spelt(match: re.Match[str]) -> str:
    """A run of letter names that spells a known name ("bee en bee" is bnb), written as that name; any
    other run (most are ordinary words: "see you") is left as it is."""
    letters = "".join(_LETTERS.get(word.lower(), word.lower()) for word in match.group(0).split())
    return letters if letters in _known_names() else match.group(0)


@cache
def _known_names() -> frozenset[str]:
    vocab = vocabulary()
    names = {alias for asset in vocab.assets for alias in (asset.symbol.lower(), *asset.aliases)}
    names |= {alias for aliases in vocab.chains.values() for alias in aliases}
    return frozenset(name for name in names if " " not in name and len(name) >= 3)


# "ok last one:", "one more:", "next one -": a list's framing before the request, never a reference.
_FRAMING: Final = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|alright|right|and|so)[\s,]+)?(?:the\s+)?(?:last|final|next|one\s+more|another)\s+"
    r"(?:one|thing|request|alert|q)\s*[:,!.\u2014-]+\s*",
    re.IGNORECASE,
)
# "eth/btc under 0.04 = alt szn over": what the condition means to the writer, after "=", with no figure.
_GLOSS: Final = re.compile(r"\s+=\s+(?P<gloss>[^.!?\d]*?)(?=[.!?]|$)")
# "it should stay above 1.5": the side the writer wants kept, which the alert guards from the other side.
_NORM: Final = re.compile(
    r"\b(?:should|must|needs?\s+to|has\s+to|ought\s+to|to)\s+(?:stay|remain|be\s+kept|keep)\s+"
    r"(?P<side>above|over|below|under)\b",
    re.IGNORECASE,
)
_OPPOSITE: Final = {
    "above": re.compile(r"\b(?:under|below|drops?|falls?|goes\s+under|goes\s+below)\b", re.IGNORECASE),
    "below": re.compile(r"\b(?:over|above|rises?|goes\s+over|goes\s+above)\b", re.IGNORECASE),
}
# "Polygon's coin", "the Solana chain's token": the chain's own (native) token.
_CHAINS_COIN: Final = re.compile(
    r"\b(?:the\s+)?(?P<chain>"
    + "|".join(
        sorted((re.escape(a) for al in vocabulary().chains.values() for a in al), key=len, reverse=True)
    )
    + r")(?:\s+(?:chain|network))?'s\s+(?:native\s+|own\s+|main\s+)?(?:coin|token)\b",
    re.IGNORECASE,
)


# "above a dollar", "hits one buck": a level of one, where the reader leaves "one" and "a" as words ("the
# first one"); "stops being worth a dollar" says the peg, no level.
_ONE_DOLLAR: Final = re.compile(
    r"\b(?P<level>above|over|below|under|hits|reaches|past|than|crosses|to)\s+(?:a|one)\s+(?=(?:dollar|buck|usd)\b)",
    re.IGNORECASE,
)


def _norm(text: str) -> str:
    """A norm's side word left out when the request asks about the other side (its figure stays, for "that")."""
    for match in _NORM.finditer(text):
        side = "above" if match.group("side").lower() in ("above", "over") else "below"
        rest = text[: match.start()] + text[match.end() :]
        if _OPPOSITE[side].search(rest):
            return text[: match.start("side")] + "at" + text[match.end("side") :]
    return text


def _chains_coin(match: re.Match[str]) -> str:
    slug = _chain_slugs().get(match.group("chain").lower().strip())
    if slug is None:
        return match.group(0)
    return load_registry().native(slug).symbol


@cache
def _chain_slugs() -> dict[str, str]:
    return {alias: slug for slug, aliases in vocabulary().chains.items() for alias in (slug, *aliases)}


def spoken(text: str) -> str:
    """Forms people say, written as the compiler reads them (see the module docstring)."""
    text = _FRAMING.sub("", text)
    text = _GLOSS.sub(lambda m: m.group(0) if _says_something(m.group("gloss")) else " ", text)
    text = _ONE_DOLLAR.sub(lambda m: f"{m.group('level')} 1 ", _CHAINS_COIN.sub(_chains_coin, _norm(text)))
    text = _SPELT.sub(_spelt, text)
    text = _SPELLED_CENTS.sub(lambda m: f"{spell_digits(m.group('words'))} cents", text)
    text = _SPOKEN_TIME.sub(lambda m: f"{m.group(1).lower()}m", text)
    text = _CENTS.sub(lambda m: f"0.{int(m.group(1)):02d}", text)
    text = _BY_PART.sub(lambda m: f"{m.group(1)} {_PARTS[m.group(2).lower()]}%", text)
    text = _MULTIPLE.sub(lambda m: "rises 100%" if "doub" in m.group(0).lower() else "rises 200%", text)
    return _FURTHER.sub("", _HALVES.sub("falls 50%", text))


def _says_something(gloss: str) -> bool:
    """Whether what follows "=" names something or is a deed ("= buy more"), not only what it means."""
    words = set(re.findall(r"[a-z0-9]+", gloss.lower()))
    return bool(words & _known_names()) or TRAILING_ACTION.search("= " + gloss.lower()) is not None
