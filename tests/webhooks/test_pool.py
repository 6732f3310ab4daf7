"""Keep-alive reuse in webhook delivery: one connection carries several deliveries to the same hostname at
its vetted address, and a host that later resolves to a private address is refused even with a warm pool."""

from __future__ import annotations

import ssl

import h11
import trio
import trustme

from tests.webhooks.test_sender import BODY, EVENT_ID, LOOPBACK_ALLOWED, SECRET
from watchers.webhooks import AllowedNetworks, Attempt, ConnectionPool, StaticResolver, send_once

HOST = "keepalive.test"


class KeepAliveReceiver:
    def __init__(self) -> None:
        self.connections = 0
        self.requests = 0
        self.port = 0

    async def serve(self, stream: trio.SSLStream[trio.SocketStream]) -> None:
        self.connections += 1
        conn = h11.Connection(h11.SERVER)
        try:
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    data = await stream.receive_some(65536)
                    if not data:
                        return
                    conn.receive_data(data)
                elif isinstance(event, h11.EndOfMessage):
                    self.requests += 1
                    await stream.send_all(
                        conn.send(h11.Response(status_code=200, headers=[("content-length", "2")]))
                    )
                    await stream.send_all(conn.send(h11.Data(data=b"ok")) + conn.send(h11.EndOfMessage()))
                    conn.start_next_cycle()
                elif isinstance(event, h11.ConnectionClosed):
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError, h11.RemoteProtocolError):
            return
        finally:
            await trio.aclose_forcefully(stream)


async def start(nursery: trio.Nursery, ca: trustme.CA) -> KeepAliveReceiver:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(HOST).configure_cert(context)
    listeners = await trio.open_ssl_over_tcp_listeners(0, context, host="127.0.0.1", https_compatible=True)
    receiver = KeepAliveReceiver()
    receiver.port = listeners[0].transport_listener.socket.getsockname()[1]
    await nursery.start(trio.serve_listeners, receiver.serve, listeners)
    return receiver


async def send(
    url: str,
    pool: ConnectionPool,
    client_context: ssl.SSLContext,
    allow: AllowedNetworks = LOOPBACK_ALLOWED,
) -> Attempt:
    return await send_once(
        url,
        EVENT_ID,
        BODY,
        SECRET,
        resolver=StaticResolver({HOST: ["127.0.0.1"]}),
        allow_networks=allow,
        ssl_context=client_context,
        pool=pool,
    )


async def test_deliveries_to_one_host_share_kept_alive_connections(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    pool = ConnectionPool(client_context)
    async with trio.open_nursery() as nursery:
        receiver = await start(nursery, ca)
        url = f"https://{HOST}:{receiver.port}/hook"
        attempts = [await send(url, pool, client_context) for _ in range(3)]
        sequential = receiver.connections

        async def deliver() -> None:
            attempts.append(await send(url, pool, client_context))

        # Two waves of four at once: each attempt borrows a connection of its own and gives it back, so
        # the first wave opens three beside the idle one and the second opens none.
        for _ in range(2):
            async with trio.open_nursery() as wave:
                for _ in range(4):
                    wave.start_soon(deliver)
        await pool.aclose()
        nursery.cancel_scope.cancel()
    assert [a.outcome for a in attempts] == ["delivered"] * 11
    assert sequential == 1
    assert receiver.requests == 11 and receiver.connections == 4


async def test_a_warm_pool_never_skips_vetting_the_addresses_of_this_attempt(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    pool = ConnectionPool(client_context)
    async with trio.open_nursery() as nursery:
        receiver = await start(nursery, ca)
        url = f"https://{HOST}:{receiver.port}/hook"
        warm = await send(url, pool, client_context)
        # The name now resolves to the same loopback address, but the allowance is off: refused, no request.
        rebound = await send(url, pool, client_context, AllowedNetworks.parse([]))
        await pool.aclose()
        nursery.cancel_scope.cancel()
    assert warm.outcome == "delivered"
    assert rebound.outcome == "failed" and rebound.failure == "refused_address"
    assert receiver.requests == 1
