"""Keep-alive connections for webhook delivery, keyed by (hostname, port, vetted address).

Every attempt still resolves the host and vets every address (send_once does it before choosing a client),
so DNS rebinding is defeated exactly as without reuse; a pooled connection is only ever used for requests to
the one hostname it was opened for, at the one address that was vetted for this attempt. Reuse saves the
TCP and TLS handshakes, which dominate the cost of a delivery."""

from __future__ import annotations

import ssl
from collections import OrderedDict

import httpx

# Clients kept at once (least recently used closed beyond it): one per endpoint address in practice.
MAX_CLIENTS = 256
# A kept-alive connection idle this long is closed (receivers often close theirs after 5-60 s).
KEEPALIVE_EXPIRY_S = 30.0


class ConnectionPool:
    """httpx clients per (hostname, port, address); close with aclose()."""

    def __init__(self, context: ssl.SSLContext, *, max_clients: int = MAX_CLIENTS) -> None:
        self._context = context
        self._max = max_clients
        self._clients: OrderedDict[tuple[str, int, str], httpx.AsyncClient] = OrderedDict()

    async def client(self, host: str, port: int, address: str) -> httpx.AsyncClient:
        key = (host.lower(), port, address)
        client = self._clients.get(key)
        if client is not None:
            self._clients.move_to_end(key)
            return client
        client = httpx.AsyncClient(
            verify=self._context,
            trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(None),
            limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY_S),
        )
        self._clients[key] = client
        while len(self._clients) > self._max:
            _, oldest = self._clients.popitem(last=False)
            await oldest.aclose()
        return client

    async def aclose(self) -> None:
        clients, self._clients = list(self._clients.values()), OrderedDict()
        for client in clients:
            await client.aclose()
