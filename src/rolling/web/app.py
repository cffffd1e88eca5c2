"""The app factory: the API, the WebSocket and the pages on one FastAPI app over one database."""

from __future__ import annotations

import logging
import time
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from .api import error_response, make_router, make_ws_router
from .db import open_database
from .limits import RateLimits
from .middleware import BodyLimit, SecurityHeaders
from .service import GameService, WebError
from .settings import DEFAULT_BOT_PACE, Settings, default_db_url
from .tokens import RedactTokens

log = logging.getLogger("rolling.web")

HTTP_NAMES = {400: "BadRequest", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed", 406: "NotAcceptable",
              409: "Conflict", 413: "TooLarge", 415: "UnsupportedMediaType", 422: "MalformedRequest",
              429: "TooManyRequests"}
#: what a 500 answer says: the exception's text stays in the server's log (it may name files, SQL
#: or a game's hidden state)
INTERNAL_ERROR = "the server failed to answer; the error is in its log"


class ServerTiming:
    """ASGI middleware: a ``Server-Timing: app;dur=MS`` header on every HTTP answer (how long the
    server itself took, for benchmarks and browsers' network panels). Plain ASGI rather than
    ``@app.middleware("http")``, whose wrapping of every request costs about a millisecond."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()

        async def timed_send(message):
            if message["type"] == "http.response.start":
                dur = f"app;dur={(time.perf_counter() - t0) * 1000:.2f}".encode()
                message = {**message, "headers": [*message.get("headers", []), (b"server-timing", dur)]}
            await send(message)

        await self.app(scope, receive, timed_send)


def create_app(db_url: str | None = None, *, bot_pace: float = DEFAULT_BOT_PACE, start_workers: bool = True,
               settings: Settings | None = None, queue: str | None = None):
    """The web app over the database ``db_url`` (default: :func:`~rolling.web.settings.default_db_url`).

    The schema is upgraded (Alembic ``upgrade head``) here, before the app is returned; games whose
    turn is a bot's resume when the app starts (``start_workers``).

    Args:
        bot_pace: seconds a bot (or programmed action) waits before it moves; 0: at once, within
            the request that made it their turn.
        start_workers: run background tasks (paced bots, time limits, resuming after a restart).
        settings: the server's bounds (bots' budgets, body sizes, rate limits, idle games);
            default :meth:`Settings.from_env() <rolling.web.settings.Settings.from_env>`.
        queue: PostgreSQL only: the automated actions go through the task queue (:mod:`.tasks`):
            ``"defer"`` (``rolling serve --no-worker``: ``rolling worker`` plays them) or
            ``"embedded"`` (a worker in this process too); None: this process plays them.

    Raises:
        UsageError: the database cannot be opened or migrated (one line).
    """
    settings = settings or Settings.from_env()
    access_log = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactTokens) for f in access_log.filters):
        access_log.addFilter(RedactTokens())  # seat tokens ride in ?t=: never in a log line
    rate_limits = RateLimits(settings)
    engine = open_database(db_url or default_db_url())
    if queue is not None:
        from rolling.core.extras import import_optional

        import_optional("procrastinate")  # (MissingExtra: one line naming rolling[postgres])
    if queue is not None and engine.dialect.name != "postgresql":
        from rolling.core.errors import UsageError

        engine.dispose()
        raise UsageError("the task queue (rolling worker, --no-worker) needs a PostgreSQL database "
                         "(--db postgresql+psycopg://...): on SQLite rolling serve plays the bots itself")
    service = GameService(engine, bot_pace=bot_pace, start_workers=start_workers, settings=settings, queue=queue)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            engine.dispose()

    app = FastAPI(
        title="Rolling",
        summary="Play Rolling Stock Stars (and the Rolling family) live or asynchronously, with bots.",
        version="1",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.engine = engine
    app.state.settings = settings
    app.state.rate_limits = rate_limits

    @app.exception_handler(WebError)
    async def web_error(request: Request, e: WebError) -> JSONResponse:
        return error_response(e)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        errors = e.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))
        name = "MalformedAction" if request.url.path.endswith("/actions") else "MalformedRequest"
        return JSONResponse({"error": name, "message": message[:300]}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        name = HTTP_NAMES.get(e.status_code, "HTTPError")
        return JSONResponse({"error": name, "message": str(e.detail)}, status_code=e.status_code,
                            headers=getattr(e, "headers", None))

    @app.exception_handler(Exception)
    async def crash(request: Request, e: Exception) -> JSONResponse:
        # a bug: still JSON, logged with its traceback, its text not sent (issue 29, hygiene)
        if isinstance(e, ClientDisconnect):  # the client went (or BodyLimit cut its body): nobody to answer
            return JSONResponse({"error": "ClientDisconnect", "message": "the client went away"}, status_code=400)
        log.exception("error serving %s", request.url.path)
        return JSONResponse({"error": "InternalError", "message": INTERNAL_ERROR}, status_code=500)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> JSONResponse:
        """``{"ok": true}`` when the database answers, 503 ``{"ok": false}`` otherwise (for load
        balancers and process supervisors; no game is read)."""
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError:
            log.warning("healthz: the database does not answer", exc_info=True)
            return JSONResponse({"ok": False}, status_code=503, headers={"Cache-Control": "no-store"})
        return JSONResponse({"ok": True}, headers={"Cache-Control": "no-store"})

    def body_limit(path: str) -> int:
        return settings.max_import if path == "/api/import" else settings.max_body

    # the last added runs first: headers on every answer, then the body's size before anything reads it
    app.add_middleware(ServerTiming)
    app.add_middleware(BodyLimit, limit_for=body_limit)
    app.add_middleware(SecurityHeaders)
    app.include_router(make_router(service, rate_limits))
    app.include_router(make_ws_router(service))
    try:
        from .pages import mount_static
        from .pages import router as pages_router
    except ImportError:  # pages not there yet: the API works without them
        pages_router = None
    if pages_router is not None:
        app.include_router(pages_router)
        mount_static(app)
    return app
