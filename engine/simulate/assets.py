"""What a token and an address are, in the words an asset change is shown in: a registry token (its
decimals are the registry's), a trusted vault's shares, a lending pool's receipt or debt token (as the
pool's own getReserveData names it: it has its underlying's decimals), or a token the service does not
know, shown in raw units only. Addresses are named after the registry's contracts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from engine.registry import Registry, RegistryError
from engine.registry.addresses import address_key

AssetKind = Literal["native", "token", "receipt", "debt", "shares", "unknown"]
ZERO_ADDRESS: Final = "0x" + "00" * 20
# How lending receipts are named: Aave's aTokens are a<market><symbol> (aBasUSDC), SparkLend's spTokens
# sp<symbol> (spDAI); the market is left out here, the chain says it. Debt tokens are variableDebt<symbol>.
RECEIPT_PREFIX: Final = {"aave": "a", "spark": "sp"}
DEBT_PREFIX: Final = "variableDebt"


@dataclass(frozen=True, slots=True)
class LendingToken:
    """A lending pool's receipt (aToken) or variable-debt token: `underlying` is the registry symbol of the
    reserve it belongs to. Aave v3's aTokens and debt tokens take their underlying's decimals."""

    protocol: str
    kind: Literal["receipt", "debt"]
    underlying: str


@dataclass(frozen=True, slots=True)
class Asset:
    """How a token's amounts are shown: its symbol, its decimals (None: not in the registry, raw units
    only), its kind, and the registry symbol whose USD price values one unit (None: no price applies).
    `sign` is -1 for a debt token: owing more is a loss."""

    symbol: str
    decimals: int | None
    kind: AssetKind
    priced_as: str | None
    sign: int = 1


def asset_of(
    registry: Registry, chain: str, token: str | None, lending: Mapping[str, LendingToken] | None = None
) -> Asset:
    """The asset `token` (a contract address or SPL mint; None: the chain's native asset) is on `chain`."""
    if token is None:
        native = registry.native(chain)
        return Asset(native.symbol, native.decimals, "native", native.symbol)
    try:
        known = registry.token_by_address(chain, token)
    except RegistryError:
        pass
    else:
        return Asset(known.symbol, known.decimals, "native" if known.is_native else "token", known.symbol)
    vault = registry.vault(chain, token)
    if vault is not None:
        # Shares are worth a varying amount of the underlying: no price is invented for them.
        return Asset(vault.symbol, vault.share_decimals, "shares", None)
    found = (lending or {}).get(token.lower())
    if found is not None:
        underlying = registry.token(chain, found.underlying)
        if found.kind == "receipt":
            name = RECEIPT_PREFIX.get(found.protocol, "a") + underlying.symbol
            return Asset(name, underlying.decimals, "receipt", underlying.symbol)
        return Asset(DEBT_PREFIX + underlying.symbol, underlying.decimals, "debt", underlying.symbol, -1)
    return Asset(token, None, "unknown", None)


@cache
def _names(registry: Registry, chain: str) -> dict[str, str]:
    family = registry.chain(chain).family
    names: dict[str, str] = {}
    for token in registry.tokens(chain):
        if token.address is not None:
            names[address_key(family, token.address)] = f"{token.symbol} token contract"
    for vault in registry.vaults(chain):
        names[address_key(family, vault.address)] = f"{vault.symbol} vault"
    for protocol in registry.protocols():
        for deployment in registry.deployments(chain, protocol.name):
            # Roles read as words: swap_router02 is the swap router, position_manager the position manager.
            role = deployment.role.replace("_", " ").removesuffix("02").strip()
            names[address_key(family, deployment.address)] = f"{protocol.label} {role}"
    if family == "evm":
        names[ZERO_ADDRESS] = "nobody (minted or burned)"
    return names


def label_of(
    registry: Registry, chain: str, address: str, senders: frozenset[str] = frozenset()
) -> str | None:
    """`sender` for one of the batch's senders, the registry's name for its contracts, else None."""
    family = registry.chain(chain).family
    key = address_key(family, address)
    if key in {address_key(family, s) for s in senders}:
        return "sender"
    return _names(registry, chain).get(key)
