"""active_players: a user in at most one lobby or running game, whichever worker joins him
(issue 12). Filled from the players of the active games (a user found in several keeps the
newest, the one ``active_game_for_user`` already answered).

Revision ID: 0003_active_players
Revises: 0002
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_active_players"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUTO_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "active_players",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_id", AUTO_ID, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_active_players_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_active_players")),
    )
    op.create_index(op.f("ix_active_players_game_id"), "active_players", ["game_id"],
                    unique=False)
    op.execute(
        "INSERT INTO active_players (user_id, game_id) "
        "SELECT game_players.user_id, MAX(game_players.game_id) FROM game_players "
        "JOIN games ON games.id = game_players.game_id "
        "WHERE games.status IN ('lobby', 'running') GROUP BY game_players.user_id"
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_active_players_game_id"), table_name="active_players")
    op.drop_table("active_players")
