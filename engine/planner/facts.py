"""What a plan reads from the outside world, as keys the I/O layer fetches and values the planner reads.

The planner never waits on I/O: it asks `Facts` for values, and every value that is not there yet is
recorded as missing. The I/O layer fetches all missing facts of a round concurrently and the planner runs
again, until nothing is missing (route prefetch)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.encoders.uniswap import UniswapPosition


@dataclass(frozen=True)
class BalanceKey:
    chain: str
    owner: str
    symbol: str  # the chain's native symbol for the native balance


@dataclass(frozen=True)
class AllowanceKey:
    chain: str
    owner: str
    token: str
    spender: str


@dataclass(frozen=True)
class SwapQuoteKey:
    chain: str
    token_in: str
    token_out: str
    amount_in: int
    fee_tier: int | None = None  # None: the best of the fee tiers


@dataclass(frozen=True)
class BridgeQuoteKey:
    protocol: str
    from_chain: str
    to_chain: str
    input_token: str
    output_token: str
    amount: int


@dataclass(frozen=True)
class GasPriceKey:
    chain: str


@dataclass(frozen=True)
class PriceKey:
    coingecko_id: str


@dataclass(frozen=True)
class BlockhashKey:
    chain: str


@dataclass(frozen=True)
class SwapQuote:
    amount_out: int
    fee_tier: int


@dataclass(frozen=True)
class BridgeQuote:
    """A bridge fee quote. quote_timestamp and fill_deadline are the quote's own (Across: the suggested-
    fees answer's `timestamp` and `fillDeadline`), never the host clock's: the SpokePool refuses a
    quoteTimestamp ahead of its block time."""

    output_amount: int
    total_fee: int
    exclusive_relayer: str
    exclusivity_deadline: int
    quote_timestamp: int
    fill_deadline: int


@dataclass
class Facts:
    """Known values by key, the keys asked for and not known yet, and keys whose fetch failed (with why)."""

    now: int  # unix seconds, host time
    values: dict[FactKey, Any] = field(default_factory=dict)
    failed: dict[FactKey, str] = field(default_factory=dict)
    missing: set[FactKey] = field(default_factory=set)

    def get(self, key: FactKey) -> Any | None:
        """The value, or None when it is unknown (then recorded as missing) or its fetch failed."""
        if key in self.values:
            return self.values[key]
        if key not in self.failed:
            self.missing.add(key)
        return None

    def failure(self, key: FactKey) -> str | None:
        return self.failed.get(key)

    def take_missing(self) -> set[FactKey]:
        missing, self.missing = self.missing, set()
        return missing


@dataclass(frozen=True)
class WithdrawalRequest:
    """One Lido withdrawal request of an owner, as WithdrawalQueue.getWithdrawalStatus reports it."""

    request_id: int
    amount_of_steth: int
    is_finalized: bool
    is_claimed: bool


@dataclass(frozen=True)
class LidoRequestsKey:
    """The owner's unclaimed withdrawal requests: a tuple of WithdrawalRequest in ascending id order."""

    chain: str
    queue: str
    owner: str


@dataclass(frozen=True)
class LidoHintsKey:
    """findCheckpointHints(request_ids, 1, getLastCheckpointIndex()): a tuple of hints, one per id."""

    chain: str
    queue: str
    request_ids: tuple[int, ...]


@dataclass(frozen=True)
class AaveRewards:
    """The aToken and variable-debt token of every reserve, and the owner's unclaimed rewards on them."""

    assets: tuple[str, ...]
    unclaimed: tuple[tuple[str, int], ...]  # (reward token address, raw amount)


@dataclass(frozen=True)
class AaveRewardsKey:
    """AaveRewards of `owner` on the market of `pool`, from its RewardsController `controller`."""

    chain: str
    pool: str
    controller: str
    owner: str


@dataclass(frozen=True)
class OwnedPosition:
    """A Uniswap v3 position NFT: its owner and positions(tokenId)."""

    owner: str
    position: UniswapPosition


@dataclass(frozen=True)
class UniswapPositionKey:
    """An OwnedPosition; failed with the reason when the token id does not exist."""

    chain: str
    manager: str
    token_id: int


@dataclass(frozen=True)
class OwnerPositionsKey:
    """Every Uniswap v3 position NFT `owner` holds on the manager (up to MAX_OWNED_POSITIONS, lowest index
    first): a tuple of (token id, OwnedPosition)."""

    chain: str
    manager: str
    owner: str


# Positions read per owner: far above what one wallet keeps, and a bound on one plan's reads.
MAX_OWNED_POSITIONS = 100


FactKey = (
    BalanceKey
    | AllowanceKey
    | SwapQuoteKey
    | BridgeQuoteKey
    | GasPriceKey
    | PriceKey
    | BlockhashKey
    | LidoRequestsKey
    | LidoHintsKey
    | AaveRewardsKey
    | UniswapPositionKey
    | OwnerPositionsKey
)
