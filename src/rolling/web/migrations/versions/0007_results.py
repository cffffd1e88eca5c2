"""Each seat's result in a finished game (issue 31: an account's games played and won, read without
replaying the games).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table ``game_results``. Games finished before it have no rows: each gets them the
    first time an account's record counts it (replayed once, then stored), not here, so that the
    upgrade of a large database stays quick and needs no engine."""
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("win", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("game_results")
