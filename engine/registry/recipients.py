"""Who may be paid: one recipient policy for every place an address becomes a payee or a spender.

Tokens sent to the zero address, to a burn address, to a token contract, to a protocol's contract or to a
well-known contract the registry lists only to refuse it (known_contracts.json: routers, bridges, pools it
does not plan with) are gone: nobody holds a key for the first two, and the others keep what is
transferred to them directly. A
mixed-case EVM address whose EIP-55 checksum fails is a typo, and two mentions of an address in one request
that nearly agree are a typo or a poisoned address (a look-alike planted in the user's history). Each case
is refused with a reason that names the address; nothing here guesses which address was meant.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from engine.registry.addresses import address_key, is_user_address
from engine.registry.errors import RegistryError
from engine.registry.models import Family, KnownContract

if TYPE_CHECKING:
    from engine.registry.registry import Registry

# Addresses below this have no key anyone holds: the zero address, the precompiles (0x01-0x11 and the
# RIP-7212 P256 verifier at 0x100 on rollups), and 0x...dEaD, the customary burn address.
LOW_EVM_ADDRESS_LIMIT: Final = 0x10000
EVM_ZERO: Final = "0x" + "0" * 40
EVM_DEAD: Final = "0x000000000000000000000000000000000000dead"
# Addresses used as burn sinks or as placeholders that are nobody's wallet (lower case).
EVM_UNSPENDABLE: Final = {
    # The burn address many token burns use (etherscan labels it "Burn Address 2").
    "0xdead000000000000000042069420694206942069": "a burn address",
    # The native-asset placeholder of aggregator APIs (1inch, LI.FI, KyberSwap): a marker, not a wallet.
    "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee": "the aggregators' native-asset placeholder, not a wallet",
    "0xffffffffffffffffffffffffffffffffffffffff": "the highest address, a placeholder nobody holds",
}
# Solana accounts that are programs or sinks (docs.solana.com "Programs"; solana-program `incinerator`).
SOLANA_UNSPENDABLE: Final = {
    "11111111111111111111111111111111": "the System Program (the all-zero public key)",
    "1nc1nerator11111111111111111111111111111111": "the incinerator, Solana's burn account",
    "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA": "the SPL Token program",
    "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb": "the Token-2022 program",
    "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL": "the Associated Token Account program",
}
# Two different addresses in one request that agree on this many leading and trailing characters, or
# differ in at most LOOKALIKE_MAX_DIFF characters, are one address mistyped or a poisoned look-alike:
# wallets show the first and last few characters, which is what address poisoning copies.
LOOKALIKE_EDGE: Final = 4
LOOKALIKE_MAX_DIFF: Final = 3


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract of the registry, as a person would name it."""

    what: str  # "the USDC token contract on base", "Aave v3's pool on ethereum"


@lru_cache(maxsize=8)
def _contracts(registry: Registry) -> dict[tuple[str, str], Contract]:
    """(family, address key) -> the registry contract at that address, on any chain of the family."""
    index: dict[tuple[str, str], Contract] = {}
    for chain in registry.chains():
        family = chain.family
        for token in registry.tokens(chain.slug):
            if token.address is not None:
                what = "mint" if family == "solana" else "token contract"
                index.setdefault(
                    (family, address_key(family, token.address)),
                    Contract(f"the {token.symbol} {what} on {chain.slug}"),
                )
        for protocol in registry.protocols():
            for deployment in registry.deployments(chain.slug, protocol.name):
                role = deployment.role.replace("_", " ")
                index.setdefault(
                    (family, address_key(family, deployment.address)),
                    Contract(f"{protocol.label}'s {role} on {chain.slug}"),
                )
        for vault in registry.vaults(chain.slug):
            index.setdefault(
                (family, address_key(family, vault.address)),
                Contract(f"the {vault.symbol} vault on {chain.slug}"),
            )
    return index


def recipient_problem(
    registry: Registry, family: Family, address: str, chain: str | None = None
) -> str | None:
    """Why `address` must not receive funds on a chain of `family`, or None when it may.

    The reason names the address: not an address of the family, a mixed-case EVM address failing its
    EIP-55 checksum, the zero or a burn address, a token or protocol contract the registry lists, or a
    well-known contract it lists only to refuse. `chain`, the chain that would receive the funds, only
    sharpens the reason: every contract is refused on every chain of its family.
    """
    if family == "evm":
        if not is_user_address("evm", address):
            body = address[2:] if address[:2] in ("0x", "0X") else ""
            if len(body) == 40 and all(c in "0123456789abcdefABCDEF" for c in body):
                return (
                    f"{address} fails its EIP-55 checksum: a mixed-case address with a wrong letter is "
                    "a typo; copy the address again"
                )
            return f"{address} is not an EVM address (0x and 40 hex digits)"
        key = address.lower()
        value = int(key, 16)
        if value == 0:
            return f"{address} is the zero address: tokens sent there are lost"
        if key == EVM_DEAD:
            return f"{address} is a burn address: tokens sent there are lost"
        if value < LOW_EVM_ADDRESS_LIMIT:
            return f"{address} is a reserved low address (a precompile): nobody can spend what it receives"
        if key in EVM_UNSPENDABLE:
            return f"{address} is {EVM_UNSPENDABLE[key]}: tokens sent there are lost"
    else:
        if not is_user_address("solana", address):
            return f"{address} is not a Solana address (base58 of 32 bytes)"
        if address in SOLANA_UNSPENDABLE:
            return f"{address} is {SOLANA_UNSPENDABLE[address]}: tokens sent there are lost"
    contract = _contracts(registry).get((family, address_key(family, address)))
    if contract is not None:
        return (
            f"{address} is {contract.what}: a contract keeps what is sent to it directly, so the "
            "tokens would be lost"
        )
    known = registry.known_at(address) if family == "evm" else ()
    if known:
        return _known_problem(address, known, chain)
    return None


def _known_problem(address: str, known: tuple[KnownContract, ...], chain: str | None) -> str:
    """The reason for a well-known contract: named for the receiving chain when it is deployed there, else
    with the chains it is deployed on. Its address is refused on the others too: it was derived from its
    deployer, not from a key, so nobody can spend what is sent there (or whoever deploys there takes it)."""
    here = next((k for k in known if chain in k.chains), None)
    if here is not None:
        return (
            f"{address} is {here.name} on {chain}: a contract keeps what is sent to it directly, so the "
            "tokens would be lost"
        )
    what = "; ".join(f"{k.name} on {_joined(k.chains)}" for k in known)
    if chain is None:
        return (
            f"{address} is {what}: a contract keeps what is sent to it directly, so the tokens would be lost"
        )
    return (
        f"{address} is {what}, and nobody holds a key for that address on {chain} either: a contract's "
        "address comes from its deployer, not from a key, so what is sent there is lost or taken by "
        "whoever deploys there"
    )


def _joined(chains: tuple[str, ...]) -> str:
    return chains[0] if len(chains) == 1 else ", ".join(chains[:-1]) + " and " + chains[-1]


def spender_problem(registry: Registry, chain: str, protocol: str, spender: str) -> str | None:
    """Why `spender` must not be approved for `protocol` on `chain`, or None when it is that protocol's
    own contract there (a trusted vault for `erc4626`)."""
    slug = registry.chain(chain).slug
    family = registry.chain(slug).family
    key = address_key(family, spender)
    if protocol == "erc4626":
        if registry.vault(slug, spender) is not None:
            return None
        return f"{spender} is not a trusted vault on {slug}, so it may not spend your tokens"
    try:
        ours = {address_key(family, d.address) for d in registry.deployments(slug, protocol)}
    except RegistryError:  # an unknown protocol owns no contract: said below
        ours = set()
    if key in ours:
        return None
    return f"{spender} is not {protocol}'s contract on {slug}, so it may not spend your tokens"


def lookalike(addresses: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], tuple[str, str]] | None:
    """The first two (where, address) pairs naming different addresses that look alike, or None.

    `where` is the caller's name for the mention (a field path or "your message"). Addresses compare by
    their family's key (EVM case-insensitively), so one address written twice in two cases is one address.
    """
    seen: list[tuple[str, str, str]] = []
    for where, address in addresses:
        key = address.lower() if address[:2] in ("0x", "0X") else address
        body = key[2:] if key.startswith("0x") else key
        for other_where, other, other_body in seen:
            if other_body != body and _looks_alike(body, other_body):
                return (other_where, other), (where, address)
        if all(body != b for _, _, b in seen):
            seen.append((where, address, body))
    return None


def _looks_alike(a: str, b: str) -> bool:
    if len(a) != len(b) or len(a) < 2 * LOOKALIKE_EDGE + 1:
        return False
    if a[:LOOKALIKE_EDGE] == b[:LOOKALIKE_EDGE] and a[-LOOKALIKE_EDGE:] == b[-LOOKALIKE_EDGE:]:
        return True
    return sum(x != y for x, y in zip(a, b, strict=True)) <= LOOKALIKE_MAX_DIFF


def lookalike_problem(first: tuple[str, str], second: tuple[str, str]) -> str:
    """The reason given for two mentions that look alike, naming both addresses."""
    return (
        f"{second[1]} and {first[1]} ({first[0]}) look alike but differ: one of them is mistyped or a "
        "look-alike planted to be copied by mistake; send the one address you mean"
    )
