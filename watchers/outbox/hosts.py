"""A resolver with an operator's fixed host table in front of another resolver (the system's), so devnet
and end-to-end tests can name a receiver that DNS does not know. The send-time address check still
applies to what the table says."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

import trio

from watchers.webhooks import Resolver
from watchers.webhooks.addresses import IPAddress


class HostsResolver:
    """Names in `table` (host -> comma-separated addresses) resolve there; every other name goes to
    `fallback`. Names match case-insensitively without a trailing dot."""

    def __init__(self, table: Mapping[str, str], fallback: Resolver) -> None:
        self._table = {
            host.lower().removesuffix("."): [
                ipaddress.ip_address(part.strip()) for part in addresses.split(",") if part.strip()
            ]
            for host, addresses in table.items()
        }
        self._fallback = fallback

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        """The table's addresses for `host`, else the fallback's answer; raises ResolveError."""
        listed = self._table.get(host.lower().removesuffix("."))
        if listed is not None:
            await trio.lowlevel.checkpoint()
            return list(listed)
        return await self._fallback.resolve(host, port)
