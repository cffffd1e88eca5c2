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
the server process it runs on a thread (:func:`schedule`, when the server runs its background
tasks); a worker process can run the same function for every ``queued`` row (:func:`queued`),
claiming each with :func:`claim` so that two workers never analyse one game twice. Imported games
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


def request(service: Any, gid: str) -> tuple[int, dict[str, Any]]:
    """Answer ``GET /api/games/{gid}/analysis``: ``(HTTP status, body)`` (module docstring).

    Raises:
        NotFound: no such game.
        GameNotOver: the game is not over.
    """
    live = service.get(gid)
    if not live.state.is_over:
        raise GameNotOver("the analysis is made once the game is over")
    with service.Session() as db:
        row = db.get(AnalysisRow, gid)
        if row is None:
            now = time.time()
            db.add(AnalysisRow(game_id=gid, status="queued", version=len(live.record().actions), budget=BUDGET,
                               created=now, updated=now))
            try:
                db.commit()
            except IntegrityError:  # asked for at once by another request: that one queued it
                db.rollback()
            row = db.get(AnalysisRow, gid)
        status, result, error = row.status, row.result, row.error
    if status == "done":
        return 200, {"status": "done", "analysis": result}
    if status == "failed":
        return 200, {"status": "failed", "error": error}
    if status == "queued" or (status == "running" and time.time() - row.updated > STALE_SECONDS):
        schedule(service, gid)
    return 202, {"status": status}


def schedule(service: Any, gid: str) -> None:
    """Run the job on a thread of this server, once per game at a time, when the server runs its
    background tasks (``start_workers``); else a worker process runs it (:func:`queued`)."""
    if not getattr(service, "start_workers", False) or getattr(service, "closed", False):
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
