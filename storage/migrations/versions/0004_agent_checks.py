"""Agent checks: what the watchers remember about an agent besides its edge state: consecutive failed
checks, whether agent.degraded was emitted, the last failure's reason, and kind-specific samples (the
portfolio value series of a movement window).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "agent_checks",
        sa.Column(
            "agent_id", sa.String(40), sa.ForeignKey("agents.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("degraded_at", sa.BigInteger, nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("samples", sa.Text, nullable=True),
    )
    # The price watcher claims unleased price agents of one kind and renews its own leases.
    op.create_index("ix_agents_kind_lease", "agents", ["kind", "status", "lease_owner"])


def downgrade() -> None:
    op.drop_index("ix_agents_kind_lease", "agents")
    op.drop_table("agent_checks")
