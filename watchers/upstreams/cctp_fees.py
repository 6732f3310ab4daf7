"""Circle's CCTP V2 fee quote (Iris API): the minimum fee per finality threshold for a route, in basis
points, from which depositForBurn's maxFee is sized.

GET {base}/v2/burn/USDC/fees/{sourceDomainId}/{destDomainId} answers a JSON array of
`{"finalityThreshold": <int>, "minimumFee": <number, basis points, may be fractional>}`, for example
`[{"finalityThreshold": 1000, "minimumFee": 1}, {"finalityThreshold": 2000, "minimumFee": 0}]`
(developers.circle.com/cctp/howtos/get-transfer-fee and the API reference
developers.circle.com/api-reference/cctp/all/get-burn-usdc-fees: "The fee is returned in basis points
(1 = 0.01%)"). Hosts: https://iris-api.circle.com (mainnet), https://iris-api-sandbox.circle.com (testnet).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx

from engine.encoders import CCTP_FINALITY_STANDARD, cctp_v2_max_fee
from watchers.upstreams.quote_errors import RouteUnavailable, SourceUnavailable
from watchers.upstreams.quote_http import get_json, upstream_message

__all__ = ["IRIS_API_URL", "CctpFee", "CctpFeeClient", "CctpFeeSettings", "CctpFees"]

# Circle's mainnet Iris host (developers.circle.com/stablecoins/cctp-apis, "Mainnet").
IRIS_API_URL = "https://iris-api.circle.com"
SOURCE = "cctp-fees"


@dataclass(frozen=True, slots=True)
class CctpFeeSettings:
    """Where Iris is and how long one fee quote may take (seconds, trio.fail_after)."""

    base_url: str = IRIS_API_URL
    timeout: float = 10.0


@dataclass(frozen=True, slots=True)
class CctpFee:
    """Circle's minimum fee, in basis points (exact), for burns at `finality_threshold`."""

    finality_threshold: int
    minimum_fee_bps: Decimal

    def max_fee(self, amount: int) -> int:
        """The maxFee (raw USDC units) covering this fee on raw `amount`, rounded up."""
        return cctp_v2_max_fee(amount, self.minimum_fee_bps)


@dataclass(frozen=True, slots=True)
class CctpFees:
    """The fees of one route (CCTP source and destination domains), one entry per finality threshold."""

    source_domain: int
    destination_domain: int
    fees: tuple[CctpFee, ...]

    def fee(self, finality_threshold: int = CCTP_FINALITY_STANDARD) -> CctpFee:
        """The entry for `finality_threshold` (standard by default). Raises RouteUnavailable when Circle
        lists none for it (for example no Fast Transfer from an instant-finality chain)."""
        for fee in self.fees:
            if fee.finality_threshold == finality_threshold:
                return fee
        raise RouteUnavailable(
            SOURCE,
            f"Circle lists no fee for finality {finality_threshold} from domain {self.source_domain} "
            f"to domain {self.destination_domain}",
        )

    def max_fee(self, amount: int, finality_threshold: int = CCTP_FINALITY_STANDARD) -> int:
        """depositForBurn's maxFee for raw `amount` at `finality_threshold`. Raises RouteUnavailable as fee()."""
        return self.fee(finality_threshold).max_fee(amount)


class CctpFeeClient:
    """Asks Circle's Iris API for CCTP V2 fees through an httpx.AsyncClient the caller owns."""

    def __init__(self, http: httpx.AsyncClient, settings: CctpFeeSettings | None = None) -> None:
        self.settings = settings or CctpFeeSettings()
        self._http = http

    @classmethod
    @asynccontextmanager
    async def open(
        cls, settings: CctpFeeSettings | None = None, *, transport: httpx.AsyncBaseTransport | None = None
    ) -> AsyncIterator[CctpFeeClient]:
        """Own one httpx.AsyncClient for the block; `transport` replaces the network (tests)."""
        async with httpx.AsyncClient(transport=transport, timeout=None) as http:
            yield cls(http, settings)

    async def fees(self, source_domain: int, destination_domain: int) -> CctpFees:
        """The fees of burning USDC on CCTP domain `source_domain` for minting on `destination_domain`.

        Raises RouteUnavailable when Iris answers 4xx (unknown domain or route; its message) or lists no fee,
        SourceUnavailable when it cannot be reached in time, answers 5xx/429 or not its documented shape,
        and ValueError for a domain that is not a non-negative integer.
        """
        for name, domain in (("source_domain", source_domain), ("destination_domain", destination_domain)):
            if not isinstance(domain, int) or isinstance(domain, bool) or domain < 0:
                raise ValueError(f"{name} must be a CCTP domain id (non-negative integer), got {domain!r}")
        url = f"{self.settings.base_url.rstrip('/')}/v2/burn/USDC/fees/{source_domain}/{destination_domain}"
        answer = await get_json(self._http, url, source=SOURCE, time_limit=self.settings.timeout)
        if not answer.ok:
            raise RouteUnavailable(SOURCE, upstream_message(answer.body), status=answer.status)
        try:
            fees = tuple(_fee(entry) for entry in _entries(answer.body))
        except (KeyError, TypeError, ValueError) as error:
            raise SourceUnavailable(SOURCE, f"fees answer is not the documented shape: {error}") from None
        if not fees:
            raise RouteUnavailable(
                SOURCE, f"Circle lists no fees from domain {source_domain} to domain {destination_domain}"
            )
        return CctpFees(source_domain, destination_domain, fees)


def _entries(body: Any) -> list[Any]:
    if not isinstance(body, list):
        raise TypeError("the body is not a JSON array")
    return body


def _fee(entry: Any) -> CctpFee:
    if not isinstance(entry, dict):
        raise TypeError(f"entry is not an object: {entry!r}")
    threshold, fee = entry["finalityThreshold"], entry["minimumFee"]
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
        raise ValueError(f"finalityThreshold is not a non-negative integer: {threshold!r}")
    # JSON numbers arrive as int or Decimal (never float: see quote_http.get_json).
    if not isinstance(fee, int | Decimal) or isinstance(fee, bool) or not Decimal(fee).is_finite() or fee < 0:
        raise ValueError(f"minimumFee is not a non-negative number of basis points: {fee!r}")
    return CctpFee(finality_threshold=threshold, minimum_fee_bps=Decimal(fee))
