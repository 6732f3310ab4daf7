"""The Across SpokePool on the devnet: the real implementation from @across-protocol/contracts 5.0.27's
build artifacts behind the package's ERC1967Proxy at the registry's SpokePool address, as on the real
chains (a UUPS proxy over a chain-specific implementation).

The implementation is picked by the chain id: Ethereum_SpokePool on Ethereum, OP_SpokePool on OP Mainnet
and Base (Base_SpokePool is the same Ovm_SpokePool with another name; the package ships no artifact of
it), Arbitrum_SpokePool, Polygon_SpokePool, and Universal_SpokePool on BNB Chain; any other chain id (a
test devnet's) gets Ethereum_SpokePool. Each is constructed with the chain's wrapped native token and
the deployment buffers Across uses (deploy/consts.ts: QUOTE_TIME_BUFFER one hour, FILL_DEADLINE_BUFFER six
hours), so a deposit meets the real checks: quote timestamp not ahead of the block and at most an hour
old, fill deadline at most six hours ahead, msg.value equal to the input amount when native is wrapped,
the input token pulled with SafeERC20. The bridge-side parts no deposit touches are disabled: no CCTP
token or messenger, no OFT endpoint, no V5 gateway, no canonical bridge contracts; the devnet admin is the
cross-domain admin, the owner and the withdrawal recipient.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from devnet.real_contracts import creation_code, deploy, deploy_at
from devnet.rpc import AnvilRpc

_DIST = "@across-protocol/contracts/dist/evm/artifacts"
PROXY_ARTIFACT = f"{_DIST}/ERC1967Proxy.sol/ERC1967Proxy.json"
# Seconds a quote timestamp may lag the deposit's block, and a fill deadline may lead it (across-protocol
# contracts deploy/consts.ts QUOTE_TIME_BUFFER and FILL_DEADLINE_BUFFER, what the deployed pools use).
QUOTE_TIME_BUFFER = 3600
FILL_DEADLINE_BUFFER = 6 * 3600
ZERO = "0x" + "00" * 20
# Deposits count from 0 on a fresh pool (the initialiser's _initialDepositId).
INITIAL_DEPOSIT_ID = 0

# What each flavour's constructor and initialiser take beyond the common start, given (weth, admin).
Args = Callable[[str, str], Sequence[Any]]


@dataclass(frozen=True)
class SpokeFlavor:
    """One SpokePool implementation: its artifact, constructor and initialiser."""

    name: str
    constructor_types: Sequence[str]
    constructor_args: Args
    initialize: str
    initialize_args: Args

    @property
    def artifact(self) -> str:
        return f"{_DIST}/{self.name}.sol/{self.name}.json"


def _buffers(weth: str) -> tuple[str, int, int]:
    return (weth, QUOTE_TIME_BUFFER, FILL_DEADLINE_BUFFER)


# (wrapped native, quote buffer, fill buffer, l2Usdc, cctpTokenMessenger, oftDstEid, oftFeeCap, gateway)
_WITH_CCTP_AND_OFT = ["address", "uint32", "uint32", "address", "address", "uint32", "uint256", "address"]

ETHEREUM = SpokeFlavor(
    "Ethereum_SpokePool",
    ["address", "uint32", "uint32", "address"],
    lambda weth, admin: (*_buffers(weth), ZERO),
    "initialize(uint32,address)",
    lambda weth, admin: (INITIAL_DEPOSIT_ID, admin),
)
OP_STACK = SpokeFlavor(
    "OP_SpokePool",
    ["address", "uint32", "uint32", "address", "address", "address"],
    lambda weth, admin: (*_buffers(weth), ZERO, ZERO, ZERO),
    "initialize(uint32,address,address)",
    lambda weth, admin: (INITIAL_DEPOSIT_ID, admin, admin),
)
ARBITRUM = SpokeFlavor(
    "Arbitrum_SpokePool",
    _WITH_CCTP_AND_OFT,
    lambda weth, admin: (*_buffers(weth), ZERO, ZERO, 0, 0, ZERO),
    "initialize(uint32,address,address,address)",
    lambda weth, admin: (INITIAL_DEPOSIT_ID, ZERO, admin, admin),
)
POLYGON = SpokeFlavor(
    "Polygon_SpokePool",
    _WITH_CCTP_AND_OFT,
    lambda weth, admin: (*_buffers(weth), ZERO, ZERO, 0, 0, ZERO),
    "initialize(uint32,address,address,address,address)",
    lambda weth, admin: (INITIAL_DEPOSIT_ID, ZERO, admin, admin, ZERO),
)
UNIVERSAL = SpokeFlavor(
    "Universal_SpokePool",
    ["uint256", "address", "address", *_WITH_CCTP_AND_OFT],
    lambda weth, admin: (0, ZERO, ZERO, *_buffers(weth), ZERO, ZERO, 0, 0, ZERO),
    "initialize(uint32,address,address)",
    lambda weth, admin: (INITIAL_DEPOSIT_ID, admin, admin),
)
# EIP-155 chain id -> implementation (registry chains.json ids).
FLAVORS = {1: ETHEREUM, 10: OP_STACK, 8453: OP_STACK, 42161: ARBITRUM, 137: POLYGON, 56: UNIVERSAL}
# What a bundle must carry under node_modules (scripts/intentgate.spec).
ARTIFACTS = (PROXY_ARTIFACT, *sorted({flavor.artifact for flavor in (ETHEREUM, *FLAVORS.values())}))


@dataclass(frozen=True)
class SpokeSetup:
    """Where the SpokePool goes and the wrapped native token it wraps deposits of the native coin into."""

    address: str
    weth: str


def flavor_for(chain_id: int) -> SpokeFlavor:
    """The implementation the devnet deploys on `chain_id`."""
    return FLAVORS.get(chain_id, ETHEREUM)


async def deploy_spoke_pool(anvil: AnvilRpc, admin: str, setup: SpokeSetup) -> SpokeFlavor:
    """Deploy the chain's implementation, the ERC1967 proxy over it at `setup.address`, and initialise
    the pool through the proxy from `admin`; returns the flavour deployed."""
    flavor = flavor_for(int(str(await anvil.rpc.call("eth_chainId")), 16))
    code = creation_code(
        flavor.artifact, flavor.constructor_types, flavor.constructor_args(setup.weth, admin)
    )
    # The implementation stays where it was created: the proxy only needs its address, and UUPS's own
    # checks compare the implementation against the address it was constructed at.
    _, implementation = await deploy(anvil, admin, code, flavor.name)
    proxy = creation_code(PROXY_ARTIFACT, ["address", "bytes"], (implementation, b""))
    await deploy_at(anvil, admin, setup.address, proxy)
    await anvil.call_as(admin, setup.address, flavor.initialize, flavor.initialize_args(setup.weth, admin))
    return flavor
