"""Stream fan-out, the long-lived part of live streams: the per-replica broker that hands each committed
event to the tenant's open streams, the hub that owns it, the PostgreSQL relay that carries events between
replicas (NOTIFY/LISTEN), and the storage reads a stream replays from. The HTTP side (SSE, WebSocket, the
direct-write server) is gateway/streams, which imports this; nothing here imports the gateway."""

from watchers.fanout.broker import Broker, Published, Subscription
from watchers.fanout.hub import Streams, StreamSettings
from watchers.fanout.postgres import PgRelay, channel_for
from watchers.fanout.replay import events_after, resume_point

__all__ = [
    "Broker",
    "PgRelay",
    "Published",
    "StreamSettings",
    "Streams",
    "Subscription",
    "channel_for",
    "events_after",
    "resume_point",
]
