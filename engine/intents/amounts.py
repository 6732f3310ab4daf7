"""Amounts as written -> amounts on the wire, with balances and prices that were handed in.

What is resolved here and what stays symbolic (docs/decisions.md):
- exact token amounts pass through (rejected when they carry more decimals than the token has);
- `max` / all / everything stay the literal "max": the planner and /steps/reencode size them at sign time;
  a known zero balance is refused instead;
- a fraction (half, 25%) is resolved here from the balance, rounded down to the token's decimals;
- a US-dollar amount ("$100 worth of ETH") is resolved here from a handed-in USD price, rounded down;
- a step fed by the previous step's output is the literal "chained".
Without the balance or price, the parser asks how much instead of guessing; only a caller that sizes
the amount itself when it plans (an agent's remedy, sized when the agent fires) asks for a share to be
left a Share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, localcontext
from fractions import Fraction
from typing import Final, Literal

from engine.intents.drafts import AmountSpec
from engine.limits import MAX_TOKEN_AMOUNT

# Digits of decimal arithmetic here: a uint256 has 78 digits, so every raw token amount fits.
_PRECISION: Final = 80

# Largest amount (in token units) the parser accepts; beyond it no token supply reaches, so it is a typo.
MAX_AMOUNT: Final = MAX_TOKEN_AMOUNT


# What a share is of: the wallet's balance of the asset, what it owes of the asset in the lending market,
# or what it has supplied of the asset there.
ShareOf = Literal["balance", "debt", "deposit"]
SHARE_OF: Final[tuple[ShareOf, ...]] = ("balance", "debt", "deposit")


@dataclass(frozen=True, slots=True)
class Share:
    """A share of a holding left unsized ("half my eth", "a quarter of my aave usdc"), exact as a fraction:
    whoever plans it reads the holding then and takes this share of it, rounded down."""

    fraction: Fraction
    of: ShareOf


def address_key(address: str) -> str:
    """Balances are keyed by this form of an address (EVM lower case, base58 as is)."""
    return address.lower() if address.startswith("0x") else address


@dataclass(slots=True)
class Facts:
    """Balances and prices known to this resolution, and the lookups that failed."""

    # (address_key or "*", chain) -> {asset symbol: amount in token units}
    balances: dict[tuple[str, str], dict[str, Decimal]] = field(default_factory=dict)
    # (chain, asset symbol) -> USD price of one token
    prices: dict[tuple[str, str], Decimal] = field(default_factory=dict)
    failed_balances: set[tuple[str, str]] = field(default_factory=set)
    failed_prices: set[tuple[str, str]] = field(default_factory=set)
    # chain -> {asset symbol: amount} a pasted wallet screen shows: what the user looks at wins over a
    # balance read, for the assets it shows (engine.intents.message).
    stated: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    # Leave a share of a balance, debt or deposit a Share for the caller to size when it plans, instead
    # of sizing it from a balance here (or asking): an agent's remedy is sized when the agent fires.
    shares_later: bool = False

    def holdings(self, address: str, chain: str) -> Mapping[str, Decimal] | None:
        """Known holdings of an address on a chain, or None when nothing is known."""
        exact = self.balances.get((address_key(address), chain))
        found = exact if exact is not None else self.balances.get(("*", chain))
        shown = self.stated.get(chain)
        if shown is None:
            return found
        return {**(found or {}), **shown}

    def balance(self, address: str, chain: str, asset: str) -> Decimal | None:
        """A known balance (case-insensitive symbol), or None when it is not known."""
        holdings = self.holdings(address, chain)
        if holdings is None:
            return None
        for symbol, amount in holdings.items():
            if symbol.lower() == asset.lower():
                return amount
        return None

    def balance_failed(self, address: str, chain: str) -> bool:
        return (address_key(address), chain) in self.failed_balances


def quantum(decimals: int) -> Decimal:
    """The smallest unit of a token with that many decimals, as a Decimal exponent."""
    return Decimal(1).scaleb(-decimals)


def fits_decimals(value: Decimal, decimals: int) -> bool:
    """True when the value has no more fractional digits than the token allows."""
    exponent = value.normalize().as_tuple().exponent
    return isinstance(exponent, int) and exponent >= -decimals


def tidy(value: Decimal) -> Decimal:
    """A whole number without a needless fraction or exponent: 1500.0 -> 1500, 1E+3 -> 1000."""
    with localcontext(prec=_PRECISION):
        return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def share_of(
    balance: Decimal, share: Decimal, decimals: int, ratio: tuple[int, int] | None = None
) -> Decimal:
    """share x balance, rounded down to the token's smallest unit (never more than the balance). With
    `ratio` (the exact fraction `share` rounds), balance x numerator / denominator: a third of 2400 is 800."""
    with localcontext(prec=_PRECISION):
        exact = balance * ratio[0] / ratio[1] if ratio is not None else balance * share
        return exact.quantize(quantum(decimals), rounding=ROUND_DOWN)


def usd_to_tokens(usd: Decimal, price: Decimal, decimals: int) -> Decimal:
    """How many tokens `usd` dollars buy at `price`, rounded down to the token's smallest unit."""
    with localcontext(prec=_PRECISION):
        return (usd / price).quantize(quantum(decimals), rounding=ROUND_DOWN)


def describe_amount(spec: AmountSpec | None, asset: str | None) -> str:
    """Prose for an amount as written: "100 USDC", "half of your ETH", "$100 of ETH"."""
    name = asset or "tokens"
    if spec is None:
        return name
    if spec.kind == "exact":
        return f"{plain(spec.value)} {name}"
    if spec.kind == "usd":
        return f"${plain(spec.value)} of {name}"
    if spec.kind == "fraction":
        return f"{spec.written or _percent(spec.value)} of your {name}"
    if spec.kind == "max":
        return f"all of your {name}"
    if spec.kind == "all_but":
        return f"all of your {name} but {plain(spec.value)}"
    if spec.kind == "unclear":
        return f'"{spec.written}" {name}'
    return f"the {name} from the previous step"


# Shares said by name rather than as a percent.
_SHARE_NAMES: Final[dict[Fraction, str]] = {
    Fraction(1, 2): "half",
    Fraction(1, 3): "a third",
    Fraction(2, 3): "two thirds",
    Fraction(1, 4): "a quarter",
    Fraction(3, 4): "three quarters",
}


def describe_share(share: Share, asset: str | None) -> str:
    """Prose for a share: "half of your ETH", "30% of your USDC debt", "a quarter of your USDC deposit"."""
    fraction = share.fraction
    named = _SHARE_NAMES.get(fraction)
    if named is None and fraction == 1:
        named = "all"
    if named is None:
        with localcontext(prec=_PRECISION):
            percent = Decimal(fraction.numerator) * 100 / fraction.denominator
        exact = percent * fraction.denominator == fraction.numerator * 100
        named = f"{plain(percent)}%" if exact else f"{fraction.numerator}/{fraction.denominator}"
    whose = {"debt": " debt", "deposit": " deposit"}.get(share.of, "")
    return f"{named} of your {asset or 'tokens'}{whose}"


def _percent(share: Decimal | None) -> str:
    if share == Decimal("0.5"):
        return "half"
    value = (share or Decimal(0)) * 100
    return f"{value.quantize(Decimal('0.01')).normalize():f}%"


def plain(value: Decimal | None) -> str:
    """A decimal without exponent or trailing zeros: 1E+3 -> "1000", 12.50 -> "12.5"."""
    if value is None:
        return "?"
    return f"{value.normalize():f}"
