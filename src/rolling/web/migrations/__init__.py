"""Alembic migrations of the web app's database, run by :func:`rolling.web.db.upgrade` on start."""
