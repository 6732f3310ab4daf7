"""The effect check: given the intents a plan was built from and what its steps did on the fork, whether
the net effect matches the words. Every step must succeed; then each intent's steps are held to its
action's rule (engine.verify.rules), and to three rules for every action: the sender parts with nothing
the words do not name, no account other than the request's wallets and the named recipient gains
anything, and no allowance the plan sets is left larger than the plan needs once it has run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.intents.models import Intent
from engine.planner.liquidity import LP_SLIPPAGE_BPS
from engine.planner.models import Step
from engine.registry import Registry
from engine.simulate.assets import LendingToken, label_of
from engine.simulate.effects import Key, StepEffect, address_key, final_allowances
from engine.simulate.fills import Fill
from engine.simulate.models import StepResult
from engine.verify.rules import RULES, lending_token
from engine.verify.window import ZERO, Finding, Window

# Actions whose sender gives up no asset of its own (it receives, or only sets an allowance).
TAKES_NOTHING: Final = frozenset({"borrow", "claim", "approve", "lp-remove", "lp-collect"})


@dataclass(frozen=True)
class SimulatedPlan:
    """A plan and its simulation: the request's intents and wallet addresses, the steps with the index of
    the intent each serves, and per step its result, its effect (None: it did not run), and for a bridge
    step the fill its calldata promises."""

    intents: Sequence[Intent]
    wallets: Sequence[str]
    steps: Sequence[Step]
    served: Sequence[int]
    results: Sequence[StepResult]
    effects: Sequence[StepEffect | None]
    fills: Mapping[int, Fill]
    lending: Mapping[str, Mapping[str, LendingToken]]


@dataclass
class Proof:
    """`failures`: steps that did not run as they must to prove anything; `findings`: discrepancies
    between the words and the effect; `checks`: what held, in words; `minimums`: raw amounts a sender
    receives at least (a swap's), for the wording."""

    failures: list[Finding] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    minimums: dict[Key, int] = field(default_factory=dict)

    @property
    def verified(self) -> bool:
        return not self.failures and not self.findings


def prove(registry: Registry, run: SimulatedPlan) -> Proof:
    """The proof of `run`; see the module docstring."""
    proof = Proof()
    for index, (step, result) in enumerate(zip(run.steps, run.results, strict=True)):
        if not result.success:
            why = result.error or "it did not succeed"
            proof.failures.append(
                Finding(
                    index,
                    f"step {step.order} ({step.type}) on {step.chain} does not succeed on the fork: {why}",
                )
            )
    if proof.failures:
        return proof
    wallets = frozenset(address_key(w) for w in run.wallets)
    allowances = {
        (chain, seen.token.lower(), seen.owner.lower(), seen.spender.lower()): seen.after
        for chain, seen in final_allowances(e for e in run.effects if e is not None)
    }
    for index, intent in enumerate(run.intents):
        positions = [i for i, served in enumerate(run.served) if served == index]
        if not positions:
            continue
        window = Window(
            registry,
            index,
            intent,
            [(i, run.steps[i]) for i in positions],
            [e for i in positions if (e := run.effects[i]) is not None],
            wallets,
            run.lending,
            run.fills,
        )
        for position in positions:
            wallet = run.steps[position].wallet
            if wallet is not None and address_key(wallet) not in wallets:
                window.fail(position, f"it is sent from {wallet}, which is not one of the request's wallets")
        RULES[intent.action](window)
        _nothing_else_parted(window)
        _no_stranger_gains(window)
        _no_allowance_left(window, allowances)
        proof.findings.extend(window.findings)
        proof.checks.extend(window.checks)
        proof.minimums.update(window.minimums)
    # Two rules can find the same thing (a stranger paid is also a recipient short): say it once.
    proof.findings = list({f.message: f for f in proof.findings}.values())
    return proof


def _allowed_losses(w: Window) -> set[tuple[str, str | None]]:
    """(chain, token key) the sender may part with under `w`'s words. On Solana, SOL too: a transfer may
    open the recipient's token account, a burn its event account (rent)."""
    intent = w.intent
    allowed: set[tuple[str, str | None]] = set()
    chains = {step.chain for _, step in w.steps}
    names: list[str | None] = []
    if intent.action in ("transfer", "bridge", "deposit", "repay", "swap", "lp-add"):
        names.append(intent.asset)
    if intent.action == "sweep":
        names.extend(step.asset for _, step in w.steps)
    if intent.action == "stake":
        names.append("ETH")
    if intent.action == "unstake":
        names.append("stETH")
    if intent.action == "lp-add" and intent.pool_id:
        names.extend(intent.pool_id.replace("/", "-").split("-")[:2])
    for chain in chains:
        for name in names:
            token = w.token(chain, name)
            if token is not None:
                allowed.update((chain, key) for key in w.forms(token))
        if w.registry.chain(chain).family == "solana":
            allowed.add((chain, None))
        if intent.action == "withdraw":
            if intent.vault_address:
                allowed.add((chain, address_key(intent.vault_address)))
            token = w.token(chain, intent.asset)
            if token is not None:
                pooled = w.registry.wrapped_native(chain) if token.is_native else token
                receipt = lending_token(w, chain, pooled, "receipt")
                if receipt is not None:
                    allowed.add((chain, receipt))
    return allowed


def _nothing_else_parted(w: Window) -> None:
    allowed = _allowed_losses(w) if w.intent.action not in TAKES_NOTHING else set()
    position, _ = w.main(w.intent.action)
    for chain in dict.fromkeys(step.chain for _, step in w.steps):
        for delta in w.losses(chain, w.sender(chain)):
            key = None if delta.token is None else address_key(delta.token)
            if (chain, key) in allowed:
                continue
            w.fail(
                position,
                f"the sender also parts with {w.shown(chain, delta.token, -delta.raw)}, which {w.said()} does not say",
            )


def _no_stranger_gains(w: Window) -> None:
    recipient = address_key(w.intent.recipient) if w.intent.recipient else None
    position, _ = w.main(w.intent.action)
    for delta in w.gainers():
        if w.registry.chain(delta.chain).family != "evm" or delta.contract:
            continue
        holder = address_key(delta.holder)
        if holder in w.wallets or holder in (recipient, ZERO):
            continue
        w.fail(
            position,
            f"{delta.holder}, an account that is neither one of the request's wallets nor a recipient "
            f"{w.said()} names, gains {w.shown(delta.chain, delta.token, delta.raw)}",
        )


def _no_allowance_left(w: Window, final: Mapping[tuple[str, str, str, str], int]) -> None:
    if w.intent.action == "approve" or (w.intent.action == "repay" and w.intent.amount == "max"):
        return  # an approval is what the words ask; a whole-debt repay pulls what has accrued at signing
    for position, seen in w.allowances():
        step = dict(w.steps)[position]
        if step.type != "approve":
            continue
        chain = step.chain
        left = final.get((chain, seen.token.lower(), seen.owner.lower(), seen.spender.lower()), 0)
        slack = seen.after * LP_SLIPPAGE_BPS // 10_000 + 1 if w.intent.action == "lp-add" else 0
        if left <= slack:
            continue
        spender = label_of(w.registry, chain, seen.spender) or seen.spender
        shown = w.shown(chain, seen.token, left)
        w.fail(
            position, f"it leaves {spender} allowed {shown} once the plan has run; {w.said()} needs none left"
        )
