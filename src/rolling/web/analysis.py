"""The analysis of a finished game on the server (issue 32): ``GET /api/games/{id}/analysis``.

The analysis is :func:`rolling.analysis.analyze` (the JSON of ``rolling analyze --json``,
docs/analysis.md) of the game's record, computed **once** per game and stored in the table
``analyses`` (:class:`~rolling.web.models.AnalysisRow`). Asking for it:

- a game that is not over: 409 ``GameRunning`` (the evaluations sample what each decider could not
  see, but the expected scores would tell secret cash and the analysis of a running game would
  go stale with every action);
- the first time: a row ``queued`` is written and the job is handed to the background (202);
- while the job runs: 202 with its status; once done: 200 with the analysis; a failed job: 200
  with ``status: "failed"`` and its one-line ``error``.

**The job** (:func:`run_job`) is a plain function of the database and the game's id: it reads the
record from the database, marks the row ``running``, analyses with :data:`BUDGET` (a number of
determinizations: the stored result is the same whoever computes it) and stores the result. In
PostgreSQL it is the task queue's task ``rolling.analyze`` (:func:`add_task`, registered by
:func:`rolling.web.tasks.make_app`), run by ``rolling worker`` or the worker embedded in ``rolling
serve``; without a queue (SQLite) it runs on a thread of the server (:func:`schedule`). Each job
first claims the row (:func:`claim`), so two jobs never analyse one game twice; :func:`queued` lists
the games waiting. Imported games
(an 18xx.games export uploaded to the watch page) are finished games like any other.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rolling.core.record import GameRecord

from .errors import WebError
from .models import ActionRow, AnalysisRow, Game, Seat

log = logging.getLogger("rolling.web.analysis")

#: the task queue's task that runs :func:`run_job`, and its queue (:mod:`.tasks`'s)
ANALYZE = "rolling.analyze"
QUEUE = "rolling"
#: the evaluation's budget per decision on the server: determinizations (deterministic)
BUDGET = "6"
#: processes a job in the server analyses on (the thread that runs it only waits for them)
WORKERS = 2
#: a job ``running`` for longer than this (its process died) is queued again, seconds
STALE_SECONDS = 1800.0


class GameNotOver(WebError):
    """The analysis is for finished games (409)."""

    status, name = 409, "GameRunning"


def record_of(db: Session, gid: str) -> GameRecord | None:
    """The game's record read from the database (names in ``meta``), or ``None`` if no such game."""
    g = db.get(Game, gid)
    if g is None:
        return None
    actions = db.execute(select(ActionRow.action).where(ActionRow.game_id == gid).order_by(ActionRow.n)).scalars().all()
    names = db.execute(select(Seat.name).where(Seat.game_id == gid).order_by(Seat.seat)).scalars().all()
    return GameRecord(g.game, dict(g.config), g.seed, list(actions), {"names": list(names)})


def claim(engine: Engine, gid: str) -> bool:
    """Mark the game's ``queued`` (or stale ``running``) analysis ``running``; False if another
    job holds it or it is done."""
    now = time.time()
    with engine.begin() as conn:
        t = AnalysisRow.__table__
        done = conn.execute(
            update(t).where(t.c.game_id == gid,
                            (t.c.status == "queued") | ((t.c.status == "running") & (t.c.updated < now - STALE_SECONDS)))
            .values(status="running", updated=now))
        return done.rowcount == 1


def run_job(engine: Engine, gid: str, workers: int = 1) -> str:
    """Analyse game ``gid`` if its row is queued (the background job; see the module docstring);
    return the row's status afterwards (``done``, ``failed``, or the status another job left)."""
    from rolling.analysis import analyze

    if not claim(engine, gid):
        with Session(engine) as db:
            row = db.get(AnalysisRow, gid)
            return row.status if row else "missing"
    t0 = time.time()
    with Session(engine) as db:
        record = record_of(db, gid)
        row = db.get(AnalysisRow, gid)
        budget = row.budget if row else BUDGET
    values: dict[str, Any]
    try:
        if record is None:
            raise ValueError("the game is gone")
        result = analyze(record, budget=budget, seed=0, workers=workers)
        values = {"status": "done", "result": result, "error": None}
    except Exception as e:  # a job never takes the server down: the row says what went wrong
        log.warning("analysis of game %s failed: %s", gid, e)
        values = {"status": "failed", "error": f"{type(e).__name__}: {e}".splitlines()[0][:500]}
    with engine.begin() as conn:
        t = AnalysisRow.__table__
        conn.execute(update(t).where(t.c.game_id == gid).values(updated=time.time(), **values))
    log.info("analysis of game %s: %s in %.1f s", gid, values["status"], time.time() - t0)
    return values["status"]


def queued(engine: Engine) -> list[str]:
    """The games whose analysis waits for a job (oldest first): what a worker process runs."""
    with Session(engine) as db:
        return list(db.execute(select(AnalysisRow.game_id).where(AnalysisRow.status == "queued")
                               .order_by(AnalysisRow.created)).scalars().all())


async def request(service: Any, gid: str) -> tuple[int, dict[str, Any]]:
    """Answer ``GET /api/games/{gid}/analysis``: ``(HTTP status, body)`` (module docstring); the
    database work runs in a worker thread.

    Raises:
        NotFound: no such game.
        GameNotOver: the game is not over.
    """
    live = await service.load(gid)
    if not live.state.is_over:
        raise GameNotOver("the analysis is made once the game is over")
    version = live.version
    status, body = await asyncio.to_thread(_read_or_queue, service, gid, version)
    if status == 202:
        await schedule(service, gid)
    return status, body


def _read_or_queue(service: Any, gid: str, version: int) -> tuple[int, dict[str, Any]]:
    with service.Session() as db:
        row = db.get(AnalysisRow, gid)
        if row is None:
            now = time.time()
            db.add(AnalysisRow(game_id=gid, status="queued", version=version, budget=BUDGET, created=now, updated=now))
            try:
                db.commit()
            except IntegrityError:  # asked for at once by another request: that one queued it
                db.rollback()
            row = db.get(AnalysisRow, gid)
        if row.status == "done":
            return 200, {"status": "done", "analysis": row.result}
        if row.status == "failed":
            return 200, {"status": "failed", "error": row.error}
        if row.status == "running" and time.time() - row.updated > STALE_SECONDS:
            return 202, {"status": "queued"}  # its job died: claimed again (:func:`claim`)
        return 202, {"status": row.status}


async def schedule(service: Any, gid: str) -> None:
    """Hand the job to the background: the task queue's ``rolling.analyze`` where the server has
    one (PostgreSQL: :mod:`.tasks`; a ``rolling worker`` or the embedded worker runs it, one job
    per game waiting at most), else a thread of this server when it runs its background tasks
    (``start_workers``; SQLite), once per game at a time. A job finds the row already claimed or
    done and does nothing, so asking twice is harmless."""
    if getattr(service, "closed", False):
        return
    jobs = getattr(service, "jobs", None)
    if jobs is not None:
        try:
            await jobs.app.configure_task(ANALYZE, queue=QUEUE, lock=f"analysis:{gid}",
                                          queueing_lock=f"analysis:{gid}").defer_async(game_id=gid)
        except Exception as e:  # AlreadyEnqueued, or the queue's database failed: the next request defers it
            log.debug("analysis of game %s not deferred: %s", gid, e)
        return
    if not getattr(service, "start_workers", False):
        return
    running: set[str] = service.__dict__.setdefault("_analysing", set())
    if gid in running:
        return
    running.add(gid)

    async def job() -> None:
        try:
            await asyncio.to_thread(run_job, service.engine, gid, WORKERS)
        finally:
            running.discard(gid)

    asyncio.get_running_loop().create_task(job())


def add_task(app: Any, service: Any) -> None:
    """Register the task ``rolling.analyze(game_id)`` (:func:`run_job` in a thread) on the
    procrastinate ``app`` of a worker (:func:`rolling.web.tasks.make_app`)."""

    @app.task(name=ANALYZE, queue=QUEUE)
    async def analyze_game(game_id: str) -> None:
        await asyncio.to_thread(run_job, service.engine, game_id, WORKERS)
