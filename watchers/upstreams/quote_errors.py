"""The failures of the upstream sources (prices, yields, Across fees, CCTP fees, Uniswap quotes), in two kinds the planner
treats differently: the upstream is not answering (retry later, 502/503) versus the upstream answered that
this route or amount is not served (plan another route, or tell the user)."""

from __future__ import annotations

from watchers.upstreams.errors import UpstreamError, UpstreamRefused, UpstreamUnavailable

__all__ = ["NoRoute", "QuoteSourceError", "RouteUnavailable", "SourceUnavailable"]


class QuoteSourceError(UpstreamError):
    """A quote source failed; `source` names it (for example "across") and `reason` says why."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class SourceUnavailable(QuoteSourceError, UpstreamUnavailable):
    """The upstream could not be reached, timed out, answered 5xx or 429, or answered something that is not
    its documented response shape. Nothing is known about the route."""


class RouteUnavailable(QuoteSourceError, UpstreamRefused):
    """The upstream answered that it does not serve this route or amount (Across's 4xx such as
    AMOUNT_TOO_LOW or ROUTE_NOT_ENABLED). `code` is the upstream's machine code when it gave one, `status`
    its HTTP status when the answer came over HTTP."""

    def __init__(
        self, source: str, reason: str, *, code: str | None = None, status: int | None = None
    ) -> None:
        super().__init__(source, reason)
        self.code = code
        self.status = status


class NoRoute(RouteUnavailable):
    """No venue could quote the swap at all (every Uniswap fee tier reverted or quoted nothing)."""
