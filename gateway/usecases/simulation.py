"""POST /simulate as the gateway runs it: validate the batch, re-encode chained steps for their estimate,
refuse dead targets, run the rest on an EVM fork or litesvm, and price the gas."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from engine.encoders.solana import decode_solana_message
from engine.planner import ReencodeRequest, RouteExpired, Step
from engine.planner.pricing import COINGECKO_IDS
from engine.registry import Registry
from engine.simulate import (
    EvmCall,
    SimulateRequest,
    SimulateResponse,
    SolanaMessage,
    StepResult,
    bridge_funded,
    check_request,
    cost_usd,
    evm_step_result,
    failed_result,
    format_gas_price,
    format_lamports,
    not_run_result,
    summarize,
    svm_step_result,
)
from gateway.usecases.errors import Invalid
from gateway.usecases.planning import Planning
from watchers.tasks import run_all
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.prefetch import PriceSource
from watchers.upstreams.quote_errors import SourceUnavailable
from watchers.upstreams.simulation import MAX_ACCOUNTS_PER_CALL, EvmExecutor, SolanaExecutor

# Where the gas price comes from (contract example: `rpc`): eth_gasPrice, or Solana's getFeeForMessage.
SOURCE_RPC = "rpc"
# Solana only: the runtime's own fee when the RPC cannot quote a message (its blockhash expired).
SOURCE_LITESVM = "litesvm"
# A Solana step invoking a program the chain's RPC does not have: the runtime would only say "not found".
NO_PROGRAM = (
    "cannot be simulated: program {program} has no executable account on solana's RPC, so there is nothing "
    "to run (a program that ships no binary, such as CCTP's on Solana, cannot run on an offline devnet)"
)


@dataclass
class Simulation:
    registry: Registry
    chains: ChainClients
    planning: Planning
    evm: EvmExecutor
    solana: SolanaExecutor
    prices: PriceSource | None = None

    async def simulate(self, request: SimulateRequest) -> SimulateResponse:
        """The batch's outcome. Raises SimulateInvalid or Invalid for a batch that cannot be simulated (dead
        targets included); an unconfigured chain, an upstream or fork that does not answer, or a failing
        engine propagate as their own errors (gateway.errors maps them to the envelope)."""
        check_request(self.registry, request)
        if self.registry.chain(request.chain).family == "evm":
            return await self._evm(request)
        return await self._solana(request)

    async def _evm(self, request: SimulateRequest) -> SimulateResponse:
        chain = self.registry.chain(request.chain)
        steps = request.steps
        await self._refuse_dead_targets(request)
        pending = bridge_funded(steps)
        prepared: dict[int, EvmCall | str] = {}
        for index, step in enumerate(steps):
            if index not in pending:
                prepared[index] = await self._evm_call(step)
        runnable = {i: call for i, call in prepared.items() if isinstance(call, EvmCall)}
        gas_price = 0
        native_usd: Decimal | None = None

        async def read_gas_price() -> None:
            nonlocal gas_price
            gas_price = await self.chains.evm(chain.slug).gas_price()

        async def read_price() -> None:
            nonlocal native_usd
            native_usd = await self._usd(self.registry.native(chain.slug).symbol)

        outcomes: list[Any] = []

        async def execute() -> None:
            outcomes.extend(
                await self.evm.run(chain.slug, chain.chain_id or 0, request.sender, list(runnable.values()))
            )

        await run_all(read_gas_price, read_price, execute)
        by_index = dict(zip(runnable, outcomes, strict=True))
        results: list[StepResult] = []
        for index, step in enumerate(steps):
            if index in pending:
                results.append(not_run_result(step, pending[index]))
            elif index in by_index:
                results.append(evm_step_result(step, by_index[index]))
            else:
                results.append(failed_result(step, str(prepared[index])))
        gas_used = sum(outcome.gas_used for outcome in outcomes)
        native = self.registry.native(chain.slug)
        fee = self.registry.from_raw(native, gas_used * gas_price)
        return summarize(
            steps,
            results,
            gas_used=gas_used,
            gas_price=format_gas_price(gas_price),
            gas_price_source=SOURCE_RPC,
            total_cost_usd=cost_usd(fee, native_usd),
        )

    async def _refuse_dead_targets(self, request: SimulateRequest) -> None:
        # Contract: a calldata-bearing step whose target has no code is a 400 before anything runs; plain
        # value transfers (no calldata) to externally owned accounts are exempt.
        bearing = [(i, s.to or "") for i, s in enumerate(request.steps) if s.data not in (None, "", "0x")]
        if not bearing:
            return
        dead = await self.evm.codeless(request.chain, [to for _, to in bearing])
        issues = [
            (f"steps[{i}].to", f"{to} has no contract code on {request.chain} (dead or self-destructed)")
            for i, to in bearing
            if to.lower() in dead
        ]
        if issues:
            raise Invalid("A step calls an address with no contract code.", issues)

    async def _evm_call(self, step: Step) -> EvmCall | str:
        """The call a step makes; a chained step is re-encoded for chained.estimate_amount first. A string
        says why the step cannot run."""
        to, data, value = step.to or "", step.data or "0x", step.value or "0"
        if step.chained is not None:
            estimate = step.chained.estimate_amount
            if estimate <= 0:
                return "cannot be simulated: its chained estimate_amount is not positive"
            try:
                fresh = await self.planning.reencode(ReencodeRequest(step=step, actual_amount=estimate))
            except RouteExpired as exc:
                return f"cannot be re-encoded for its estimate: {exc} Re-plan the step with POST /plan."
            if not fresh.ok:
                return f"cannot be re-encoded for its estimate: {fresh.unsupported_reason}"
            data, value = fresh.data or "0x", fresh.value or "0"
        return EvmCall(to=to, data=bytes.fromhex(data[2:]), value=int(value))

    async def _solana(self, request: SimulateRequest) -> SimulateResponse:
        steps = request.steps
        pending = bridge_funded(steps)
        messages: dict[int, SolanaMessage] = {}
        refused: dict[int, str] = {}
        invoked: dict[int, list[str]] = {}
        for index, step in enumerate(steps):
            if index in pending:
                continue
            wallet = step.wallet or request.sender
            message = decode_solana_message(step.solana_tx or "", step.solana_format or "")
            signers = [str(k) for k in message.account_keys[: message.header.num_required_signatures]]
            if wallet not in signers:
                refused[index] = f"the message is not signed by the step's wallet {wallet}"
                continue
            messages[index] = SolanaMessage(step.solana_tx or "", step.solana_format or "", wallet)
            invoked[index] = [str(message.account_keys[ix.program_id_index]) for ix in message.instructions]
        for index, program in await self._missing_programs(invoked):
            refused[index] = NO_PROGRAM.format(program=program)
            del messages[index]
        batch = list(messages.values())
        outcomes = await self.solana.run(batch) if batch else []
        quoted = await self.solana.fees(batch) if batch else []
        native_usd = await self._usd(self.registry.native(request.chain).symbol)
        by_index = dict(zip(messages, outcomes, strict=True))
        results: list[StepResult] = []
        for index, step in enumerate(steps):
            if index in pending:
                results.append(not_run_result(step, pending[index]))
            elif index in refused:
                results.append(failed_result(step, refused[index]))
            else:
                results.append(svm_step_result(step, by_index[index]))
        fees = [q if q is not None else o.fee for q, o in zip(quoted, outcomes, strict=True)]
        source = SOURCE_RPC if all(q is not None for q in quoted) else SOURCE_LITESVM
        native = self.registry.native(request.chain)
        return summarize(
            steps,
            results,
            gas_used=sum(o.compute_units for o in outcomes),
            gas_price=format_lamports(sum(fees)),
            gas_price_source=source,
            total_cost_usd=cost_usd(self.registry.from_raw(native, sum(fees)), native_usd),
        )

    async def _missing_programs(self, invoked: dict[int, list[str]]) -> list[tuple[int, str]]:
        """(step index, program) for each step whose first invoked program has no executable account."""
        programs = list(dict.fromkeys(p for keys in invoked.values() for p in keys))
        if not programs:
            return []
        solana = self.chains.solana()
        runnable: set[str] = set()
        for start in range(0, len(programs), MAX_ACCOUNTS_PER_CALL):
            chunk = programs[start : start + MAX_ACCOUNTS_PER_CALL]
            accounts = await solana.get_multiple_accounts(chunk)
            runnable |= {p for p, a in zip(chunk, accounts, strict=True) if a is not None and a.executable}
        missing = []
        for index, keys in invoked.items():
            absent = next((p for p in keys if p not in runnable), None)
            if absent is not None:
                missing.append((index, absent))
        return missing

    async def _usd(self, symbol: str) -> Decimal | None:
        """The USD price of `symbol`, or None when no price source is configured or it cannot say."""
        coin = COINGECKO_IDS.get(symbol)
        if self.prices is None or coin is None:
            return None
        try:
            found = await self.prices.prices([coin])
        except SourceUnavailable:
            return None  # the cost degrades to "unavailable"; the simulation stands
        return found.get(coin)
