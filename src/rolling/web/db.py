"""Opening the database: an SQLAlchemy engine for a URL, tuned for SQLite, and the schema brought
up to date by Alembic (``upgrade head``) before the first request.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit reaches the operating system before
the call returns, so killing the server (even ``kill -9``) loses no committed action; only a power
cut could lose the last commits, which is the price of fast commits.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from rolling.core.errors import UsageError

MIGRATIONS = Path(__file__).with_name("migrations")


def _one_line(e: BaseException) -> str:
    text = str(getattr(e, "orig", None) or e).strip().splitlines()
    return text[0] if text else type(e).__name__


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (``sqlite:///file.db``, ``postgresql+psycopg://user@host/db``).

    Raises:
        UsageError: the URL cannot be read, names a driver that is not installed, or an SQLite file
            whose folder does not exist (one line, for ``rolling serve --db``).
    """
    try:
        u = make_url(url)
    except ArgumentError:
        raise UsageError(f"--db {url!r} is not a database URL (use sqlite:///FILE.db or postgresql+psycopg://...)") from None
    kwargs: dict = {}
    if u.get_backend_name() == "sqlite":
        db = u.database or ""
        if db and db != ":memory:" and not db.startswith("file:"):
            folder = Path(db).expanduser().resolve().parent
            if not folder.is_dir():
                raise UsageError(f"--db {url!r}: the folder {folder} does not exist")
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    elif u.get_backend_name() == "postgresql":
        kwargs["pool_size"] = 10
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(u, **kwargs)
    except (NoSuchModuleError, ImportError) as e:
        raise UsageError(f"--db {url!r}: {_one_line(e)}") from None
    except (ArgumentError, TypeError) as e:
        raise UsageError(f"--db {url!r}: {_one_line(e)}") from None
    if u.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # WAL lets readers go on while a commit is written; NORMAL syncs at checkpoints only (see the
    # module docstring for why that is safe against a killed process)
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def hold_sqlite(url: str):
    """Make this process the only server of an SQLite database (issue 30): an exclusive lock
    (``flock``) on ``FILE.db.serve-lock`` beside it, held while the returned file stays open (the
    operating system lets it go when the process ends, even by ``kill -9``). Several processes on
    one SQLite file would each trust their own cached games: only PostgreSQL is shared safely.
    Returns None for a URL that is not an SQLite file (PostgreSQL, ``:memory:``) or where ``flock``
    does not exist (Windows).

    Raises:
        UsageError: another process serves that file (one line, saying what to do).
    """
    try:
        import fcntl
    except ImportError:  # (Windows: no flock; SQLite's own locking keeps the file whole)
        return None
    try:
        u = make_url(url)
    except ArgumentError:
        return None
    db = u.database or ""
    if u.get_backend_name() != "sqlite" or not db or db == ":memory:" or db.startswith("file:"):
        return None
    path = Path(db).expanduser().resolve()
    lock_path = path.with_name(path.name + ".serve-lock")
    try:
        handle = lock_path.open("a")
    except OSError as e:
        raise UsageError(f"--db {url!r}: cannot open {lock_path}: {e.strerror or e}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise UsageError(f"{path} is already served by another rolling serve (it holds {lock_path}); "
                         "an SQLite database serves one process: run several on PostgreSQL "
                         "(--db postgresql+psycopg://...)") from None
    return handle


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (``alembic upgrade head``) on ``engine`` (on
    PostgreSQL under an advisory lock: several processes started at once on a new database).

    Raises:
        UsageError: the database cannot be reached or migrated (one line).
    """
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # processes starting together on a new database migrate it once, one after the other
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('rolling:migrations'))"))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except SQLAlchemyError as e:
        raise UsageError(f"cannot open the database {engine.url.render_as_string(hide_password=True)}: {_one_line(e)}") from None


def open_database(url: str) -> Engine:
    """:func:`make_engine` then :func:`upgrade`: a ready database (raises UsageError)."""
    engine = make_engine(url)
    upgrade(engine)
    return engine
