"""The guarded writes of the web app: PostgreSQL (or SQLite) is the only truth about a game, and
every change to a game is one transaction that first takes the game's row at the version the
process saw (issue 30).

:func:`claim` is that guard: ``UPDATE games SET version = version + 1 WHERE id = :g AND version =
:seen [AND NOT over] RETURNING version``. No row back means another process (or another task of
this one) changed the game first: the caller rolls back, catches up with the database
(:meth:`rolling.web.service.GameService._catch_up`) and answers 409 (or, for a request that carried
no version of its own, tries once more on the caught-up state). Because the guard is the first
statement of the transaction, the row stays locked until the commit: on PostgreSQL a second writer
waits, then finds the version moved on; on SQLite the first write takes the database's write lock.

:func:`notify` tells the other web processes (PostgreSQL only): ``pg_notify('rolling_games',
'GID:VERSION:ORIGIN')`` in the committing transaction, so a page hears of a change only once it is
stored; ``ORIGIN`` is a random name of the sending process, so that it skips its own changes. No
secret ever goes in a payload (a game id is public: it is in the page's address).
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import Connection, delete, insert, select, text, update

from .models import Game, GameResult

#: the PostgreSQL channel of the games' changes (payload ``GID:VERSION:ORIGIN``)
CHANNEL = "rolling_games"

_T = Game.__table__
_NOTIFY = text("SELECT pg_notify('rolling_games', :payload)")


class Behind(Exception):
    """The game's row is not at the version this process saw: another writer changed it first (or
    deleted it). Nothing was written; the caller catches up and answers 409."""


def new_origin() -> str:
    """A random name for one process's notifications (8 hex digits)."""
    return secrets.token_hex(4)


def claim(conn: Connection, gid: str, seen: int, *, bump: bool = True, open_only: bool = True,
          values: dict[str, Any] | None = None) -> int:
    """Take game ``gid`` at version ``seen`` for this transaction: the guarded update.

    Args:
        conn: a connection inside a transaction (``engine.begin()``).
        gid: the game's id.
        seen: the version of the game this process holds.
        bump: count the change (``version + 1``): actions, undo, stop, a seat handed to a bot. Off
            for what changes no decision (a program set or cancelled): the row is still locked and
            the version still checked.
        open_only: only while ``over`` is false (a game ended or stopped meanwhile takes nothing).
        values: more columns to set in the same statement (``meta``, ``updated``, ...).

    Returns:
        The game's version after the update.

    Raises:
        Behind: no row matched (the version moved on, the game is over, or it was deleted).
    """
    cond = [_T.c.id == gid, _T.c.version == seen]
    if open_only:
        cond.append(_T.c.over.is_(False))
    stmt = (update(_T).where(*cond)
            .values(version=_T.c.version + 1 if bump else _T.c.version, **(values or {}))
            .returning(_T.c.version))
    row = conn.execute(stmt).first()
    if row is None:
        raise Behind(gid)
    return int(row[0])


def lock(conn: Connection, gid: str) -> int:
    """Lock game ``gid``'s row for this transaction whatever its version (a chat line, which does not
    depend on the game's state); its version.

    Raises:
        Behind: the game no longer exists.
    """
    row = conn.execute(update(_T).where(_T.c.id == gid).values(version=_T.c.version)
                       .returning(_T.c.version)).first()
    if row is None:
        raise Behind(gid)
    return int(row[0])


def notify(conn: Connection, gid: str, version: int, origin: str) -> None:
    """Tell the other web processes that game ``gid`` is at ``version`` (PostgreSQL; SQLite has one
    process and nobody to tell). Sent when the transaction commits, never before."""
    if conn.dialect.name == "postgresql":
        conn.execute(_NOTIFY, {"payload": f"{gid}:{version}:{origin}"})


def store_results(conn: Connection, gid: str, standings: list[dict[str, Any]]) -> None:
    """Keep the result of each seat of the finished game ``gid`` (its ``state.standings()``: rows
    ``{"seat", "rank", "score", "win"?}``; ``win`` missing means rank 1), replacing any kept before."""
    conn.execute(delete(GameResult.__table__).where(GameResult.game_id == gid))
    rows = [{"game_id": gid, "seat": int(r["seat"]), "rank": int(r.get("rank", 0)),
             "win": bool(r.get("win", r.get("rank") == 1)), "score": float(r.get("score", 0))} for r in standings]
    if rows:
        conn.execute(insert(GameResult.__table__), rows)


def versions(conn: Connection, gids: list[str]) -> dict[str, int]:
    """The stored versions of the games ``gids`` (a deleted game is missing)."""
    if not gids:
        return {}
    return {r[0]: int(r[1]) for r in conn.execute(select(_T.c.id, _T.c.version).where(_T.c.id.in_(gids)))}


def parse_payload(payload: str) -> tuple[str, int, str] | None:
    """``(gid, version, origin)`` of a notification's payload, or None for a payload not ours."""
    parts = payload.split(":")
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    return parts[0], int(parts[1]), parts[2]


def listen_dsn(url: Any) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...`` →
    ``postgresql://...``) for the LISTEN connection."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)
