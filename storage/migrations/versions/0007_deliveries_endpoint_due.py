"""Deliveries are leased endpoint by endpoint, oldest due first: index them so, with the ids as tie-break,
both finding an endpoint's oldest queued row and taking its next rows read only the rows taken, however
long the endpoint's backlog (a hanging endpoint's grows). It replaces the (endpoint_id, state) index,
which is a prefix of it.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_deliveries_endpoint_due", "deliveries", ["endpoint_id", "state", "next_attempt_at", "id"]
    )
    op.drop_index("ix_deliveries_endpoint", "deliveries")


def downgrade() -> None:
    op.create_index("ix_deliveries_endpoint", "deliveries", ["endpoint_id", "state"])
    op.drop_index("ix_deliveries_endpoint_due", "deliveries")
