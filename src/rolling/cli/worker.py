"""``rolling worker``: the bots, time limits and programmed actions of the games on a PostgreSQL
database, taken from its task queue (:mod:`rolling.web.tasks`), in one or more processes."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys

import typer

from rolling.cli.shared import whole_option


def _die_with_parent() -> None:  # pragma: no cover (runs in the child, before exec)
    # Linux: the kernel sends SIGTERM to a worker process when the process that started it dies,
    # even by kill -9, so that no worker outlives `rolling worker --processes N`
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``rolling worker`` to the app."""

    @app.command("worker")
    def worker(
        db: str = typer.Option(..., "--db", metavar="URL",
                               help="the PostgreSQL database of the web processes: postgresql+psycopg://USER:PASS@HOST/DB"),
        processes: int = whole_option(1, "--processes", metavar="N",
                                      help="worker processes (bots think in them: one per core)"),
        bot_pace: float = typer.Option(None, "--bot-pace", help="seconds a bot waits before its move (default 0.3)"),
        concurrency: int = whole_option(None, "--concurrency", metavar="J",
                                        help="games one process plays at once (default 8)"),
    ) -> None:
        """Play the bots, time limits and programmed actions of every game on the database, for any
        number of ``rolling serve`` processes (``--no-worker`` or not) on it. Run as many workers
        as you like, on as many machines: a game's jobs never run at once, a worker killed mid-job
        loses nothing (its job runs again elsewhere within seconds). Stop it with Ctrl-C or SIGTERM."""
        import asyncio

        from sqlalchemy.engine import make_url

        from rolling.core.errors import UsageError
        from rolling.core.extras import import_optional
        from rolling.web.settings import DEFAULT_BOT_PACE

        if processes < 1:
            raise UsageError(f"--processes must be 1 or more, not {processes}")
        if bot_pace is not None and not bot_pace >= 0:
            raise UsageError(f"--bot-pace must be 0 or more, not {bot_pace}")
        if concurrency is not None and concurrency < 1:
            raise UsageError(f"--concurrency must be 1 or more, not {concurrency}")
        try:
            backend = make_url(db).get_backend_name()
        except Exception:
            raise UsageError(f"--db {db!r} is not a database URL (postgresql+psycopg://...)") from None
        if backend != "postgresql":
            raise UsageError(f"--db {db!r}: rolling worker needs PostgreSQL (postgresql+psycopg://...); "
                             "on SQLite rolling serve plays the bots itself")
        import_optional("procrastinate")
        from rolling.web import tasks

        pace = DEFAULT_BOT_PACE if bot_pace is None else bot_pace
        children: list[subprocess.Popen] = []
        level = logging.getLevelName(logging.getLogger().getEffectiveLevel())
        for _ in range(processes - 1):
            cmd = [sys.executable, "-m", "rolling.cli.main", "--log-level", str(level).lower(), "worker",
                   "--db", db, "--processes", "1", "--bot-pace", str(pace)]
            if concurrency is not None:
                cmd += ["--concurrency", str(concurrency)]
            children.append(subprocess.Popen(cmd, preexec_fn=_die_with_parent if sys.platform == "linux" else None))
        pids = " ".join(str(p) for p in [os.getpid(), *(c.pid for c in children)])
        shown = make_url(db).render_as_string(hide_password=True)
        typer.echo(f"rolling: worker on {shown} ({processes} process{'es' if processes > 1 else ''}: {pids})",
                   err=True)
        try:
            asyncio.run(tasks.serve_worker(db, pace, concurrency or tasks.CONCURRENCY))
        finally:
            for c in children:
                c.terminate()
            for c in children:
                try:
                    c.wait(30)
                except subprocess.TimeoutExpired:
                    c.kill()
