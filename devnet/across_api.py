"""The devnet Across API: GET /api/suggested-fees answered in the real API's response shape, for the
routes the registry lists, with a fixed small fee.

Shape (across-protocol/frontend api/suggested-fees.ts, `responseJson`; watchers.upstreams.across cites the
commit its client follows): the legacy flat fee fields (capitalFeePct, capitalFeeTotal, relayGasFeePct,
relayGasFeeTotal, relayFeePct, relayFeeTotal, lpFeePct "0"), timestamp, isAmountTooLow, quoteBlock,
exclusiveRelayer, exclusivityDeadline (a number), spokePoolAddress, destinationSpokePoolAddress, the v3 fee
objects totalRelayFee / relayerCapitalFee / relayerGasFee / lpFee as {pct, total}, limits {minDeposit,
maxDeposit, maxDepositInstant, maxDepositShortDelay, recommendedDepositInstant}, fillDeadline,
outputAmount, and inputToken / outputToken as {address, symbol, decimals, chainId}. Amounts and pct values
(1e18 = 100%) are integer strings. Errors are api/_errors.ts's {"type": "AcrossApiError", "code", "status",
"message", "param"?}.

What is the devnet's own (not Across's): the whole fee is DEVNET_FEE_BPS of the input, charged as the
relayer capital fee (gas and LP fees 0); the deposit limits; no exclusive relayer; the quote block and
timestamp are the hub chain's (the devnet Ethereum's) latest block, as the real API reads mainnet's. anvil
mines only on a transaction, so hub_block first mines an empty block when the latest is older than a
mainnet slot: an idle devnet's hub would otherwise quote a timestamp the real SpokePool refuses once it is
more than its one-hour buffer old (InvalidQuoteTimestamp), which mainnet's steady blocks never do.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from functools import partial
from typing import Any, cast
from urllib.parse import parse_qs

import hypercorn.trio
import trio
from eth_utils import is_address, to_checksum_address
from hypercorn.config import Config

from engine.registry import Registry, RegistryError, Token
from gateway import jsonio
from watchers.upstreams.evm import from_quantity
from watchers.upstreams.jsonrpc import JsonRpcClient

# The devnet relay fee: 10 basis points (0.1 %) of the input amount, a devnet choice of Across's order.
DEVNET_FEE_BPS = 10
# Across scales percentages by 1e18 (1e18 = 100 %; suggested-fees.ts divides by WeiPerEther).
PCT_SCALE = 10**18
BPS_SCALE = 10_000
# Largest deposit the devnet quotes, in whole input-token units (devnet choice: the stand-ins' liquidity,
# devnet.world.LIQUIDITY_USD, is a million dollars).
DEVNET_MAX_DEPOSIT_UNITS = 1_000_000
# Seconds a relayer has to fill, from the quote's timestamp: the devnet's suggested fillDeadline (the
# planner encodes the answer's fillDeadline as it is). Two hours stays inside the SpokePool's buffer.
DEVNET_FILL_WINDOW_S = 2 * 60 * 60
# Mainnet fills take about 2 seconds (docs.across.to/reference/api-reference, "Testnet Across API").
DEVNET_FILL_TIME_S = 2
ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"
# Seconds between Ethereum mainnet blocks (one slot): the most the real hub's latest block lags the clock.
HUB_SLOT_S = 12
# The HTTP path the production client asks (watchers.upstreams.across).
SUGGESTED_FEES_PATH = "/api/suggested-fees"
REQUIRED_PARAMS = ("inputToken", "outputToken", "originChainId", "destinationChainId", "amount")

# latest_block() -> (block number, block timestamp) of the hub chain.
LatestBlock = Callable[[], Awaitable[tuple[int, int]]]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

log = logging.getLogger("intentgate.devnet.across")


class AcrossApiError(Exception):
    """An answer in api/_errors.ts's shape."""

    def __init__(self, status: int, code: str, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.param = param

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": "AcrossApiError",
            "code": self.code,
            "status": self.status,
            "message": self.message,
        }
        if self.param is not None:
            body["param"] = self.param
        return body


async def hub_block(rpc: JsonRpcClient, clock: Callable[[], float] = time.time) -> tuple[int, int]:
    """(number, timestamp) of the hub chain's latest block, mining an empty one first when the latest is
    more than a slot behind `clock` (the host's clock; an anvil block's time follows it unless the chain's
    time was moved)."""
    block = await rpc.call("eth_getBlockByNumber", ["latest", False])
    if from_quantity(block["timestamp"]) < clock() - HUB_SLOT_S:
        await rpc.call("evm_mine")
        block = await rpc.call("eth_getBlockByNumber", ["latest", False])
    return from_quantity(block["number"]), from_quantity(block["timestamp"])


def fee_of(amount: int) -> int:
    """The devnet relay fee of a raw input amount (rounded down, as BigNumber division does)."""
    return amount * DEVNET_FEE_BPS // BPS_SCALE


def convert_decimals(amount: int, from_decimals: int, to_decimals: int) -> int:
    """A raw amount in another token's decimals, rounding down (the API's ConvertDecimals)."""
    if to_decimals >= from_decimals:
        return amount * 10 ** (to_decimals - from_decimals)
    return amount // 10 ** (from_decimals - to_decimals)


class SuggestedFees:
    """Quotes for the Across routes of the registry: both chains carry a SpokePool, both tokens are the
    registry's tokens of the same symbol on their chains."""

    def __init__(self, registry: Registry, latest_block: LatestBlock) -> None:
        self._registry = registry
        self._latest_block = latest_block

    async def answer(self, query: dict[str, str]) -> dict[str, Any]:
        """The suggested-fees body for `query`; raises AcrossApiError (4xx for the request, 5xx when the
        hub chain cannot be read)."""
        for name in REQUIRED_PARAMS:
            if not query.get(name):
                raise AcrossApiError(400, "MISSING_PARAM", f"Missing parameter {name}", name)
        origin_id = _chain_id(query, "originChainId")
        destination_id = _chain_id(query, "destinationChainId")
        amount = _amount(query["amount"])
        if query.get("message", "0x") not in ("", "0x"):
            raise AcrossApiError(
                400,
                "INVALID_PARAM",
                "The devnet Across API quotes plain transfers only; a message is not simulated here",
                "message",
            )
        origin, input_token, origin_pool = self._side(origin_id, query["inputToken"], "inputToken")
        destination, output_token, destination_pool = self._side(
            destination_id, query["outputToken"], "outputToken"
        )
        if origin == destination or input_token.symbol != output_token.symbol:
            raise AcrossApiError(
                400,
                "ROUTE_NOT_ENABLED",
                f"Route {input_token.symbol} {origin} -> {output_token.symbol} {destination} is not enabled",
            )
        max_deposit = DEVNET_MAX_DEPOSIT_UNITS * 10**input_token.decimals
        if amount > max_deposit:
            raise AcrossApiError(
                400,
                "AMOUNT_TOO_HIGH",
                f"Amount exceeds max. deposit limit: {DEVNET_MAX_DEPOSIT_UNITS} {input_token.symbol}",
            )
        try:
            block, timestamp = await self._latest_block()
        except Exception as exc:  # whatever the hub node did, the quote cannot be made: a 5xx, as upstream
            log.warning("devnet hub chain unreadable", extra={"error": str(exc)})
            raise AcrossApiError(
                503, "UPSTREAM_RPC_ERROR", f"The devnet hub chain did not answer: {exc}"
            ) from None
        fee = fee_of(amount)
        fee_pct = str(DEVNET_FEE_BPS * PCT_SCALE // BPS_SCALE)
        output = convert_decimals(amount - fee, input_token.decimals, output_token.decimals)
        limit = str(max_deposit)
        return {
            "estimatedFillTimeSec": DEVNET_FILL_TIME_S,
            "capitalFeePct": fee_pct,
            "capitalFeeTotal": str(fee),
            "relayGasFeePct": "0",
            "relayGasFeeTotal": "0",
            "relayFeePct": fee_pct,
            "relayFeeTotal": str(fee),
            "lpFeePct": "0",
            "timestamp": str(timestamp),
            "isAmountTooLow": amount - fee <= 0,
            "quoteBlock": str(block),
            "exclusiveRelayer": ZERO_ADDRESS,
            "exclusivityDeadline": 0,
            "spokePoolAddress": origin_pool,
            "destinationSpokePoolAddress": destination_pool,
            "totalRelayFee": {"pct": fee_pct, "total": str(fee)},
            "relayerCapitalFee": {"pct": fee_pct, "total": str(fee)},
            "relayerGasFee": {"pct": "0", "total": "0"},
            "lpFee": {"pct": "0", "total": "0"},
            "limits": {
                "minDeposit": "1",
                "maxDeposit": limit,
                "maxDepositInstant": limit,
                "maxDepositShortDelay": limit,
                "recommendedDepositInstant": limit,
            },
            "fillDeadline": str(timestamp + DEVNET_FILL_WINDOW_S),
            "outputAmount": str(output),
            "inputToken": _token_object(input_token, origin_id),
            "outputToken": _token_object(output_token, destination_id),
        }

    def _side(self, chain_id: int, address: str, param: str) -> tuple[str, Token, str]:
        """(chain slug, token, SpokePool address) of one side of the route."""
        if not is_address(address):
            raise AcrossApiError(400, "INVALID_PARAM", f"{param} is not a valid address", param)
        try:
            chain = self._registry.chain_by_id(chain_id)
            token = self._registry.token_by_address(chain.slug, address)
            pool = self._registry.deployment(chain.slug, "across", "spoke_pool")
        except RegistryError:
            raise AcrossApiError(
                400, "ROUTE_NOT_ENABLED", f"Unsupported token {address} on chain {chain_id}", param
            ) from None
        return chain.slug, token, to_checksum_address(pool)


def _chain_id(query: dict[str, str], param: str) -> int:
    raw = query[param]
    if not raw.isdigit() or int(raw) <= 0:
        raise AcrossApiError(400, "INVALID_PARAM", f"{param} must be a positive integer", param)
    return int(raw)


def _amount(raw: str) -> int:
    if not raw.isdigit() or int(raw) <= 0:
        raise AcrossApiError(400, "INVALID_PARAM", "amount must be a positive integer string", "amount")
    return int(raw)


def _token_object(token: Token, chain_id: int) -> dict[str, Any]:
    address = token.address or ZERO_ADDRESS
    return {
        "address": to_checksum_address(address),
        "symbol": token.symbol,
        "decimals": token.decimals,
        "chainId": chain_id,
    }


class AcrossApiApp:
    """The raw ASGI application: GET /api/suggested-fees, everything else 404."""

    def __init__(self, fees: SuggestedFees) -> None:
        self.fees = fees

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        status, body = await self._answer(scope)
        raw = jsonio.dumps(body).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": raw})

    async def _answer(self, scope: Scope) -> tuple[int, Any]:
        if scope["path"] != SUGGESTED_FEES_PATH:
            return 404, AcrossApiError(404, "INVALID_PARAM", f"No route {scope['path']}").body()
        if scope["method"] != "GET":
            return 405, AcrossApiError(405, "INVALID_METHOD", "Use GET").body()
        query = {k: v[0] for k, v in parse_qs(scope.get("query_string", b"").decode()).items()}
        try:
            return 200, await self.fees.answer(query)
        except AcrossApiError as exc:
            return exc.status, exc.body()


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def serve_across_api(
    fees: SuggestedFees,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the API on host:port (0 = an ephemeral port) until cancelled; reports its base URL (the
    value of settings.across_api_url) once bound."""
    config = Config()
    config.bind = [f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = logging.getLogger("intentgate.devnet.across")
    config.include_server_header = False
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(
            partial(hypercorn.trio.serve, cast(Any, AcrossApiApp(fees)), config)
        )  # a plain ASGI app
        task_status.started(binds[0])
