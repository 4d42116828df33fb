"""History: game summaries, player results, ratings, role totals, deletions, /nextgame
subscriptions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUTO_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "game_summaries",
        sa.Column("game_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.String(length=256), nullable=False),
        sa.Column("ruleset", sa.String(length=32), nullable=False),
        sa.Column("winner", sa.String(length=16), nullable=True),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("duration", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("game_summaries"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_summaries")),
    )
    op.create_index("ix_game_summaries_history", "game_summaries",
                    ["chat_id", "finished_at", "game_id"], unique=False)

    op.create_table(
        "player_results",
        sa.Column("game_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("team", sa.String(length=16), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("survived", sa.Boolean(), nullable=False),
        sa.Column("fouls", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("player_results"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_player_results")),
    )
    op.create_index("ix_player_results_chat", "player_results", ["chat_id", "user_id"],
                    unique=False)
    op.create_index("ix_player_results_user", "player_results", ["user_id"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("team", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "user_id", "team", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_user", "ratings", ["user_id"], unique=False)

    op.create_table(
        "role_stats",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("team", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("survived", sa.Integer(), nullable=False),
        sa.Column("fouls", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "user_id", "team", "role", name=op.f("pk_role_stats")),
    )
    op.create_index("ix_role_stats_user", "role_stats", ["user_id"], unique=False)

    op.create_table(
        "game_deletions",
        sa.Column("game_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("deleted_by", sa.BigInteger(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("game_deletions"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_deletions")),
    )

    op.create_table(
        "next_game_subscriptions",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("title", sa.String(length=256), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "user_id", name=op.f("pk_next_game_subscriptions")),
    )


def downgrade() -> None:
    op.drop_table("next_game_subscriptions")
    op.drop_table("game_deletions")
    op.drop_index("ix_role_stats_user", table_name="role_stats")
    op.drop_table("role_stats")
    op.drop_index("ix_ratings_user", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_player_results_user", table_name="player_results")
    op.drop_index("ix_player_results_chat", table_name="player_results")
    op.drop_table("player_results")
    op.drop_index("ix_game_summaries_history", table_name="game_summaries")
    op.drop_table("game_summaries")
