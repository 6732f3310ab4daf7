"""A fork's state read ahead of it: the accounts and slots the node's prestate traces say the steps touch,
read at the fork's block in batched JSON-RPC requests (through the chain's StateCache), then put into the
pyrevm fork's database before it runs.

pyrevm's fork asks the node for each account and slot it misses, one request per read, each on a fresh
connection and holding the GIL while it waits: a 3-step Aave plan made some 145 such requests. What is
read ahead here is exactly what the fork would have read (the same methods at the same block); what it
misses, the fork still reads itself."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import pyrevm

from watchers.upstreams.evm import from_data, from_quantity
from watchers.upstreams.jsonrpc import JsonRpcClient, RpcError
from watchers.upstreams.state_cache import AccountState, StateCache

ADDRESS: Final = re.compile(r"0x[0-9a-fA-F]{40}")
# How many calls one batch request carries: geth's default limit (--rpc.batch-request-limit 1000).
MAX_BATCH: Final = 1000


@dataclass(frozen=True)
class ForkBlock:
    """The state of block `number` (hash `hash`), run as the next block would be: number + 1 at
    `timestamp`."""

    number: int
    hash: str
    timestamp: int
    gas_limit: int
    coinbase: str
    prevrandao: bytes


@dataclass
class Touched:
    """Accounts and storage slots a fork is expected to read (lower-case addresses)."""

    accounts: set[str] = field(default_factory=set)
    slots: dict[str, set[int]] = field(default_factory=dict)

    def add(self, address: str, slots: Iterable[int] = ()) -> None:
        address = address.lower()
        self.accounts.add(address)
        self.slots.setdefault(address, set()).update(slots)

    def add_prestate(self, prestate: Any) -> None:
        """Add what one prestateTracer answer (geth's default mode: address -> {balance, nonce, code,
        storage}) names; anything not in that shape is ignored, as these are only hints."""
        if not isinstance(prestate, dict):
            return
        for address, state in prestate.items():
            if not isinstance(address, str) or not ADDRESS.fullmatch(address):
                continue
            storage = state.get("storage") if isinstance(state, dict) else None
            self.add(address, _slots(storage if isinstance(storage, dict) else {}))


def _slots(keys: Iterable[Any]) -> Iterator[int]:
    for key in keys:
        try:
            slot = from_quantity(key)
        except ValueError:
            continue
        if slot < 2**256:
            yield slot


@dataclass
class ReadAhead:
    """The node's answers at one block for a fork to start with."""

    accounts: dict[str, AccountState] = field(default_factory=dict)
    storage: dict[tuple[str, int], int] = field(default_factory=dict)


async def read_ahead(rpc: JsonRpcClient, cache: StateCache, block_hash: str, touched: Touched) -> ReadAhead:
    """What `touched` names, as the node holds it at `block_hash`: from `cache` where it has it, the rest
    read in batches by block hash (EIP-1898) and put into `cache`. An entry the node answers with an
    error or in a shape that is not its method's is left out (the fork reads it itself). Raises
    RpcUnavailable or RpcError when a whole batch fails."""
    ahead = ReadAhead()
    at = {"blockHash": block_hash}
    calls: list[tuple[str, list[Any]]] = []
    asked: list[tuple[str, int | None]] = []  # per account three calls, per slot one
    for address in sorted(touched.accounts | set(touched.slots)):
        known = cache.account(block_hash, address)
        if known is not None:
            ahead.accounts[address] = known
            continue
        calls += [
            ("eth_getBalance", [address, at]),
            ("eth_getTransactionCount", [address, at]),
            ("eth_getCode", [address, at]),
        ]
        asked.append((address, None))
    for address, slots in sorted(touched.slots.items()):
        for slot in sorted(slots):
            held = cache.slot(block_hash, address, slot)
            if held is not None:
                ahead.storage[(address, slot)] = held
                continue
            calls.append(("eth_getStorageAt", [address, "0x" + slot.to_bytes(32, "big").hex(), at]))
            asked.append((address, slot))
    answers: list[Any] = []
    for start in range(0, len(calls), MAX_BATCH):
        answers += await rpc.batch(calls[start : start + MAX_BATCH], raise_errors=False)
    position = 0
    for address, wanted in asked:
        if wanted is None:
            state = _account(answers[position : position + 3])
            position += 3
            if state is not None:
                cache.put_account(block_hash, address, state)
                ahead.accounts[address] = state
        else:
            value = _word(answers[position])
            position += 1
            if value is not None:
                cache.put_slot(block_hash, address, wanted, value)
                ahead.storage[(address, wanted)] = value
    return ahead


def _account(answers: list[Any]) -> AccountState | None:
    if any(isinstance(answer, RpcError) for answer in answers):
        return None
    balance, nonce, code = answers
    try:
        return AccountState(balance=from_quantity(balance), nonce=from_quantity(nonce), code=from_data(code))
    except ValueError:
        return None


def _word(answer: Any) -> int | None:
    if isinstance(answer, RpcError):
        return None
    try:
        value = int.from_bytes(from_data(answer), "big")
    except ValueError:
        return None
    return value if value < 2**256 else None


def prefill(evm: pyrevm.EVM, ahead: ReadAhead) -> None:
    """Put `ahead` into the fresh fork's database, so the fork does not ask the node for it again. Call it
    before anything runs: every account stays cold in the fork's journal, as in a fork that read it itself
    (EIP-2929 prices a cold account or slot apart). A slot goes in only with its account. Blocks."""
    for address, state in ahead.accounts.items():
        # pyrevm's stub leaves `balance` out of AccountInfo; its constructor takes it (src/types/info.rs).
        info = pyrevm.AccountInfo(balance=state.balance, nonce=state.nonce, code=state.code or None)  # type: ignore[call-arg]
        evm.insert_account_info(address, info)
    for (address, slot), value in ahead.storage.items():
        if address not in ahead.accounts:
            continue
        # pyrevm writes a cold account's slot into the database, then loads the account into the journal;
        # the revert takes it out of the journal again (the database keeps the slot).
        checkpoint = evm.snapshot()
        evm.insert_account_storage(address, slot, value)
        evm.revert(checkpoint)
