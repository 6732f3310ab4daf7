"""Multi-turn: earlier turns of conversation_context, and follow-ups that change one slot of the last
request ("do the same on arbitrum", "same but 50", "same with usdt")."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from engine.intents.arrows import arrow_steps
from engine.intents.clarify import split_answers
from engine.intents.clauses import split_steps
from engine.intents.drafts import AmountSpec, Draft, Item, Unread
from engine.intents.follow_ups import apply_follow_up, worth_alike
from engine.intents.holdings import (
    every_one,
    kept_back,
    kept_rest,
    of_stated,
    worth_after,
)
from engine.intents.identifiers import without_identifiers
from engine.intents.lexicon import Lexeme, Lexicon
from engine.intents.moves import out_of_protocol
from engine.intents.nouns import action_nouns
from engine.intents.payouts import distributed, on_each_chain
from engine.intents.places import tokens_named_like_chains
from engine.intents.purposes import later_plans, purposes
from engine.intents.reader import read_clause
from engine.intents.remarks import remarks
from engine.intents.shape import is_question, rewrite
from engine.intents.told import told_estimate, told_past
from engine.intents.universe import AssetUniverse
from engine.intents.vaults import into_vault
from engine.intents.waits import Wait, wait_of
from engine.limits import CONTEXT_MAX_CHARS

# Contract: "about 8 turns at most" of context are kept.
MAX_TURNS: Final = 8

# Contract: each turn is "User: <text>" or "Flip: <text>" (the assistant label as the service sends it).
_TURN: Final = re.compile(r"^\s*(?P<who>user|flip)\s*:\s?(?P<text>.*)$", re.IGNORECASE)


def recent_turns(context: str | None) -> list[tuple[str, str]]:
    """The last turns as (speaker, text), speaker `user` or `flip`, from the last 6000 characters.

    A line without a label continues the turn before it; a turn cut by the truncation is dropped.
    """
    if not context:
        return []
    cut = len(context) > CONTEXT_MAX_CHARS
    block = context[-CONTEXT_MAX_CHARS:]
    lines = block.splitlines()
    if cut and lines:
        lines = lines[1:]
    turns: list[tuple[str, str]] = []
    for line in lines:
        match = _TURN.match(line)
        if match is not None:
            turns.append((match.group("who").lower(), match.group("text").strip()))
        elif turns and line.strip():
            who, text = turns[-1]
            turns[-1] = (who, f"{text}\n{line.strip()}")
    return turns[-MAX_TURNS:]


@dataclass(slots=True)
class Text:
    """A request text as read: its drafts (corrections applied), whether it is a question, and the time or
    condition it waits for."""

    drafts: list[Draft]
    question: bool = False
    wait: Wait | None = None
    # A past form with no verb to do anything ("i sent 5 usdc to ..."): it tells, it does not ask.
    narration: str | None = None


def read_text(text: str, lexicon: Lexicon) -> Text:
    """Read a request text (clarification lines are not part of it)."""
    lexemes = lexicon.read_text(text)
    lexemes = without_identifiers(lexemes)
    shaped = rewrite(
        remarks(
            kept_back(
                every_one(
                    of_stated(
                        kept_rest(
                            worth_after(
                                told_estimate(
                                    told_past(
                                        purposes(
                                            later_plans(
                                                action_nouns(arrow_steps(tokens_named_like_chains(lexemes)))
                                            )
                                        )
                                    )
                                )
                            )
                        )
                    )
                )
            )
        )
    )
    drafts: list[Draft] = []
    for piece in split_steps(shaped):
        draft = read_clause(piece.lexemes)
        if piece.mark == "reset" and drafts and draft.action is None and draft.has_content:
            # "scratch that, 250": a fragment cannot stand alone, so it amends the step it follows.
            drafts[-1] = correct(drafts[-1], draft, lexicon.universe)
        elif piece.mark == "reset":
            drafts = [draft] if draft.has_content else []
        elif piece.mark == "correct" and drafts:
            # The later statement wins: a new step replaces the one it corrects, a slot patches it.
            drafts[-1] = draft if draft.action is not None else correct(drafts[-1], draft, lexicon.universe)
        elif piece.mark == "before" and drafts:
            drafts.insert(len(drafts) - 1, draft)
        elif piece.mark == "again" and _STAYING & {lexeme.text for lexeme in piece.lexemes}:
            continue  # "the other half should remain where it is": said to stay, no step
        elif piece.mark == "again" and drafts and all(_takes_previous(one) for one in drafts):
            # "and deposit it into aave, and the same for 500 dai": what is repeated began in an earlier
            # turn; it is repeated there (see extended).
            draft.again = True
            drafts.append(draft)
        elif piece.mark == "again" and drafts:
            drafts.extend(repeat_steps(drafts, draft))
        elif drafts and _only_words(draft):
            # "..., i wait for long time already": words beside the step before, read (or asked) with it.
            drafts[-1].unread.extend(draft.unread)
        elif draft.has_content or draft.times or draft.unread or draft.unsupported or draft.refusal:
            drafts.extend(
                step
                for moved in out_of_protocol(draft)
                for one in into_vault(moved)
                for paid in distributed(one)
                for step in on_each_chain(paid)
            )
    drafts = _said_first(drafts)
    if drafts and _unfinished_correction(lexemes) and _ends_on_mark(shaped):
        # "swap 1 eth to usdc, no wait": a correction begun and never said is not the request as it was.
        drafts[-1].unread.append(Unread("", "unfinished"))
    past = next((lexeme.text for lexeme in shaped if lexeme.kind == "past"), None)
    acting = any(lexeme.kind == "verb" for lexeme in shaped) or any(draft.action for draft in drafts)
    narration = past if past is not None and not acting else None  # "top up" acts as a phrasal verb
    return Text(_said_again(drafts), question=is_question(lexemes), wait=wait_of(shaped), narration=narration)


# A pause said last with nothing after it: the user stopped to change something and never said what
# ("..., no wait", "..., hold on"). A correction word said last after a value ("usdc i mean", "the whole
# debt actually") is an afterthought about what came before, and reads as before.
_PAUSES: Final = (("wait",), ("hold", "on"), ("hang", "on"), ("one", "sec"), ("wait", "a", "sec"))


_FIRST_LAST: Final = re.compile(r"\b(?:first|beforehand|before that|before it)\s*(?:lah|pls|please|ok)?\s*$")


def _said_first(drafts: list[Draft]) -> list[Draft]:
    """ "Borrow 1000 usdc from aave. Put 2 eth as collateral first": a later step said to come "first" (at
    its end) is done first; the rest keep their order."""
    if len(drafts) < 2:
        return drafts
    later = [
        at
        for at, draft in enumerate(drafts)
        if at and draft.action and not draft.pronoun and _FIRST_LAST.search(draft.text)
    ]
    if len(later) != 1:
        return drafts
    moved = drafts[later[0]]
    return [moved, *(draft for at, draft in enumerate(drafts) if at != later[0])]


def _only_words(draft: Draft) -> bool:
    """A clause with no action and nothing a plan is made of, only words the reading left over: they go
    with the step before (set aside there, or asked about), never a step of their own."""
    return (
        draft.action is None
        and not draft.has_content
        and not (draft.times or draft.unsupported or draft.refusal)
        and bool(draft.unread)
        and all(item.kind in ("remark", "word") for item in draft.unread)
    )


def _unfinished_correction(lexemes: Sequence[Lexeme]) -> bool:
    """True when the text ends on a pause (see _PAUSES) with nothing but punctuation after it."""
    words = [lexeme.text for lexeme in lexemes if lexeme.kind != "punct"]
    return any(tuple(words[-len(pause) :]) == pause for pause in _PAUSES)


def _ends_on_mark(lexemes: Sequence[Lexeme]) -> bool:
    """True when the read text ends on a correction mark ("there is a wait" ends on a word)."""
    last = next((lexeme for lexeme in reversed(lexemes) if lexeme.kind != "punct"), None)
    return last is not None and last.kind == "mark"


def _said_again(drafts: list[Draft]) -> list[Draft]:
    """ "I want to give my brother some money ... I want to give him 30 USDC": a step said first with no
    token and no amount, then again with them, is one step, said the second time in full; what only the
    first says (its chain) is kept."""
    out: list[Draft] = []
    for draft in drafts:
        previous = out[-1] if out else None
        vague = (
            previous is not None
            and previous.action is not None
            and previous.action == draft.action
            and not previous.assets
            and previous.to_asset is None
            and all(item.amount is None for item in previous.items)
            and (previous.loose_amount is None or previous.loose_amount.kind == "unclear")
        )
        if previous is not None and _same_step(previous, draft):
            continue  # "claim my lido withdrawal ... it shows 'Ready to claim'": one claim, said twice
        if vague and previous is not None and draft.assets:
            draft.on_chain = draft.on_chain or previous.on_chain
            if not draft.addresses and len(set(previous.addresses)) == 1:
                # "His address is J9z5... I want to give him 30 USDC": the payee said with the first.
                draft.addresses = list(previous.addresses)
                for item in draft.items:
                    item.address = item.address or previous.addresses[0]
            draft.bare_chains = [
                *draft.bare_chains,
                *(c for c in previous.bare_chains if c not in draft.bare_chains),
            ]
            out[-1] = draft
            continue
        out.append(draft)
    return out


def read_request(text: str, lexicon: Lexicon) -> list[Draft]:
    """The drafts of a request text, one per step (clarification lines are not part of it)."""
    return read_text(text, lexicon).drafts


def correct(draft: Draft, change: Draft, universe: AssetUniverse | None = None) -> Draft:
    """A copy of `draft` with the slots a correction names replaced ("swap 1 eth to usdc, no wait, 2";
    "..., I mean dai"; "..., actually to arbitrum")."""
    fixed = copy.deepcopy(draft)
    amount = change.loose_amount or next((item.amount for item in change.items if item.amount), None)
    assets = [item for item in change.items if item.asset is not None]
    source = fixed.items[0].asset if fixed.items else None
    if change.replaces is not None and len(assets) == 1:
        if change.replaces == source and fixed.items:
            fixed.items[0].asset, assets = assets[0].asset, []
        elif change.replaces == fixed.to_asset:
            fixed.to_asset, assets = assets[0].asset, []
    if fixed.to_asset is not None and len(assets) == 2 and assets[1].amount is None:
        fixed.to_asset = assets.pop().asset  # "..., sorry, 1 eth to usdc": the second asset is the target
    if assets and amount is None and fixed.to_asset is not None and change.to_asset is None:
        fixed.to_asset = assets[0].asset  # a bare asset corrects the last one named, the target
    elif assets and fixed.items:
        old_asset, fixed.items[0].asset = fixed.items[0].asset, assets[0].asset
        new_asset = assets[0].asset
        if (
            amount is None
            and universe is not None
            and new_asset
            and not worth_alike(old_asset, new_asset, universe)
        ):
            fixed.items[0].amount = None  # "send 100 usdc, sorry, eth": 100 ETH nobody said; asked
    elif assets:
        fixed.items.append(Item(assets[0].asset, None))
    if change.to_asset is not None:
        fixed.to_asset = change.to_asset
    if amount is not None:
        if fixed.items:
            fixed.items[0].amount = amount
        else:
            fixed.loose_amount = amount
    chains = change.bare_chains
    if change.held_on is not None and change.from_chain is None and fixed.from_chain and fixed.to_chain:
        # "..., and the same for my optimism eth": the tokens said to be on a chain leave from it.
        fixed.from_chain = change.held_on
        chains = [chain for chain in chains if chain != change.held_on]
    fixed.to_chain = change.to_chain or (chains[0] if chains and fixed.to_chain else fixed.to_chain)
    if change.to_chain is not None:
        for item in fixed.items:
            item.to_chain = None
    fixed.on_chain = change.on_chain or (chains[0] if chains and not draft.to_chain else fixed.on_chain)
    fixed.from_chain = change.from_chain or fixed.from_chain
    fixed.protocol = change.protocol or fixed.protocol
    fixed.addresses = list(change.addresses) or fixed.addresses
    fixed.carry_problems(change)
    return fixed


def repeat(previous: Draft, change: Draft) -> Draft:
    """Another step like `previous` with the slots `change` names changed ("the same to 0xB", "100 more to
    dai" after a swap of usdc to eth, "another 50"): a verb it has is kept."""
    items = [item for item in change.items if item.asset is not None]
    if previous.to_asset is not None and change.to_asset is None and len(items) == 1 and items[0].target_like:
        # "swap 100 usdc to eth, and 100 more to dai": the token after "to" is the new target.
        change = copy.deepcopy(change)
        change.to_asset, change.items = items[0].asset, [Item(None, items[0].amount)]
        change.loose_amount = change.loose_amount or items[0].amount
        change.items = []
    said = next((item.amount for item in previous.items if item.amount is not None), previous.loose_amount)
    share = change.loose_amount or next((item.amount for item in change.items if item.amount), None)
    words = set(change.text.split())
    if share is not None and share.kind == "fraction" and said is not None and words & _COMPLEMENT:
        # "half to eth and the other half to wbtc": the other half is what the first half was; "the rest"
        # after a share of a balance is what that share left.
        change = copy.deepcopy(change)
        other = said if "other" in words and _is_half(said) else _left_after(said)
        if other is not None:
            change.loose_amount = other
            for item in change.items:
                item.amount = None
    bare = [chain for chain in change.bare_chains if chain != change.held_on]
    either = (
        previous.from_chain is not None
        and previous.to_chain is not None
        and change.action is None
        and len(bare) == 1
        and not (change.to_chain or change.from_chain or change.on_chain or change.held_on)
        and bare[0] not in (previous.from_chain, previous.to_chain)
    )
    if either:
        # "bridge 100 usdc from arb to op, and the same for polygon": which end polygon is, is asked.
        change = copy.deepcopy(change)
        change.bare_chains = []
    fixed = correct(previous, change)
    if either:
        fixed.either_end = bare[0]
    if change.action is not None:
        fixed.action, fixed.verb = change.action, change.verb
    if (change.elsewhere or _names_someone(previous, change)) and not change.addresses:
        fixed.addresses = []
        for item in fixed.items:
            item.address = None
    fixed.again = False
    return fixed


def _names_someone(previous: Draft, change: Draft) -> bool:
    """ "and carol gets the same": a payment repeated with words the reading set aside may name another
    payee, whose address was not said; it is asked, never the last payee's taken."""
    return previous.action == "transfer" and any(item.kind == "word" for item in change.unread)


_COMPLEMENT: Final = frozenset({"other", "rest", "remaining", "remainder"})


def _is_half(amount: AmountSpec) -> bool:
    return (amount.kind == "fraction" and amount.value == Decimal("0.5")) or "half" in (amount.written or "")


def _left_after(amount: AmountSpec) -> AmountSpec | None:
    """What a share of a balance leaves of it ("the rest" after "a third"), as a share; None for any other
    amount, which leaves a rest no word states."""
    if amount.kind != "fraction" or amount.value is None:
        return None
    if amount.ratio is not None:
        top, bottom = amount.ratio
        return AmountSpec(
            "fraction", Decimal(bottom - top) / Decimal(bottom), "the rest", (bottom - top, bottom)
        )
    return AmountSpec("fraction", 1 - amount.value, "the rest")


def is_follow_up(drafts: Sequence[Draft], prior: Sequence[Draft] = ()) -> bool:
    """A turn with no action of its own that changes something ("same but 50", "what about base",
    "double it"); an address alone changes who is paid, so only after a request that pays someone."""
    if len(drafts) != 1 or drafts[0].action is not None:
        return False
    draft = drafts[0]
    if sum(item.amount is not None for item in draft.items) > 1:
        return False  # "scratch that, 3 eth to arbitrum and 1 eth to optimism": steps of its own
    return (
        draft.follow_up
        or draft.times is not None
        or bool(
            draft.items
            or draft.loose_amount
            or draft.on_chain
            or draft.to_chain
            or draft.from_chain
            or draft.bare_chains
            or draft.protocol
            or (draft.addresses and bool(prior) and prior[0].action in _PAYING)
        )
    )


# Actions whose step pays an address a follow-up may name ("0x...", "sorry wrong address, it's 0x...").
_PAYING: Final = frozenset({"transfer", "bridge"})


# First words of a turn that add to the plan so far rather than replace it ("and bridge it after").
_ADDING: Final = frozenset({"and", "also", "plus", "then", "after", "afterwards", "next"})


def adds_to(drafts: Sequence[Draft], text: str) -> bool:
    """A turn that adds steps to the request before it: it opens with "and", "also", "then"... or says
    "too" or "also" ("and the same again to optimism", "send him 5 too"); "do it again on optimism" alone
    repeats the request with a change instead."""
    words = [word.strip(",.!?") for word in text.lower().split()]
    while words and words[0] in _CONFIRMING:
        words = words[1:]  # "yes and after that send ...": the plan before stands, and this adds to it
    appending = bool(words) and words[0].rstrip(":") in ("append", "appended")  # "append step: borrow ..."
    return (
        bool(drafts)
        and bool(words)
        and (words[0] in _ADDING or appending or "too" in words or "also" in words)
    )


# Words that say what a share or the rest does is stay ("the other half should remain where it is").
_STAYING: Final = frozenset(
    {"remain", "remains", "stay", "stays", "untouched", "sits", "sit", "unchanged", "keep", "leave", "hold"}
)

# Words that confirm the plan before a turn goes on ("yes and ...", "ok then ...").
_CONFIRMING: Final = frozenset(
    {"yes", "yeah", "yep", "yup", "ok", "okay", "sure", "confirm", "confirmed", "correct"}
)


def extended(prior: Sequence[Draft], drafts: Sequence[Draft]) -> list[Draft]:
    """The prior request's drafts followed by the new turn's: a repeating clause copies the step before
    it with its changes, a clause with "it" takes what the step before it produced."""
    out = copy.deepcopy(list(prior))
    for draft in drafts:
        if (draft.again or (draft.action is None and is_follow_up([draft]))) and out:
            out.extend(repeat_steps(out, draft))
        else:
            out.append(draft)
    return out


def repeat_steps(before: Sequence[Draft], change: Draft) -> list[Draft]:
    """The last step again with `change`'s slots, and with it the steps it takes its tokens from: "bridge
    1000 usdc to base and deposit it into aave", then "the same for 500 dai", is both steps again."""
    start = len(before) - 1
    while start > 0 and _takes_previous(before[start]):
        start -= 1
    return [repeat(before[start], change), *copy.deepcopy(list(before[start + 1 :]))]


def _takes_previous(draft: Draft) -> bool:
    """A step whose asset and amount are what the step before it produced ("deposit it into aave")."""
    return not draft.assets and draft.loose_amount is None and not any(item.amount for item in draft.items)


def prior_request(context: str | None, lexicon: Lexicon) -> tuple[list[Draft], list[tuple[str, str]]] | None:
    """The drafts of the latest user request in the context, with its own follow-ups applied, and the
    clarification answers given along the way (so a follow-up is not asked them again)."""
    prior: list[Draft] | None = None
    answers: list[tuple[str, str]] = []
    for who, text in recent_turns(context):
        if who != "user":
            continue
        body, pairs = split_answers(text)
        drafts = read_request(body, lexicon)
        for draft in drafts:
            draft.unread = []  # asked about (or not) in its own turn; this turn reads only its own words
        if prior is not None and adds_to(drafts, body):
            prior = extended(prior, drafts)
            answers.extend(pairs)
        elif prior is not None and is_follow_up(drafts, prior):
            prior = apply_follow_up(prior, drafts[0], lexicon.universe)
            answers.extend(pairs)
        elif drafts and any(draft.action is not None for draft in drafts):
            prior, answers = drafts, list(pairs)
    return None if prior is None else (prior, answers)


def _same_step(first: Draft, second: Draft) -> bool:
    """Two steps that say the same thing with no amount in either: one step said twice."""

    def shape(draft: Draft) -> tuple[object, ...]:
        return (
            draft.action,
            tuple(item.asset for item in draft.items),
            draft.to_asset,
            draft.protocol,
            draft.on_chain,
            draft.from_chain,
            draft.to_chain,
            tuple(draft.addresses),
        )

    amounts = [item.amount for draft in (first, second) for item in draft.items]
    loose = first.loose_amount or second.loose_amount
    return (
        first.action is not None
        and all(amount is None for amount in amounts)
        and loose is None
        and shape(first) == shape(second)
    )
