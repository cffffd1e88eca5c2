"""Tasks and worker: the automated actions of games on PostgreSQL (bots, programmed actions, the
time limits of phases) taken from a task queue in PostgreSQL (procrastinate), by ``rolling worker``
processes or by a worker embedded in ``rolling serve`` (issue 30).

One job, ``rolling.advance(game_id)``, takes what is due in one game now (:mod:`.automation`),
each action one guarded transaction (:meth:`.commands.Commands._commit`), then defers the next job
of the game for when its next action is due. Jobs of one game never run at once (procrastinate's
``lock``: the game's id) and at most one waits in the queue (``queueing_lock``: the game's id, so a
web process deferring a job for a game that already has one waiting does nothing: the waiting job
reads the game when it starts). A job is idempotent: it reads the stored game and plays only what
is due in it, so a duplicate or a retried job does nothing wrong; a move that loses the race with
a person's action (the version moved on) is dropped.

What may be lost between a commit and the deferring of its job (a process killed in between), the
periodic sweeper (every second, in each worker) finds: every game stores when its next automated
action is due (``games.due_at``, written in the transaction of each change), and the sweeper defers
a job for each game whose time has passed. The sweeper also hands back the jobs of a worker killed
mid-job (its heartbeat stopped: procrastinate's stalled jobs), so the game goes on once any worker
runs.

Web processes that run no worker (``rolling serve --no-worker``) only defer jobs (:class:`Jobs`).
A bot's move is seeded by the game, the seat and the action's number
(:func:`.automation.decision_seed`), a bot with memory has it rebuilt from the record before each
decision (:func:`.automation.decision_bot`), and a search bot's budget is measured in its own
thread's CPU time (:mod:`rolling.bots.ismcts`), so it is the same whichever worker makes it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, select, text, update
from sqlalchemy.engine import make_url

from . import automation as A
from . import store
from .errors import WebError
from .models import Game

if TYPE_CHECKING:
    import procrastinate

    from .service import GameService

log = logging.getLogger("rolling.worker")

#: the queue of the games' jobs
QUEUE = "rolling"
#: the task that takes a game's due automated actions
ADVANCE = "rolling.advance"
#: the periodic job of notifications (issue 31)
NOTIFY = "rolling.notify"
#: the most actions one job takes before it makes way for other games' jobs (a bots-only game at
#: a pace of 0 is many jobs, each a turn in the queue)
ACTIONS_PER_JOB = 25
#: a job defers the game's next one when its next action is due within this many seconds; later
#: ones (a phase's time limit) are the sweeper's, so that a waiting job never delays what a
#: person's action makes due sooner
HORIZON = 5.0
#: seconds between two heartbeats of a worker, and after which a silent worker's jobs are handed back
HEARTBEAT = 1.0
STALLED_AFTER = 5.0
#: the most games one sweep defers jobs for (the oldest due first)
SWEEP_BATCH = 1000
#: seconds between two looks at the queue for jobs that became runnable without a notification:
#: those scheduled for later (a bot's pace) and those that waited for the game's previous job
POLL = 0.1
#: jobs one worker process runs at once (games waiting on a bot's thinking, in threads)
CONCURRENCY = 8

_SCHEMA_LOCK = text("SELECT pg_advisory_xact_lock(hashtext('rolling:procrastinate-schema'))")


def ensure_schema(engine: Engine) -> None:
    """Create procrastinate's tables and functions in the database if they are not there yet
    (once: several processes starting together wait on a PostgreSQL advisory lock)."""
    from procrastinate.schema import SchemaManager

    with engine.begin() as conn:
        conn.execute(_SCHEMA_LOCK)
        if conn.execute(text("SELECT to_regclass('procrastinate_jobs')")).scalar() is None:
            with conn.connection.dbapi_connection.cursor() as cur:  # (no parameters: its % are its own)
                cur.execute(SchemaManager.get_schema())


def make_app(db_url: Any, service: GameService | None = None) -> procrastinate.App:
    """The procrastinate app on the database ``db_url`` (a SQLAlchemy PostgreSQL URL); with a
    ``service``, its tasks (the advance job and the periodic sweeper) run on that service's games."""
    import procrastinate

    dsn = store.listen_dsn(make_url(str(db_url)) if not hasattr(db_url, "set") else db_url)
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=dsn, min_size=1, max_size=4))
    if service is None:
        return app

    @app.task(name=ADVANCE, queue=QUEUE)
    async def advance(game_id: str) -> None:
        await play_due(app, service, game_id)

    from .analysis import add_task

    add_task(app, service)  # rolling.analyze: a finished game's analysis (issue 32)

    @app.periodic(cron="* * * * * *", periodic_id="sweep")
    @app.task(name="rolling.sweep", queue=QUEUE, queueing_lock="rolling.sweep")
    async def sweep(timestamp: int) -> None:
        await sweep_due(app, service)

    notifier = make_notifier(service)

    @app.periodic(cron="* * * * * *", periodic_id="notify")
    @app.task(name=NOTIFY, queue=QUEUE, queueing_lock=NOTIFY)
    async def notify(timestamp: int) -> None:
        # issue 31: find the accounts' events and send the due notifications (blocking I/O: a thread)
        await asyncio.to_thread(notifier.run_once)

    return app


def make_notifier(service: GameService) -> Any:
    """The notifier (:class:`rolling.web.notify.Notifier`) of a worker's service: its periodic job
    ``rolling.notify`` finds the accounts' events and sends what is due, every second (issue 31)."""
    from .accounts import Accounts
    from .notify import Notifier

    return Notifier(service.engine, service.settings, Accounts(service.engine, service.settings))


async def defer(app: procrastinate.App, gid: str, at: float | None = None) -> None:
    """Defer the game's advance job (at ``at``, seconds since the epoch; default now). A job of the
    game already waiting makes this one needless (it reads the game when it starts): nothing is
    deferred then. Never raises: a job not deferred is the sweeper's (``games.due_at``)."""
    from procrastinate.exceptions import AlreadyEnqueued

    when = dt.datetime.fromtimestamp(at, dt.UTC) if at is not None and at > time.time() + 0.005 else None
    try:
        await app.configure_task(ADVANCE, lock=gid, queueing_lock=gid, queue=QUEUE,
                                 schedule_at=when).defer_async(game_id=gid)
    except AlreadyEnqueued:
        pass
    except Exception as e:  # the queue's database failed: the sweeper finds the game by its due_at
        log.warning("game %s: deferring its job failed (%s); the sweeper will", gid, e)


async def play_due(app: procrastinate.App, service: GameService, gid: str) -> int:
    """The job ``rolling.advance``: take the automated actions due now in game ``gid`` (at most
    :data:`ACTIONS_PER_JOB`), then defer the next job for the next one, or leave it to the sweeper;
    store when it is due. The number of actions taken."""
    try:
        live = await service.load(gid)
    except WebError:  # deleted, or a record that does not replay (logged where it was read)
        return 0
    taken = 0
    async with live.lock:
        stored = await asyncio.to_thread(_stored, service, gid)
        if stored is None:
            return 0
        if stored.version != live.version or _settings_differ(live, stored):
            # a web process acted (or changed the game's settings, which keeps the version) since
            # this process last heard
            await service._acatch_up(live)
        while taken < ACTIONS_PER_JOB and not service.closed:
            due = A.due(live, service.bot_pace)
            if due is None or due[0] > 0.001:
                break
            version = live.version
            if not await service._astep(live, chosen=await service._think(live)):
                if live.version == version:
                    break  # nothing to do after all (or play stopped); a lost race moved the version
                continue
            taken += 1
        found = A.due_at(live, service.bot_pace)
        when = found[0] if found else None
        await asyncio.to_thread(_store_due, service, gid, live.version, when)
    if found is not None and (taken >= ACTIONS_PER_JOB or when <= time.time() + HORIZON):
        await defer(app, gid, when)
    return taken


def _stored(service: GameService, gid: str) -> Any:
    """The stored game's ``version``, ``meta`` and ``time_limits`` (None: deleted)."""
    t = Game.__table__
    with service.engine.connect() as conn:
        return conn.execute(select(t.c.version, t.c.meta, t.c.time_limits).where(t.c.id == gid)).first()


def _settings_differ(live: Any, stored: Any) -> bool:
    """Whether the stored game's settings (time limits, bot pace: issue 31) are not the cached ones."""
    limits = {str(k): int(v) for k, v in (stored.time_limits or {}).items()}
    return limits != live.time_limits or dict(stored.meta or {}) != live.meta


def _store_due(service: GameService, gid: str, version: int, when: float | None) -> None:
    """Store when game ``gid``'s next automated action is due, unless the game moved on since."""
    t = Game.__table__
    with service.engine.begin() as conn:
        conn.execute(update(t).where(t.c.id == gid, t.c.version == version).values(due_at=when))


async def sweep_due(app: procrastinate.App, service: GameService) -> int:
    """The periodic sweeper: defer a job for each unfinished game whose next automated action is
    due (``games.due_at`` passed), and hand back the jobs of workers that stopped beating (killed:
    procrastinate's stalled jobs), so that they run again. The number of games found due."""
    from procrastinate import jobs

    gids = await asyncio.to_thread(_due_games, service, time.time())
    for gid in gids:
        await defer(app, gid)
    for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_AFTER):
        try:
            await app.job_manager.retry_job(job)
            log.warning("job %s (%s) of a stopped worker handed back", job.id, job.task_name)
        except Exception:  # another job of the game already waits: this one is needless
            await app.job_manager.finish_job(job, status=jobs.Status.FAILED, delete_job=False)
    return len(gids)


def _due_games(service: GameService, now: float) -> list[str]:
    t = Game.__table__
    with service.engine.connect() as conn:
        return list(conn.execute(select(t.c.id).where(t.c.due_at <= now, t.c.over.is_(False),
                                                      t.c.watch_only.is_(False))
                                 .order_by(t.c.due_at).limit(SWEEP_BATCH)).scalars())


class Jobs:
    """A web process's side of the queue: it defers the jobs of the games it changed (and, with an
    embedded worker, runs them: :meth:`run_worker`)."""

    def __init__(self, service: GameService, embedded: bool, concurrency: int = CONCURRENCY):
        self.service = service
        self.embedded = embedded
        self.concurrency = concurrency
        self.app = make_app(service.engine.url, service if embedded else None)
        self.worker: asyncio.Task | None = None

    async def open(self) -> None:
        """Create the queue's tables if needed, open the connections; start the embedded worker."""
        await asyncio.to_thread(ensure_schema, self.service.engine)
        await self.app.open_async()
        if self.embedded:
            self.worker = asyncio.get_running_loop().create_task(
                run_jobs(self.app, self.concurrency, install_signal_handlers=False))

    async def close(self) -> None:
        """Stop the embedded worker (its jobs are handed back if cut) and close the connections."""
        if self.worker is not None:
            self.worker.cancel()
            try:
                await self.worker
            except (asyncio.CancelledError, Exception):
                pass
        await self.app.close_async()

    async def schedule(self, live: Any) -> None:
        """Defer the game's job if an automated action is due (now, or within :data:`HORIZON`)."""
        found = A.due_at(live, self.service.bot_pace)
        if found is not None and found[0] <= time.time() + HORIZON:
            await defer(self.app, live.id, found[0])


async def run_jobs(app: procrastinate.App, concurrency: int, install_signal_handlers: bool = True) -> None:
    """Run the games' jobs and the sweeper until cancelled (or, with the signal handlers, until
    SIGINT or SIGTERM)."""
    await app.run_worker_async(queues=[QUEUE], concurrency=concurrency, delete_jobs="successful",
                               update_heartbeat_interval=HEARTBEAT, stalled_worker_timeout=STALLED_AFTER,
                               install_signal_handlers=install_signal_handlers, listen_notify=True,
                               fetch_job_polling_interval=POLL)


async def serve_worker(db_url: str, bot_pace: float, concurrency: int = CONCURRENCY, settings: Any = None) -> None:
    """One worker process (``rolling worker``): a game service without pages on ``db_url`` (it
    listens to the games' notifications to keep its cached games current) running the jobs."""
    from .db import open_database
    from .service import GameService
    from .settings import Settings

    engine = open_database(db_url)
    try:
        await asyncio.to_thread(ensure_schema, engine)
        # (the environment's settings, as rolling serve's: the notifications' SMTP server, their guard)
        service = GameService(engine, bot_pace=bot_pace, start_workers=False, settings=settings or Settings.from_env())
        await service.start()
        app = make_app(engine.url, service)
        try:
            async with app.open_async():
                await run_jobs(app, concurrency)
        finally:
            await service.stop()
    finally:
        engine.dispose()
