"""Display labels and rough gas figures for steps."""

from decimal import ROUND_FLOOR, Decimal
from functools import lru_cache
from typing import Final

from eth_utils import is_address, is_checksum_address, to_checksum_address

PROTOCOL_LABELS: Final = {
    "aave": "Aave v3",
    "spark": "SparkLend",
    "uniswap": "Uniswap v3",
    "across": "Across",
    "cctp": "Circle CCTP",
    "lido": "Lido",
    "erc4626": "ERC-4626 vault",
    "token": "Token",
}

# Typical gas per kind of step, for the summary's fee estimate only (POST /simulate measures the real
# figure). Orders of magnitude from mainnet receipts of each call; not used for gas limits.
GAS_UNITS: Final = {
    "native_transfer": 21_000,
    "transfer": 65_000,
    "approve": 46_000,
    "wrap": 45_000,
    "unwrap": 40_000,
    "aave_supply": 250_000,
    "aave_withdraw": 250_000,
    "aave_borrow": 300_000,
    "aave_repay": 250_000,
    "aave_claim": 200_000,
    "vault_deposit": 150_000,
    "vault_withdraw": 150_000,
    "swap": 180_000,
    "across_deposit": 120_000,
    "cctp_burn": 150_000,
    "lido_submit": 90_000,
    "lido_request": 250_000,
    "lido_claim": 150_000,
    "lp_mint": 500_000,
    "lp_decrease": 200_000,
    "lp_collect": 150_000,
}


def protocol_label(name: str) -> str:
    return PROTOCOL_LABELS.get(name, name)


def plain(amount: Decimal) -> Decimal:
    """The amount without trailing zeros and without exponent notation: 100.000000 -> 100, 1E+2 -> 100."""
    normalized = amount.normalize()
    return normalized.quantize(Decimal(1)) if normalized.as_tuple().exponent > 0 else normalized  # type: ignore[operator]


# Estimates are shown to this many significant digits: "about 0.03333 WETH", not 0.033329999999999999.
# The raw amounts in calldata and in `chained` stay exact; only the words a person reads are rounded.
ESTIMATE_DIGITS = 6


def about(amount: Decimal) -> Decimal:
    """An estimate as a person reads it: ESTIMATE_DIGITS significant digits, rounded half-even, without
    trailing zeros; whole numbers keep every digit (99.9 and 9990 stay as they are)."""
    if amount == 0:
        return Decimal(0)
    digits = amount.adjusted() + 1  # digits before the decimal point
    places = max(ESTIMATE_DIGITS - digits, 0)
    return plain(amount.quantize(Decimal(1).scaleb(-places)))


def at_least(amount: Decimal) -> Decimal:
    """A minimum as a person reads it: ESTIMATE_DIGITS significant digits, rounded down, so that "at least"
    stays true of the exact figure."""
    if amount == 0:
        return Decimal(0)
    places = max(ESTIMATE_DIGITS - (amount.adjusted() + 1), 0)
    return plain(amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_FLOOR))


def is_evm_address(text: str) -> bool:
    """0x + 40 hex, all one case or with a correct EIP-55 checksum (a mixed case that fails the checksum is
    a typo). eth_utils.is_address alone accepts any casing."""
    if not is_address(text):
        return False
    body = text[2:]
    return body.islower() or body.isupper() or is_checksum_address(text)


@lru_cache(maxsize=4096)
def checksummed(address: str) -> str:
    """The EIP-55 form of an EVM address already validated. Remembered (bounded): a plan names the same
    wallets on every step and in every planning round, and each checksum is a keccak."""
    return str(to_checksum_address(address))
