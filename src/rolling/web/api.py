"""The JSON API under ``/api`` and the live WebSocket ``/ws/games/{id}`` (see docs/web.md).

Tokens travel in the header ``X-Seat-Tokens: tok1,tok2`` (several seats: a hotseat table) or the
query ``?t=tok1,tok2``. Every error is ``{"error": Name, "message": one line, "rule"?: section}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Depends, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from .limits import RateLimits
from .service import GameService, Live, WebError
from .tokens import new_token, split_tokens
from .visibility import charts_for, check_record

#: the largest 18xx.games export accepted by default, bytes (:attr:`Settings.max_import`)
MAX_IMPORT = 20 * 1024 * 1024


class ErrorBody(BaseModel):
    """An error: its name (``IllegalAction``, ``StaleVersion``, ``Forbidden``, ``MalformedAction``,
    ``NotFound``, ``UndoRefused``, ``BadRequest``...), a one-line message, the rule section if any."""

    error: str
    message: str = ""
    rule: str | None = None


class CreateGame(BaseModel):
    """A new game: the game, its config (``players``, ``edition``, ``variants``), one seat word per
    player (``human``, ``bot``, ``bot:NAME`` or ``NAME``), optional names, seed and time limits of
    the any-order phases in seconds (``{"3": 120, "4": 60}``; Stars only)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field("stars", max_length=32)
    config: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] | None = Field(None, max_length=12)
    names: list[str] | None = Field(None, max_length=12)
    seed: int | None = Field(None, ge=0, lt=2**31)
    time_limits: dict[str, int] | None = None


class SeatLink(BaseModel):
    """A seat of a new game: its link carries its token (people only)."""

    seat: int
    name: str
    kind: str
    token: str | None = None
    url: str | None = None


class Created(BaseModel):
    """The answer to creating a game: every seat's secret link, the spectator link, and the
    creator's token, which stops or deletes the game (header ``X-Creator-Token``; shown only here)."""

    id: str
    game: str
    seats: list[SeatLink]
    spectator_url: str
    creator_token: str


class HandToBot(BaseModel):
    """Hand ``seat`` to a bot: ``bot``, ``bot:NAME`` or ``NAME:BUDGET`` (default: the strongest)."""

    model_config = ConfigDict(extra="forbid")
    bot: str = Field("bot", max_length=64)


class ActRequest(BaseModel):
    """An action of ``seat``, chosen on ``version`` (the number of actions the page saw)."""

    model_config = ConfigDict(extra="forbid")
    version: int
    seat: int
    action: dict[str, Any]
    #: the seat's decision basis from the document the page showed (``basis[seat]``): an action
    #: chosen on an older version still counts when nothing it covers changed (rolling.web.stale)
    basis: dict[str, Any] | None = None


class UndoRequest(BaseModel):
    """Take back the last decision of ``seat`` (or, holding several seats, of the table)."""

    model_config = ConfigDict(extra="forbid")
    version: int
    seat: int


class ChatRequest(BaseModel):
    """A chat line of ``seat`` (at most 500 characters are kept)."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    text: str = Field(..., max_length=4000)


class ProgramRequest(BaseModel):
    """A programmed action of ``seat``: ``pass_investment``, ``auction_limit`` (with ``limit`` $)
    or ``pass_closing_unless_loss``."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    kind: str = Field(..., max_length=40)
    limit: int | None = Field(None, ge=0, le=10**6)


def _tokens(header: str | None, query: str | None) -> list[str]:
    return split_tokens(header) + split_tokens(query)


ERRORS = {code: {"model": ErrorBody} for code in (400, 403, 404, 409, 413, 422, 429)}


def make_router(service: GameService, rate_limits: RateLimits | None = None) -> APIRouter:
    """The API routes, bound to ``service``; creating, acting, chatting and importing counted by
    ``rate_limits`` (default: those of ``service.settings``)."""
    api = APIRouter(prefix="/api", responses=ERRORS)
    limits = rate_limits or RateLimits(service.settings)
    acting = [Depends(limits.dependency("act"))]

    def seat_url(gid: str, token: str | None) -> str:
        return f"/g/{gid}?t={token}" if token else f"/g/{gid}"

    @api.get("/games/options", summary="What a new game may be")
    async def options() -> dict[str, Any]:
        """Per game: player counts, editions, variants, bots and the strongest bot, time limits."""
        return service.options()

    @api.post("/games", status_code=201, response_model=Created, summary="Create a game",
              dependencies=[Depends(limits.dependency("create"))])
    async def create(body: CreateGame) -> Created:
        """Create a game; the answer holds each human seat's secret link (shown only here)."""
        creator = new_token()
        live, tokens = await service.create(body.game, body.config, body.seats, body.names, body.seed,
                                            body.time_limits, creator_token=creator)
        seats = [SeatLink(seat=s["seat"], name=s["name"], kind=s["kind"], token=tokens.get(s["seat"]),
                          url=seat_url(live.id, tokens.get(s["seat"])) if s["seat"] in tokens else None)
                 for s in live.seats]
        return Created(id=live.id, game=live.game, seats=seats, spectator_url=f"/g/{live.id}", creator_token=creator)

    @api.get("/games", summary="List games, newest first")
    async def list_games(limit: int = Query(200, ge=1, le=1000)) -> dict[str, Any]:
        """The newest games with their version, whether over, and who is to act."""
        return {"games": await asyncio.to_thread(service.list_games, limit)}

    async def view(gid: str, header: str | None, t: str | None) -> tuple[Live, tuple[int, ...]]:
        live = await service.load(gid)
        return live, service.held(live, _tokens(header, t))

    @api.get("/games/{gid}", summary="The game as the tokens' seats see it")
    async def get_game(gid: str, x_seat_tokens: str | None = Header(None), t: str | None = None) -> dict[str, Any]:
        """The game document: state view, log, decisions of the held seats, chat, undo, time limit."""
        live, held = await view(gid, x_seat_tokens, t)
        return doc_response(service, live, held)

    @api.post("/games/{gid}/actions", summary="Act", dependencies=acting)
    async def act(gid: str, body: ActRequest, x_seat_tokens: str | None = Header(None),
                  t: str | None = None) -> dict[str, Any]:
        """Apply an action of ``seat``; 409 StaleVersion when ``version`` is no longer current,
        400 IllegalAction naming the rule, 403 without the seat's token, 422 for a malformed action."""
        tokens = _tokens(x_seat_tokens, t)
        live = await service.act(gid, tokens, body.seat, body.version, body.action, body.basis)
        return doc_response(service, live, service.held(live, tokens))

    @api.post("/games/{gid}/undo", summary="Take back your last decision", dependencies=acting)
    async def undo(gid: str, body: UndoRequest, x_seat_tokens: str | None = Header(None),
                   t: str | None = None) -> dict[str, Any]:
        """Take back the held seats' last decision (and bots' moves after it) while no other person
        has decided since; 403 UndoRefused otherwise."""
        tokens = _tokens(x_seat_tokens, t)
        live = await service.undo(gid, tokens, body.seat, body.version)
        return doc_response(service, live, service.held(live, tokens))

    @api.post("/games/{gid}/stop", summary="Stop the game (its creator)", dependencies=acting)
    async def stop_game(gid: str, x_creator_token: str | None = Header(None), c: str | None = None,
                        x_seat_tokens: str | None = Header(None), t: str | None = None) -> dict[str, Any]:
        """End the game where it is (its log says so; hidden information stays hidden); needs the
        creator's token (``X-Creator-Token`` or ``?c=``; 403 otherwise); 409 once over or ended."""
        live = await service.stop_game(gid, _tokens(x_creator_token, c))
        return doc_response(service, live, service.held(live, _tokens(x_seat_tokens, t)))

    @api.delete("/games/{gid}", status_code=204, summary="Delete the game (its creator)", dependencies=acting)
    async def delete_game(gid: str, x_creator_token: str | None = Header(None), c: str | None = None) -> Response:
        """Delete the game and all kept with it; needs the creator's token (403 otherwise)."""
        await service.delete_game(gid, _tokens(x_creator_token, c))
        return Response(status_code=204)

    @api.post("/games/{gid}/seats/{seat}/bot", summary="Hand your seat to a bot", dependencies=acting)
    async def hand_to_bot(gid: str, seat: int, body: HandToBot, x_seat_tokens: str | None = Header(None),
                          t: str | None = None) -> dict[str, Any]:
        """The bot plays ``seat`` from now on and its token no longer holds it; needs the seat's
        token (403 otherwise); 400 for an unknown bot or a budget over the server's caps."""
        tokens = _tokens(x_seat_tokens, t)
        live = await service.hand_to_bot(gid, tokens, seat, body.bot)
        return doc_response(service, live, service.held(live, tokens))

    @api.get("/games/{gid}/history", summary="Every action so far")
    async def history(gid: str, x_seat_tokens: str | None = Header(None), t: str | None = None) -> dict[str, Any]:
        """``{"actions": [{"n", "seat", "by", "action", "text", "at"}], "version"}``."""
        live, held = await view(gid, x_seat_tokens, t)
        return service.history(live, held)

    @api.get("/games/{gid}/history/{n}", summary="The game as it was after action n")
    async def history_at(gid: str, n: int, x_seat_tokens: str | None = Header(None),
                         t: str | None = None) -> dict[str, Any]:
        """The game document after action ``n`` (0: the start), without decisions."""
        live, held = await view(gid, x_seat_tokens, t)
        return JSONResponse(service.document_at(live, n, held))

    @api.get("/games/{gid}/record", summary="Download the game record")
    async def record(gid: str) -> Response:
        """The record JSON (``rolling replay FILE`` replays it), as a download, once the game is over;
        409 ``GameRunning`` before (the record carries the seed: :mod:`.visibility`)."""
        live = await service.load(gid)
        check_record(live)
        body = json.dumps(live.record().to_json(), indent=1, ensure_ascii=False) + "\n"
        name = f"rolling-{live.game}-{live.id}.json"
        return Response(body, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @api.get("/games/{gid}/charts", summary="Net worth and share prices over the turns")
    async def charts(gid: str, x_seat_tokens: str | None = Header(None), t: str | None = None) -> dict[str, Any]:
        """``{"x": [turn labels], "net_worth": {name: [$]}, "share_price": {code: [$ or null]}}``; with
        secret money, while the game runs, only the players whose cash the tokens' seats may see
        (the others under ``hidden``; Stars ``assets``, net worth less cash, for everyone)."""
        live, held = await view(gid, x_seat_tokens, t)
        return charts_for(live, held, service.charts(live))

    @api.get("/games/{gid}/hint", summary="What the strongest bot would do in your seat")
    async def hint(gid: str, seat: int, x_seat_tokens: str | None = Header(None),
                   t: str | None = None) -> dict[str, Any]:
        """``{"bot", "action", "label", "reason", "preview"}``: the strongest bot's choice for ``seat``
        now (deterministic for a position); needs the seat's token (403 otherwise); 400 in a game
        without hints or when the seat has no decision; 409 once the game is over."""
        await service.load(gid)  # (read in a thread when not held: the hint finds it held)
        return service.hint(gid, _tokens(x_seat_tokens, t), seat)

    @api.post("/games/{gid}/chat", summary="Say something", dependencies=[Depends(limits.dependency("chat"))])
    async def chat(gid: str, body: ChatRequest, x_seat_tokens: str | None = Header(None),
                   t: str | None = None) -> dict[str, Any]:
        """Add a chat line of ``seat``; answers the chat so far."""
        live = await service.chat(gid, _tokens(x_seat_tokens, t), body.seat, body.text)
        return {"chat": live.chat[-200:]}

    @api.post("/games/{gid}/programs", summary="Set a programmed action", dependencies=acting)
    async def set_program(gid: str, body: ProgramRequest, x_seat_tokens: str | None = Header(None),
                          t: str | None = None) -> dict[str, Any]:
        """Set a programmed action of ``seat`` (replacing one of the same kind); the game document."""
        tokens = _tokens(x_seat_tokens, t)
        live = await service.set_program(gid, tokens, body.seat, body.kind, body.limit)
        return doc_response(service, live, service.held(live, tokens))

    @api.delete("/games/{gid}/programs/{seat}/{kind}", summary="Cancel a programmed action", dependencies=acting)
    async def delete_program(gid: str, seat: int, kind: str, x_seat_tokens: str | None = Header(None),
                             t: str | None = None) -> dict[str, Any]:
        """Cancel a programmed action of ``seat``; the game document."""
        tokens = _tokens(x_seat_tokens, t)
        live = await service.delete_program(gid, tokens, seat, kind)
        return doc_response(service, live, service.held(live, tokens))

    @api.post("/import", status_code=201, summary="Watch an 18xx.games export",
              dependencies=[Depends(limits.dependency("import"))], openapi_extra={
        "requestBody": {"content": {
            "application/json": {"schema": {"type": "object"}},
            "multipart/form-data": {"schema": {"type": "object", "properties": {
                "file": {"type": "string", "format": "binary"}}}},
        }},
    })
    async def import_export(request: Request) -> dict[str, Any]:
        """Create a watch-only game from an 18xx.games export of Rolling Stock Stars, sent as the
        JSON body or as the multipart field ``file``; ``{"id", "spectator_url", "match", "error"}``."""
        ctype = request.headers.get("content-type", "")
        if "multipart/form-data" in ctype:
            try:
                form = await request.form()
            except Exception:  # a broken multipart body is the sender's problem, not a server error
                raise WebError("a multipart body that cannot be read") from None
            upload = form.get("file")
            if upload is None or isinstance(upload, str):
                raise WebError("send the export as the multipart field 'file'")
            raw = await upload.read()
        else:
            raw = await request.body()
        if len(raw) > service.settings.max_import:  # the body was bounded as it came (BodyLimit)
            raise WebError(f"the export is larger than {service.settings.max_import} bytes")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise WebError("the export is not JSON") from None
        live = await service.import_export(data)
        return {"id": live.id, "spectator_url": f"/g/{live.id}", "match": live.meta.get("match"),
                "error": live.meta.get("import_error")}

    return api


def make_ws_router(service: GameService) -> APIRouter:
    """The WebSocket route: the game document on connect and after every change, each connection
    seeing its own seats' view."""
    ws_router = APIRouter()

    @ws_router.websocket("/ws/games/{gid}")
    async def live_game(websocket: WebSocket, gid: str, t: str | None = None) -> None:
        """Send the game document now and after every change (coalesced: the newest only)."""
        try:
            live = await service.load(gid)
        except WebError:
            await websocket.close(code=4404)
            return
        tokens = split_tokens(t) + split_tokens(websocket.headers.get("x-seat-tokens"))
        held = service.held(live, tokens)
        await websocket.accept()
        listener = service.listen(live, held)
        receiver = asyncio.ensure_future(_drain(websocket))
        try:
            while True:
                listener.event.clear()
                live = service.cache.get(gid, live)
                held = service.held(live, tokens)  # a seat handed to a bot is no longer the token's
                await websocket.send_text(service.document_json(live, held).decode("utf-8"))
                waiter = asyncio.ensure_future(listener.event.wait())
                done, _ = await asyncio.wait({waiter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                if receiver in done:
                    waiter.cancel()
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            service.unlisten(live, listener)
            receiver.cancel()
            with contextlib.suppress(BaseException):
                await receiver

    return ws_router


async def _drain(websocket: WebSocket) -> None:
    # what a page sends is ignored (pings); the loop ends when the page goes away
    try:
        while True:
            msg = await websocket.receive()
            if msg.get("type") == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return


def doc_response(service: GameService, live: Live, held: tuple[int, ...]) -> Response:
    """The game document as a JSON response (serialised once per change and seats, not by FastAPI's
    encoder, which would take most of the request's time)."""
    return Response(service.document_json(live, held), media_type="application/json")


def error_response(e: WebError) -> JSONResponse:
    """The JSON response of a :class:`WebError`."""
    return JSONResponse(e.body(), status_code=e.status, headers=getattr(e, "headers", None))
