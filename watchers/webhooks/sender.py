"""One webhook delivery attempt over HTTPS, to vetted addresses only (contract: Pushed webhook).

``send_once`` re-checks the URL, resolves the host once, refuses without connecting when ANY address is
not public (unless the operator allowed its network), then connects to a vetted address itself. TLS still
verifies the certificate against the original hostname: the request goes to the IP URL with the ``Host``
header and the SNI name (httpcore's ``sni_hostname`` extension) set to the hostname, and the SSL context
must have ``check_hostname`` on. Redirects are never followed. Retry scheduling belongs to the outbox.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import httpx
import trio

from watchers.webhooks.addresses import NO_ALLOWANCE, AllowedNetworks, IPAddress, is_deliverable
from watchers.webhooks.pool import ConnectionPool
from watchers.webhooks.resolve import ResolveError, Resolver
from watchers.webhooks.signing import sign
from watchers.webhooks.urls import (
    DEFAULT_PORTS,
    LOOPBACK,
    InvalidUrl,
    is_local_host,
    parse_host,
    validate_endpoint_url,
)

# Contract: "The receiver acknowledges with any 2xx within 10 seconds".
DEFAULT_TIMEOUT_SECONDS = 10.0

# How much of a receiver's response body an attempt keeps for diagnosis; the contract ignores the body.
MAX_RESPONSE_BODY_BYTES = 1024

# Contract: Pushed webhook headers.
EVENT_ID_HEADER = "X-Service-Event-Id"
SIGNATURE_HEADER = "X-Service-Signature"
USER_AGENT = "intentgate-webhooks/1"

Outcome = Literal["delivered", "failed"]

# Machine-readable reasons a failed attempt carries in ``Attempt.failure``.
FAILURE_INVALID_URL = "invalid_url"  # the stored URL no longer passes the URL rules
FAILURE_RESOLVE = "resolve"  # the host has no address, or the resolver failed
FAILURE_REFUSED_ADDRESS = "refused_address"  # an address is not public; no connection was made
FAILURE_CONNECT = "connect"  # no TCP connection to any vetted address
FAILURE_TLS = "tls"  # TLS handshake or certificate verification failed
FAILURE_TRANSPORT = "transport"  # the connection broke while sending or reading
FAILURE_TIMEOUT = "timeout"  # no answer within the per-attempt deadline
FAILURE_REDIRECT = "redirect"  # a 3xx answer; redirects are never followed
FAILURE_HTTP_STATUS = "http_status"  # any other non-2xx answer


@dataclass(frozen=True)
class Attempt:
    """What one delivery attempt did; ``failure`` and ``error`` are None exactly when it was delivered.

    ``status_code`` is the receiver's HTTP status when one arrived; ``latency_ms`` runs from the start of
    the attempt to its end on the injected clock; ``response_body`` is at most the first 1 KiB of the
    answer (UTF-8, undecodable bytes replaced); ``failure`` is one of the FAILURE_* codes; ``address`` is
    the vetted IP address last connected to, None when no connection was tried.
    """

    outcome: Outcome
    status_code: int | None
    latency_ms: int
    error: str | None
    response_body: str | None
    failure: str | None
    address: str | None


@dataclass
class _Progress:
    """What an attempt got before its deadline, so a timeout still reports what was reached."""

    stage: str = "resolving the host"
    address: str | None = None
    status_code: int | None = None
    body: bytearray = dataclasses.field(default_factory=bytearray)


@functools.lru_cache(maxsize=8)
def make_ssl_context(ca_bundle: str | None = None) -> ssl.SSLContext:
    """Return a verifying client SSL context: the CA bundle file given, or httpx's default trust store.

    Contexts are cached per bundle path because loading a bundle is slow and every attempt needs one.
    """
    if ca_bundle is not None:
        return ssl.create_default_context(cafile=ca_bundle)
    return httpx.create_ssl_context(trust_env=False)


async def send_once(
    endpoint_url: str,
    event_id: str,
    raw_body: bytes,
    secret: str,
    *,
    resolver: Resolver,
    allow_networks: AllowedNetworks = NO_ALLOWANCE,
    ssl_context: ssl.SSLContext | None = None,
    ca_bundle: str | None = None,
    # The deadline is a parameter, not the caller's cancel scope, because running out of time is an
    # outcome the attempt must report (with how far it got), not an exception that loses the attempt.
    timeout: float = DEFAULT_TIMEOUT_SECONDS,  # noqa: ASYNC109
    clock: Callable[[], float] = trio.current_time,
    wall_clock: Callable[[], float] = time.time,
    pool: ConnectionPool | None = None,
    local_receivers: bool = False,
    also_signed_by: Sequence[str] = (),
) -> Attempt:
    """POST ``raw_body`` once to ``endpoint_url``, signed with ``secret`` (and with each secret of
    ``also_signed_by``, a rotated-out secret still signing); never raises for delivery problems.

    Delivered means a 2xx status within ``timeout`` seconds (resolution, connection and TLS included).
    Everything else is a failed Attempt saying why. ``clock`` measures latency (trio's clock, so tests run on
    virtual time); ``wall_clock`` gives the unix time signed into the header. With ``pool`` (whose SSL
    context is then the one used), connections to the vetted address of this hostname are kept alive
    between attempts. ``local_receivers`` (the devnet's) admits a receiver on this machine over http, or
    over https with its certificate unverified (a local receiver's is self-signed; the body is signed
    all the same). Raises ValueError when the SSL context does not verify certificates and hostnames.
    """
    context = ssl_context if ssl_context is not None else make_ssl_context(ca_bundle)
    if context.verify_mode != ssl.CERT_REQUIRED or not context.check_hostname:
        raise ValueError("webhook delivery needs an SSL context that verifies certificates and hostnames")
    started = clock()
    progress = _Progress()
    attempt: Attempt | None = None
    with trio.move_on_after(timeout):
        attempt = await _deliver(
            endpoint_url,
            event_id,
            raw_body,
            (secret, *also_signed_by),
            resolver,
            allow_networks,
            context,
            wall_clock,
            progress,
            pool,
            local_receivers,
        )
    latency_ms = round((clock() - started) * 1000)
    if attempt is None:
        attempt = _timed_out(progress, timeout)
    return dataclasses.replace(attempt, latency_ms=latency_ms, address=progress.address)


async def _deliver(
    endpoint_url: str,
    event_id: str,
    raw_body: bytes,
    secrets: Sequence[str],
    resolver: Resolver,
    allow_networks: AllowedNetworks,
    context: ssl.SSLContext,
    wall_clock: Callable[[], float],
    progress: _Progress,
    pool: ConnectionPool | None = None,
    local_receivers: bool = False,
) -> Attempt:
    try:
        url = httpx.URL(
            validate_endpoint_url(
                endpoint_url, allow_networks=allow_networks, local_receivers=local_receivers
            )
        )
    except InvalidUrl as exc:
        return _failed(FAILURE_INVALID_URL, f"the endpoint URL is refused: {exc.message}")
    # raw_host is the ASCII (IDNA) form the rules checked; url.host would be the Unicode form.
    host = url.raw_host.decode("ascii")
    port = url.port or DEFAULT_PORTS[url.scheme]
    name, literal = parse_host(f"[{host}]" if ":" in host else host)
    local = local_receivers and is_local_host(name, literal)
    if local:  # on this machine: only its loopback addresses, never pooled, a local certificate unverified
        allow_networks, context, pool = LOOPBACK, _local_tls(), None
    if literal is not None:
        addresses: list[IPAddress] = [literal]
    else:
        try:
            addresses = await resolver.resolve(host, port)
        except ResolveError as exc:
            return _failed(FAILURE_RESOLVE, str(exc))
    refused = [address for address in addresses if not is_deliverable(address, allow_networks)]
    if refused or not addresses:
        listed = ", ".join(str(address) for address in refused) or "nothing"
        return _failed(
            FAILURE_REFUSED_ADDRESS,
            f"{host} resolves to {listed}, which is not a public address; no connection was made",
        )
    headers = {
        "Host": url.netloc.decode("ascii"),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Accept-Encoding": "identity",
        EVENT_ID_HEADER: event_id,
        SIGNATURE_HEADER: sign(secrets[0], int(wall_clock()), raw_body, secrets[1:]),
    }
    last_error = _failed(FAILURE_CONNECT, f"{host} has no address to connect to")
    for address in addresses:
        progress.stage = f"connecting to {address}"
        progress.address = str(address)
        target = url.copy_with(host=str(address))
        try:
            async with contextlib.AsyncExitStack() as stack:
                if pool is not None:  # kept alive for this hostname at this vetted address only
                    client = await stack.enter_async_context(pool.connection(host, port, str(address)))
                else:  # one client per attempt: nothing outlives it
                    client = await stack.enter_async_context(_client(context))
                return await _post(client, target, host, headers, raw_body, progress)
        except httpx.ConnectError as exc:
            last_error = _describe(exc, address)
            # A TLS failure is the receiver's answer, not an unreachable address: stop there.
            if last_error.failure == FAILURE_TLS:
                return last_error
        except httpx.TransportError as exc:
            return _describe(exc, address)
    return last_error


@functools.cache
def _local_tls() -> ssl.SSLContext:
    """TLS to a receiver on this machine (local receivers only): encrypted, certificate not verified."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _client(context: ssl.SSLContext) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        verify=context, trust_env=False, follow_redirects=False, timeout=httpx.Timeout(None)
    )


async def _post(
    client: httpx.AsyncClient,
    target: httpx.URL,
    sni_hostname: str,
    headers: dict[str, str],
    raw_body: bytes,
    progress: _Progress,
) -> Attempt:
    request = client.build_request(
        "POST", target, content=raw_body, headers=headers, extensions={"sni_hostname": sni_hostname}
    )
    progress.stage = "waiting for the response"
    response = await client.send(request, stream=True)
    try:
        progress.status_code = response.status_code
        progress.stage = "reading the response body"
        # The status decides the outcome; a body that breaks off only shortens what is kept of it.
        with contextlib.suppress(httpx.TransportError):
            await _read_bounded(response, progress.body)
    finally:
        await response.aclose()
    return _judge(response.status_code, progress.body, response.headers.get("location"))


async def _read_bounded(response: httpx.Response, body: bytearray) -> None:
    """Append at most MAX_RESPONSE_BODY_BYTES of the raw body to ``body``, then stop reading."""
    with trio.CancelScope() as enough:
        async for chunk in response.aiter_raw():
            body += chunk[: max(0, MAX_RESPONSE_BODY_BYTES - len(body))]
            if len(body) >= MAX_RESPONSE_BODY_BYTES:
                # Stop by cancelling the next read rather than breaking out of the loop: a break would
                # leave httpx's nested stream generators suspended, to be finalized by the garbage
                # collector; the cancellation unwinds them all now.
                enough.cancel()


def _judge(status_code: int, body: bytes | bytearray, location: str | None) -> Attempt:
    text = bytes(body).decode("utf-8", errors="replace")
    if 200 <= status_code < 300:
        return Attempt("delivered", status_code, 0, None, text, None, None)
    if 300 <= status_code < 400:
        where = f" to {location!r}" if location else ""
        reason = f"the receiver answered {status_code}, a redirect{where}; redirects are never followed"
        return Attempt("failed", status_code, 0, reason, text, FAILURE_REDIRECT, None)
    reason = f"the receiver answered {status_code}, not a 2xx status"
    return Attempt("failed", status_code, 0, reason, text, FAILURE_HTTP_STATUS, None)


def _describe(exc: httpx.TransportError, address: IPAddress) -> Attempt:
    cause = _root_cause(exc)
    if isinstance(cause, ssl.SSLCertVerificationError):
        detail = cause.verify_message or str(cause)
        return _failed(FAILURE_TLS, f"TLS certificate verification failed at {address}: {detail}")
    if isinstance(cause, ssl.SSLError):
        return _failed(FAILURE_TLS, f"TLS handshake with {address} failed: {cause.reason or cause}")
    detail = str(cause) or type(cause).__name__
    if isinstance(exc, httpx.ConnectError):
        return _failed(FAILURE_CONNECT, f"cannot connect to {address}: {detail}")
    return _failed(FAILURE_TRANSPORT, f"the connection to {address} broke: {detail}")


def _root_cause(exc: BaseException) -> BaseException:
    """Follow the exception chain down to the error that started it (httpx wraps httpcore wraps trio)."""
    seen: set[int] = set()
    while id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ssl.SSLError):
            return exc
        nested = exc.__cause__ or exc.__context__
        if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            # trio's "all attempts to connect failed" groups one error per address tried.
            nested = exc.exceptions[0]
        if nested is None:
            break
        exc = nested
    return exc


def _failed(failure: str, error: str) -> Attempt:
    return Attempt("failed", None, 0, error, None, failure, None)


def _timed_out(progress: _Progress, timeout: float) -> Attempt:
    if progress.status_code is not None:
        # The status line arrived in time; only the body, which the contract ignores, was slow.
        return _judge(progress.status_code, progress.body, None)
    error = f"no answer within {timeout:g} s (timed out while {progress.stage})"
    return _failed(FAILURE_TIMEOUT, error)
