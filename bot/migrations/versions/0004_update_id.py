"""The log rows name the Telegram update that applied them (issue 12: an update delivered again
after its worker died is not applied twice).

Revision ID: 0004
Revises: 0003_active_players
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003_active_players"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_log") as batch:
        batch.add_column(sa.Column("update_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_log") as batch:
        batch.drop_column("update_id")
