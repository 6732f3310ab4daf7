"""What a request says not to use or not to do: "using CCTP and not Across", "native USDC, not the bridged
USDC.e", "it's on spark not aave", "please do not remove any liquidity", "... or not?". Each becomes an
`excluded` lexeme naming the token, protocol, chain or action ruled out, so a negation the plan honours
no longer blocks it; a plan that would use what was ruled out is refused (resolver)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.lexicon import Lexeme
from engine.intents.wording import CHAT_FILLER

# Words that may stand between "not" and the name it rules out ("not the bridged USDC.e").
_BETWEEN: Final = frozenset(
    {"the", "a", "an", "any", "via", "through", "with", "using", "on", "to", "bridged", "native"}
)
_NOTS: Final = frozenset({"not", "never"})
_DONTS: Final = frozenset({"dont", "don't"})


def excluded(lexemes: Sequence[Lexeme], index: int) -> tuple[int, list[Lexeme]] | None:
    """(lexemes used, what replaces them) where a negation at `index` rules something out, else None."""
    word = lexemes[index].text
    following = lexemes[index + 1] if index + 1 < len(lexemes) else None
    if word == "or" and following is not None and following.text == "not":
        end = index + 2
        while end < len(lexemes) and lexemes[end].text in CHAT_FILLER:
            end += 1  # "... or not lah", "or not po"
        after = lexemes[end] if end < len(lexemes) else None
        if after is None or (after.kind == "punct" and after.text in ("?", ".", "!", ",")):
            return end - index, []  # "can you swap 1 eth or not?", "... or not, ...": a yes/no tag
        return None
    start = index + 1
    if word == "do" and following is not None and following.text in _NOTS:
        start = index + 2  # "do not remove"
    elif word not in _NOTS and word not in _DONTS:
        return None
    at = start
    while at < len(lexemes) and lexemes[at].text in _BETWEEN and at - start < 3:
        at += 1
    if at >= len(lexemes):
        return None
    named = lexemes[at]
    if named.kind == "verb" and at == start:
        # "please do not remove any liquidity": that action is ruled out; "do not send eth" rules out what
        # it names instead, since the request may well send something else.
        beyond = at + 1
        while beyond < len(lexemes) and lexemes[beyond].text in _BETWEEN and beyond - at < 3:
            beyond += 1
        thing = lexemes[beyond] if beyond < len(lexemes) else None
        if thing is not None and thing.kind in ("asset", "protocol", "chain"):
            return beyond + 1 - index, [_ruling_out(thing)]
        return at + 1 - index, [Lexeme("excluded", named.text, action=named.action)]
    if named.kind in ("asset", "protocol", "chain") and word in _NOTS:
        return at + 1 - index, [Lexeme("punct", ","), _ruling_out(named)]
    return None


def _ruling_out(named: Lexeme) -> Lexeme:
    return Lexeme("excluded", named.text, asset=named.asset, protocol=named.protocol, chain=named.chain)
