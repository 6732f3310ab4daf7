"""Leases by shard: every agent belongs to one of 256 shards (crc32 of its id), a replica leases whole
shards of a kind instead of renewing a lease on every agent row each pass, and records on the shard when
it last checked them. Replicas announce themselves so each takes an even share of the shards. A deleted
agent leaves a tombstone, so a replica holding it in memory learns of the delete without rereading its
shard.

Revision ID: 0005
Revises: 0004
"""

import zlib

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# Fixed here as storage.shards.SHARDS is at this revision: the shard of a stored agent never changes.
SHARDS = 256
BACKFILL_BATCH = 10_000


def upgrade() -> None:
    op.add_column("agents", sa.Column("shard", sa.Integer, nullable=False, server_default="0"))
    conn = op.get_bind()
    ids = [row[0] for row in conn.execute(sa.text("SELECT id FROM agents"))]
    update = sa.text("UPDATE agents SET shard = :shard WHERE id = :id")
    for start in range(0, len(ids), BACKFILL_BATCH):
        batch = ids[start : start + BACKFILL_BATCH]
        conn.execute(update, [{"id": i, "shard": zlib.crc32(i.encode()) % SHARDS} for i in batch])
    # A replica loads the agents of the shards it gains, and every pass reads what changed since the last.
    op.create_index("ix_agents_kind_shard", "agents", ["kind", "shard"])
    op.create_index("ix_agents_kind_updated", "agents", ["kind", "updated_at"])
    op.create_table(
        "watch_shards",
        sa.Column("kind", sa.String(40), primary_key=True),
        sa.Column("shard", sa.Integer, primary_key=True),
        sa.Column("owner", sa.String(80), nullable=True),
        sa.Column("lease_until", sa.BigInteger, nullable=True),
        sa.Column("checked_at", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "watch_members",
        sa.Column("kind", sa.String(40), primary_key=True),
        sa.Column("owner", sa.String(80), primary_key=True),
        sa.Column("seen_until", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "agent_deletions",
        sa.Column("agent_id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("shard", sa.Integer, nullable=False),
        sa.Column("deleted_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_agent_deletions_kind_deleted", "agent_deletions", ["kind", "deleted_at"])


def downgrade() -> None:
    op.drop_index("ix_agent_deletions_kind_deleted", "agent_deletions")
    op.drop_table("agent_deletions")
    op.drop_table("watch_members")
    op.drop_table("watch_shards")
    op.drop_index("ix_agents_kind_updated", "agents")
    op.drop_index("ix_agents_kind_shard", "agents")
    op.drop_column("agents", "shard")
