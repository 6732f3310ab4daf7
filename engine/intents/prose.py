"""The words of an IntentResponse: the reasoning prose and the short suggested plan name."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from engine.intents.amounts import plain
from engine.intents.models import Clarification, Intent

# Longest suggested_name (a short plan title, contract: IntentResponse).
NAME_MAX_CHARS: Final = 60


def _amount(intent: Intent, said: str | None = None) -> str:
    asset = intent.asset or "tokens"
    if said is not None:
        return said
    if isinstance(intent.amount, Decimal):
        return f"{plain(intent.amount)} {asset}"
    if intent.amount == "chained":
        return f"the {asset} from the previous step"
    return f"all of your {asset}"


def describe(intent: Intent, amount: str | None = None) -> str:
    """One clause saying what the intent does, e.g. "bridge 100 USDC from ethereum to base with across";
    `amount` says the amount in words instead of the intent's (a share sized later: "half of your ETH")."""
    action, chain, protocol = intent.action, intent.chain, intent.protocol
    place = intent.vault_address or protocol
    if action == "transfer":
        return f"send {_amount(intent, amount)} on {chain} to {intent.recipient}"
    if action == "sweep":
        what = f"all of your {intent.asset}" if intent.asset else "everything"
        return f"move {what} from {intent.from_chain} to {intent.to_chain}"
    if action == "bridge":
        return (
            f"bridge {_amount(intent, amount)} from {intent.from_chain} to {intent.to_chain} with {protocol}"
        )
    if action == "deposit":
        return f"deposit {_amount(intent, amount)} into {place} on {chain}"
    if action == "withdraw":
        return f"withdraw {_amount(intent, amount)} from {place} on {chain}"
    if action in ("stake", "unstake"):
        return f"{action} {_amount(intent, amount)} with {protocol} on {chain}"
    if action == "claim":
        what = f"{intent.asset} rewards" if intent.asset else "rewards"
        return f"claim {what} from {protocol} on {chain}"
    if action == "approve":
        return f"approve {place} to spend {_amount(intent, amount)} on {chain}"
    if action == "swap":
        bound = (
            f", losing at most {format(Decimal(intent.slippage_bps) / 100, 'f')}% of the quote (your slippage)"
            if intent.slippage_bps
            else ""
        )
        return f"swap {_amount(intent, amount)} for {intent.to_asset} on {chain} with {protocol}{bound}"
    if action == "borrow":
        return f"borrow {_amount(intent, amount)} from {protocol} on {chain}"
    if action == "repay":
        # A repay of `max` repays the whole debt (the planner's type(uint256).max), not the whole balance.
        owed = f"your whole {intent.asset} debt" if intent.amount == "max" and amount is None else None
        return f"repay {owed or _amount(intent, amount)} to {protocol} on {chain}"
    if action == "lp-add":
        return f"add {_amount(intent, amount)} as full-range liquidity to the {intent.pool_id} pool on {protocol} ({chain})"
    if action == "lp-remove":
        return f"remove your liquidity from the {intent.pool_id} pool on {protocol} ({chain})"
    return f"collect the fees of your {intent.pool_id} position on {protocol} ({chain})"


def _title(intent: Intent) -> str:
    action = intent.action
    if action == "bridge":
        return f"Bridge {intent.asset} to {intent.to_chain}"
    if action == "sweep":
        return f"Sweep {intent.from_chain} to {intent.to_chain}"
    if action == "swap":
        return f"Swap {intent.asset} to {intent.to_asset}"
    if action in ("deposit", "withdraw", "borrow", "repay", "stake", "unstake"):
        where = intent.protocol or "vault"
        return f"{action.title()} {intent.asset} {'into' if action == 'deposit' else 'on'} {where}"
    if action == "transfer":
        return f"Send {intent.asset}"
    if action.startswith("lp-"):
        return f"{'Add' if action == 'lp-add' else 'Remove' if action == 'lp-remove' else 'Collect'} {intent.pool_id} LP"
    return f"{action.title()} on {intent.protocol or intent.chain}"


def suggested_name(intents: Sequence[Intent], fallback: str) -> str:
    """A short plan title: the steps' titles joined, cut at NAME_MAX_CHARS."""
    if not intents:
        return fallback
    name = ", then ".join(_title(intent) for intent in intents)
    return name if len(name) <= NAME_MAX_CHARS else name[: NAME_MAX_CHARS - 1].rstrip(" ,") + "…"


def reasoning(
    intents: Sequence[Intent],
    clarifications: Sequence[Clarification],
    notes: Sequence[str],
    answered: Sequence[tuple[str, str]] = (),
    amounts: Sequence[str | None] = (),
) -> str:
    """The prose of a planned answer or of a request for details, acknowledging the answers it used;
    `amounts` says, per intent, an amount in words that replaces the intent's (see describe)."""
    parts: list[str] = []
    if answered:
        parts.append("Thanks, going with " + "; ".join(f'"{label}"' for _question, label in answered) + ".")
    if intents:
        said = [*amounts, *[None] * (len(intents) - len(amounts))]
        clauses = [describe(intent, words) for intent, words in zip(intents, said, strict=True)]
        if len(clauses) == 1:
            parts.append(f"I'll {clauses[0]}.")
        else:
            steps = "; ".join(f"({number}) {clause}" for number, clause in enumerate(clauses, start=1))
            parts.append(f"I'll do this in {len(clauses)} steps: {steps}.")
        if any(intent.amount == "chained" for intent in intents):
            parts.append("Chained amounts are sized from the previous step's output when you sign.")
    elif clarifications:
        questions = " ".join(item.question for item in clarifications)
        parts.append(f"I need a little more before planning. {questions}")
    parts.extend(notes)
    return " ".join(parts)
