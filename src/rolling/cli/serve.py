"""``rolling serve``: the web app (:mod:`rolling.web`) on uvicorn."""

from __future__ import annotations

import gc
import logging
import socket

import typer

from rolling.cli.shared import whole_option


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``rolling serve`` to the app."""

    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every interface)"),
        port: int = whole_option(8000, "--port", help="TCP port to listen on"),
        db: str = typer.Option(None, "--db", metavar="URL",
                               help="database: sqlite:///FILE.db or postgresql+psycopg://USER:PASS@HOST/DB "
                                    "(default: rolling.db in the user data folder)"),
        bot_pace: float = typer.Option(None, "--bot-pace", help="seconds a bot waits before its move (default 0.3)"),
        no_worker: bool = typer.Option(False, "--no-worker",
                                       help="PostgreSQL: serve pages and the API only; bots, time limits and "
                                            "programmed actions are played by `rolling worker` processes"),
    ) -> None:
        """Serve the web app: the lobby at http://HOST:PORT/, the JSON API under /api (OpenAPI at
        /docs), live pages over WebSockets. Games are kept in the database; stop the server any
        time (even kill -9) and start it again: every game goes on where it was. With
        ``rolling --log-level info serve`` every request is logged on stderr.

        On SQLite one process serves and plays the bots. On PostgreSQL several may serve one
        database: the bots, time limits and programmed actions are then jobs of a task queue in
        the database, run by a worker embedded in each ``rolling serve`` or, with ``--no-worker``,
        by ``rolling worker`` processes only."""
        import uvicorn

        from rolling.core.errors import UsageError
        from rolling.web.app import create_app
        from rolling.web.settings import DEFAULT_BOT_PACE, default_db_path, default_db_url

        if not 0 < port < 65536:
            raise UsageError(f"--port must be from 1 to 65535, not {port}")
        if bot_pace is not None and not bot_pace >= 0:
            raise UsageError(f"--bot-pace must be 0 or more, not {bot_pace}")
        try:
            # bound before anything is printed, so that a port in use is one clear line
            family = socket.AF_INET6 if ":" in host else socket.AF_INET  # --host :: listens on IPv6
            sock = socket.create_server((host, port), family=family)
        except OSError as e:
            raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
        url = db or default_db_url()
        from rolling.web.db import hold_sqlite

        try:
            held = hold_sqlite(url)  # noqa: F841 (held open while serving: one process per SQLite file)
        except BaseException:
            sock.close()
            raise
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        try:
            from sqlalchemy.engine import make_url

            try:
                postgres = make_url(url).get_backend_name() == "postgresql"
            except Exception:  # (an unreadable URL: create_app says so in one line)
                postgres = False
            if no_worker and not postgres:
                raise UsageError("--no-worker needs a PostgreSQL database (--db postgresql+psycopg://...): "
                                 "on SQLite nothing but rolling serve could play the bots")
            queue = ("defer" if no_worker else "embedded") if postgres else None
            from rolling.web.settings import Settings

            settings = Settings.from_env()
            if not settings.public_url:  # the notifications' links: this server, unless told otherwise
                local = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1", "::1") else shown
                settings = Settings.from_env(public_url=f"http://{local}:{port}")
            web = create_app(url, bot_pace=DEFAULT_BOT_PACE if bot_pace is None else bot_pace, queue=queue,
                             settings=settings)
        except BaseException:
            sock.close()
            raise
        where = default_db_path() if db is None else web.state.engine.url.render_as_string(hide_password=True)
        worker = {"defer": ", no worker: run rolling worker", "embedded": ", with a worker"}.get(queue or "", "")
        typer.echo(f"rolling: serving http://{shown}:{port}/ (games in {where}{worker})", err=True)
        # every request makes many short-lived objects; the default threshold (700) runs the
        # collector several times per action, a third of the server's time
        gc.set_threshold(50_000, 20, 20)
        # uvicorn logs through the logging set up by ``rolling --log-level`` (its requests at info)
        server = uvicorn.Server(uvicorn.Config(web, host=host, port=port, log_config=None,
                                               log_level=logging.getLogger().getEffectiveLevel()))
        server.run(sockets=[sock])
