"""The simulation use case's per-chain runs beside the EVM legs LegRunner runs: the dead-target check every
EVM batch gets before anything runs, and a Solana batch's leg on litesvm. Both the one-chain call
(gateway.usecases.simulation) and the whole-plan call (gateway.usecases.simulation_plan) run them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.encoders.solana import decode_solana_message
from engine.planner import Step
from engine.simulate import (
    Fill,
    SolanaMessage,
    StepResult,
    bridge_funded,
    cost_usd,
    failed_result,
    format_lamports,
    is_bridge,
    not_run_result,
    skipped_result,
    svm_step_result,
)
from engine.simulate.effects import step_effect
from gateway.usecases.errors import Invalid
from gateway.usecases.simulation_legs import SOURCE_RPC, Landed, Leg, LegRunner
from watchers.upstreams.simulation import MAX_ACCOUNTS_PER_CALL

# Solana only: the runtime's own fee when the RPC cannot quote a message (its blockhash expired).
SOURCE_LITESVM = "litesvm"
# A Solana step invoking a program the chain's RPC does not have: the runtime would only say "not found".
NO_PROGRAM = (
    "cannot be simulated: program {program} has no executable account on solana's RPC, so there is nothing "
    "to run (a program that ships no binary, such as CCTP's on Solana, cannot run on an offline devnet)"
)
# What a Solana bridge promises elsewhere is not modelled (its message is not read for a recipient).
SOLANA_FILL = "its fill is not modelled: bridges out of solana are not read for their recipient"


@dataclass
class ChainLegs(LegRunner):
    async def refuse_dead_targets(self, chain: str, steps: list[Step], prefix: str = "") -> None:
        # Contract: a calldata-bearing step whose target has no code is a 400 before anything runs; plain
        # value transfers (no calldata) to externally owned accounts are exempt.
        bearing = [(i, s.to or "") for i, s in enumerate(steps) if s.data not in (None, "", "0x")]
        if not bearing:
            return
        dead = await self.evm.codeless(chain, [to for _, to in bearing])
        issues = [
            (f"{prefix}steps[{i}].to", f"{to} has no contract code on {chain} (dead or self-destructed)")
            for i, to in bearing
            if to.lower() in dead
        ]
        if issues:
            raise Invalid("A step calls an address with no contract code.", issues)

    async def solana_leg(
        self,
        chain: str,
        sender: str,
        steps: list[Step],
        blocked: dict[int, str] | None = None,
        incoming: dict[str, Fill] | None = None,
    ) -> Leg:
        """Run `steps` on litesvm loaded with the cluster's accounts; `blocked` steps are not run.
        `incoming` maps a bridge step's key to the fill it mints here, landed in the token account before
        the steps run; a step chained from it runs as planned (a Solana message is not re-sized)."""
        blocked, incoming = blocked or {}, incoming or {}
        landing_keys = {key for key, fill in incoming.items() if not fill.lands_on_evm}
        pending = {
            i: r
            for i, r in bridge_funded(steps).items()
            if i not in blocked and _source_key(steps[i]) not in landing_keys
        }
        messages: dict[int, SolanaMessage] = {}
        refused: dict[int, str] = {}
        invoked: dict[int, list[str]] = {}
        for index, step in enumerate(steps):
            if index in pending or index in blocked:
                continue
            wallet = step.wallet or sender
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
        # The mint recipient may not exist yet: it is then the associated token account of one of the
        # batch's wallets, whose owner the created account must name.
        owners = tuple(dict.fromkeys([sender, *(step.wallet for step in steps if step.wallet)]))
        landing = [fill for fill in incoming.values() if not fill.lands_on_evm]
        credits = [fill.spl_credit(owners) for fill in landing]
        ran = await self.solana.run(batch, credits) if batch or credits else []
        credited, outcomes = ran[: len(credits)], ran[len(credits) :]
        quoted = await self.solana.fees(batch) if batch else []
        native_usd = await self.usd(self.registry.native(chain).symbol)
        by_index = dict(zip(messages, outcomes, strict=True))
        results: list[StepResult] = []
        bridges: dict[int, Fill | str] = {}
        for index, step in enumerate(steps):
            if index in blocked:
                results.append(skipped_result(step, blocked[index]))
            elif index in pending:
                results.append(not_run_result(step, pending[index]))
            elif index in refused:
                results.append(failed_result(step, refused[index]))
            else:
                results.append(svm_step_result(step, by_index[index]))
            if is_bridge(step):
                bridges[index] = SOLANA_FILL if results[-1].success else f"it failed: {results[-1].error}"
        fees = [q if q is not None else o.fee for q, o in zip(quoted, outcomes, strict=True)]
        fee_of = dict(zip(messages, fees, strict=True))
        effects = [
            step_effect(chain, messages[i].wallet, by_index[i].observed, fee_of[i])
            if i in by_index and result.success
            else None
            for i, result in enumerate(results)
        ]
        native = self.registry.native(chain)
        return Leg(
            chain=chain,
            steps=steps,
            results=results,
            gas_used=sum(o.compute_units for o in outcomes),
            gas_price=format_lamports(sum(fees)),
            gas_price_source=SOURCE_RPC if all(q is not None for q in quoted) else SOURCE_LITESVM,
            cost_usd=cost_usd(self.registry.from_raw(native, sum(fees)), native_usd),
            bridges=bridges,
            landed=[Landed(fill, o.success, o.error) for fill, o in zip(landing, credited, strict=True)],
            sender=sender,
            effects=effects,
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


def _source_key(step: Step) -> str | None:
    return step.chained.from_key if step.chained is not None else None
