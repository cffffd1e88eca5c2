"""The app factory: the API, the WebSocket and the pages on one FastAPI app over one database."""

from __future__ import annotations

import logging
import time
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .api import error_response, make_router, make_ws_router
from .db import open_database
from .service import GameService, WebError
from .settings import DEFAULT_BOT_PACE, default_db_url

log = logging.getLogger("rolling.web")

HTTP_NAMES = {400: "BadRequest", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed", 406: "NotAcceptable",
              409: "Conflict", 413: "TooLarge", 415: "UnsupportedMediaType", 422: "MalformedRequest"}


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


def create_app(db_url: str | None = None, *, bot_pace: float = DEFAULT_BOT_PACE, start_workers: bool = True):
    """The web app over the database ``db_url`` (default: :func:`~rolling.web.settings.default_db_url`).

    The schema is upgraded (Alembic ``upgrade head``) here, before the app is returned; games whose
    turn is a bot's resume when the app starts (``start_workers``).

    Args:
        bot_pace: seconds a bot (or programmed action) waits before it moves; 0: at once, within
            the request that made it their turn.
        start_workers: run background tasks (paced bots, time limits, resuming after a restart).

    Raises:
        UsageError: the database cannot be opened or migrated (one line).
    """
    engine = open_database(db_url or default_db_url())
    service = GameService(engine, bot_pace=bot_pace, start_workers=start_workers)

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
        # a bug: still JSON, and logged with its traceback
        log.exception("error serving %s", request.url.path)
        return JSONResponse({"error": "InternalError", "message": f"{type(e).__name__}: {e}"[:300]}, status_code=500)

    app.add_middleware(ServerTiming)
    app.include_router(make_router(service))
    app.include_router(make_ws_router(service))
    try:
        from .pages import router as pages_router
    except ImportError:  # pages not there yet: the API works without them
        pages_router = None
    if pages_router is not None:
        app.include_router(pages_router)
    return app
