"""A webhook endpoint's signing secret can be rotated with an overlap: the secret it replaces keeps signing
beside the new one until `previous_expires_at`, so a receiver that has not switched yet still verifies
every delivery (the signature header then carries two `v1=` entries). Only the previous secret's salt and
hash are kept, as for the current one. All three columns are null when there is no previous secret.

The operator's delivery log lists a tenant's deliveries newest first, page by page: an index on
(tenant_id, created_at, id) serves it without sorting the tenant's whole history.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("webhook_endpoints", sa.Column("previous_secret_hash", sa.String(64), nullable=True))
    op.add_column("webhook_endpoints", sa.Column("previous_salt", sa.String(64), nullable=True))
    op.add_column("webhook_endpoints", sa.Column("previous_expires_at", sa.BigInteger, nullable=True))
    op.create_index("ix_deliveries_tenant_created", "deliveries", ["tenant_id", "created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_deliveries_tenant_created", "deliveries")
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.drop_column("previous_expires_at")
        batch.drop_column("previous_salt")
        batch.drop_column("previous_secret_hash")
