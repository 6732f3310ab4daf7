"""Agents: the alert agents of every kind, their wallet sets, and the columns the watchers lease and step.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "agents",
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
    )
    # Listing: a tenant's agents newest first, keyset-paginated on (created_at, id).
    op.create_index(
        "ix_agents_tenant_created_id",
        "agents",
        ["tenant_id", sa.text("created_at DESC"), sa.text("id DESC")],
    )
    # The active-agent quota counts a tenant's agents by status.
    op.create_index("ix_agents_tenant_status", "agents", ["tenant_id", "status"])
    # The watchers pick due active agents.
    op.create_index("ix_agents_status_next_check", "agents", ["status", "next_check_at"])
    op.create_table(
        "agent_wallets",
        sa.Column(
            "agent_id", sa.String(40), sa.ForeignKey("agents.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("wallet_lower", sa.String(64), primary_key=True),
    )
    # The `wallet` filter of GET /agents matches case-insensitively on the lowered address.
    op.create_index("ix_agent_wallets_wallet_lower", "agent_wallets", ["wallet_lower", "agent_id"])


def downgrade() -> None:
    op.drop_table("agent_wallets")
    op.drop_table("agents")
