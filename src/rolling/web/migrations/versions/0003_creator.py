"""The creator's token of a game (its SHA-256, like the seats'), which may stop or delete it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.creator_hash`` (games made before it have no creator: nobody may stop them)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("creator_hash")
