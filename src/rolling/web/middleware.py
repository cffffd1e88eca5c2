"""Pure ASGI middleware of the web app (issue 29, "every request has a bound"): request bodies
refused over a size before they are read (:class:`BodyLimit`), and the security headers of every
answer (:class:`SecurityHeaders`). Plain ASGI, like :class:`rolling.web.app.ServerTiming`, so that
they cost microseconds and sit outside every route, token check included.
"""

from __future__ import annotations

from collections.abc import Callable

import orjson

#: the Content-Security-Policy of every answer: scripts and styles from this site only (style
#: attributes allowed: the pages set sizes and colours on elements), data: images (charts), the
#: live WebSocket of this site, never framed
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")

SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    # seat links carry their token in the query: never hand it to another site
    (b"referrer-policy", b"same-origin"),
]


class BodyLimit:
    """Refuse a request body larger than ``limit_for(path)`` bytes with 413 ``TooLarge``: at once
    from its ``Content-Length``, and for a body sent in chunks (no length) as soon as the chunks
    counted pass the limit, without reading the rest. The route sees a disconnected client, and
    whatever it answers is dropped."""

    def __init__(self, app, limit_for: Callable[[str], int]):
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.limit_for(scope["path"])
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = -1
                if length < 0 or length > limit:
                    return await _too_large(send, limit)
        seen = 0
        answered = False

        async def counted_receive():
            nonlocal seen, answered
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit and not answered:
                    answered = True
                    await _too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message):
            if not answered:
                await send(message)

        await self.app(scope, counted_receive, guarded_send)


async def _too_large(send, limit: int) -> None:
    body = orjson.dumps({"error": "TooLarge", "message": f"the request body is larger than {_size(limit)}"})
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _size(n: int) -> str:
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` (Content-Security-Policy first) to every HTTP answer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


__all__ = ["CSP", "SECURITY_HEADERS", "BodyLimit", "SecurityHeaders"]
