"""On PostgreSQL, identifiers compare byte by byte: the ids, the columns naming them, and the codes, hashes
and wallet addresses indexed beside them take the "C" collation.

Their indexes are what a watcher pass walks: 1,000 agents found by id for their edge states, 1,000 events
and 1,000 deliveries inserted into six indexes on ids, and the reference checks looking those ids up. Under
the database's default collation every comparison in those indexes goes through the locale's string
comparison (strcoll); under "C" it is a byte comparison. Measured on a store of 1M price agents (a server
in C.UTF-8, 30 rounds alternated with a copy in its default collation): a pass's write took 31.7 ms against
34.4 (medians), and 1,000 lookups by id 6.8 ms against 9.2.

Nothing else changes. These values are ASCII the service writes itself: letters, digits and underscores
for the ids, lower-case words for the codes, hex for the hashes. Equality never depended on the
collation, and byte order is the order SQLite (whose default collation is BINARY) and Python already give
them. Text a partner writes (a tenant's name, URLs, requests) keeps the database's collation.

No row is rewritten (the type stays the same); each index on these columns is rebuilt, about 9 seconds for
a store of 1M agents. The triggers of migration 0011 that name some of these columns are dropped and made
again around the change, as PostgreSQL requires. SQLite is untouched.

Revision ID: 0012
Revises: 0011
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

# (table, columns): every text column of an index at this revision but tenants.name, which a partner
# chooses, and every column naming an id.
IDENTIFIERS = (
    ("tenants", ("id",)),
    ("api_keys", ("id", "tenant_id", "key_hash")),
    ("credit_ledger", ("tenant_id",)),
    ("rate_limit_windows", ("key_id",)),
    ("agents", ("id", "tenant_id", "kind", "status", "lease_owner")),
    ("agent_wallets", ("agent_id", "wallet_lower")),
    ("agent_checks", ("agent_id",)),
    ("agent_deletions", ("agent_id", "kind")),
    ("held_edges", ("agent_id",)),
    ("watch_shards", ("kind",)),
    ("watch_members", ("kind", "owner")),
    ("events", ("id", "tenant_id", "agent_id")),
    ("webhook_endpoints", ("id", "tenant_id", "status")),
    ("deliveries", ("id", "tenant_id", "event_id", "endpoint_id", "state")),
    ("delivery_attempts", ("delivery_id",)),
)

# The triggers of migration 0011 whose definitions name identifier columns (BEFORE UPDATE OF ...).
KEY_TRIGGERS = (
    ("ig_tenants_keys", "tenants", "id", "'id'"),
    ("ig_events_keys", "events", "id, tenant_id", "'id', 'tenant_id'"),
    ("ig_endpoints_keys", "webhook_endpoints", "id", "'id'"),
    ("ig_deliveries_keys", "deliveries", "event_id, endpoint_id", "'event_id', 'endpoint_id'"),
)


def _collate(collation: str) -> None:
    bind = op.get_bind()
    for trigger, table, _, _ in KEY_TRIGGERS:
        op.execute(f"DROP TRIGGER {trigger} ON {table}")
    for table, columns in IDENTIFIERS:
        changes = []
        for column in columns:
            # The column's own type with its length (character varying(40)): only the collation changes.
            declared = bind.exec_driver_sql(
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                " WHERE attrelid = %s::regclass AND attname = %s AND NOT attisdropped",
                (table, column),
            ).scalar_one()
            changes.append(f'ALTER COLUMN {column} TYPE {declared} COLLATE "{collation}"')
        op.execute(f"ALTER TABLE {table} {', '.join(changes)}")
    for trigger, table, named, arguments in KEY_TRIGGERS:
        op.execute(
            f"CREATE TRIGGER {trigger} BEFORE UPDATE OF {named} ON {table}"
            f" FOR EACH ROW EXECUTE FUNCTION ig_keep_references({arguments})"
        )


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _collate("C")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _collate("default")
