"""An agent may carry a remedy: the intents a person may sign when it fires, stored as JSON text with
amounts as strings; an event of such an agent gets the remedy's plan as built shortly after it fired.
Both nullable: agents without one, and every row before this revision, have none.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("agents", sa.Column("remedy", sa.Text, nullable=True))
    op.add_column("events", sa.Column("remedy", sa.Text, nullable=True))
    # The remedy builder looks every few seconds for the newest events of every tenant.
    op.create_index("ix_events_created", "events", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_events_created", "events")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("remedy")
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("remedy")
