"""The wallets of a request: which chains they cover, and which address acts on a chain.

Rule (docs/decisions.md): an EVM address is the same account on every EVM chain, so one EVM wallet covers
every EVM chain of the registry; a Solana wallet covers Solana only. The chains the wallets are listed on
are the preferred defaults.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.intents.models import Wallet
from engine.intents.universe import AssetUniverse


def _address_key(address: str) -> str:
    # EVM addresses are case-insensitive (EIP-55 case is only a checksum); base58 is case-sensitive.
    return address.lower() if address.startswith("0x") else address


class WalletContext:
    """The request's wallets seen through the registry's chain families."""

    def __init__(self, wallets: Sequence[Wallet], universe: AssetUniverse) -> None:
        self.universe = universe
        # A wallet's chain may be sent as "Base" or "eth"; it is read through the registry's chain names.
        aliases = universe.chain_aliases()
        self.wallets = [
            Wallet(address=wallet.address, chain=aliases[" ".join(wallet.chain.split()).casefold()])
            for wallet in wallets
            if " ".join(wallet.chain.split()).casefold() in aliases
        ]
        self._families: dict[str, list[str]] = {}
        for wallet in self.wallets:
            key = _address_key(wallet.address)
            members = self._families.setdefault(universe.chain_family(wallet.chain), [])
            if all(_address_key(existing) != key for existing in members):
                members.append(wallet.address)

    def listed_chains(self) -> list[str]:
        """Chain slugs the wallets were given for, first appearance first."""
        chains: list[str] = []
        for wallet in self.wallets:
            if wallet.chain not in chains:
                chains.append(wallet.chain)
        return chains

    def covers(self, chain: str) -> bool:
        """True when some wallet can act on the chain (same family)."""
        return bool(self._families.get(self.universe.chain_family(chain)))

    def reachable_chains(self) -> list[str]:
        """Every registry chain some wallet can act on, in registry order."""
        return [chain for chain in self.universe.chain_slugs() if self.covers(chain)]

    def addresses_for(self, chain: str) -> list[str]:
        """Distinct addresses able to act on the chain; those listed on that very chain come first."""
        family = self.universe.chain_family(chain)
        candidates = self._families.get(family, [])
        listed = [
            wallet.address
            for wallet in self.wallets
            if wallet.chain == chain and wallet.address in candidates
        ]
        return listed + [address for address in candidates if address not in listed]

    def listed_on(self, chain: str) -> list[str]:
        """Distinct addresses the request lists for exactly this chain."""
        found: list[str] = []
        for wallet in self.wallets:
            if wallet.chain == chain and all(
                _address_key(item) != _address_key(wallet.address) for item in found
            ):
                found.append(wallet.address)
        return found

    def several_in_family(self, chain: str) -> bool:
        """True when more than one distinct address could act on the chain."""
        return len(self._families.get(self.universe.chain_family(chain), [])) > 1

    def owns(self, address: str) -> bool:
        """True when the address is one of the request's wallets."""
        key = _address_key(address)
        return any(_address_key(wallet.address) == key for wallet in self.wallets)

    def family_of_address(self, address: str) -> str:
        """`evm` for 0x addresses, otherwise `solana`."""
        return "evm" if address.startswith("0x") else "solana"
