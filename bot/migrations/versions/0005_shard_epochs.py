"""The shards' fencing epochs (issue 19: a worker that lost its shard writes nothing more).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "shard_epochs",
        sa.Column("shard", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("shard", name=op.f("pk_shard_epochs")),
    )


def downgrade() -> None:
    op.drop_table("shard_epochs")
