"""Tournaments (issue 22): the tournament, its players, its tables (groups) and its games.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUTO_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _tournament_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tournament_id"], ["tournaments.id"], name=op.f(f"fk_{table}_tournament_id_tournaments"),
        ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", AUTO_ID, autoincrement=True, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("preset", sa.String(length=16), nullable=False),
        sa.Column("games_per_player", sa.Integer(), nullable=False),
        sa.Column("scoring", sa.JSON(), nullable=False),
        sa.Column("judges", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("schedule", sa.JSON(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ui", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_tournaments_chat", "tournaments", ["chat_id", "status"], unique=False)

    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        _tournament_fk("tournament_players"),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_players")),
    )
    op.create_index(op.f("ix_tournament_players_user_id"), "tournament_players", ["user_id"],
                    unique=False)

    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("table_no", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        _tournament_fk("tournament_tables"),
        sa.PrimaryKeyConstraint("tournament_id", "table_no", name=op.f("pk_tournament_tables")),
    )
    op.create_index(op.f("ix_tournament_tables_chat_id"), "tournament_tables", ["chat_id"],
                    unique=False)

    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("table_no", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game_id", AUTO_ID, nullable=False),
        sa.Column("substitutes", sa.JSON(), nullable=False),
        _tournament_fk("tournament_games"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_tournament_games_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no",
                                name=op.f("pk_tournament_games")),
    )
    op.create_index(op.f("ix_tournament_games_game_id"), "tournament_games", ["game_id"],
                    unique=False)


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
