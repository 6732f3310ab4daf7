"""The baselines of bench/gateway.py: the same /meta JSON from a bare Quart-Trio app and from a raw ASGI
callable, each served by hypercorn's trio worker. Run as `python -m bench._bare_app quart|asgi PORT`."""

import sys

import hypercorn.trio
import trio
from hypercorn.config import Config
from quart import Response
from quart_trio import QuartTrio

from gateway.service import tune_gc_for_serving

BODY = sys.stdin.buffer.read() if not sys.stdin.isatty() else b"{}"


def quart_app() -> QuartTrio:
    app = QuartTrio("bare")

    @app.get("/v1beta/meta")
    async def meta() -> Response:
        return Response(BODY, content_type="application/json")

    return app


async def asgi_app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]}
    )
    await send({"type": "http.response.body", "body": BODY})


def main() -> None:
    kind, port = sys.argv[1], int(sys.argv[2])
    # The same collector tune `intentgate serve` gives itself, so the ratio compares servers, not GC settings.
    tune_gc_for_serving()
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = None
    trio.run(hypercorn.trio.serve, quart_app() if kind == "quart" else asgi_app, config)


if __name__ == "__main__":
    main()
