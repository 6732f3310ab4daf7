"""One intent's part of a simulated plan (its window): the steps that serve it, their net effect, and the
helpers the rules read it with: what the sender parted with or gained of a token (the native asset and its
wrapped form counted together where the words name either), who else gained, the allowances left."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.intents.models import Intent
from engine.planner.models import Step
from engine.registry import Registry, RegistryError, Token
from engine.simulate.assets import LendingToken, asset_of
from engine.simulate.changes import units
from engine.simulate.effects import Delta, StepEffect, address_key, net
from engine.simulate.fills import Fill
from engine.simulate.outcomes import AllowanceSeen, NftMoved

ZERO = "0x" + "00" * 20


@dataclass(frozen=True)
class Finding:
    """A discrepancy: the plan step (its index in the plan's steps) it is found on, and what it is."""

    step: int
    message: str


@dataclass
class Window:
    """The steps of `intents[index]` with their effects; `wallets` are the request's addresses."""

    registry: Registry
    index: int
    intent: Intent
    steps: list[tuple[int, Step]]
    effects: list[StepEffect]
    wallets: frozenset[str]
    lending: Mapping[str, Mapping[str, LendingToken]]
    fills: Mapping[int, Fill]
    findings: list[Finding] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    minimums: dict[tuple[str, str, str | None], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.nets: dict[tuple[str, str, str | None], Delta] = {d.key: d for d in net(self.effects)}

    def part(self, position: int) -> Window:
        """The window of one of its steps alone; what it finds is found by this window."""
        at = [i for i, _ in self.steps].index(position)
        return Window(
            self.registry,
            self.index,
            self.intent,
            [self.steps[at]],
            [self.effects[at]],
            self.wallets,
            self.lending,
            self.fills,
            self.findings,
            self.checks,
            self.minimums,
        )

    # --- naming ---------------------------------------------------------------------------------
    def where(self, position: int) -> str:
        step = dict(self.steps)[position]
        return f"step {step.order} ({step.type}) on {step.chain}"

    def said(self) -> str:
        """The intent as the words gave it: `intents[0] (deposit 100 USDC)`."""
        parts = [self.intent.action]
        if self.intent.amount is not None:
            parts.append(str(self.intent.amount))
        if self.intent.asset:
            parts.append(self.intent.asset)
        return f"intents[{self.index}] ({' '.join(parts)})"

    def fail(self, position: int, message: str) -> None:
        self.findings.append(Finding(position, f"{self.where(position)}: {message}"))

    def ok(self, position: int, message: str) -> None:
        self.checks.append(f"{self.where(position)}: {message}")

    # --- steps ----------------------------------------------------------------------------------
    def main(self, *types: str) -> tuple[int, Step]:
        """The window's last step of one of `types` (the action's own step), else its last step."""
        found = [(i, s) for i, s in self.steps if s.type in types]
        return found[-1] if found else self.steps[-1]

    def sender(self, chain: str) -> str:
        """The address the window's steps on `chain` run from."""
        for effect in self.effects:
            if effect.chain == chain and not effect.modelled:
                return effect.sender
        for _, step in self.steps:
            if step.chain == chain and step.wallet:
                return step.wallet
        return ""

    # --- tokens ---------------------------------------------------------------------------------
    def token(self, chain: str, name: str | None) -> Token | None:
        if name is None:
            return None
        try:
            return self.registry.token(chain, self.registry.resolve_token(chain, name))
        except RegistryError:
            return None

    def forms(self, token: Token) -> list[str | None]:
        """The token keys that count as `token`: the native asset and its wrapped form together."""
        native, wrapped = self.registry.native(token.chain), self.registry.wrapped_native(token.chain)
        if token.symbol in (native.symbol, wrapped.symbol):
            return [None, address_key(wrapped.address or "")]
        return [address_key(token.address or "")]

    def change(self, chain: str, holder: str, keys: Sequence[str | None]) -> int:
        total = 0
        for key in keys:
            found = self.nets.get((chain, address_key(holder), key))
            total += found.raw if found is not None else 0
        return total

    def units(self, token: Token, raw: int) -> str:
        return f"{format(self.registry.from_raw(token, raw).normalize(), 'f')} {token.symbol}"

    def shown(self, chain: str, token: str | None, raw: int) -> str:
        """`raw` units of any token (a receipt, shares, one the registry does not list) as words."""
        asset = asset_of(self.registry, chain, token, self.lending.get(chain))
        amount = units(raw, asset.decimals)
        return (
            f"{amount} {asset.symbol}" if amount is not None else f"{raw} raw units of token {asset.symbol}"
        )

    def stated(self, token: Token) -> int | None:
        """The intent's amount in raw units of `token`, or None for `max` and `chained`."""
        amount = self.intent.amount
        if isinstance(amount, Decimal):
            return self.registry.to_raw(token, amount)
        return None

    def bound(self, token: Token, step: Step, ran: str | None = None) -> int | None:
        """For `max` or `chained`: the most the step says it moves (what it ran re-sized for, its
        chained estimate, or its amount); None when it says no figure (an Aave `max` of the whole debt)."""
        figure = Decimal(ran) if ran is not None else None
        if figure is None and step.chained is not None:
            figure = step.chained.estimate_amount
        if figure is None:
            figure = step.amount
        return self.registry.to_raw(token, figure) if figure > 0 else None

    # --- who gained -----------------------------------------------------------------------------
    def owed(self, delta: Delta) -> bool:
        """Whether `delta` moves a debt token: owing more is no gain, owing less is nothing parted with."""
        found = self.lending.get(delta.chain, {}).get((delta.token or "").lower())
        return found is not None and found.kind == "debt"

    def gainers(self) -> list[Delta]:
        """What each holder gains (debts aside)."""
        return [
            d for d in self.nets.values() if d.raw > 0 and address_key(d.holder) != ZERO and not self.owed(d)
        ]

    def losses(self, chain: str, holder: str) -> list[Delta]:
        """What `holder` parts with on `chain` (debts aside)."""
        key = address_key(holder)
        return [
            d
            for d in self.nets.values()
            if d.chain == chain and address_key(d.holder) == key and d.raw < 0 and not self.owed(d)
        ]

    def allowances(self) -> list[tuple[int, AllowanceSeen]]:
        """(step position, allowance) for every allowance a step of the window set or changed."""
        found: list[tuple[int, AllowanceSeen]] = []
        for (position, _), effect in zip(self.steps, self.effects, strict=True):
            found.extend((position, seen) for seen in effect.allowances)
        return found

    def nfts(self) -> list[NftMoved]:
        return [moved for effect in self.effects for moved in effect.nfts]

    def is_wallet(self, address: str) -> bool:
        return address_key(address) in self.wallets
