"""On PostgreSQL, check the references of events and deliveries once per statement instead of once per row.

A watcher pass records its events and their deliveries in one statement each (a COPY of 1,000 rows). A
foreign key checks every row with its own lookup and row lock: measured on a million stored price agents,
about 12 ms of a pass's 1,000 events and deliveries went to those checks alone. The three foreign keys of
events.tenant_id, deliveries.event_id and deliveries.endpoint_id are replaced by triggers that give the same
guarantees with one lookup per statement:

- an insert of events or deliveries fails (SQLSTATE 23503, foreign_key_violation, as before) unless every
  tenant, event and endpoint it names exists;
- a delete from tenants, events or webhook_endpoints fails while a row it removes is still named by an event
  or a delivery, checked at the end of the statement as a foreign key's NO ACTION is; so does a TRUNCATE
  that leaves such rows behind (truncate the referencing table in the same command);
- those ids, and the columns naming them, never change: an UPDATE that changes one fails.

Concurrency. A foreign key locks each parent row it checks until the transaction ends, so that a delete
cannot slip in between the check and the commit. Here one transaction-level advisory lock does that for the
whole statement: inserts take it shared, deletes take it exclusive before they look for rows still naming
what they removed. In READ COMMITTED (every transaction of the service) each check is its own statement with
a fresh snapshot taken after the lock, so either the insert sees the delete committed and fails, or the
delete waits for the insert to commit, sees its rows and fails. Other isolation levels keep one snapshot for
the whole transaction, which would miss the other side's commit: there an insert locks the parent rows
themselves (FOR KEY SHARE, failing with a serialization error if one changed), and a delete is refused.

The lock's key is (ADVISORY_CLASS, the events table's oid): one per store, so two stores in one database
never wait for each other. SQLite keeps its foreign keys: it checks them cheaply and has no such triggers.

Revision ID: 0011
Revises: 0010
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

# The first half of the advisory lock's two-part key: an arbitrary constant naming these checks.
ADVISORY_CLASS = 730_511

# (constraint name, child table, column, parent table): the foreign keys this revision replaces.
FOREIGN_KEYS = (
    ("events_tenant_id_fkey", "events", "tenant_id", "tenants"),
    ("deliveries_event_id_fkey", "deliveries", "event_id", "events"),
    ("deliveries_endpoint_id_fkey", "deliveries", "endpoint_id", "webhook_endpoints"),
)

LOCK = f"{ADVISORY_CLASS}, 'events'::regclass::oid::int"

# Functions run with the store's schema as their search path, whatever the caller's is. The two checks also
# run without sequential scans: each looks up a statement's ids (a pass's 1,000 events) in a table that only
# grows, and with the statistics of a smaller table the planner scanned all of events for them (12 ms at
# 100,000 events, more with every pass) where the primary key finds them in about 1 ms.
FUNCTIONS = f"""
CREATE FUNCTION ig_check_references() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT SET enable_seqscan = off AS $$
-- AFTER INSERT FOR EACH STATEMENT, new rows as `added`; TG_ARGV: pairs of (column, parent table).
DECLARE
    i int := 0;
    wanted text[];
    found bigint;
    shared boolean := current_setting('transaction_isolation') = 'read committed';
BEGIN
    IF shared THEN
        PERFORM pg_advisory_xact_lock_shared({LOCK});
    END IF;
    WHILE i < TG_NARGS LOOP
        EXECUTE format('SELECT array_agg(DISTINCT %I) FROM added', TG_ARGV[i]) INTO wanted;
        IF shared THEN
            EXECUTE format('SELECT count(*) FROM %I WHERE id = ANY ($1)', TG_ARGV[i + 1])
                INTO found USING wanted;
        ELSE
            EXECUTE format(
                'SELECT count(*) FROM (SELECT 1 FROM %I WHERE id = ANY ($1) FOR KEY SHARE) AS locked',
                TG_ARGV[i + 1]
            ) INTO found USING wanted;
        END IF;
        IF found < coalesce(cardinality(wanted), 0) THEN
            RAISE EXCEPTION 'insert on table "%" violates its reference to "%"', TG_TABLE_NAME, TG_ARGV[i + 1]
                USING ERRCODE = 'foreign_key_violation',
                      DETAIL = format('A value of %s is not an id of %s.', TG_ARGV[i], TG_ARGV[i + 1]);
        END IF;
        i := i + 2;
    END LOOP;
    RETURN NULL;
END $$;

CREATE FUNCTION ig_check_referenced() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT SET enable_seqscan = off AS $$
-- AFTER DELETE FOR EACH STATEMENT, removed rows as `removed`; TG_ARGV: pairs of (child table, column).
DECLARE
    i int := 0;
    gone text[];
    named boolean;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'delete from "%" only in a READ COMMITTED transaction', TG_TABLE_NAME
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Its rows are referenced from other tables, checked per statement (migration 0011).';
    END IF;
    PERFORM pg_advisory_xact_lock({LOCK});
    SELECT array_agg(id) INTO gone FROM removed;
    WHILE i < TG_NARGS LOOP
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I = ANY ($1))', TG_ARGV[i], TG_ARGV[i + 1])
            INTO named USING gone;
        IF named THEN
            RAISE EXCEPTION 'delete on table "%" violates the reference from "%"', TG_TABLE_NAME, TG_ARGV[i]
                USING ERRCODE = 'foreign_key_violation',
                      DETAIL = format('A removed id is still named by %s.%s.', TG_ARGV[i], TG_ARGV[i + 1]);
        END IF;
        i := i + 2;
    END LOOP;
    RETURN NULL;
END $$;

CREATE FUNCTION ig_check_truncated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
-- AFTER TRUNCATE (after every table of the command is emptied); TG_ARGV: the referencing tables.
DECLARE
    child text;
    named boolean;
BEGIN
    FOREACH child IN ARRAY TG_ARGV LOOP
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', child) INTO named;
        IF named THEN
            RAISE EXCEPTION 'truncate of table "%" leaves rows of "%" naming it', TG_TABLE_NAME, child
                USING ERRCODE = 'foreign_key_violation', HINT = format('Truncate %s in the same command.', child);
        END IF;
    END LOOP;
    RETURN NULL;
END $$;

CREATE FUNCTION ig_keep_references() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
-- BEFORE UPDATE OF the columns in TG_ARGV FOR EACH ROW: none of them may change.
DECLARE
    col text;
BEGIN
    FOREACH col IN ARRAY TG_ARGV LOOP
        IF to_jsonb(NEW) -> col IS DISTINCT FROM to_jsonb(OLD) -> col THEN
            RAISE EXCEPTION 'column "%" of table "%" never changes', col, TG_TABLE_NAME
                USING ERRCODE = 'foreign_key_violation',
                      DETAIL = 'It is an id, or names one, checked per statement (migration 0011).';
        END IF;
    END LOOP;
    RETURN NEW;
END $$;
"""

TRIGGERS = """
CREATE TRIGGER ig_events_references AFTER INSERT ON events REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_references('tenant_id', 'tenants');
CREATE TRIGGER ig_deliveries_references AFTER INSERT ON deliveries REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_references('event_id', 'events', 'endpoint_id', 'webhook_endpoints');

CREATE TRIGGER ig_tenants_referenced AFTER DELETE ON tenants REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_referenced('events', 'tenant_id');
CREATE TRIGGER ig_events_referenced AFTER DELETE ON events REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_referenced('deliveries', 'event_id');
CREATE TRIGGER ig_endpoints_referenced AFTER DELETE ON webhook_endpoints REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_referenced('deliveries', 'endpoint_id');

CREATE TRIGGER ig_tenants_truncated AFTER TRUNCATE ON tenants
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_truncated('events');
CREATE TRIGGER ig_events_truncated AFTER TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_truncated('deliveries');
CREATE TRIGGER ig_endpoints_truncated AFTER TRUNCATE ON webhook_endpoints
    FOR EACH STATEMENT EXECUTE FUNCTION ig_check_truncated('deliveries');

CREATE TRIGGER ig_tenants_keys BEFORE UPDATE OF id ON tenants
    FOR EACH ROW EXECUTE FUNCTION ig_keep_references('id');
CREATE TRIGGER ig_events_keys BEFORE UPDATE OF id, tenant_id ON events
    FOR EACH ROW EXECUTE FUNCTION ig_keep_references('id', 'tenant_id');
CREATE TRIGGER ig_endpoints_keys BEFORE UPDATE OF id ON webhook_endpoints
    FOR EACH ROW EXECUTE FUNCTION ig_keep_references('id');
CREATE TRIGGER ig_deliveries_keys BEFORE UPDATE OF event_id, endpoint_id ON deliveries
    FOR EACH ROW EXECUTE FUNCTION ig_keep_references('event_id', 'endpoint_id');
"""

DROPPED_TRIGGERS = (
    ("ig_events_references", "events"),
    ("ig_deliveries_references", "deliveries"),
    ("ig_tenants_referenced", "tenants"),
    ("ig_events_referenced", "events"),
    ("ig_endpoints_referenced", "webhook_endpoints"),
    ("ig_tenants_truncated", "tenants"),
    ("ig_events_truncated", "events"),
    ("ig_endpoints_truncated", "webhook_endpoints"),
    ("ig_tenants_keys", "tenants"),
    ("ig_events_keys", "events"),
    ("ig_endpoints_keys", "webhook_endpoints"),
    ("ig_deliveries_keys", "deliveries"),
)
DROPPED_FUNCTIONS = ("ig_check_references", "ig_check_referenced", "ig_check_truncated", "ig_keep_references")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTIONS)
    op.execute(TRIGGERS)
    for name, table, _, _ in FOREIGN_KEYS:
        op.drop_constraint(name, table, type_="foreignkey")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, table, column, parent in FOREIGN_KEYS:
        op.create_foreign_key(name, table, parent, [column], ["id"])
    for trigger, table in DROPPED_TRIGGERS:
        op.execute(f"DROP TRIGGER {trigger} ON {table}")
    for function in DROPPED_FUNCTIONS:
        op.execute(f"DROP FUNCTION {function}()")
