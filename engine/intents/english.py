"""Is a word ordinary English? Word frequencies from wordfreq (its `small` English list: words seen often in
books, the web, subtitles, news and social text), read from the package's own data once.

The reader uses it where a word could be a name the registry has: a frequent English word one keystroke
from a token or chain name ("uses" from USDS, "die" from DAI, "bass" from base) is never corrected into it
silently, and a frequent word where an unknown token could stand ("send my grandson ...") is not taken for
one. Library choice and the threshold: docs/decisions.md ("Reading requests").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from wordfreq import zipf_frequency

# Zipf frequency (log10 of uses per billion words) from which a word counts as ordinary English: "grandson"
# 3.85, "stash" 3.54, "dye" 3.82 are; meme-token names people trade ("pepe" 3.40, "bonk" 2.43, "shib" 1.43)
# and typos ("eht", "etherum") are not.
COMMON_ZIPF: Final = 3.5


@lru_cache(maxsize=8192)
def zipf(word: str) -> float:
    """The word's Zipf frequency in wordfreq's small English list (0 when it is not in it)."""
    return float(zipf_frequency(word, "en", wordlist="small"))


def is_common(word: str) -> bool:
    """True for an ordinary English word (see COMMON_ZIPF), a plural counting as its singular ("nephews")."""
    if not word.isalpha():
        return False
    word = word.lower()
    return zipf(word) >= COMMON_ZIPF or any(zipf(stem) >= COMMON_ZIPF for stem in _singulars(word))


# Zipf frequency from which a word is one English text uses at all ("volatility" 3.49, "regret" 4.37; the
# small list leaves out rare slang such as "ngl"): a remark's words must all reach it, so a clause in
# another language ("no sé todavía", "quiero" 2.41) is never taken for an English remark.
KNOWN_ZIPF: Final = 2.5


def is_english(word: str) -> bool:
    """True for a word English text uses (see KNOWN_ZIPF); written in ASCII letters, apostrophes allowed."""
    bare = word.replace("'", "")
    if not bare.isascii() or not bare.isalpha():
        return False
    return zipf(word.lower()) >= KNOWN_ZIPF or zipf(bare.lower()) >= KNOWN_ZIPF


def _singulars(word: str) -> list[str]:
    """What a plural may be the plural of: "nephews" -> nephew, "boxes" -> box, "babies" -> baby."""
    if len(word) < 4 or not word.endswith("s") or word.endswith("ss"):
        return []
    stems = [word[:-1]]
    if word.endswith("es"):
        stems.append(word[:-2])
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    return stems
