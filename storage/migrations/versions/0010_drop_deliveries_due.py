"""Drop the (state, next_attempt_at) index of deliveries: since 0007 every query that leases, counts or
finds due deliveries names the endpoint and is served by ix_deliveries_endpoint_due, and nothing reads
deliveries by state alone. The index still cost an entry for every delivery a watcher pass queues and a
change of it at every attempt's settle. Measured on PostgreSQL (a pass's 1,000 deliveries copied into the
1M-agent bench store, two alternated pairs): 19.4 and 22.0 ms without it against 35.0 and 25.0 ms with it.

Revision ID: 0010
Revises: 0009
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_deliveries_due", "deliveries")


def downgrade() -> None:
    op.create_index("ix_deliveries_due", "deliveries", ["state", "next_attempt_at"])
