"""Initial schema: games, game_log, game_players, chat_settings.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUTO_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
ACTIVE = sa.text("status IN ('lobby', 'running')")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", AUTO_ID, autoincrement=True, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("ruleset", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("creator_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.String(length=16), nullable=True),
        sa.Column("timer_seq", sa.Integer(), nullable=True),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ui", sa.JSON(), nullable=False),
        sa.Column("log_len", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_games_chat_id"), "games", ["chat_id"], unique=False)
    op.create_index(
        "uq_games_active_chat",
        "games",
        ["chat_id"],
        unique=True,
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )

    op.create_table(
        "game_log",
        sa.Column("id", AUTO_ID, autoincrement=True, nullable=False),
        sa.Column("game_id", AUTO_ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_log_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_log")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_game_log_game_id_seq")),
        sqlite_autoincrement=True,
    )

    op.create_table(
        "game_players",
        sa.Column("game_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_game_players")),
    )
    op.create_index(op.f("ix_game_players_user_id"), "game_players", ["user_id"], unique=False)

    op.create_table(
        "chat_settings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_chat_settings")),
    )


def downgrade() -> None:
    op.drop_table("chat_settings")
    op.drop_index(op.f("ix_game_players_user_id"), table_name="game_players")
    op.drop_table("game_players")
    op.drop_table("game_log")
    op.drop_index(
        "uq_games_active_chat", table_name="games", sqlite_where=ACTIVE, postgresql_where=ACTIVE
    )
    op.drop_index(op.f("ix_games_chat_id"), table_name="games")
    op.drop_table("games")
