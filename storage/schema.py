"""Table definitions used by the repositories (SQLAlchemy Core). The migrations under migrations/ create
them; a test checks the two agree. On PostgreSQL the identifier columns are in the "C" collation (migration
0012: they compare byte by byte, as on SQLite)."""

import sqlalchemy as sa

metadata = sa.MetaData()

tenants = sa.Table(
    "tenants",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("tier", sa.String(20), nullable=False),
    sa.Column("balance", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

api_keys = sa.Table(
    "api_keys",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("tenant_id", sa.String(40), sa.ForeignKey("tenants.id"), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("prefix", sa.String(16), nullable=False),
    sa.Column("scopes", sa.String(200), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("revoked_at", sa.BigInteger, nullable=True),
)

credit_ledger = sa.Table(
    "credit_ledger",
    metadata,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
    sa.Column("tenant_id", sa.String(40), sa.ForeignKey("tenants.id"), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
)

rate_limit_windows = sa.Table(
    "rate_limit_windows",
    metadata,
    sa.Column("key_id", sa.String(40), primary_key=True),
    sa.Column("window_start", sa.BigInteger, primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
)

# JSON columns hold exact decimals as JSON numbers (simplejson, use_decimal).
agents = sa.Table(
    "agents",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("tenant_id", sa.String(40), sa.ForeignKey("tenants.id"), nullable=False),
    sa.Column("type", sa.String(20), nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
    sa.Column("wallets", sa.Text, nullable=False),
    sa.Column("typed_fields", sa.Text, nullable=False),
    sa.Column("condition", sa.Text, nullable=True),
    sa.Column("request", sa.Text, nullable=True),
    sa.Column("intent", sa.Text, nullable=True),
    sa.Column("rendered", sa.Text, nullable=False),
    sa.Column("fire_headline", sa.Text, nullable=True),
    sa.Column("cadence", sa.String(20), nullable=False),
    sa.Column("last_checked_at", sa.BigInteger, nullable=True),
    sa.Column("edge_state", sa.Text, nullable=True),
    sa.Column("next_check_at", sa.BigInteger, nullable=False),
    sa.Column("lease_owner", sa.String(80), nullable=True),
    sa.Column("lease_until", sa.BigInteger, nullable=True),
    sa.Column("history_reset_at", sa.BigInteger, nullable=True),
    # storage.shards.shard_of(id): the unit a replica leases (migration 0005).
    sa.Column("shard", sa.Integer, nullable=False, server_default="0"),
    # The agent's remedy as JSON text, null when it has none (migration 0006).
    sa.Column("remedy", sa.Text, nullable=True),
)

# Leases by shard (migration 0005): who holds each shard of a kind, until when, and when it last checked
# the shard's agents; the replicas sharing a kind; and tombstones of deleted agents.
watch_shards = sa.Table(
    "watch_shards",
    metadata,
    sa.Column("kind", sa.String(40), primary_key=True),
    sa.Column("shard", sa.Integer, primary_key=True),
    sa.Column("owner", sa.String(80), nullable=True),
    sa.Column("lease_until", sa.BigInteger, nullable=True),
    sa.Column("checked_at", sa.BigInteger, nullable=True),
)

watch_members = sa.Table(
    "watch_members",
    metadata,
    sa.Column("kind", sa.String(40), primary_key=True),
    sa.Column("owner", sa.String(80), primary_key=True),
    sa.Column("seen_until", sa.BigInteger, nullable=False),
)

agent_deletions = sa.Table(
    "agent_deletions",
    metadata,
    sa.Column("agent_id", sa.String(40), primary_key=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("shard", sa.Integer, nullable=False),
    sa.Column("deleted_at", sa.BigInteger, nullable=False),
)

# On SQLite, the edge states a held watcher's pass writes (migration 0009): appended in order, then folded
# into their agents' rows between passes (storage.passes). SQLite's cost is per page a transaction writes,
# and a pass's crossed agents lie about one per page of agents; these rows lie together. `read_at` is the
# agent's updated_at when the pass read it: a row applies only to that version of the agent.
held_edges = sa.Table(
    "held_edges",
    metadata,
    sa.Column(
        "seq", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("agent_id", sa.String(40), nullable=False),
    sa.Column("read_at", sa.BigInteger, nullable=False),
    sa.Column("edge_state", sa.Text, nullable=False),
    sa.Column("checked_at", sa.BigInteger, nullable=False),
)

agent_wallets = sa.Table(
    "agent_wallets",
    metadata,
    sa.Column("agent_id", sa.String(40), sa.ForeignKey("agents.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("wallet_lower", sa.String(64), primary_key=True),
)

# events and their delivery (migration 0003). On PostgreSQL the references of events.tenant_id,
# deliveries.event_id and deliveries.endpoint_id are checked once per statement by triggers, not by these
# foreign keys (migration 0011); SQLite keeps the foreign keys.
events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("tenant_id", sa.String(40), sa.ForeignKey("tenants.id"), nullable=False),
    sa.Column("agent_id", sa.String(60), nullable=False),
    sa.Column("agent_kind", sa.String(40), nullable=False),
    sa.Column("type", sa.String(40), nullable=False),
    sa.Column("trigger", sa.Text, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    # The agent's remedy with its plan, built off the watcher pass after the event fired (migration 0006).
    sa.Column("remedy", sa.Text, nullable=True),
)

webhook_endpoints = sa.Table(
    "webhook_endpoints",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("tenant_id", sa.String(40), sa.ForeignKey("tenants.id"), nullable=False),
    sa.Column("url", sa.String(2048), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("secret_hash", sa.String(64), nullable=False),
    sa.Column("salt", sa.String(64), nullable=False),
    sa.Column("consecutive_dead", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("disabled_at", sa.BigInteger, nullable=True),
    # The secret a rotation replaced, signing beside the new one until it expires (migration 0013).
    sa.Column("previous_secret_hash", sa.String(64), nullable=True),
    sa.Column("previous_salt", sa.String(64), nullable=True),
    sa.Column("previous_expires_at", sa.BigInteger, nullable=True),
)

deliveries = sa.Table(
    "deliveries",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("tenant_id", sa.String(40), nullable=False),
    sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), nullable=False),
    sa.Column("endpoint_id", sa.String(40), sa.ForeignKey("webhook_endpoints.id"), nullable=False),
    sa.Column("state", sa.String(20), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("next_attempt_at", sa.BigInteger, nullable=False),
    sa.Column("lease_owner", sa.String(64), nullable=True),
    sa.Column("lease_until", sa.BigInteger, nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.BigInteger, nullable=False),
    sa.UniqueConstraint("event_id", "endpoint_id", name="uq_deliveries_event_endpoint"),
)

delivery_attempts = sa.Table(
    "delivery_attempts",
    metadata,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
    sa.Column("delivery_id", sa.String(40), sa.ForeignKey("deliveries.id"), nullable=False),
    sa.Column("attempt", sa.Integer, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("outcome", sa.String(20), nullable=False),
    sa.Column("status_code", sa.Integer, nullable=True),
    sa.Column("latency_ms", sa.Integer, nullable=True),
    sa.Column("error", sa.String(500), nullable=True),
    sa.Column("response_body", sa.String(1024), nullable=True),
)
