"""On PostgreSQL, leave a fifth of every agents page free, so that the watchers' writes of an agent's edge
state and check time (columns no index covers) are heap-only updates: the new row version stays on its page
and none of the table's seven indexes is touched. Pages filled to the brim (the default) send each such
update to another page with a new entry in every index. Measured on a million stored price agents
(docs/performance.md, Watchers): a pass's 1,000 edge-state updates went from 34 to 15 ms, all of them
heap-only afterwards. The setting applies to pages written from now on; `VACUUM FULL agents` applies it to
the rows already stored. SQLite has no such setting: nothing to do there.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

FILLFACTOR = 80


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE agents SET (fillfactor = {FILLFACTOR})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE agents RESET (fillfactor)")
