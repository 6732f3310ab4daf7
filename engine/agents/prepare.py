"""Before the compiler reads an alert request: the request found in what was pasted, the sentences that ask
for nothing set aside, corrections applied, and a few forms people say written as the compiler reads them.

The same structure-first reading as POST /intent's (engine.intents.message): a pasted chat, a dashboard
line or a JSON blob is context, and what the request takes from it is engine.agents.pasted's to say (the
names it lacks when it has a level of its own, the whole paste when it says only go). Questions and remarks with nothing to watch ("I'm new to this",
"I don't really understand the numbers") are set aside, so a negation in a remark does not stop the alert.
A correction keeps the later value ("above 4000. no wait make it 4500" watches 4500).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from engine.agents.content import has_content, names_something
from engine.agents.corrections import WITHDRAWN, corrected
from engine.agents.identifiers import without_identifiers
from engine.agents.pasted import parameters, read_with_context, split_pasted
from engine.agents.phrases import (
    ABOVE,
    BELOW,
    DOWN,
    HEALTH_CONTEXT,
    LEADING_ACTION,
    MOVE,
    NEUTRAL_LEVEL,
    TRAILING_ACTION,
    UP,
)
from engine.agents.scan import Scanner, normalize
from engine.agents.spoken import spoken
from engine.agents.vocabulary import vocabulary
from engine.intents.message import find_request
from engine.intents.sentences import split
from engine.intents.vocabulary import VERBS

# Where the price is now, told beside the condition ("it's at 3k now", "currently 3,050"): a remark, never
# the level to watch nor a correction of it.
_NOW_AT: Final = re.compile(
    r"[,;]?\s*\b(?:it'?s|it\s+is|its|(?:the\s+)?price\s+is|currently|now)\s+(?:at\s+|around\s+|about\s+|~\s*)?"
    r"\$?\d[\d,]*(?:\.\d+)?\s?k?\b(?:\s+(?:right\s+)?(?:now|currently|atm|today))?"
    r"(?=\s*(?:[.,;!?]|$))",
    re.IGNORECASE,
)
# Why the writer wants the alert, told after it ("so I hold off on payouts", "— that's when I convert my
# income", "; should that occur, I may consider reducing...", "before i get rekt", "while i sleep"), a note on a figure ("please note that 1.35 is
# a ratio, not a percentage") and a yes/no tag ("... or not?"): remarks, never a condition nor an order.
_PURPOSE: Final = re.compile(
    r"(?:\s*[,;\u2014\u2013-]\s*|\s+)(?:so\s+(?:that\s+)?(?:i|we)\b|that'?s\s+when\s+(?:i|we)\b|"
    r"should\s+(?:that|this|it)\s+(?:occur|happen)\b|because\s+(?:i|we)\b|since\s+(?:i|we)\b|"
    r"in\s+case\s+(?:i|we)\b|before\s+(?:i|we)\b|while\s+(?:i'?m|we'?re|i|we)\b).*?(?=[.!?](?:\s|$)|$)",
    re.IGNORECASE,
)
_NOTE: Final = re.compile(
    r"(?:^|(?<=[.!?])\s+)(?:please\s+)?note\s+that\b.*?(?:[.!?](?=\s|$)|$)|\s+or\s+not(?=\s*\?)",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Prepared:
    """The text to compile and what was set aside, in words, for the compile note."""

    text: str
    set_aside: list[str] = field(default_factory=list)


class _Names:
    """The agent vocabulary as engine.intents.message.Names."""

    def __init__(self) -> None:
        vocab = vocabulary()
        self._assets = {alias.lower(): asset.symbol for asset in vocab.assets for alias in asset.aliases}
        self._assets.update({asset.symbol.lower(): asset.symbol for asset in vocab.assets})
        self._chains = {alias.lower(): slug for slug, aliases in vocab.chains.items() for alias in aliases}
        self._chains.update({slug: slug for slug in vocab.chains})

    def asset_aliases(self) -> Mapping[str, str]:
        return self._assets

    def chain_aliases(self) -> Mapping[str, str]:
        return self._chains

    def asset_on(self, chain: str, name: str) -> str | None:
        return self._assets.get(name.lower())

    def chain_by_id(self, chain_id: int) -> str | None:
        return None


@cache
def _names() -> _Names:
    return _Names()


def prepare(original: str) -> Prepared:
    """The request of `original` as the compiler should read it (see the module docstring)."""
    text, numbered = without_identifiers(spoken(original))
    asked, pasted = split_pasted(text)
    message = find_request(asked, _names())
    request = message.request if message.request.strip() else ""
    context = [*pasted, *message.context] if request or pasted else text.splitlines()
    form = "the ticket's other fields" in message.set_aside
    request, context = parameters(request, [line for line in context if line.strip()], form)
    reading = read_with_context(request, context)
    aside = list(message.set_aside)
    if pasted and not aside:
        aside.append("pasted lines")
    if numbered:
        aside.append("reference numbers and dates")
    prepared = Prepared(reading.text or text, [*aside, *reading.set_aside])
    prepared.text = corrected(_NOW_AT.sub(" ", _NOTE.sub(" ", _PURPOSE.sub(_remark, prepared.text))).strip())
    if prepared.text != WITHDRAWN:
        prepared.text = _focus(prepared)
    return prepared


def _remark(match: re.Match[str]) -> str:
    """A purpose clause goes ("that's when I convert it", "should that occur, I may sell", "before i get
    rekt") unless it says what the alert is for as an action ("so i can bridge"), which is reported as the
    follow-on it is, or a "before/while" clause runs on into the condition itself ("notify me before i get
    liquidated on spark mainnet, health factor 1.1")."""
    words = re.findall(r"[a-z]+", match.group(0).lower())
    wants = bool(words) and words[0] == "so" and any(word in VERBS for word in words)
    runs_on = bool(words) and words[0] in ("before", "while") and has_content(match.group(0))
    return match.group(0) if wants or runs_on else ""


# Where a clause of its own starts: after ", but" or ";", and after a comma where the writer starts talking
# about themselves ("..., I don't want to pay suppliers then", "..., I'm batching some stuff this week"):
# such a clause with nothing to watch is a remark, and a negation in it is the remark's.
_CLAUSE: Final = re.compile(
    r",\s+but\s+|;\s+|,\s+(?=(?:i|we|i'm|im|i've|i'd|i'll|we're|we've|we'll|my|our)\b)"
    # A comment on the alert ("..., that would be weird"), and the writer's feelings right after the
    # condition's figure ("under 1.3 i do NOT wanna get rekt again").
    r"|,\s+(?=(?:that|this|it)(?:'s|\s+(?:would|will|is|was|could|might|must|should|seems))\b)"
    r"|(?<=\d)\s+(?=(?:i|we)\s+(?:do|don't|dont|am|really|just|can't|cant|hate|never|wanna|feel)\b)",
    re.IGNORECASE,
)
# A sentence or clause told about the writer or someone else ("My son bought me some and I am not sure about
# it", "I do worry about it at night"): narration, whatever time or deed it mentions, unless it names what
# to watch, a figure, a level or a move, a cadence or a reminder.
_NARRATOR: Final = re.compile(
    r"^\W*(?:i|i'm|im|i've|i'd|me|my|we|we're|our|he|he's|she|she's|they|they're|his|her|their)\b",
    re.IGNORECASE,
)
_CADENCE: Final = re.compile(
    r"\b(?:every|each|daily|weekly|monthly|remind\w*|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
    re.IGNORECASE,
)


# An ask to be told when something happens ("alert me when it's approved"): the request itself, even when
# it names nothing watchable (it is then refused for what it waits for, not read from the paste beside it).
_ASKED_WHEN: Final = re.compile(
    r"\b(?:alert|notify|tell|ping|warn|let)\s+(?:me|us)\b.*\b(?:when|whenever|if|once)\b", re.IGNORECASE
)


def _focus(prepared: Prepared) -> str:
    """The sentences and clauses of the request that say something to watch; remarks are set aside."""
    sentences = split(prepared.text)
    if len(sentences) <= 1 and not _CLAUSE.search(prepared.text):
        return prepared.text
    kept: list[str] = []
    for sentence in sentences:
        clauses = _CLAUSE.split(sentence)
        useful = [
            clause
            for clause in clauses
            if (has_content(clause) and not _narration(clause)) or _ASKED_WHEN.search(clause)
        ]
        if not useful:
            prepared.set_aside.append(sentence)
            continue
        if len(useful) < len(clauses):
            prepared.set_aside.extend(clause for clause in clauses if clause not in useful)
        kept.append(", ".join(useful))
    return " ".join(kept) if kept else prepared.text


def _narration(clause: str) -> bool:
    """Whether a clause tells about someone rather than says what to watch (see _NARRATOR)."""
    if not _NARRATOR.search(clause) or _CADENCE.search(clause):
        return False
    normalized = normalize(clause)
    probe = Scanner(normalized)
    named = (
        probe.take_assets() or probe.take_chains(bare=True) or probe.take_protocols() or probe.take_numbers()
    )
    if named or names_something(clause) or HEALTH_CONTEXT.search(normalized):
        return False
    levels = (ABOVE, BELOW, UP, DOWN, MOVE, NEUTRAL_LEVEL)
    acts = TRAILING_ACTION.search(" , " + normalized) or LEADING_ACTION.search(normalized + " when")
    return not acts and not any(pattern.search(normalized) for pattern in levels)
