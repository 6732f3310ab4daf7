"""The one family of errors for every client of the outside world (JSON-RPC, multicall, prices, yields,
Across and CCTP fees, Uniswap quotes, tickers, the model API, fork simulation).

Each client raises its own precise error, and each of those is one of four kinds, which is all a caller
(and gateway.errors' table) needs to decide: the deployment is not configured for the service; the service
did not answer usably (retry later); it answered that it does not serve this (another route, or tell the
user); or it answered an error for the call itself."""

from __future__ import annotations

__all__ = [
    "UpstreamError",
    "UpstreamFailed",
    "UpstreamNotConfigured",
    "UpstreamRefused",
    "UpstreamUnavailable",
]


class UpstreamError(Exception):
    """A failure of an outside service the call needed."""


class UpstreamNotConfigured(UpstreamError):
    """This deployment has no configuration (URL, key, chain) for the service the call needs."""


class UpstreamUnavailable(UpstreamError):
    """The service could not be reached, timed out, answered 5xx or 429, or answered something that is not
    its documented shape: nothing is known, and a retry later may succeed."""


class UpstreamRefused(UpstreamError):
    """The service answered that it does not serve this request (a route, an amount)."""


class UpstreamFailed(UpstreamError):
    """The service answered an error for the call itself (a JSON-RPC error, a failed model answer, an
    execution engine that could not run it)."""
