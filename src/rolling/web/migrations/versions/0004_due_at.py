"""When each game's next automated action is due (``games.due_at``), for the sweeper of
``rolling worker`` (issue 30): a game whose bot, programmed action or phase time limit is due and
whose job was lost (a web process killed between its commit and deferring the job) is found by it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.due_at`` (seconds since the epoch, or NULL: nothing automated is due) and its index.
    Games stored before it have none: ``rolling worker`` looks at every unfinished game once when it
    starts (:func:`rolling.web.tasks.sweep`)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("due_at", sa.Float(), nullable=True))
    op.create_index("ix_games_due_at", "games", ["due_at"])


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("ix_games_due_at", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("due_at")
