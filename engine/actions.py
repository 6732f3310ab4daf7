"""The public action vocabulary of intents and steps (contract: Chains and actions)."""

from typing import Final

# Contract order; the three lp-* actions are full-range liquidity-position actions (2026-07-15).
ACTIONS: Final[tuple[str, ...]] = (
    "transfer",
    "sweep",
    "bridge",
    "deposit",
    "withdraw",
    "stake",
    "unstake",
    "claim",
    "approve",
    "swap",
    "borrow",
    "repay",
    "lp-add",
    "lp-remove",
    "lp-collect",
)
