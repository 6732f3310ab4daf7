"""Look-ahead questions the clause reader asks of the words around one word: whether a word naming both a
chain and an asset is a place, and whether the clause goes on to name a place or a buying verb."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.intents.drafts import Draft
from engine.intents.lexicon import Lexeme
from engine.intents.numerals import SCALES
from engine.intents.vocabulary import BUY_VERBS, TARGET_VERBS, USD_WORDS

SCALE_WORDS: Final = frozenset(SCALES)

__all__ = [
    "ARROWS",
    "after_my",
    "amount_of_asset",
    "mood_after",
    "out_of_follows",
    "place_follows",
    "reads_as_chain",
    "settle_wish",
    "to_verb_follows",
    "two_targets",
]

# Arrows read as "to" ("eth -> base").
ARROWS: Final[frozenset[str]] = frozenset({"->", "=>", "\u2192"})


# Words that wish for a place ("i want my usdc on base") and that state where something is now ("it's on
# polygon", "my usdc is on arb").
_WISH_WORDS: Final = frozenset({"want", "wants", "wanna", "need", "needs", "like"})
_STATE_WORDS: Final = frozenset({"is", "its", "sits", "sitting", "currently", "are"})


def mood_after(lexemes: Sequence[Lexeme], index: int, mood: str | None) -> str | None:
    """The mood the words after `index` are in: "wish" after want/need, "state" after is/it's (an "it"
    right after a wish word is the wish's object: "i want it on base")."""
    word = lexemes[index].text
    previous = _at(lexemes, index - 1)
    if word in _WISH_WORDS:
        return "wish"
    if word in _STATE_WORDS or (word == "it" and (previous is None or previous.text not in _WISH_WORDS)):
        return "state"
    return mood


def settle_wish(draft: Draft, places: dict[str, str]) -> bool:
    """A clause with no verb that wishes its tokens on one chain and says they are on another is a move
    from the one they are on to the one wished for. Both chains must be named: a wish alone ("i need 100
    usdc on base") says nothing of where the tokens come from, and is left as it was read. True when the
    clause was settled as a move."""
    # "i want 100 dai on base, (take it) from arbitrum": the source named with "from" says where it is.
    wished, current = places.get("wish"), places.get("state") or draft.from_chain
    if draft.action is not None or wished is None or current is None or wished == current or not draft.items:
        return False
    draft.from_chain, draft.to_chain, draft.on_chain = current, wished, None
    draft.bare_chains = [chain for chain in draft.bare_chains if chain not in (wished, current)]
    return True


# Protocols that hold deposits: wishing tokens "in" one of them asks to deposit them.
_HOLDERS: Final = frozenset({"aave", "spark"})


def settle_wished_venue(draft: Draft, lexemes: Sequence[Lexeme], used: set[int]) -> None:
    """ "she wants her usdc in aave on base, 2000 of it", "i'd like 500 dai in spark": a clause with no verb
    that wishes its tokens in a lending protocol is a deposit there (its wish word is then read)."""
    if draft.action is not None or draft.protocol not in _HOLDERS or not any(i.asset for i in draft.items):
        return
    wish = next((at for at, one in enumerate(lexemes) if one.text in _WISH_WORDS), None)
    venue = next((at for at, one in enumerate(lexemes) if one.protocol == draft.protocol), None)
    if wish is None or venue is None or wish > venue or lexemes[venue - 1].text not in ("in", "into"):
        return
    draft.action, draft.verb = "deposit", "put"
    used.add(wish)


def _at(lexemes: Sequence[Lexeme], index: int) -> Lexeme | None:
    return lexemes[index] if 0 <= index < len(lexemes) else None


def reads_as_chain(
    lexemes: Sequence[Lexeme], index: int, draft: Draft, prep: str | None, *, pending: bool
) -> bool:
    """A word naming a chain and an asset ("eth", "polygon") is an asset after an amount or before a
    pair slash; a chain after from/on, onto, or after to outside swaps; otherwise a chain only when it is
    the chain's own name ("polygon", not "matic")."""
    lexeme = lexemes[index]
    following, previous = _at(lexemes, index + 1), _at(lexemes, index - 1)
    if pending and previous is not None and previous.kind in ("number", "punct"):
        return False  # "2 eth", "$100 eth", "0.5 eth -> usdc": an amount of the asset
    if following is not None and following.chain == lexeme.chain and following.asset is None:
        return True  # "eth mainnet": a word naming the same chain after it makes it a place
    if following is not None and following.text in ARROWS:
        after = _at(lexemes, index + 2)
        if after is not None and after.asset is not None and after.chain is None:
            return False  # "$50 of eth -> usdc": a token turned into a token
        return draft.action != "swap"  # "eth -> base" moves; "swap eth -> usdc" trades
    if following is not None and following.text in ("/", "-"):
        paired = _at(lexemes, index + 2)
        if paired is not None and paired.asset is not None:
            return False  # "eth-usdc", "eth/usdc": a pair; "on ethereum - that's ..." is a dash
    if prep == "on" and draft.verb == "spend" and draft.items and not draft.to_asset:
        return False  # "spend 100 usdc on eth": what the money goes on is an asset
    if pending and previous is not None and previous.text == "in" and _amount_before(lexemes, index - 1):
        return False  # "send him $500 in eth": the amount is paid in the asset
    into = previous is not None and previous.text in ("in", "at") and draft.verb in TARGET_VERBS
    if prep == "on" and into and _chain_named_apart(lexemes, index):
        return False  # "ape 200 usdc in eth on base": what the tokens go into is a token
    if (
        previous is not None
        and previous.text == "into"
        and lexeme.text != lexeme.chain
        and draft.action == "transfer"
        and draft.from_chain is None
        and _placed_elsewhere(lexemes, index, ("on",))
        and not _placed_elsewhere(lexemes, index, ("from", "off"))
    ):
        # "send 250 usdc into eth on base": "into" a token's name ("eth", not "ethereum") on a chain named
        # apart may be a swap there or a move to the other chain; read as a token, a transfer verb with no
        # recipient asks for one, so neither is guessed ("from base" keeps it a move).
        return False
    if prep in ("from", "on"):
        return True
    if prep == "to" and previous is not None and previous.text == "onto":
        return True  # "onto base", "onto ethereum": a place, never a token
    if (
        prep == "to"
        and (draft.from_chain is not None or _placed_elsewhere(lexemes, index, ("from", "off")))
        and (draft.action is None or draft.verb == "get")
        and lexeme.text == lexeme.chain
    ):
        # "100 dai from base to ethereum", "100 dai to ethereum from base": from one chain to a word that is
        # the other chain's own name is a move between chains, not a conversion into its native token.
        return True
    if prep == "to" and draft.action is None and lexeme.asset is not None:
        # No verb: "100 usdc to eth on base" converts (its chain is named apart, also bare after it: "100
        # usdc into eth, base"); "1 eth to base" moves.
        return not (_placed_elsewhere(lexemes, index) or _chain_named_apart(lexemes, index))
    if prep == "to":
        # "exit my usdc position into eth": a position is left into a token, not moved to a chain
        return draft.action != "swap" and draft.verb not in ("exit", "close")
    if pending:
        return False
    return lexeme.text == lexeme.chain and (following is None or following.kind != "verb")


# Verbs that give a token away for another ("sell 60 usdc of eth": the eth is sold for 60 usdc).
_SELLING: Final = frozenset({"sell", "dump", "offload", "unload", "liquidate", "cash out"})


def amount_of_asset(lexemes: Sequence[Lexeme], index: int, draft: Draft) -> bool:
    """At an "of" after a buying or selling verb, "<amount> <asset> of <asset>": the first asset is the
    money spent ("buy 60 usdc of eth") or brought in ("sell 60 usdc of eth")."""
    following = _at(lexemes, index + 1)
    return (
        (draft.verb in BUY_VERBS or draft.verb in _SELLING)
        and len(draft.items) == 1
        and draft.items[0].amount is not None
        and draft.items[0].asset is not None
        and following is not None
        and following.asset is not None
    )


def _pairs(lexemes: Sequence[Lexeme], index: int) -> list[tuple[Lexeme, Lexeme]]:
    later = lexemes[index + 1 :]
    return list(zip(later, later[1:], strict=False))


def place_follows(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when a chain is named after "to" or "onto" later in the clause ("take ... to base")."""
    return any(a.text in ("to", "onto") and b.chain is not None for a, b in _pairs(lexemes, index))


def to_verb_follows(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when "to" and a swapping verb come later in the clause ("use 100 usdc to buy eth")."""
    return any(a.text == "to" and b.kind == "verb" and b.action == "swap" for a, b in _pairs(lexemes, index))


def out_of_follows(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when "out of" or "out from" comes later in the clause, or "off" a protocol ("take 20k usdt off
    aave op")."""
    later = lexemes[index + 1 :]
    texts = [lexeme.text for lexeme in later]
    if any(a == "out" and b in ("of", "from") for a, b in zip(texts, texts[1:], strict=False)):
        return True
    return any(a.text == "off" and b.protocol is not None for a, b in zip(later, later[1:], strict=False))


def _placed_elsewhere(
    lexemes: Sequence[Lexeme], index: int, after: tuple[str, ...] = ("on", "from", "in")
) -> bool:
    """True when another word of the clause names a chain right after one of the words `after`."""
    return any(
        at != index and lexeme.chain is not None and at > 0 and lexemes[at - 1].text in after
        for at, lexeme in enumerate(lexemes)
    )


def _chain_named_apart(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when a word naming only a chain stands apart from the "to" before `index`: after it ("100 usdc
    into eth, base") or before the tokens ("base chain: 100 usdc -> eth"), not right before it ("base to
    eth", a move)."""
    return any(
        lexeme.chain is not None and lexeme.asset is None and at not in (index - 2, index - 1)
        for at, lexeme in enumerate(lexemes)
        if at != index
    )


def _amount_before(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when the word before `index` ends an amount ("$500", "500 bucks", "1k")."""
    previous = _at(lexemes, index - 1)
    return previous is not None and (previous.kind == "number" or previous.text in USD_WORDS | SCALE_WORDS)


def after_my(lexemes: Sequence[Lexeme], index: int) -> bool:
    """True when the word before `index` makes it the user's own ("my wallet", "my other wallet")."""
    previous = _at(lexemes, index - 1)
    return previous is not None and previous.text in ("my", "own", "other")


def two_targets(first: str, second: str) -> str:
    """The refusal of "to base to mainnet": two targets and no source; reading either as the source is a
    guess."""
    return (
        f"You named two chains to move to ({first} and {second}) and none to move from. "
        "Say it as 'from <chain> to <chain>'."
    )


_PLEDGE_OWNERS: Final = frozenset({"my", "the", "our", "your", "their", "his", "her"})


def pledged_words(lexemes: Sequence[Lexeme], index: int, draft: Draft) -> list[int]:
    """The words before the token at `index` that make it a borrow's collateral ("against my eth"), or
    none: a token pledged is no second token to borrow."""
    if draft.action != "borrow" or not draft.items:
        return []
    before = _at(lexemes, index - 1)
    owner = before is not None and before.text in _PLEDGE_OWNERS
    pledge = _at(lexemes, index - 2) if owner else before
    if pledge is None or pledge.text != "against":
        return []
    return [index - 1, index - 2] if owner else [index - 1]


_TOKEN_WORDS: Final = frozenset({"token", "tokens", "coin", "coins"})


def tokens_named_like_chains(lexemes: Sequence[Lexeme]) -> list[Lexeme]:
    """ "make it ARB token instead", "some OP tokens": a chain's name said as a token is that chain's token
    (not in the registry: an unknown token, refused or asked about), never the chain."""
    return [
        Lexeme("unknown", lexeme.text)
        if lexeme.kind == "chain"
        and lexeme.asset is None
        and at + 1 < len(lexemes)
        and lexemes[at + 1].text in _TOKEN_WORDS
        else lexeme
        for at, lexeme in enumerate(lexemes)
    ]
