"""The devnet faucet as a request step: every wallet a planning request names is funded on the chains the
request involves, the first time the devnet sees it there, before the handler reads any balance.

Registered by gateway.app only when settings.devnet is true. Only authenticated requests fund (a request
the handler will answer 401 is left alone); bodies that are not JSON objects are left to the handler's
400. A wallet the faucet cannot fund answers 503 upstream_unavailable: planning on an unfunded wallet
would report balances the demo never had.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import trio
from eth_utils import is_hex_address
from quart import current_app, request
from quart_trio import QuartTrio

from engine.registry import RegistryError, load_registry
from gateway import jsonio
from gateway.devnet.faucet import Faucet
from gateway.devnet.rpc import TransactionFailed
from gateway.errors import ApiError
from gateway.versioning import API_PREFIX
from watchers.sources.jsonrpc import RpcError, RpcUnavailable

# The routes whose bodies name wallets (contract: /intent, /plan, /steps/reencode, /simulate).
FUNDED_PATHS = frozenset(API_PREFIX + path for path in ("/intent", "/plan", "/steps/reencode", "/simulate"))
EXTENSION = "intentgate.devnet.funder"
FUNDING_ERRORS = (RpcError, RpcUnavailable, TransactionFailed)


class WalletFunder:
    """Funds (address, chain) pairs through the faucets of the running devnet (empty while none runs)."""

    def __init__(self) -> None:
        self.faucets: Mapping[str, Faucet] = {}

    async def fund(self, wallets: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """Fund each (address, chain slug) the faucets serve, chains concurrently; returns the pairs funded
        now (those seen before are not funded again). Pairs on chains without a faucet are skipped.

        Raises ApiError 503 upstream_unavailable naming every wallet that could not be funded.
        """
        if not self.faucets:
            raise ApiError(
                503, "upstream_unavailable", "The devnet is not running, so its faucet cannot fund."
            )
        wanted = sorted({(address, chain) for address, chain in wallets if chain in self.faucets})
        funded: list[tuple[str, str]] = []
        failed: list[str] = []

        async def one(address: str, chain: str) -> None:
            try:
                if await self.faucets[chain].ensure_funded(address):
                    funded.append((address, chain))
            except FUNDING_ERRORS as exc:
                failed.append(f"{address} on {chain}: {exc}")

        async with trio.open_nursery() as nursery:
            for address, chain in wanted:
                nursery.start_soon(one, address, chain)
        if failed:
            raise ApiError(
                503,
                "upstream_unavailable",
                "The devnet faucet could not fund the request's wallets: " + "; ".join(sorted(failed)),
            )
        return sorted(funded)


def wallets_named(path: str, body: Any) -> set[tuple[str, str]]:
    """The (EVM address, chain slug) pairs a request body names, on the chains it involves.

    /plan: every wallet (and intent wallet) on its own chain and on every chain an intent names; /intent: every wallet on its
    chain; /steps/reencode: the step's wallet on the step's chain (and a bridge's destination);
    /simulate: the sender and every step's wallet on the simulated chain. Malformed parts are skipped
    (the handler reports them); chain names are resolved through the registry's aliases.
    """
    if not isinstance(body, dict):
        return set()
    addresses: set[Any] = set()  # raw JSON values; filtered to EVM addresses below
    chains: set[Any] = set()  # raw JSON values; resolved to slugs below
    route = path.removeprefix(API_PREFIX)
    if route in ("/plan", "/intent"):
        for wallet in _objects(body.get("wallets")):
            addresses.add(wallet.get("address"))
            chains.add(wallet.get("chain"))
        if route == "/plan":
            for intent in _objects(body.get("intents")):
                addresses.add(intent.get("wallet"))
                chains.update(intent.get(key) for key in ("chain", "from_chain", "to_chain"))
    elif route == "/steps/reencode":
        step = body.get("step")
        if isinstance(step, dict):
            addresses.add(step.get("wallet"))
            chains.add(step.get("chain"))
            pinned = step.get("route")
            if isinstance(pinned, dict):
                chains.add(pinned.get("to_chain"))
    elif route == "/simulate":
        addresses.add(body.get("sender"))
        chains.add(body.get("chain"))
        addresses.update(step.get("wallet") for step in _objects(body.get("steps")))
    evm = {a for a in addresses if isinstance(a, str) and a.startswith("0x") and is_hex_address(a)}
    slugs = {slug for slug in map(_slug, chains) if slug is not None}
    return {(address, slug) for address in evm for slug in slugs}


def _objects(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _slug(name: Any) -> str | None:
    if not isinstance(name, str):
        return None
    try:
        return load_registry().resolve_chain(name)
    except RegistryError:
        return None


def install_faucet_hook(app: QuartTrio) -> WalletFunder:
    """Register the funding step on `app`; returns the funder the serve loop hands the faucets to."""
    funder = WalletFunder()
    app.extensions[EXTENSION] = funder

    @app.before_request
    async def fund_named_wallets() -> None:
        if request.method != "POST" or request.path not in FUNDED_PATHS:
            return
        services = current_app.extensions["intentgate"]
        try:
            await services.auth.authenticate(request.headers.get("Authorization"))
        except ApiError:
            return  # the handler answers 401; an anonymous request funds nothing
        try:
            body = jsonio.loads(await request.get_data()) if request.is_json else None
        except ValueError:
            return  # the handler answers 400
        await funder.fund(wallets_named(request.path, body))

    return funder


def wallet_funder(app: QuartTrio) -> WalletFunder | None:
    """The funder install_faucet_hook registered on `app`, or None when the app runs without devnet."""
    funder = app.extensions.get(EXTENSION)
    return funder if isinstance(funder, WalletFunder) else None
