"""On SQLite, a log of the edge states held watchers write (storage.schema.held_edges): a pass appends its
crossed agents' states there, a few pages, instead of rewriting one page of agents per crossed agent, and
the log is folded into the agents' rows between passes. Measured on a million stored price agents
(docs/performance.md, Watchers): a transaction's commit with 1,000 edge states written in place took 52 ms,
with them appended 4 ms. PostgreSQL rewrites rows in place at a cost per row, not per page, and does not
use the table.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "held_edges",
        sa.Column(
            "seq", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True
        ),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("agent_id", sa.String(40), nullable=False),
        sa.Column("read_at", sa.BigInteger, nullable=False),
        sa.Column("edge_state", sa.Text, nullable=False),
        sa.Column("checked_at", sa.BigInteger, nullable=False),
    )
    # An agent's logged states, for reads of whole agents between a pass and its fold: a few pages, the
    # log holding about one pass's rows.
    op.create_index("ix_held_edges_agent", "held_edges", ["agent_id", "seq"])


def downgrade() -> None:
    op.drop_table("held_edges")
