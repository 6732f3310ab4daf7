"""The executors behind POST /simulate: an EVM fork (pyrevm forking the chain's RPC, the state the node's
traces say the steps read fetched ahead in one batch, and the node's call tracer for reverts nested below
a successful call) and Solana's litesvm loaded with the accounts a batch touches. Nothing is ever
broadcast: both run on private, throw-away state.

pyrevm and litesvm are blocking: each batch runs in one worker thread (trio.to_thread.run_sync)."""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import pyrevm
import trio
from solders.account import Account
from solders.litesvm import LiteSVM
from solders.message import Message, MessageV0
from solders.pubkey import Pubkey
from solders.signature import Signature
from solders.transaction import VersionedTransaction
from solders.transaction_metadata import FailedTransactionMetadata

from engine.encoders.solana import decode_solana_message
from engine.simulate import Credited, EvmCall, EvmOutcome, SolanaMessage, SplCredit, SvmOutcome
from watchers.upstreams.clients import ChainClients
from watchers.upstreams.errors import UpstreamError, UpstreamFailed, UpstreamUnavailable
from watchers.upstreams.evm import from_data, from_quantity
from watchers.upstreams.fork_effects import observed, watch_after
from watchers.upstreams.fork_effects import read as read_balances
from watchers.upstreams.fork_reads import ForkBlock, ReadAhead, Touched, prefill, read_ahead
from watchers.upstreams.fork_state import (
    READER,
    BalanceUnreadable,
    balance_key,
    balance_of,
    deposit_effect,
    land,
)
from watchers.upstreams.fork_traces import traced
from watchers.upstreams.jsonrpc import JsonRpcClient
from watchers.upstreams.simulation_spl import land_spl, observe_svm
from watchers.upstreams.solana import DEFAULT_COMMITMENT, SolanaAccount, SolanaClient
from watchers.upstreams.state_cache import DEFAULT_MAX_BYTES, StateCache

log = logging.getLogger("intentgate.simulation")
T = TypeVar("T")

# pyrevm 0.3 raises RuntimeError with revm's Debug text of the failed ExecutionResult, e.g.
# `Revert { gas_used: 22224, output: 0x08c3... }` or `Halt { reason: OutOfGas(Basic), gas_used: 21001 }`;
# anything else (`Transaction(LackOfFundForMaxFee { .. })`) is a transaction revm refused to run.
REVERT_TEXT = re.compile(r"^Revert \{ gas_used: (\d+), output: 0x([0-9a-fA-F]*) \}$")
HALT_TEXT = re.compile(r"^Halt \{ reason: (.+), gas_used: (\d+) \}$")
# Solana RPC reference, getMultipleAccounts: at most 100 pubkeys per request.
MAX_ACCOUNTS_PER_CALL = 100
# The upgradeable BPF loader (Solana docs, "Programs: Loaders"): a program account's data is a 4-byte
# variant tag followed by the 32-byte address of the account holding its executable (ProgramData).
BPF_UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111"


class SimulationUnavailable(UpstreamFailed):
    """The executor could not run the batch (its node failed, or the batch is outside what it can run);
    the message says why."""


class ForkUnavailable(UpstreamUnavailable, SimulationUnavailable):
    """The fork could not read chain state from the node (unreachable, or it failed mid-batch)."""


class EvmExecutor(Protocol):
    async def codeless(self, chain: str, addresses: Sequence[str]) -> set[str]:
        """The lowercase addresses among `addresses` that hold no contract code."""
        ...

    async def run(self, chain: str, chain_id: int, sender: str, calls: Sequence[EvmCall]) -> list[EvmOutcome]:
        """Run `calls` in order from `sender` on a fork of `chain`'s latest block, state carried over."""
        ...


class SolanaExecutor(Protocol):
    async def run(
        self, messages: Sequence[SolanaMessage], credits: Sequence[SplCredit] = ()
    ) -> list[SvmOutcome]:
        """Land `credits` (modelled mints into token accounts), then run `messages` in order on the
        cluster's current accounts, state carried over: one outcome per credit, then one per message."""
        ...

    async def fees(self, messages: Sequence[SolanaMessage]) -> list[int | None]:
        """The network fee in lamports the cluster charges for each message; None where it cannot say
        (e.g. the message's blockhash has expired)."""
        ...


@dataclass
class PyrevmExecutor:
    """EvmExecutor on pyrevm forking the chain's configured RPC; nested reverts from debug_traceCall.

    Gas is not charged (gas price 0, base fee 0): the batch's gas is reported, and the sender's native
    balance pays only each step's value, as a wallet's later fee estimate would be separate."""

    chains: ChainClients
    timeout_s: float = 30.0
    clock: Callable[[], float] = time.time
    # Per token address: the slot and layout of its balance mapping, found by an earlier fill's probe.
    balance_slots: dict[str, tuple[int, str]] = dataclasses.field(default_factory=dict)
    # Per chain: the node's answers at recent blocks, read ahead for the next fork of the same block.
    state: dict[str, StateCache] = dataclasses.field(default_factory=dict)
    state_bytes: int = DEFAULT_MAX_BYTES

    async def codeless(self, chain: str, addresses: Sequence[str]) -> set[str]:
        rpc = self.chains.rpc(chain)
        wanted = sorted({address.lower() for address in addresses})
        codes = await rpc.batch([("eth_getCode", [address, "latest"]) for address in wanted])
        return {address for address, code in zip(wanted, codes, strict=True) if not from_data(code)}

    async def run(self, chain: str, chain_id: int, sender: str, calls: Sequence[EvmCall]) -> list[EvmOutcome]:
        rpc = self.chains.rpc(chain)
        block = await rpc.call("eth_getBlockByNumber", ["latest", False])
        fork = ForkBlock(
            number=from_quantity(block["number"]),
            hash=str(block.get("hash") or ""),
            # The steps land in a later block: never before now (time checks such as Across's quote
            # timestamp compare with the wall clock), never before the state's own block.
            timestamp=max(from_quantity(block["timestamp"]) + 1, int(self.clock())),
            gas_limit=from_quantity(block["gasLimit"]),
            coinbase=str(block["miner"]),
            prevrandao=from_data(block.get("mixHash") or "0x" + "00" * 32),
        )
        # The node traces the steps first, as if every step succeeds (and each fill lands as the fork will
        # land it, when the fill's balance slot is known): the reverts nested below them, and what they
        # read, which is read ahead for the fork in one batch. They are traced again on what the steps
        # really did when one did not succeed or a fill landed otherwise.
        touched = _expected(fork, sender, calls, self.balance_slots)
        hoped = [EvmOutcome(success=True, gas_used=0) for _ in calls]
        if any(call.credit is not None for call in calls):
            known = await self._read_ahead(rpc, chain, fork, touched)
            hoped = [_landing(call, known, self.balance_slots) for call in calls]
        found: list[EvmOutcome] | None = None
        try:
            found = await traced(rpc, fork, sender, calls, hoped, touched=touched)
        except Exception:  # noqa: BLE001  the fork's own failure comes first; traced again after it
            log.debug("traces before the fork failed; taken again after it", exc_info=True)
        ahead = await self._read_ahead(rpc, chain, fork, touched)
        with trio.fail_after(self.timeout_s):
            # abandon_on_cancel: a node that hangs must not hold the request; the thread ends alone.
            outcomes = await trio.to_thread.run_sync(
                _run_fork,
                rpc.url,
                rpc.label,
                chain_id,
                fork,
                sender,
                list(calls),
                self.balance_slots,
                ahead,
                abandon_on_cancel=True,
            )
        as_hoped = all(
            outcome.success and outcome.credited == hope.credited
            for outcome, hope in zip(outcomes, hoped, strict=True)
        )
        if found is None or not as_hoped:
            return await traced(rpc, fork, sender, calls, outcomes)
        return [
            dataclasses.replace(outcome, nested=hope.nested) if hope.nested is not None else outcome
            for outcome, hope in zip(outcomes, found, strict=True)
        ]

    async def _read_ahead(
        self, rpc: JsonRpcClient, chain: str, fork: ForkBlock, touched: Touched
    ) -> ReadAhead:
        """`touched` as the node holds it at the fork's block; what cannot be read is left to the fork."""
        if not fork.hash:
            return ReadAhead()
        cache = self.state.get(chain)
        if cache is None:
            cache = self.state[chain] = StateCache(self.state_bytes)
        try:
            return await read_ahead(rpc, cache, fork.hash, touched)
        except UpstreamError as exc:
            log.debug("state not read ahead at %s: %s", rpc.label, exc)
            return ReadAhead()


def _landing(call: EvmCall, known: ReadAhead, slots: dict[str, tuple[int, str]]) -> EvmOutcome:
    """A step hoped to succeed; for a fill, landed as the fork will land it on the balance the node holds
    (an ERC-20's only when an earlier probe found its balance slot), so the steps after it are traced on
    the landed amount."""
    hoped = EvmOutcome(success=True, gas_used=0)
    credit = call.credit
    if credit is None:
        return hoped
    if credit.token is None:
        account = known.accounts.get(credit.holder.lower())
        if account is None:
            return hoped
        return dataclasses.replace(hoped, credited=Credited(balance=account.balance + credit.amount))
    key = balance_key(credit, slots)
    held = None if key is None else known.storage.get((credit.token.lower(), key))
    if key is None or held is None:
        return hoped
    landed = Credited(balance=held + credit.amount, storage_key=key.to_bytes(32, "big"))
    return dataclasses.replace(hoped, credited=landed)


def _expected(
    fork: ForkBlock, sender: str, calls: Sequence[EvmCall], slots: dict[str, tuple[int, str]]
) -> Touched:
    """What the fork reads whatever the traces say: the block's coinbase (warm from the start, EIP-3651),
    the sender, each step's target, the balance reader, a deposit's watched balance and a credit's
    account (with its balance slot when an earlier probe found the token's mapping)."""
    touched = Touched()
    for address in (fork.coinbase, sender, READER):
        touched.add(address)
    for call in calls:
        touched.add(call.to)
        if call.watch is not None:
            touched.add(call.watch.holder)
            if call.watch.token is not None:
                touched.add(call.watch.token)
        if call.credit is not None:
            touched.add(call.credit.holder)
            if call.credit.token is not None:
                key = balance_key(call.credit, slots)
                touched.add(call.credit.token, () if key is None else (key,))
    return touched


def _run_fork(
    url: str,
    label: str,
    chain_id: int,
    fork: ForkBlock,
    sender: str,
    calls: list[EvmCall],
    slots: dict[str, tuple[int, str]],
    ahead: ReadAhead,
) -> list[EvmOutcome]:
    # Errors name `label` (scheme, host and port), never `url`: provider URLs carry API keys.
    env = pyrevm.Env(
        cfg=pyrevm.CfgEnv(chain_id=chain_id),
        block=pyrevm.BlockEnv(
            number=fork.number + 1,
            timestamp=fork.timestamp,
            basefee=0,
            coinbase=fork.coinbase,
            gas_limit=fork.gas_limit,
            prevrandao=fork.prevrandao,
        ),
    )
    try:
        evm = pyrevm.EVM(env=env, fork_url=url, fork_block=str(fork.number))
    except (RuntimeError, ValueError):
        raise ForkUnavailable(f"cannot fork the chain's RPC at {label}") from None
    prefill(evm, ahead)
    if evm.journal_state:
        # A pyrevm that kept the inserts in its journal would start the steps with warm accounts and
        # report other gas than the chain charges: refuse rather than answer that.
        raise SimulationUnavailable("the fork could not start cold after reading state ahead")
    outcomes: list[EvmOutcome] = []
    # Allowances the batch's steps set, read around every later step to see them used.
    allowances: set[tuple[str, str, str]] = set()
    for call in calls:
        failed = next((n for n in call.needs if not outcomes[n].success), None)
        if failed is not None:
            outcomes.append(EvmOutcome(success=False, gas_used=0, skipped_for=failed))
        elif call.credit is not None:
            outcomes.append(_database_read(label, land, evm, call.credit, slots))
        else:
            outcomes.append(_run_call(evm, label, fork, sender, call, allowances))
    return outcomes


def _run_call(
    evm: pyrevm.EVM,
    label: str,
    fork: ForkBlock,
    sender: str,
    call: EvmCall,
    allowances: set[tuple[str, str, str]],
) -> EvmOutcome:
    watch = call.watch
    try:
        before = _database_read(label, balance_of, evm, watch.token, watch.holder) if watch else 0
    except BalanceUnreadable as exc:
        return EvmOutcome(success=False, gas_used=0, failure=f"the deposit cannot be checked: {exc}")
    checkpoint = evm.snapshot()
    try:
        evm.message_call(sender, call.to, call.data, value=call.value, gas=fork.gas_limit)
    except RuntimeError as exc:
        return _failed(str(exc), label)
    result = evm.result
    assert result is not None  # message_call returned without raising, so it ran
    # The holders are known from the logs only now: read them here, then before the step (the fork
    # reverted to its checkpoint), then run the step again for the state it leaves.
    seen = _database_read(label, watch_after, evm, sender, call, result.logs, allowances)
    evm.revert(checkpoint)
    prior = _database_read(label, read_balances, evm, seen.tokens, seen.natives, seen.allowances)
    try:
        evm.message_call(sender, call.to, call.data, value=call.value, gas=fork.gas_limit)
    except RuntimeError as exc:  # the same call on the same state: only a failing node gets here
        return _failed(str(exc), label)
    result = evm.result
    assert result is not None
    effects = _database_read(label, observed, evm, seen, prior)
    if watch is None:
        return EvmOutcome(success=True, gas_used=result.gas_used, observed=effects)
    try:
        effect = _database_read(label, deposit_effect, evm, watch, before, result.logs)
    except BalanceUnreadable as exc:
        return EvmOutcome(success=False, gas_used=0, failure=f"the deposit cannot be checked: {exc}")
    return EvmOutcome(success=True, gas_used=result.gas_used, deposit=effect, observed=effects)


def _database_read(label: str, read: Callable[..., T], *args: Any) -> T:
    """`read(*args)`, with pyrevm's Database error (the node failed under the fork) raised as the fork's
    failure rather than taken for the token's answer."""
    try:
        return read(*args)
    except RuntimeError as exc:
        if str(exc).startswith("Database("):
            raise ForkUnavailable(f"the fork could not read chain state from the RPC at {label}") from None
        raise


def _failed(text: str, label: str) -> EvmOutcome:
    revert = REVERT_TEXT.match(text)
    if revert:
        return EvmOutcome(success=False, gas_used=int(revert[1]), revert_data=bytes.fromhex(revert[2]))
    halt = HALT_TEXT.match(text)
    if halt:
        return EvmOutcome(success=False, gas_used=int(halt[2]), failure=f"halted: {_halt_words(halt[1])}")
    if "LackOfFund" in text:
        return EvmOutcome(
            success=False, gas_used=0, failure="rejected: the sender cannot pay the step's value"
        )
    if text.startswith("Database("):  # pyrevm's fork could not read state: the node failed, not the step
        raise ForkUnavailable(f"the fork could not read chain state from the RPC at {label}")
    if text.startswith("Transaction("):
        return EvmOutcome(success=False, gas_used=0, failure=f"rejected by the EVM: {text}")
    raise SimulationUnavailable(f"the fork failed: {text}")


def _halt_words(reason: str) -> str:
    if reason.startswith("OutOfGas"):
        return "out of gas"
    if reason.startswith("OpcodeNotFound") or reason.startswith("InvalidFEOpcode"):
        return "invalid opcode"
    return reason


@dataclass
class LiteSvmExecutor:
    """SolanaExecutor on solders' litesvm, with the accounts the messages name loaded from the RPC."""

    chains: ChainClients
    timeout_s: float = 30.0

    async def run(
        self, messages: Sequence[SolanaMessage], credits: Sequence[SplCredit] = ()
    ) -> list[SvmOutcome]:
        solana = self.chains.solana()
        decoded = [decode_solana_message(m.solana_tx, m.solana_format) for m in messages]
        for message in decoded:
            if isinstance(message, MessageV0) and message.address_table_lookups:
                raise SimulationUnavailable("messages with address lookup tables cannot be simulated")
        # A credit's token account and mint are read from the cluster too: it adds to what is there.
        credited = [key for credit in credits for key in (credit.account, credit.mint)]
        named = [str(key) for message in decoded for key in message.account_keys]
        keys = list(dict.fromkeys(credited + named))
        accounts = await _load(solana, keys)
        programs = [
            _programdata(account)
            for account in accounts.values()
            if account and account.owner == BPF_UPGRADEABLE_LOADER
        ]
        extra = [key for key in programs if key and key not in accounts]
        if extra:
            accounts.update(await _load(solana, extra))
        with trio.fail_after(self.timeout_s):
            return await trio.to_thread.run_sync(
                _run_svm, decoded, accounts, list(credits), abandon_on_cancel=True
            )

    async def fees(self, messages: Sequence[SolanaMessage]) -> list[int | None]:
        rpc = self.chains.solana().rpc
        calls = [("getFeeForMessage", [m.solana_tx, {"commitment": DEFAULT_COMMITMENT}]) for m in messages]
        fees: list[int | None] = []
        for result in await rpc.batch(calls, raise_errors=False):
            value = result.get("value") if isinstance(result, dict) else None
            fees.append(value if isinstance(value, int) else None)
        return fees


async def _load(solana: SolanaClient, keys: list[str]) -> dict[str, SolanaAccount | None]:
    found: dict[str, SolanaAccount | None] = {}
    for start in range(0, len(keys), MAX_ACCOUNTS_PER_CALL):
        chunk = keys[start : start + MAX_ACCOUNTS_PER_CALL]
        found.update(zip(chunk, await solana.get_multiple_accounts(chunk), strict=True))
    return found


def _programdata(account: SolanaAccount) -> str | None:
    if not account.executable or len(account.data) < 36:
        return None
    return str(Pubkey.from_bytes(account.data[4:36]))


def _run_svm(
    messages: list[Message | MessageV0], accounts: dict[str, SolanaAccount | None], credits: list[SplCredit]
) -> list[SvmOutcome]:
    # Unsigned messages: signatures are placeholders, so signature and blockhash checks are off, and the
    # history is off so identical placeholder signatures are not refused as duplicates.
    svm = LiteSVM().with_sigverify(False).with_blockhash_check(False).with_transaction_history(0)
    for key, account in accounts.items():
        if account is None:
            continue
        pubkey = Pubkey.from_string(key)
        if account.executable and svm.get_account(pubkey) is not None:
            continue  # a builtin or default program litesvm ships: keep its own
        svm.set_account(
            pubkey,
            Account(
                lamports=account.lamports,
                data=account.data,
                owner=Pubkey.from_string(account.owner),
                executable=account.executable,
            ),
        )
    outcomes = [land_spl(svm, credit) for credit in credits]
    for message in messages:
        signers = message.header.num_required_signatures
        tx = VersionedTransaction.populate(message, [Signature.default()] * signers)
        keys = list(dict.fromkeys(message.account_keys))
        before = {key: svm.get_account(key) for key in keys}
        result = svm.send_transaction(tx)
        if isinstance(result, FailedTransactionMetadata):
            meta = result.meta()
            outcomes.append(
                SvmOutcome(
                    success=False,
                    compute_units=meta.compute_units_consumed(),
                    fee=meta.fee(),
                    error=_svm_error(result.err(), list(meta.logs())),
                )
            )
        else:
            after = {key: svm.get_account(key) for key in keys}
            effects = observe_svm(before, after, message.account_keys[0], result.fee())
            outcomes.append(
                SvmOutcome(
                    success=True,
                    compute_units=result.compute_units_consumed(),
                    fee=result.fee(),
                    observed=effects,
                )
            )
    return outcomes


def _svm_error(err: object, logs: list[str]) -> str:
    """The failing instruction and its log: the program's own lines before its `failed` line."""
    index = getattr(err, "index", None)
    failed_at = next((i for i, line in enumerate(logs) if " failed: " in line), None)
    if failed_at is None:
        return f"transaction failed: {err}"
    own = [line for line in logs[:failed_at] if not line.startswith("Program ")]
    said = own[-1].removeprefix("Program log: ") if own else ""
    failure = logs[failed_at].split(" failed: ", 1)[1]
    where = f"instruction {index}" if index is not None else "an instruction"
    return f"{where} failed: {said} ({failure})" if said else f"{where} failed: {failure}"
