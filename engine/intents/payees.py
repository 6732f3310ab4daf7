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


# Words people use for a contract, said right before an address ("the uniswap router 0x...", "the CA"):
# tokens sent to a contract are kept by it, whichever contract it is.
_CONTRACT_WORDS: Final = frozenset(
    {"router", "contract", "ca", "pool", "vault", "spokepool", "messenger", "bridge", "factory", "proxy"}
)


def called_a_contract(request: IntentRequest, address: str) -> str | None:
    """The word the message calls `address` by, when it calls it a contract (up to three words before it)."""
    prompt, _ = split_answers(request.prompt)
    lowered = prompt.lower()
    at = lowered.find(address.lower())
    while at >= 0:
        before = [match.group() for match in re.finditer(r"[a-z]+", lowered[max(0, at - 60) : at])][-3:]
        found = next((word for word in before if word in _CONTRACT_WORDS), None)
        if found is not None:
            return found
        at = lowered.find(address.lower(), at + 1)
    return None


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
        called = called_a_contract(request, intent.recipient)
        if called is not None:
            return (
                f"you call {intent.recipient} a {called}: a contract keeps what is sent to it directly, so the "
                "tokens would be lost"
            )
    for intent in response.intents:
        chain = intent.chain or intent.from_chain
        trusted = (
            intent.vault_address is None
            or chain not in universe.chain_slugs()
            or universe.vault_underlying(chain or "", intent.vault_address) is not None
        )
        if not trusted:
            return (
                f"{intent.vault_address} is not a vault or protocol contract this service trusts on "
                f"{chain}: letting it {'spend' if intent.action == 'approve' else 'take'} your tokens "
                "could lose them"
            )
    addresses = [(f"wallets[{i}]", wallet.address) for i, wallet in enumerate(request.wallets)]
    addresses += [("your message", m) for m in written]
    pair = lookalike(addresses)
    return lookalike_problem(*pair) if pair is not None else None


def refusal(problem: str) -> IntentResponse:
    return IntentResponse(
        reasoning=f"I won't plan a payment to that address: {problem}.",
        suggested_name="Recipient refused",
    )
