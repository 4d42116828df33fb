"""Score sheets of sport games (issue 21): the sheet, its logged changes, the points per player.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUTO_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "score_sheets",
        sa.Column("game_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("judge_id", sa.BigInteger(), nullable=True),
        sa.Column("system", sa.JSON(), nullable=False),
        sa.Column("additional", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("publish_by", sa.DateTime(timezone=True), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("corrections_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ui", sa.JSON(), nullable=False),
        _game_fk("score_sheets"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_score_sheets")),
    )
    op.create_index("ix_score_sheets_due", "score_sheets", ["status", "publish_by"], unique=False)
    op.create_index(op.f("ix_score_sheets_chat_id"), "score_sheets", ["chat_id"], unique=False)

    op.create_table(
        "score_sheet_changes",
        sa.Column("id", AUTO_ID, autoincrement=True, nullable=False),
        sa.Column("game_id", AUTO_ID, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.BigInteger(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        _game_fk("score_sheet_changes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_score_sheet_changes")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_score_sheet_changes_game_id"), "score_sheet_changes", ["game_id"],
                    unique=False)

    op.create_table(
        "player_points",
        sa.Column("game_id", AUTO_ID, autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("team", sa.String(length=16), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("win_points", sa.Float(), nullable=False),
        sa.Column("best_move_points", sa.Float(), nullable=False),
        sa.Column("penalty", sa.Float(), nullable=False),
        sa.Column("additional", sa.Float(), nullable=False),
        sa.Column("total", sa.Float(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("player_points"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_player_points")),
    )
    op.create_index("ix_player_points_chat", "player_points", ["chat_id", "user_id"], unique=False)
    op.create_index("ix_player_points_user", "player_points", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_table("player_points")
    op.drop_table("score_sheet_changes")
    op.drop_table("score_sheets")
