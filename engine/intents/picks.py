"""A follow-up that keeps or drops steps of the plan before it: "only the bridge please", "just the first
one", "skip the deposit", "drop the aave part", "the swap only", "without the transfer".

A step is named by its place ("the first one", "the last step") or by what it does (its action, a verb
or noun for it: "the bridge", "the payment"; or its protocol: "the aave part"). Keeping names what stays,
dropping what goes. A step kept whose amount was what the dropped step before it gave ("deposit it") no
longer has an amount: that is asked, never guessed. A follow-up that also says a value (a number, a
token, a chain, an address) is not only a pick and is left to the other readings.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Final

from engine.intents.drafts import Draft
from engine.intents.selection import ORDINALS
from engine.intents.vocabulary import VERBS

_KEEPING: Final = frozenset({"only", "just", "solely"})
_DROPPING: Final = frozenset(
    {"skip", "drop", "without", "remove", "cancel", "forget", "exclude", "minus", "ditch", "scrap", "lose"}
)
# Nouns for a step by what it does ("the payment", "the withdrawal").
_ACTION_NOUNS: Final = {
    "payment": "transfer",
    "transfer": "transfer",
    "send": "transfer",
    "withdrawal": "withdraw",
    "deposit": "deposit",
    "supply": "deposit",
    "staking": "stake",
    "unstaking": "unstake",
    "repayment": "repay",
    "loan": "borrow",
    "swap": "swap",
    "trade": "swap",
    "conversion": "swap",
    "bridge": "bridge",
    "bridging": "bridge",
}
# Words that may stand beside a pick without saying anything more ("only the bridge please").
_PLAIN: Final = frozenset(
    """
    the a one ones step steps part parts bit thing please pls plz thanks thx ok okay do it that this and
    then i want wanna need just do only go with actually sorry no nah yeah yes of leave out don't dont not
    skip it's its let's lets me for now
    """.split()  # noqa: SIM905 - a word list reads and diffs better as text
)


def picked_steps(
    prior: Sequence[Draft], text: str, protocols: frozenset[str], *, asked: bool = False
) -> list[Draft] | None:
    """The prior request's drafts this follow-up keeps (see the module docstring), or None when `text` is
    no pick of them. `asked`: the turn before asked which to do, so a bare pick ("the second one") keeps
    what it names and "both" keeps them all."""
    if len(prior) < 2:
        return None
    words = re.findall(r"[a-z0-9']+", text.lower())
    if not words or any(word.isdigit() for word in words):
        return None
    if asked and "both" in words and all(word in _PLAIN | {"both"} for word in words):
        return [copy.deepcopy(draft) for draft in prior] if len(prior) == 2 else None
    dropping = (
        any(word in _DROPPING for word in words)
        or _says(words, ("leave", "out"))
        or _says(words, ("don't", "do"))
        or _says(words, ("dont", "do"))
    )
    named: set[int] = set()
    for word in words:
        action = _ACTION_NOUNS.get(word) or VERBS.get(word)
        position = ORDINALS.get(word)
        if position is not None:
            index = position - 1 if position > 0 else len(prior) - 1
            if 0 <= index < len(prior):
                named.add(index)
        elif action is not None:
            named |= {at for at, draft in enumerate(prior) if draft.action == action}
        elif word in protocols:
            named |= {at for at, draft in enumerate(prior) if draft.protocol == word}
        elif word not in _PLAIN and word not in _KEEPING and word not in _DROPPING:
            return None  # says more than which steps
    if not named or (not dropping and not asked and not any(word in _KEEPING for word in words)):
        return None
    kept = [at for at in range(len(prior)) if (at in named) != dropping]
    if not kept or len(kept) == len(prior):
        return None
    drafts = [copy.deepcopy(prior[at]) for at in kept]
    for draft, at in zip(drafts, kept, strict=True):
        if draft.pronoun and at - 1 not in kept:
            # What fed this step is no longer planned: its amount is asked, not taken from nothing.
            draft.pronoun = False
    return drafts


def _says(words: Sequence[str], phrase: tuple[str, ...]) -> bool:
    return any(tuple(words[at : at + len(phrase)]) == phrase for at in range(len(words)))
