"""The JSON API of accounts, seats and notifications (issue 31), under ``/api`` beside
:mod:`rolling.web.api`'s routes; see docs/web.md.

A logged-in request carries the session cookie ``rolling_session`` (:mod:`.accounts`); without it
the account's routes answer 401 ``Unauthorized``. Game routes take the same ``X-Seat-Tokens`` (the
account's seats count as held: :class:`~rolling.web.accounts.AccountSeats`) and, for the creator's
routes, ``X-Creator-Token`` (or the account that made the game).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from .accounts import COOKIE, Accounts, Unauthorized, Who
from .api import ERRORS, _tokens, doc_response
from .limits import RateLimits
from .notify import Notifier
from .seating import Seating
from .service import GameService, WebError


class Register(BaseModel):
    """A new account: a name (2 to 40 letters, digits, ``_ . -``), an email, a password (8+)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., max_length=40)
    email: str = Field(..., max_length=254)
    password: str = Field(..., max_length=200)


class Login(BaseModel):
    """A login: the account's name (any case) and password."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., max_length=40)
    password: str = Field(..., max_length=200)


class NotifySettings(BaseModel):
    """Where the account is told of its turns: apprise URLs (``json://``, ``discord://``,
    ``slack://``, ``matrix://``, ``mailto://``...; at most 10) and whether to email it."""

    model_config = ConfigDict(extra="forbid")
    urls: list[str] = Field(default_factory=list, max_length=10)
    email: bool | None = None


class PushSubscription(BaseModel):
    """A browser's Web Push subscription (``PushSubscription.toJSON()``: ``endpoint``, ``keys``)."""

    model_config = ConfigDict(extra="allow")
    endpoint: str = Field(..., max_length=2000)
    keys: dict[str, str]


class ResetRequest(BaseModel):
    """Ask for a password reset link by email."""

    model_config = ConfigDict(extra="forbid")
    email: str = Field(..., max_length=254)


class ResetConfirm(BaseModel):
    """Set a new password with the token of a reset link."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(..., max_length=200)
    password: str = Field(..., max_length=200)


class JoinRequest(BaseModel):
    """Take the open ``seat`` (``invite``: the code of a private game's invite link)."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    invite: str | None = Field(None, max_length=200)


class StartRequest(BaseModel):
    """Start now: ``bot`` (``bot``, ``bot:NAME``, ``NAME``) takes every open seat."""

    model_config = ConfigDict(extra="forbid")
    bot: str = Field("bot", max_length=64)


class ReplaceRequest(BaseModel):
    """Replace an idle person's seat: ``with`` a bot (``bot``, ``bot:NAME``, ``NAME``) or ``open``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    to: str = Field("bot", alias="with", max_length=64)


class GameSettings(BaseModel):
    """A game's settings (each optional: unchanged): time limits of the any-order phases in seconds
    (``{"3": 120}``; 0: none), the bots' pace in seconds, the idle time after which the creator may
    replace a seat (seconds; 0: never)."""

    model_config = ConfigDict(extra="forbid")
    time_limits: dict[str, int] | None = None
    bot_pace: float | None = Field(None, ge=0, le=60)
    idle_seconds: float | None = Field(None, ge=0, le=90 * 86400)


def account_of(request: Request) -> Who | None:
    """The logged-in account of a request (left by :class:`~rolling.web.accounts.AccountSeats`)."""
    return getattr(request.state, "account", None)


def make_community_router(service: GameService, accounts: Accounts, seating: Seating, notifier: Notifier,
                          rate_limits: RateLimits) -> APIRouter:
    """The routes of accounts, seats and notifications."""
    api = APIRouter(prefix="/api", responses={**ERRORS, 401: ERRORS[403]}, tags=["community"])
    limits = rate_limits
    acting = [Depends(limits.dependency("act"))]

    def me(request: Request) -> Who:
        who = account_of(request)
        if who is None:
            raise Unauthorized("log in first (POST /api/session)")
        return who

    def set_cookie(request: Request, response: Response, value: str) -> None:
        secure = request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "") == "https"
        response.set_cookie(COOKIE, value, max_age=int(service.settings.session_days * 86400), httponly=True,
                            samesite="lax", secure=secure, path="/")

    @api.post("/accounts", status_code=201, summary="Register an account",
              dependencies=[Depends(limits.dependency("register"))])
    async def register(body: Register) -> dict[str, Any]:
        """Make an account (then log in with ``POST /api/session``); 409 NameTaken, 400 for a name,
        email or password that is not allowed."""
        # (hashing a password takes a fraction of a second: a worker thread, not the event loop)
        return await asyncio.to_thread(accounts.register, body.name, body.email, body.password)

    @api.post("/session", summary="Log in")
    async def login(body: Login, request: Request) -> JSONResponse:
        """Log in: the account, and the session cookie (HttpOnly, SameSite=Lax); 401 for a wrong
        name or password; attempts are rate-limited per address and per name (429)."""
        address = request.client.host if request.client else "?"
        limits.hit("login", address, [body.name.strip().lower()])
        cookie, account = await asyncio.to_thread(accounts.login, body.name, body.password)
        response = JSONResponse(account)
        set_cookie(request, response, cookie)
        return response

    @api.delete("/session", status_code=204, summary="Log out")
    async def logout(request: Request) -> Response:
        """End this browser's session (204 also without one)."""
        await asyncio.to_thread(accounts.logout, request.cookies.get(COOKIE))
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/")
        return response

    @api.get("/me", summary="The account, its games and which wait for it")
    async def get_me(request: Request) -> dict[str, Any]:
        """``{"account", "games", "waiting", "stats"}``: the games of the seats it holds (waiting for
        it first) and per game and edition the games finished and won; 401 when not logged in."""
        who = me(request)
        return {"account": await asyncio.to_thread(accounts.public, who.id), **await seating.games_of(who)}

    @api.put("/me/notifications", summary="Where to be told of your turns")
    async def put_notifications(body: NotifySettings, request: Request) -> dict[str, Any]:
        """Set the apprise URLs (and email on or off); 400 for a URL apprise cannot read or one
        that points into a private network (unless the server allows it)."""
        who = me(request)

        def put() -> dict[str, Any]:  # (resolving the hosts and the database: a worker thread)
            acc = accounts.account(who.id)
            urls = [notifier.check_url(u) for u in body.urls]
            notify = {**(acc.notify or {}), "urls": urls}
            if body.email is not None:
                notify["email"] = body.email
            return accounts.set_notify(who.id, notify)

        return await asyncio.to_thread(put)

    @api.get("/push/key", summary="The server's Web Push key")
    async def push_key() -> dict[str, Any]:
        """``{"key"}``: the VAPID application server key (base64url), for ``pushManager.subscribe``."""
        return {"key": await asyncio.to_thread(notifier.vapid_public)}

    @api.post("/me/push", summary="Send Web Push notifications to this browser")
    async def add_push(body: PushSubscription, request: Request) -> dict[str, Any]:
        """Keep a browser's push subscription (at most 5 per account, the newest kept)."""
        who = me(request)
        sub = body.model_dump()
        if "\\u0000" in json.dumps(sub):  # (how json.dumps writes a NUL)
            raise WebError("a push subscription holds no NUL")

        def add() -> dict[str, Any]:
            notifier.check_endpoint(sub["endpoint"])
            acc = accounts.account(who.id)
            pushes = [p for p in (acc.notify or {}).get("push", []) if p.get("endpoint") != sub["endpoint"]]
            return accounts.set_notify(who.id, {**(acc.notify or {}), "push": [*pushes, sub][-5:]})

        return await asyncio.to_thread(add)

    @api.delete("/me/push", summary="Stop Web Push notifications")
    async def delete_push(request: Request) -> dict[str, Any]:
        """Forget every push subscription of the account."""
        who = me(request)

        def clear() -> dict[str, Any]:
            acc = accounts.account(who.id)
            return accounts.set_notify(who.id, {**(acc.notify or {}), "push": []})

        return await asyncio.to_thread(clear)

    @api.post("/password-reset", status_code=202, summary="Email a password reset link",
              dependencies=[Depends(limits.dependency("register"))])
    async def reset(body: ResetRequest) -> dict[str, Any]:
        """Queue a reset link to the accounts of ``email`` (the same answer whether any exists)."""
        def start() -> None:
            for account_id, token in accounts.start_reset(body.email):
                notifier.queue_reset(account_id, token)

        await asyncio.to_thread(start)
        return {"queued": True}

    @api.post("/password-reset/confirm", status_code=204, summary="Set a new password")
    async def reset_confirm(body: ResetConfirm) -> Response:
        """Set the password with a reset link's token (once, within an hour); 403 otherwise. Every
        session of the account ends."""
        await asyncio.to_thread(accounts.finish_reset, body.token, body.password)
        return Response(status_code=204)

    @api.post("/games/{gid}/join", summary="Take an open seat", dependencies=acting)
    async def join(gid: str, body: JoinRequest, request: Request) -> Response:
        """Bind the open ``seat`` to the logged-in account (401 otherwise); 409 SeatTaken when it is
        not open or the account already sits in the game; 403 for a private game without its
        invite code. The game document, as the account now sees it."""
        who = me(request)
        live = await seating.join(gid, who, body.seat, body.invite)
        return doc_response(service, live, service.held(live, [who.seat_key]))

    @api.post("/games/{gid}/start", summary="Start now, bots in the open seats (the creator)", dependencies=acting)
    async def start(gid: str, body: StartRequest, request: Request, x_creator_token: str | None = Header(None),
                    c: str | None = None, x_seat_tokens: str | None = Header(None), t: str | None = None) -> Response:
        """Put ``bot`` in every open seat; needs the creator (account or token; 403 otherwise)."""
        tokens = _tokens(x_seat_tokens, t)
        live = await seating.start_now(gid, _tokens(x_creator_token, c), account_of(request), body.bot)
        return doc_response(service, live, service.held(live, tokens))

    @api.post("/games/{gid}/seats/{seat}/replace", summary="Replace an idle seat (the creator)", dependencies=acting)
    async def replace(gid: str, seat: int, body: ReplaceRequest, request: Request,
                      x_creator_token: str | None = Header(None), c: str | None = None,
                      x_seat_tokens: str | None = Header(None), t: str | None = None) -> Response:
        """Hand a person's seat idle longer than the game's idle time to a bot, or reopen it
        (``{"with": "open"}``); needs the creator; 409 when not idle long enough."""
        tokens = _tokens(x_seat_tokens, t)
        live = await seating.replace(gid, _tokens(x_creator_token, c), account_of(request), seat, body.to)
        return doc_response(service, live, service.held(live, tokens))

    @api.get("/games/{gid}/settings", summary="A game's settings")
    async def get_settings(gid: str, request: Request, x_creator_token: str | None = Header(None),
                           c: str | None = None) -> dict[str, Any]:
        """Time limits, bot pace, idle time, open seats, each seat's idle time, whether you are the creator."""
        live = await service.load(gid)
        return await seating.settings_of(live, _tokens(x_creator_token, c), account_of(request))

    @api.put("/games/{gid}/settings", summary="Change a game's settings (the creator)", dependencies=acting)
    async def put_settings(gid: str, body: GameSettings, request: Request, x_creator_token: str | None = Header(None),
                           c: str | None = None) -> dict[str, Any]:
        """Change time limits, bot pace or idle time; needs the creator (403 otherwise)."""
        return await seating.set_settings(gid, _tokens(x_creator_token, c), account_of(request),
                                          body.time_limits, body.bot_pace, body.idle_seconds)

    return api


__all__ = ["make_community_router"]
