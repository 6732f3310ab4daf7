"""`intentgate serve --devnet`: the production service, composed from outside around a running devnet.

The devnet starts first (one anvil per EVM chain, the market feed, the Across API); the service's
settings are pointed at it and its chain clients are wrapped by the faucet (devnet.funding); then the
service runs exactly as `intentgate serve` runs it. Production code has no devnet branch: it only takes
the settings and the client layers handed to it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import trio
from quart_trio import QuartTrio

from devnet.mode import demo_defaults, open_devnet
from gateway.service import serve
from gateway.services import Services

log = logging.getLogger("intentgate.devnet")


async def serve_devnet(
    services: Services,
    app: QuartTrio,
    *,
    shutdown: trio.Event,
    say: Callable[[str], None] = log.info,
    task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Start the devnet (`say` gets one line per chain and service), then serve on it until `shutdown`
    is set, as gateway.service.serve does; the devnet stops after everything else.

    Raises DevnetUnavailable when the devnet cannot start.
    """
    settings = services.settings
    async with open_devnet(settings) as devnet:
        for line in devnet.describe():
            say(line)
        services.settings = settings.model_copy(update=demo_defaults(settings) | devnet.overrides())
        try:
            await serve(
                services, app, shutdown=shutdown, say=say, layers=devnet.layers(), task_status=task_status
            )
        finally:
            services.settings = settings
