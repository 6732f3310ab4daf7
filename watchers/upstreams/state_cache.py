"""What an EVM node answered about its state at one block, kept for the next fork of the same block.

State at a block hash never changes (a reorg makes a new hash, not new state under the old one), so an
answer read at block hash H is right for every later fork of H, whichever plan it runs. Only the node's
answers go in: a fork's own writes (a step's storage, a bridge fill's credit) live in that fork and are
never put here. The cache is per chain and bounded by an estimate of the bytes it holds, least recently
used first out; entries of past blocks age out as forks move to newer ones.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

# A cache of one chain holds at most this many bytes (estimated). One 3-step Aave plan reads about 26
# accounts (their code about 190 kB) and 70 slots: 8 MiB keeps some forty such plans' blocks.
DEFAULT_MAX_BYTES: Final = 8 * 1024 * 1024
# Python's own cost of an entry beside its payload: the key tuple, its strings and ints, the dict slot
# (sys.getsizeof of a (hash, address, slot) key with its members is about 350 bytes).
ENTRY_OVERHEAD: Final = 400


@dataclass(frozen=True)
class AccountState:
    """An account as the node answered at one block: eth_getBalance, eth_getTransactionCount, eth_getCode."""

    balance: int
    nonce: int
    code: bytes


AccountKey = tuple[str, str]  # (block hash, address), lower case
SlotKey = tuple[str, str, int]  # (block hash, address, slot)


class StateCache:
    """(block hash, address) -> AccountState and (block hash, address, slot) -> value, as the node answered.

    Used inside one trio run with no await in any method, so it needs no lock."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        self.max_bytes = max_bytes
        self._entries: OrderedDict[AccountKey | SlotKey, AccountState | int] = OrderedDict()
        self._bytes = 0

    @property
    def size(self) -> int:
        """The estimated bytes held now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def held(self) -> list[AccountKey | SlotKey]:
        """Every key held, least recently used first."""
        return list(self._entries)

    def account(self, block_hash: str, address: str) -> AccountState | None:
        found = self._get((block_hash.lower(), address.lower()))
        return found if isinstance(found, AccountState) else None

    def slot(self, block_hash: str, address: str, slot: int) -> int | None:
        found = self._get((block_hash.lower(), address.lower(), slot))
        return found if isinstance(found, int) else None

    def put_account(self, block_hash: str, address: str, state: AccountState) -> None:
        self._put((block_hash.lower(), address.lower()), state)

    def put_slot(self, block_hash: str, address: str, slot: int, value: int) -> None:
        self._put((block_hash.lower(), address.lower(), slot), value)

    def _get(self, key: AccountKey | SlotKey) -> AccountState | int | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def _put(self, key: AccountKey | SlotKey, value: AccountState | int) -> None:
        cost = _cost(value)
        if cost > self.max_bytes:
            return  # one account's code larger than the whole cache: not kept
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= _cost(old)
        self._entries[key] = value
        self._bytes += cost
        while self._bytes > self.max_bytes:
            _, evicted = self._entries.popitem(last=False)
            self._bytes -= _cost(evicted)


def _cost(value: AccountState | int) -> int:
    return ENTRY_OVERHEAD + (len(value.code) if isinstance(value, AccountState) else 0)
