"""Name resolution for webhook delivery, behind one injectable seam.

The sender asks a ``Resolver`` for every address of the endpoint's host, vets all of them, then connects to
a vetted address itself: nothing between the check and the connection resolves the name again, so a DNS
answer that changes in between (DNS rebinding) cannot slip a private address past the check.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping, Sequence
from typing import Protocol

import trio

from watchers.webhooks.addresses import IPAddress

# How long the system resolver may take before the attempt fails; the per-attempt deadline bounds it too.
DEFAULT_RESOLVE_TIMEOUT = 5.0


class ResolveError(Exception):
    """The host could not be resolved to any address (unknown name, resolver failure or timeout)."""


class Resolver(Protocol):
    """Turns a host name into the IP addresses a connection to ``(host, port)`` may use."""

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        """Return every address of ``host``, in the resolver's preference order; raises ResolveError."""
        ...


class SystemResolver:
    """The operating system's resolver (``getaddrinfo``) run through trio, with a timeout."""

    def __init__(self, timeout: float = DEFAULT_RESOLVE_TIMEOUT) -> None:
        self.timeout = timeout

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        """Return the distinct addresses of ``host`` for a TCP connection; raises ResolveError."""
        try:
            with trio.fail_after(self.timeout):
                infos = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except trio.TooSlowError as exc:
            raise ResolveError(f"resolving {host} took longer than {self.timeout} s") from exc
        except OSError as exc:
            raise ResolveError(f"cannot resolve {host}: {exc}") from exc
        addresses: list[IPAddress] = []
        for family, _type, _proto, _canon, sockaddr in infos:
            if family not in (socket.AF_INET, socket.AF_INET6):
                continue
            text = str(sockaddr[0])
            # getaddrinfo reports the zone of a link-local IPv6 address as a separate scope id; keep it so
            # the address is recognisably scoped (and refused).
            if family == socket.AF_INET6 and len(sockaddr) >= 4 and sockaddr[3] and "%" not in text:
                text = f"{text}%{sockaddr[3]}"
            address = ipaddress.ip_address(text)
            if address not in addresses:
                addresses.append(address)
        if not addresses:
            raise ResolveError(f"{host} has no IPv4 or IPv6 address")
        return addresses


class StaticResolver:
    """A fixed table of host names to addresses, for tests and ``--devnet`` receivers on loopback.

    Names are matched case-insensitively without a trailing dot; an unknown name raises ResolveError.
    """

    def __init__(self, table: Mapping[str, Sequence[str]]) -> None:
        self._table = {
            _key(host): [ipaddress.ip_address(address) for address in addresses]
            for host, addresses in table.items()
        }

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        """Return the addresses listed for ``host``; raises ResolveError when it is not in the table."""
        await trio.lowlevel.checkpoint()
        try:
            return list(self._table[_key(host)])
        except KeyError:
            raise ResolveError(f"cannot resolve {host}: not in the static table") from None


def _key(host: str) -> str:
    return host.lower().removesuffix(".")
