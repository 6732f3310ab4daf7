"""The plan under construction: steps so far, what earlier steps produce, and the running balances and
allowances that feasibility checks and approve insertion read."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from engine.planner.facts import AllowanceKey, BalanceKey, Facts
from engine.planner.models import Chained, PinnedRoute
from engine.registry import Registry, Token


def owner_key(address: str) -> str:
    """EVM addresses compare case-insensitively; base58 (Solana) is case-sensitive."""
    return address.lower() if address.startswith("0x") else address


@dataclass
class StepDraft:
    type: str
    chain: str
    protocol: str
    action_type: str
    asset: str
    amount: Decimal
    description: str
    wallet: str
    to: str | None = None
    data: str | None = None
    value: int | None = None
    wait_for_bridge: bool | None = None
    chained: Chained | None = None
    route: PinnedRoute | None = None
    solana_tx: str | None = None
    solana_format: str | None = None
    solana_signers: tuple[str, ...] | None = None
    key: str = ""
    fee_token: Token | None = None  # bridge or swap fee, for the summary
    fee_raw: int = 0
    gas_kind: str = ""
    intent: int = 0  # the index of the request's intent the step serves


@dataclass(frozen=True)
class Output:
    """What a step leaves for the next intent: `asset` on `chain`, about `estimate_raw`, at least `min_raw`."""

    step_key: str
    token: Token
    owner: str
    estimate_raw: int
    min_raw: int
    bridged: bool


@dataclass
class Draft:
    registry: Registry
    facts: Facts
    steps: list[StepDraft] = field(default_factory=list)
    outputs: dict[int, Output] = field(default_factory=dict)  # by intent index
    spent: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (chain, owner, symbol) -> raw
    arrived: dict[tuple[str, str, str], int] = field(default_factory=dict)
    allowances: dict[tuple[str, str, str, str], int] = field(default_factory=dict)
    intent: int = 0  # the intent being planned: the steps added now serve it

    def add(self, step: StepDraft) -> StepDraft:
        step.key = f"s{len(self.steps) + 1}"
        step.intent = self.intent
        self.steps.append(step)
        return step

    def balance(self, chain: str, owner: str, token: Token) -> int | None:
        """The owner's balance of `token` as the plan stands: on-chain, minus spent, plus what arrived."""
        held = self.facts.get(BalanceKey(chain, owner_key(owner), token.symbol))
        if held is None:
            return None
        key = (chain, owner_key(owner), token.symbol)
        return int(held) - self.spent.get(key, 0) + self.arrived.get(key, 0)

    def spend(self, chain: str, owner: str, token: Token, raw: int) -> None:
        key = (chain, owner_key(owner), token.symbol)
        self.spent[key] = self.spent.get(key, 0) + raw

    def arrive(self, chain: str, owner: str, token: Token, raw: int) -> None:
        key = (chain, owner_key(owner), token.symbol)
        self.arrived[key] = self.arrived.get(key, 0) + raw

    def allowance(self, chain: str, owner: str, token: str, spender: str) -> int | None:
        key = (chain, owner_key(owner), token.lower(), spender.lower())
        if key in self.allowances:
            return self.allowances[key]
        value = self.facts.get(AllowanceKey(chain, owner_key(owner), token.lower(), spender.lower()))
        return None if value is None else int(value)

    def set_allowance(self, chain: str, owner: str, token: str, spender: str, raw: int) -> None:
        self.allowances[(chain, owner_key(owner), token.lower(), spender.lower())] = raw
