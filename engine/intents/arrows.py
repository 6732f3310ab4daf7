"""Steps written as arrows, as traders and scripts write them: "1.5 eth -> dai -> spark", "bnb 2 -> usdt ->
0x60c9...", "500 usdc -> aave on base", "swap 1 eth -> usdc -> 0xabc...", "stake 10 -> lido".

Each arrow is one step from what stands before it to what stands after: a token is a swap into it, a
lending protocol or a vault a deposit (Lido a stake), an address a transfer, a chain a bridge. After the
first arrow each step takes what the step before produced ("it"). A verb said before the first arrow is
that step's own ("stake 10 -> lido"). A clause with one arrow between two tokens or a token and a chain is
left as it is: the reader already reads "0.5 eth -> usdc" and "eth -> base".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.lexicon import Lexeme
from engine.intents.places import ARROWS

_CLAUSE_ENDS: Final = frozenset({",", ";", ".", "then", "!", "\n"})
_STAKING: Final = frozenset({"lido"})


def arrow_steps(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """`lexemes` with each clause of arrows written out as steps (see the module docstring)."""
    clauses: list[tuple[list[Lexeme], Lexeme | None]] = []
    clause: list[Lexeme] = []
    for lexeme in lexemes:
        if lexeme.text in _CLAUSE_ENDS and lexeme.kind in ("punct", "word"):
            clauses.append((clause, lexeme))
            clause = []
        else:
            clause.append(lexeme)
    clauses.append((clause, None))
    out: list[Lexeme] = []
    made: str | None = None
    for at, (words, end) in enumerate(clauses):
        following = clauses[at + 1][0] if at + 1 < len(clauses) else []
        written, made = _written(words, made, _starts_from(following))
        out.extend(written)
        if end is not None:
            out.append(end)
    return out


def _starts_from(clause: Sequence[Lexeme]) -> str | None:
    """The token a clause of arrows starts from when it names nothing else first ("usdc -> aave")."""
    first = [one for one in clause if one.kind != "punct" or one.text in ARROWS]
    if len(first) < 2 or first[0].kind != "asset" or first[1].text not in ARROWS:
        return None
    return first[0].asset


def _written(
    clause: Sequence[Lexeme], made: str | None, taken: str | None
) -> tuple[list[Lexeme], str | None]:
    """The clause written out as steps, and the token its last arrow makes (None when it makes none).
    `made` is the token the clause before made: a clause that starts from it alone ("1 eth -> usdc then usdc
    -> aave") takes what that step produced. `taken` is the token the clause after starts from: a plain
    conversion it takes from is written with its verb, so the two are two steps."""
    arrows = [at for at, lexeme in enumerate(clause) if lexeme.text in ARROWS]
    if not arrows:
        return list(clause), None
    bounds = [-1, *arrows, len(clause)]
    segments = [list(clause[bounds[i] + 1 : bounds[i + 1]]) for i in range(len(bounds) - 1)]
    heads = [_head(segment) for segment in segments[1:]]
    last = heads[-1].asset if heads and heads[-1] is not None and heads[-1].kind == "asset" else None
    if any(head is None for head in heads) or not segments[0] or _crowded(segments[1:-1], heads):
        return list(clause), None
    plain = len(heads) == 1 and heads[0] is not None and heads[0].kind in ("asset", "chain")
    if plain and (taken is None or taken != last or any(one.kind == "verb" for one in segments[0])):
        return list(clause), last  # "0.5 eth -> usdc", "eth -> base": read as they stand
    out: list[Lexeme] = []
    first = segments[0]
    named = [one for one in first if one.kind not in ("punct",)]
    if made is not None and len(named) == 1 and named[0].asset == made:
        first = [Lexeme("word", "it")]  # "... then usdc -> aave": the usdc just made
    said_verb = any(lexeme.kind == "verb" for lexeme in first)
    for index, (segment, head) in enumerate(zip(segments[1:], heads, strict=True)):
        assert head is not None
        verb, link = _step_of(head)
        if index:
            out.extend([Lexeme("punct", ","), Lexeme("word", "then"), verb, Lexeme("word", "it")])
        elif said_verb:
            out.extend(first)
        else:
            out.extend([verb, *first])
        out.extend([Lexeme("word", link), *segment])
    return out, last


def _crowded(middle: Sequence[Sequence[Lexeme]], heads: Sequence[Lexeme | None]) -> bool:
    """True when a segment between two arrows names more than its head (an amount, another token): lines
    of pairs ("0.5 eth -> 0xA / 0.5 eth -> 0xB"), not one chain."""
    slots = ("number", "asset", "evm", "sol", "ens", "protocol", "vault")
    return any(
        any(one.kind in slots and one is not head for one in segment)
        for segment, head in zip(middle, heads, strict=False)
    )


def _head(segment: Sequence[Lexeme]) -> Lexeme | None:
    """What a segment after an arrow names first: a token, a protocol, a vault, an address or a chain."""
    return next(
        (one for one in segment if one.kind in ("asset", "protocol", "vault", "evm", "sol", "ens", "chain")),
        None,
    )


def _step_of(head: Lexeme) -> tuple[Lexeme, str]:
    """The verb of the step an arrow into `head` is, and the word that joins it to `head`."""
    if head.kind == "asset":
        return Lexeme("verb", "swap", action="swap"), "to"
    if head.kind in ("evm", "sol", "ens"):
        return Lexeme("verb", "send", action="transfer"), "to"
    if head.kind == "chain":
        return Lexeme("verb", "bridge", action="bridge"), "to"
    if head.protocol in _STAKING:
        return Lexeme("verb", "stake", action="stake"), "with"
    return Lexeme("verb", "deposit", action="deposit"), "into"
