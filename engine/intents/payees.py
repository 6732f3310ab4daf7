"""Who a read request may pay: every recipient the answer names must pass the recipient policy
(engine.registry.recipients), as written in the message, and no two addresses the request carries may look
alike. Held to both readers' answers; a refusal names the address and plans nothing."""

from __future__ import annotations

import re
from typing import Final

from engine.intents.clarify import split_answers
from engine.intents.context import recent_turns
from engine.intents.models import IntentRequest, IntentResponse
from engine.intents.universe import AssetUniverse
from engine.registry.recipients import lookalike, lookalike_problem

# An address as typed: EVM hex (any case) or a Solana base58 key, standing apart from other letters.
_MENTION: Final = re.compile(
    r"(?<![0-9A-Za-z])(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})(?![0-9A-Za-z])"
)


def mentions(request: IntentRequest) -> list[str]:
    """Every address written in the prompt, its clarification answers and the user's earlier turns."""
    prompt, pairs = split_answers(request.prompt)
    texts = [prompt, *(label for _, label in pairs)]
    texts += [turn for who, turn in recent_turns(request.conversation_context) if who == "user"]
    return [match.group(1) for text in texts for match in _MENTION.finditer(text)]


def refused_payee(response: IntentResponse, request: IntentRequest, universe: AssetUniverse) -> str | None:
    """Why the answer must not be planned because of who it pays, or None when every payee may be paid."""
    if not response.intents:
        return None
    written = mentions(request)
    for intent in response.intents:
        if intent.recipient is None:
            continue
        chain = intent.to_chain or intent.chain or intent.from_chain
        if chain is None or chain not in universe.chain_slugs():
            continue
        # A typo in the message's case is the typo, whatever case the reader settled on.
        typed = [m for m in written if m.lower() == intent.recipient.lower()] or [intent.recipient]
        for address in typed:
            problem = universe.recipient_problem(chain, address)
            if problem is not None:
                return problem
    addresses = [(f"wallets[{i}]", wallet.address) for i, wallet in enumerate(request.wallets)]
    addresses += [("your message", m) for m in written]
    pair = lookalike(addresses)
    return lookalike_problem(*pair) if pair is not None else None


def refusal(problem: str) -> IntentResponse:
    return IntentResponse(
        reasoning=f"I won't plan a payment to that address: {problem}.",
        suggested_name="Recipient refused",
    )
