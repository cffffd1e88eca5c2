"""Alembic environment: run with the connection that :func:`rolling.web.db.upgrade` hands over
(``config.attributes["connection"]``), or with ``sqlalchemy.url`` from the config."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from rolling.web.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    """Write the SQL of the migrations instead of running them."""
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the given connection (or one made from the URL)."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
