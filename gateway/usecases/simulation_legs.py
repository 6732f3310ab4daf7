"""One chain's part of a simulation (a leg): its steps run in order on the chain's fork or runtime, with the
fills of bridges that land here credited first, chained steps re-sized for what landed, a bridge deposit's
own effects checked, and a step whose source did not succeed reported as not run, saying which and why."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from engine.planner import ReencodeRequest, RouteExpired, Step
from engine.planner.pricing import COINGECKO_IDS
from engine.registry import Registry
from engine.simulate import (
    NOT_LANDED,
    EvmCall,
    EvmOutcome,
    Fill,
    StepResult,
    bridge_fill,
    cost_usd,
    depends_text,
    deposit_failed_result,
    deposit_problem,
    evm_step_result,
    failed_result,
    format_gas_price,
    is_bridge,
    not_run_result,
    skipped_result,
    summarize,
)
from engine.simulate.effects import StepEffect, fill_effect, step_effect
from engine.simulate.models import SimulateResponse
from gateway.usecases.planning import Planning
from watchers.tasks import run_all
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.lending_tokens import LendingTokens
from watchers.upstreams.prefetch import PriceSource
from watchers.upstreams.quote_errors import SourceUnavailable
from watchers.upstreams.simulation import EvmExecutor, SolanaExecutor

# Where the gas price comes from (contract example: `rpc`): eth_gasPrice, or Solana's getFeeForMessage.
SOURCE_RPC = "rpc"


@dataclass
class Landed:
    """A fill credited on a leg's fork or runtime: which fill, whether the executor landed it, and why
    not."""

    fill: Fill
    success: bool
    failure: str | None = None


@dataclass
class Leg:
    """A chain's results in step order, its totals, what each of its bridge steps promises to land
    elsewhere (`bridges`: a Fill when the deposit ran and did what its calldata says, otherwise the words
    completing "which ..."), and the fills it landed."""

    chain: str
    steps: list[Step]
    results: list[StepResult]
    gas_used: int
    gas_price: str
    gas_price_source: str
    cost_usd: Decimal | None
    bridges: dict[int, Fill | str] = field(default_factory=dict)
    landed: list[Landed] = field(default_factory=list)
    sender: str = ""
    # Per step, what it did when it ran (None: it did not run or failed).
    effects: list[StepEffect | None] = field(default_factory=list)

    def ran(self) -> list[StepEffect]:
        """The leg's effects in running order: the fills it landed (modelled), then its steps."""
        fills = [fill_effect(item.fill) for item in self.landed if item.success]
        return fills + [effect for effect in self.effects if effect is not None]

    def response(self) -> SimulateResponse:
        return summarize(
            self.steps,
            self.results,
            gas_used=self.gas_used,
            gas_price=self.gas_price,
            gas_price_source=self.gas_price_source,
            total_cost_usd=self.cost_usd,
        )


@dataclass
class LegRunner:
    registry: Registry
    chains: ChainClients
    planning: Planning
    evm: EvmExecutor
    solana: SolanaExecutor
    prices: PriceSource | None = None
    lending: LendingTokens | None = None

    def __post_init__(self) -> None:
        if self.lending is None:
            self.lending = LendingTokens(self.registry, self.chains)

    async def evm_leg(
        self,
        chain: str,
        sender: str,
        steps: list[Step],
        incoming: dict[str, Fill] | None = None,
        blocked: dict[int, str] | None = None,
    ) -> Leg:
        """Run `steps` from `sender` on a fork of `chain`. `incoming` maps a bridge step's key to the fill
        it lands here (credited before the steps; steps chained from that key are re-encoded for the landed
        amount); `blocked` steps are not run, with the given reason."""
        incoming, blocked = incoming or {}, blocked or {}
        entries: list[EvmCall] = []
        credit_entry: dict[str, int] = {}
        landing: dict[int, Fill] = {}
        for key, fill in incoming.items():
            if not fill.lands_on_evm:
                continue
            credit_entry[key] = len(entries)
            landing[len(entries)] = fill
            entries.append(EvmCall(to=fill.recipient, data=b"", value=0, credit=fill.credit()))
        keys = {step.key: index for index, step in enumerate(steps) if step.key}
        step_entry: dict[int, int] = {}
        early: dict[int, StepResult] = {}
        resized: dict[int, Decimal] = {}
        fills: dict[int, Fill] = {}
        bridges: dict[int, Fill | str] = {}
        for index, step in enumerate(steps):
            if index in blocked:
                early[index] = skipped_result(step, blocked[index])
                continue
            needs: tuple[int, ...] = ()
            amount: Decimal | None = None
            if step.chained is not None:
                key = step.chained.from_key
                source = keys.get(key)
                if key in credit_entry:
                    needs, amount = (credit_entry[key],), incoming[key].amount
                    resized[index] = amount
                elif source is not None and source < index and not is_bridge(steps[source]):
                    if source in early:  # the source was not run: neither is this step
                        early[index] = _inherit(step, steps[source], early[source])
                        continue
                    needs, amount = (step_entry[source],), step.chained.estimate_amount
                else:
                    early[index] = not_run_result(step, NOT_LANDED.format(key=key))
                    continue
            call = await self.evm_call(step, amount, landed=index in resized)
            if isinstance(call, str):
                early[index] = failed_result(step, call)
                continue
            if is_bridge(step):
                promise = bridge_fill(self.registry, step, sender, call)
                if isinstance(promise, Fill):
                    fills[index] = promise
                    call = replace(call, watch=promise.deposit)
                else:
                    bridges[index] = promise
            step_entry[index] = len(entries)
            entries.append(replace(call, needs=needs))
        outcomes, gas_price, native_usd = await self._run_evm(chain, sender, entries)
        results: list[StepResult] = []
        effects: list[StepEffect | None] = []
        for index, step in enumerate(steps):
            if index in early:
                results.append(early[index])
                effects.append(None)
                if is_bridge(step):
                    bridges.setdefault(index, f"it was not run ({early[index].error})")
                continue
            outcome = outcomes[step_entry[index]]
            ran = entries[step_entry[index]]
            effects.append(
                step_effect(chain, sender, outcome.observed, outcome.gas_used * gas_price, ran)
                if outcome.success
                else None
            )
            result = _evm_result(steps, step, outcome, outcomes, landing, step_entry)
            promised = fills.get(index)
            if promised is not None and outcome.success and outcome.deposit is not None:
                problem = deposit_problem(promised, outcome.deposit.sent, outcome.deposit.logged)
                if problem is None:
                    bridges[index] = promised
                else:
                    result = deposit_failed_result(step, outcome.gas_used, problem)
                    bridges[index] = f"it did not deposit as its calldata says: {problem}"
            elif is_bridge(step) and not result.success:
                bridges[index] = f"it failed: {result.error}"
            if index in resized and result.status_code != -1:
                result = result.model_copy(update={"amount": _plain(resized[index])})
            results.append(result)
        gas_used = sum(o.gas_used for o in outcomes)
        native = self.registry.native(chain)
        return Leg(
            chain=chain,
            steps=steps,
            results=results,
            gas_used=gas_used,
            gas_price=format_gas_price(gas_price),
            gas_price_source=SOURCE_RPC,
            cost_usd=cost_usd(self.registry.from_raw(native, gas_used * gas_price), native_usd),
            bridges=bridges,
            landed=[
                Landed(fill, outcomes[entry].success, outcomes[entry].failure)
                for entry, fill in landing.items()
            ],
            sender=sender,
            effects=[
                effect if result.success else None for effect, result in zip(effects, results, strict=True)
            ],
        )

    async def _run_evm(
        self, chain: str, sender: str, entries: list[EvmCall]
    ) -> tuple[list[EvmOutcome], int, Decimal | None]:
        """The entries' outcomes, the chain's gas price in wei and its native asset's USD price, read
        together."""
        spec = self.registry.chain(chain)
        found: dict[str, Any] = {"outcomes": []}

        async def read_gas_price() -> None:
            found["gas_price"] = await self.chains.evm(chain).gas_price()

        async def read_price() -> None:
            found["usd"] = await self.usd(self.registry.native(chain).symbol)

        async def execute() -> None:
            # Run even with nothing to run: the executor is where a devnet's faucet first sees the sender.
            found["outcomes"] = await self.evm.run(chain, spec.chain_id or 0, sender, entries)

        await run_all(read_gas_price, read_price, execute)
        return found["outcomes"], found["gas_price"], found["usd"]

    async def evm_call(
        self, step: Step, amount: Decimal | None = None, *, landed: bool = False
    ) -> EvmCall | str:
        """The call a step makes; a chained step is re-encoded for `amount` (default: its
        chained.estimate_amount; `landed`: what a bridge landed) first. A string says why it cannot run."""
        to, data, value = step.to or "", step.data or "0x", step.value or "0"
        if step.chained is not None:
            actual = step.chained.estimate_amount if amount is None else amount
            what = "the landed amount" if landed else "its estimate"
            if actual <= 0:
                return f"cannot be simulated: the amount to re-encode it for ({what}) is not positive"
            try:
                fresh = await self.planning.reencode(ReencodeRequest(step=step, actual_amount=actual))
            except RouteExpired as exc:
                return f"cannot be re-encoded for {what}: {exc} Re-plan the step with POST /plan."
            if not fresh.ok:
                return f"cannot be re-encoded for {what}: {fresh.unsupported_reason}"
            data, value = fresh.data or "0x", fresh.value or "0"
        return EvmCall(to=to, data=bytes.fromhex(data[2:]), value=int(value))

    async def usd(self, symbol: str) -> Decimal | None:
        """The USD price of `symbol`, or None when no price source is configured or it cannot say."""
        return (await self.usd_many([symbol]))[symbol]

    async def usd_many(self, symbols: Iterable[str]) -> dict[str, Decimal | None]:
        """The USD price of each registry symbol, None where no price source is configured, the symbol
        has no coingecko id, or the source cannot say: asked in one request."""
        wanted = list(dict.fromkeys(symbols))
        coins = {symbol: COINGECKO_IDS.get(symbol) for symbol in wanted}
        asked = sorted({coin for coin in coins.values() if coin is not None})
        found: dict[str, Decimal | None] = {}
        if self.prices is not None and asked:
            try:
                found = await self.prices.prices(asked)
            except SourceUnavailable:
                found = {}  # the costs degrade to "unavailable"; the simulation stands
        return {symbol: found.get(coin) if coin else None for symbol, coin in coins.items()}


def _evm_result(
    steps: list[Step],
    step: Step,
    outcome: EvmOutcome,
    outcomes: list[EvmOutcome],
    landing: dict[int, Fill],
    step_entry: dict[int, int],
) -> StepResult:
    """A run entry's result; one skipped by the executor says which entry it waited on and why."""
    if outcome.skipped_for is None:
        return evm_step_result(step, outcome)
    failed = outcome.skipped_for
    if failed in landing:
        fill = landing[failed]
        why = outcomes[failed].failure or "the credit was not applied"
        return skipped_result(
            step, f"not run: the {fill.protocol} fill from {fill.from_chain} could not be landed here: {why}"
        )
    source = next(i for i, entry in step_entry.items() if entry == failed)
    return skipped_result(step, depends_text(steps[source], step.chain, "it did not succeed"))


def _inherit(step: Step, source: Step, result: StepResult) -> StepResult:
    """The result of a step chained from `source`, which was not run or could not be prepared."""
    if result.status_code == -1:  # not run: the same reason holds for what it would have funded
        return result.model_copy(
            update={"action": step.type, "action_type": step.action_type, "asset": step.asset}
        )
    return skipped_result(
        step, depends_text(source, step.chain, f"it could not be prepared ({result.error})")
    )


def _plain(amount: Decimal) -> str:
    """A decimal amount as the response shows token units: no exponent, no trailing zeros."""
    return format(amount.normalize(), "f")
