"""An agent may carry a remedy: the intents a person may sign when it fires, stored as JSON text with
amounts as strings. Nullable: agents without one (every agent before this revision) answer `remedy: null`.

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


def downgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("remedy")
