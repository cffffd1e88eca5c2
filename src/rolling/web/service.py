"""Games on the server: each one is its record in the database, with a cached live state.

A game is its config, seed and list of actions. The database is the only truth (issue 30): every
change is one transaction guarded by the version this process holds (:func:`.store.claim`), so of
two actions sent at once for one game, to one process or to two, one is applied and the other gets
:class:`StaleVersion`; the cached state counts an action only once it is committed, and no page is
told before. The state is rebuilt by replay when a game is first needed after a start; a process
behind the database catches up by reading only the new rows (:meth:`GameService._catch_up`), told
by PostgreSQL's notifications (:meth:`GameService._listen`). Each game also has an
:class:`asyncio.Lock`, which orders the requests and tasks of one process.

Seats are ``human`` (a token per seat, stored as its SHA-256), a bot's registry name, or
``import`` (the players of an imported game, which nobody plays). Bots act on the server right
after the action that makes it their turn (after ``bot_pace`` seconds, so that people see the moves
go by; with a pace of 0, within the same request). Programmed actions (:mod:`.programs`) and the
time limits of the any-order phases act the same way. A bot's reason for its move (its
``last_reason``) is committed with the move (table ``bot_reasons``, public and full text) and
shown under the move's lines of the log, the same to everyone: its public part while the game goes
on, all of it (the bot's limits, valuations, search statistics) once the game is over
(:func:`rolling.bots.reasons.shown_reason`).

The service runs on the event loop's thread, and its database calls and replays in worker threads
(``asyncio.to_thread``) while the game's lock is held, so that one slow game never stalls the
others and one game's changes stay in order. A state once published in :attr:`Live.state` never
changes (an action is applied to a clone, which replaces it once committed), so pages read it on
the loop while a worker thread works out the next.

:class:`GameService` is a facade over the rooms of the web app, each a module named after what it
holds: :mod:`.store` (the guarded SQL writes), :mod:`.cache` (the games in memory, replay and
catch-up), :mod:`.commands` (validate, store, schedule), :mod:`.automation` (what is due and what
to play: pure functions), :mod:`.driving` (the embedded worker's background tasks),
:mod:`.documents` (what each viewer reads) and :mod:`.fanout` (live pages, LISTEN/NOTIFY).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import sessionmaker

from . import store
from .cache import GameCache
from .commands import Commands
from .documents import Documents
from .driving import Driving
from .errors import Conflict, Forbidden, Illegal, Malformed, NotFound, StaleVersion, UndoRefused, WebError
from .fanout import FanOut, Listener
from .live import BY_BOT, BY_HUMAN, BY_IMPORT, BY_PROGRAM, BY_TIMER, IMPORTED, MAX_CACHED, Live, LogSoFar
from .models import Game
from .settings import Settings

log = logging.getLogger("rolling.web")


class GameService(GameCache, Commands, Driving, Documents, FanOut):
    """Every game of one database, their live states, bots and pages.

    Args:
        engine: the database (schema already upgraded: :func:`rolling.web.db.open_database`).
        bot_pace: seconds between the action that makes it a bot's (or a program's) turn and its
            move; 0 plays them within the request that triggered them.
        start_workers: run the background tasks (paced bots, time limits, resuming after a
            restart); off, only what happens inline happens.
        settings: the server's bounds (:class:`~rolling.web.settings.Settings`): bots' budgets
            are capped by them.
        queue: PostgreSQL only: the automated actions are the task queue's (:mod:`.tasks`), not
            this process's background tasks: ``"defer"`` defers the jobs of the games it changes
            (``rolling serve --no-worker``; ``rolling worker`` runs them), ``"embedded"`` also runs
            a worker in this process (``rolling serve`` on PostgreSQL; with a pace of 0 it still plays
            the bots within the request, as on SQLite); None: no queue (SQLite, and the tests'
            single process). With a queue, ``start_workers`` starts no background task of a game.
    """

    def __init__(self, engine: Engine, bot_pace: float = 0.3, start_workers: bool = True,
                 max_cached: int = MAX_CACHED, settings: Settings | None = None, queue: str | None = None):
        if queue not in (None, "defer", "embedded"):
            raise ValueError(f"queue must be None, 'defer' or 'embedded', not {queue!r}")
        self.engine = engine
        self.settings = settings or Settings()
        self.Session = sessionmaker(engine, expire_on_commit=False)
        self.bot_pace = max(0.0, float(bot_pace))
        self.start_workers = start_workers
        self.cache: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self.max_cached = max_cached
        self.closed = False
        self.sweeper: asyncio.Task | None = None  # ends idle games (:meth:`_end_idle_games`)
        self.origin = store.new_origin()  # this process's name in the notifications it sends
        self.listener: asyncio.Task | None = None  # PostgreSQL LISTEN (:meth:`_listen`)
        self._catching: set[str] = set()  # games with a catch-up task waiting for their lock
        self.queue = queue
        self.jobs: Any = None  # the task queue's side of this process (:class:`.tasks.Jobs`), once started

    # -- start and stop ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for the other processes' changes (PostgreSQL: :meth:`_listen`); resume the games
        whose turn is a bot's, a program's or under a time limit (after a restart)."""
        if self.engine.dialect.name == "postgresql" and self.listener is None:
            self.listener = asyncio.get_running_loop().create_task(self._listen())
        if self.queue is not None:
            from .tasks import Jobs

            jobs = Jobs(self, embedded=self.queue == "embedded")
            await jobs.open()
            self.jobs = jobs
            if self.settings.idle_end_seconds > 0:
                self.sweeper = asyncio.get_running_loop().create_task(self._end_idle_games())
            return
        if not self.start_workers:
            return

        def open_games() -> list[str]:
            with self.engine.connect() as conn:
                return list(conn.execute(select(Game.id).where(Game.over.is_(False), Game.watch_only.is_(False)))
                            .scalars())

        for gid in await asyncio.to_thread(open_games):
            try:
                live = await self.load(gid)
            except WebError:
                continue
            if self._due(live) is not None:
                self._kick(live)
        if self.settings.idle_end_seconds > 0:
            self.sweeper = asyncio.get_running_loop().create_task(self._end_idle_games())

    async def stop(self) -> None:
        """Cancel the background tasks (the database holds everything); stop the embedded worker."""
        self.closed = True
        if self.jobs is not None:
            await self.jobs.close()
        tasks = [live.task for live in self.cache.values() if live.task is not None and not live.task.done()]
        if self.sweeper is not None:
            tasks.append(self.sweeper)
        if self.listener is not None:
            tasks.append(self.listener)
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass



__all__ = ["BY_BOT", "BY_HUMAN", "BY_IMPORT", "BY_PROGRAM", "BY_TIMER", "IMPORTED", "Conflict", "Forbidden",
           "GameService", "Illegal", "Listener", "Live", "LogSoFar", "Malformed", "NotFound", "StaleVersion",
           "UndoRefused", "WebError"]
