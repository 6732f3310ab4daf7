"""WETH9 on the devnet: the real contract from canonical-weth 1.4.0's Truffle artifact (the source and
bytecode of Ethereum mainnet's 0xC02a…6Cc2), at each chain's wrapped native token address.

Every chain the registry lists wraps its native coin in a WETH9-shaped contract (the same deposit,
withdraw, EIP-20 functions and Deposit/Withdrawal events): WETH on Ethereum and on the OP Stack chains,
WBNB and Polygon's WPOL (verified sources: WETH9 with another name and symbol). So the real WETH9 bytecode
serves all of them; the name and symbol the registry gives are written into WETH9's own storage slots
(its `name` and `symbol` are plain storage strings, set by the constructor). Arbitrum One's WETH is an
upgradeable aeWETH behind a proxy with the same WETH9 functions; no artifact of it is pinned here, so the
devnet serves WETH9 there too.
"""

from __future__ import annotations

from devnet.real_contracts import creation_code, deploy_at
from devnet.rpc import AnvilRpc

WETH9_ARTIFACT = "canonical-weth/build/contracts/WETH9.json"
# What a bundle must carry under node_modules (scripts/intentgate.spec).
ARTIFACTS = (WETH9_ARTIFACT,)
# WETH9's storage layout (canonical-weth contracts/WETH9.sol declaration order): name, symbol, decimals,
# balanceOf, allowance.
NAME_SLOT = 0
SYMBOL_SLOT = 1
# Solidity keeps a string shorter than 32 bytes in its slot: the bytes left-aligned, length * 2 last.
SHORT_STRING_MAX = 31


def short_string_slot(text: str) -> bytes:
    """The 32-byte slot value Solidity stores for a string of at most 31 bytes; ValueError otherwise."""
    raw = text.encode()
    if len(raw) > SHORT_STRING_MAX:
        raise ValueError(f"{text!r} is longer than {SHORT_STRING_MAX} bytes")
    return raw.ljust(31, b"\0") + bytes([len(raw) * 2])


async def deploy_weth9(anvil: AnvilRpc, admin: str, address: str, name: str, symbol: str) -> None:
    """The real WETH9 at `address`, answering `name` and `symbol` (the registry's)."""
    await deploy_at(anvil, admin, address, creation_code(WETH9_ARTIFACT))
    await anvil.set_storage_at(address, NAME_SLOT, short_string_slot(name))
    await anvil.set_storage_at(address, SYMBOL_SLOT, short_string_slot(symbol))
