"""Across's suggested-fees API: what a relayer charges to fill a bridge deposit, and the values depositV3
needs from the quote (quote timestamp, fill deadline, exclusive relayer and its deadline, output amount).

Request and response follow the API's implementation, across-protocol/frontend api/suggested-fees.ts at
commit bdcf46ce9bcae43df3253db3af713493a158d38d (docs.across.to/reference/api-reference links it as the
source): GET {base}/api/suggested-fees?inputToken&outputToken&originChainId&destinationChainId&amount
[&recipient][&message]. Amounts and `pct` values (1e18 = 100%) are integer strings; `timestamp`,
`quoteBlock` and `fillDeadline` are strings of integers; `exclusivityDeadline` is a number. Errors are
`{"type": "AcrossApiError", "code", "status", "message", "param"?, "id"?}` (api/_errors.ts) with 400 for
INVALID_PARAM, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH, ROUTE_NOT_ENABLED and 5xx for upstream failures.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from eth_utils import is_address, to_checksum_address

from watchers.upstreams.quote_errors import RouteUnavailable, SourceUnavailable
from watchers.upstreams.quote_http import get_json, upstream_message

__all__ = ["ACROSS_API_URL", "AcrossClient", "AcrossFee", "AcrossLimits", "AcrossQuote", "AcrossSettings"]

# Production host of the Across API (docs.across.to/introduction/swap-api, "Base URLs"); the testnet one is
# https://testnet.across.to. The path /api/suggested-fees is appended.
ACROSS_API_URL = "https://app.across.to"
SOURCE = "across"
# api/_errors.ts AcrossErrorCode: the 400 answered when the amount does not cover the relay fees.
AMOUNT_TOO_LOW = "AMOUNT_TOO_LOW"
_INTEGER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True, slots=True)
class AcrossSettings:
    """Where the API is and how long one quote may take (seconds, trio.fail_after)."""

    base_url: str = ACROSS_API_URL
    timeout: float = 10.0


@dataclass(frozen=True, slots=True)
class AcrossFee:
    """One fee component: `pct` scaled by 1e18 (1e18 = 100%) and `total` in raw input-token units."""

    pct: int
    total: int


@dataclass(frozen=True, slots=True)
class AcrossLimits:
    """Deposit limits in raw input-token units; the two newer fields are None when the API omits them."""

    min_deposit: int
    max_deposit: int
    max_deposit_instant: int
    max_deposit_short_delay: int | None
    recommended_deposit_instant: int | None


@dataclass(frozen=True, slots=True)
class AcrossQuote:
    """A suggested-fees answer for one deposit of `input_amount` raw units.

    output_amount is the API's outputAmount (already in output-token units), or input_amount minus
    total_relay_fee.total when the API gives none. timestamp is the quoteTimestamp depositV3 takes;
    fill_deadline, exclusive_relayer and exclusivity_deadline go into depositV3 unchanged.
    """

    input_token: str
    output_token: str
    origin_chain_id: int
    destination_chain_id: int
    input_amount: int
    output_amount: int
    total_relay_fee: AcrossFee
    relayer_capital_fee: AcrossFee
    relayer_gas_fee: AcrossFee
    lp_fee: AcrossFee
    timestamp: int
    fill_deadline: int
    exclusive_relayer: str
    exclusivity_deadline: int
    quote_block: int
    spoke_pool: str
    is_amount_too_low: bool
    limits: AcrossLimits
    estimated_fill_time_sec: int | None


class AcrossClient:
    """Asks Across's suggested-fees API for quotes through an httpx.AsyncClient the caller owns."""

    def __init__(self, http: httpx.AsyncClient, settings: AcrossSettings | None = None) -> None:
        self.settings = settings or AcrossSettings()
        self._http = http

    @classmethod
    @asynccontextmanager
    async def open(
        cls, settings: AcrossSettings | None = None, *, transport: httpx.AsyncBaseTransport | None = None
    ) -> AsyncIterator[AcrossClient]:
        """Own one httpx.AsyncClient for the block. `transport` replaces the network (tests); the deadline
        is the settings' timeout (trio.fail_after), so httpx's own timeout is off."""
        async with httpx.AsyncClient(transport=transport, timeout=None) as http:
            yield cls(http, settings)

    async def suggested_fees(
        self,
        *,
        input_token: str,
        output_token: str,
        origin_chain_id: int,
        destination_chain_id: int,
        amount: int,
        recipient: str | None = None,
        message: str | None = None,
    ) -> AcrossQuote:
        """Quote bridging raw `amount` of `input_token` on `origin_chain_id` to `output_token` on
        `destination_chain_id` (`message`: 0x-hex calldata for a destination action, priced in).

        Raises RouteUnavailable when Across answers 4xx (unsupported route, amount too low or too high; the
        message is Across's) or flags the amount too low, SourceUnavailable when it cannot be reached in
        time, answers 5xx/429, or answers something that is not its documented shape, and ValueError for
        arguments that are not addresses or positive integers.
        """
        params = {
            "inputToken": _address_argument(input_token, "input_token"),
            "outputToken": _address_argument(output_token, "output_token"),
            "originChainId": str(_positive(origin_chain_id, "origin_chain_id")),
            "destinationChainId": str(_positive(destination_chain_id, "destination_chain_id")),
            "amount": str(_positive(amount, "amount")),
        }
        if recipient is not None:
            params["recipient"] = _address_argument(recipient, "recipient")
        if message is not None:
            params["message"] = message
        url = self.settings.base_url.rstrip("/") + "/api/suggested-fees"
        answer = await get_json(
            self._http, url, source=SOURCE, time_limit=self.settings.timeout, params=params
        )
        if not answer.ok:
            code = answer.body.get("code") if isinstance(answer.body, dict) else None
            raise RouteUnavailable(
                SOURCE,
                upstream_message(answer.body),
                code=code if isinstance(code, str) else None,
                status=answer.status,
            )
        try:
            quote = _quote(answer.body, params, amount)
        except (KeyError, TypeError, ValueError) as error:
            raise SourceUnavailable(
                SOURCE, f"suggested-fees answer is not the documented shape: {error}"
            ) from None
        if quote.is_amount_too_low or quote.output_amount <= 0:
            raise RouteUnavailable(
                SOURCE,
                f"amount {amount} is too low relative to fees (minimum deposit {quote.limits.min_deposit})",
                code=AMOUNT_TOO_LOW,
                status=answer.status,
            )
        return quote


def _quote(body: Any, params: Mapping[str, str], amount: int) -> AcrossQuote:
    if not isinstance(body, dict):
        raise TypeError("the body is not a JSON object")
    total = _fee(body, "totalRelayFee")
    output = body.get("outputAmount")
    limits = _object(body, "limits")
    fill_time = body.get("estimatedFillTimeSec")
    return AcrossQuote(
        input_token=params["inputToken"],
        output_token=params["outputToken"],
        origin_chain_id=int(params["originChainId"]),
        destination_chain_id=int(params["destinationChainId"]),
        input_amount=amount,
        output_amount=_integer(output, "outputAmount") if output is not None else amount - total.total,
        total_relay_fee=total,
        relayer_capital_fee=_fee(body, "relayerCapitalFee"),
        relayer_gas_fee=_fee(body, "relayerGasFee"),
        lp_fee=_fee(body, "lpFee"),
        timestamp=_integer(body["timestamp"], "timestamp"),
        fill_deadline=_integer(body["fillDeadline"], "fillDeadline"),
        exclusive_relayer=_address(body["exclusiveRelayer"], "exclusiveRelayer"),
        exclusivity_deadline=_integer(body["exclusivityDeadline"], "exclusivityDeadline"),
        quote_block=_integer(body["quoteBlock"], "quoteBlock"),
        spoke_pool=_address(body["spokePoolAddress"], "spokePoolAddress"),
        is_amount_too_low=_boolean(body["isAmountTooLow"], "isAmountTooLow"),
        limits=AcrossLimits(
            min_deposit=_integer(limits["minDeposit"], "limits.minDeposit"),
            max_deposit=_integer(limits["maxDeposit"], "limits.maxDeposit"),
            max_deposit_instant=_integer(limits["maxDepositInstant"], "limits.maxDepositInstant"),
            max_deposit_short_delay=_optional_integer(limits, "maxDepositShortDelay"),
            recommended_deposit_instant=_optional_integer(limits, "recommendedDepositInstant"),
        ),
        estimated_fill_time_sec=None if fill_time is None else _integer(fill_time, "estimatedFillTimeSec"),
    )


def _object(body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body[key]
    if not isinstance(value, dict):
        raise TypeError(f"{key} is not an object")
    return value


def _fee(body: dict[str, Any], key: str) -> AcrossFee:
    fee = _object(body, key)
    return AcrossFee(pct=_integer(fee["pct"], f"{key}.pct"), total=_integer(fee["total"], f"{key}.total"))


def _integer(value: Any, field: str) -> int:
    # The API sends integers as strings (BigNumber.toString()) or plain JSON integers; never a fraction.
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _INTEGER.fullmatch(value):
        return int(value)
    raise ValueError(f"{field} is not an integer: {value!r}")


def _optional_integer(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    return None if value is None else _integer(value, f"limits.{key}")


def _boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{field} is not a boolean: {value!r}")
    return value


def _address(value: Any, field: str) -> str:
    if not isinstance(value, str) or not is_address(value):
        raise ValueError(f"{field} is not an EVM address: {value!r}")
    return str(to_checksum_address(value))


def _address_argument(value: str, field: str) -> str:
    if not isinstance(value, str) or not value.startswith("0x") or not is_address(value):
        raise ValueError(f"{field} must be a 0x-prefixed EVM address, got {value!r}")
    return str(to_checksum_address(value))


def _positive(value: int, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{field} must be a positive integer, got {value!r}")
    return value
