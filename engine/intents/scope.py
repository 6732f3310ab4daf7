"""What the service does, said when a request asks for something else: a question, chit-chat, a
transaction that waits for a time or a condition, or something it never does (NFTs, leverage, ...).
These answers carry no intents and no clarification."""

from __future__ import annotations

from typing import Final

from engine.intents.waits import Wait

CAPABILITIES: Final = (
    "I plan on-chain transactions that you sign yourself: transfers, bridges, swaps, deposits and "
    "withdrawals, borrowing and repaying, staking and liquidity positions. Tell me what to do, for example "
    "'swap 1 eth to usdc on base' or 'bridge 100 usdc from ethereum to base'."
)

# Unsupported things an alert agent can stand in for.
_AGENT_HINTS: Final[dict[str, str]] = {
    "recurring purchases are not supported": (
        "A schedule agent (POST /agents, e.g. 'remind me every monday to buy eth') can remind you to do it."
    ),
    "limit and stop orders are not supported": (
        "An alert agent (POST /agents, e.g. 'tell me when eth drops below 3000') can tell you when the "
        "price is there, and then I can plan the trade."
    ),
}


def question() -> str:
    return (
        "That reads as a question. I don't answer questions about balances, prices, yields or how things "
        f"work. {CAPABILITIES}"
    )


def narration(word: str) -> str:
    """Why a request that tells what was done ("i sent 5 usdc ...") plans nothing."""
    return f'"{word}" tells what was already done, so there is nothing to plan. {CAPABILITIES}'


def chit_chat() -> str:
    return f"There's nothing to plan in that. {CAPABILITIES}"


def unsupported(reason: str) -> str:
    hint = _AGENT_HINTS.get(reason)
    return f"I can't do that: {reason}. {CAPABILITIES}" + (f" {hint}" if hint else "")


def waiting(wait: Wait) -> str:
    """Why a timed or conditional transaction is not planned, and which agent could stand in for it."""
    if wait.kind == "condition":
        return (
            f'I only plan transactions to sign now, not ones that wait for a condition ("{wait.quote}"). '
            "An alert agent can watch for it (POST /agents, e.g. 'tell me when eth drops below 3000'); "
            "when it tells you, ask me to plan the transaction."
        )
    if wait.recurring:
        return (
            f'I only plan transactions to sign now, not repeating ones ("{wait.quote}"). A schedule agent '
            "(POST /agents, e.g. 'remind me every monday to swap eth') can remind you each time; then ask me "
            "to plan it."
        )
    return (
        f'I only plan transactions to sign now, not at a later time ("{wait.quote}"). Ask me again when '
        "it's time, or leave out the time to plan it now."
    )
