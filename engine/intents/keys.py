"""A private key or a seed phrase in a request: never read, never planned with, never echoed.

Anyone who holds a wallet's key or its recovery words can take everything in it, so a request that pastes
one is refused whatever it asks (a sweep "from my old wallet", an "import"), and the answer tells the user
to treat that key as exposed. A 64-hex string is a key only when the message calls it one ("private key",
"pk:", "secret key"); otherwise it is a transaction hash. Recovery words are a run of at least twelve
plain words beside a word that names them ("seed phrase", "recovery phrase", "mnemonic", "twelve words").
"""

from __future__ import annotations

import re
from typing import Final

_HEX_KEY: Final = re.compile(r"(?<![0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])")
_KEY_WORDS: Final = re.compile(
    r"\b(?:private\s*key|priv\s*key|privkey|secret\s*key|signing\s*key|pk\s*[:=]|keystore|wallet\s*key)",
    re.IGNORECASE,
)
_PHRASE_WORDS: Final = re.compile(
    r"\b(?:seed|mnemonic|recovery\s+(?:phrase|words)|secret\s+(?:recovery\s+)?(?:phrase|words)|backup\s+phrase"
    r"|(?:12|twelve|24|twenty[- ]four|18|eighteen)\s+words)\b",
    re.IGNORECASE,
)
_WORD_RUN: Final = re.compile(r"(?:\b[a-z]{3,8}\b[ ,]+){11,23}\b[a-z]{3,8}\b")


def holds_secret(text: str) -> bool:
    """True when `text` pastes a private key or a seed phrase (see the module docstring)."""
    if _HEX_KEY.search(text) and _KEY_WORDS.search(text):
        return True
    return bool(_PHRASE_WORDS.search(text) and _WORD_RUN.search(text))


def refusal() -> str:
    return (
        "I never take a private key or a seed phrase, and I didn't read or keep it: anyone who has it can "
        "take everything in that wallet. Treat it as exposed: from a wallet app that holds it, move the funds "
        "to a new wallet yourself, and ask me to plan any transfer from a wallet you sign with."
    )
