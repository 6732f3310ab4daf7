"""The cache of a node's answers at fixed blocks: an answer is served for its own block only, and the
cache stays within its byte bound, least recently used out first."""

from __future__ import annotations

import pytest

from watchers.upstreams.state_cache import ENTRY_OVERHEAD, AccountState, StateCache

BLOCK_A = "0x" + "aa" * 32
BLOCK_B = "0x" + "bb" * 32
TOKEN = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


def test_a_slot_read_at_one_block_is_not_served_for_another() -> None:
    cache = StateCache()
    cache.put_slot(BLOCK_A, TOKEN, 9, 1000)
    assert cache.slot(BLOCK_A, TOKEN, 9) == 1000
    assert cache.slot(BLOCK_B, TOKEN, 9) is None
    assert cache.slot(BLOCK_A, TOKEN, 10) is None
    cache.put_slot(BLOCK_B, TOKEN, 9, 750)
    assert (cache.slot(BLOCK_A, TOKEN, 9), cache.slot(BLOCK_B, TOKEN, 9)) == (1000, 750)


def test_an_account_read_at_one_block_is_not_served_for_another() -> None:
    cache = StateCache()
    cache.put_account(BLOCK_A, TOKEN, AccountState(balance=5, nonce=1, code=b"\x60\x00"))
    assert cache.account(BLOCK_A, TOKEN) == AccountState(5, 1, b"\x60\x00")
    assert cache.account(BLOCK_B, TOKEN) is None
    # An account and a slot of the same address are different things.
    assert cache.slot(BLOCK_A, TOKEN, 0) is None


def test_addresses_and_block_hashes_match_whatever_their_case() -> None:
    cache = StateCache()
    cache.put_slot(BLOCK_A.upper().replace("0X", "0x"), TOKEN, 1, 7)
    assert cache.slot(BLOCK_A, TOKEN.lower(), 1) == 7


def test_a_zero_slot_is_an_answer_not_a_miss() -> None:
    cache = StateCache()
    cache.put_slot(BLOCK_A, TOKEN, 3, 0)
    assert cache.slot(BLOCK_A, TOKEN, 3) == 0


def test_the_least_recently_used_entry_leaves_first_when_the_bytes_run_out() -> None:
    cache = StateCache(max_bytes=3 * ENTRY_OVERHEAD)
    for slot in range(3):
        cache.put_slot(BLOCK_A, TOKEN, slot, slot + 1)
    assert cache.slot(BLOCK_A, TOKEN, 0) == 1  # used again: now the most recent
    cache.put_slot(BLOCK_A, TOKEN, 3, 4)
    assert cache.slot(BLOCK_A, TOKEN, 1) is None
    assert [cache.slot(BLOCK_A, TOKEN, s) for s in (0, 2, 3)] == [1, 3, 4]
    assert len(cache) == 3 and cache.size == 3 * ENTRY_OVERHEAD


def test_code_counts_against_the_bound_and_code_larger_than_the_cache_is_not_kept() -> None:
    cache = StateCache(max_bytes=ENTRY_OVERHEAD * 4)
    cache.put_slot(BLOCK_A, TOKEN, 0, 1)
    cache.put_account(BLOCK_A, TOKEN, AccountState(0, 1, bytes(ENTRY_OVERHEAD * 2)))
    assert cache.size == ENTRY_OVERHEAD * 4 and len(cache) == 2
    cache.put_account(BLOCK_B, TOKEN, AccountState(0, 1, bytes(ENTRY_OVERHEAD * 4)))
    assert cache.account(BLOCK_B, TOKEN) is None
    assert len(cache) == 2  # what was there stays
    cache.put_account(BLOCK_B, TOKEN, AccountState(0, 1, bytes(ENTRY_OVERHEAD)))
    assert cache.slot(BLOCK_A, TOKEN, 0) is None  # the oldest made room
    assert cache.size <= cache.max_bytes


def test_putting_a_key_again_replaces_it_without_counting_it_twice() -> None:
    cache = StateCache()
    cache.put_slot(BLOCK_A, TOKEN, 0, 1)
    cache.put_slot(BLOCK_A, TOKEN, 0, 1)
    assert len(cache) == 1 and cache.size == ENTRY_OVERHEAD


def test_a_cache_needs_a_positive_bound() -> None:
    with pytest.raises(ValueError):
        StateCache(max_bytes=0)
