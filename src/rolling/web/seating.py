"""Seats of a community (issue 31): open seats taken from the lobby by accounts, private games
joined through an invite link, what a game's creator may do with its seats (start it early with
bots, replace or reopen a seat idle too long), a game's settings, and an account's games.

Every change of seats is one transaction guarded by the game's version (:func:`.store.claim`),
like an action, and said in the game's log (``meta["events"]``). Database calls run in worker
threads, as the service's own (issue 30): the event loop goes on serving meanwhile. A seat taken by an account holds
the SHA-256 of the account's seat key (:mod:`.accounts`) as its ``token_hash``; the table
``seat_accounts`` remembers which account took it.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rolling.bots import HUMAN, OPEN, make_bot

from . import store
from .accounts import Who
from .errors import Conflict, Forbidden, Malformed, StaleVersion, WebError
from .live import TIMED_PHASES, Live, _duration
from .models import Game, GameOptions, GameResult, Seat, SeatAccount
from .service import GameService
from .store import Behind
from .tokens import hash_token, matches, new_token

#: how long a seat may stay idle before its game's creator may replace it, by default (3 days)
DEFAULT_IDLE_SECONDS = 3 * 86400.0
#: the slowest bot pace a game may set, seconds
MAX_BOT_PACE = 60.0


class SeatTaken(WebError):
    """The seat is not open (taken, a bot's), or the account already sits in the game (409)."""

    status, name = 409, "SeatTaken"


class Seating:
    """Open seats, invites, the creator's seat changes and settings, over one :class:`GameService`."""

    def __init__(self, service: GameService):
        self.service = service
        self.engine = service.engine

    # -- a game's community options -----------------------------------------------------------------
    def options(self, gid: str) -> GameOptions | None:
        """The game's options row (None: a game made without them: public, no creator account)."""
        with Session(self.engine) as db:
            return db.get(GameOptions, gid)

    async def after_create(self, live: Live, who: Who | None, private: bool) -> str | None:
        """Keep a new game's options: the account that made it, and for a private game a fresh
        invite code (returned; shown once, stored hashed)."""
        invite = new_token() if private else None

        def tx() -> None:
            with self.engine.begin() as conn:
                conn.execute(insert(GameOptions.__table__).values(
                    game_id=live.id, private=bool(private), invite_hash=hash_token(invite) if invite else None,
                    creator_account=who.id if who else None, idle_seconds=DEFAULT_IDLE_SECONDS))

        await asyncio.to_thread(tx)
        return invite

    def private_ids(self, gids: list[str]) -> set[str]:
        """Which of ``gids`` are private."""
        if not gids:
            return set()
        with self.engine.connect() as conn:
            return set(conn.execute(select(GameOptions.game_id).where(GameOptions.game_id.in_(gids),
                                                                      GameOptions.private.is_(True))).scalars())

    async def lobby(self, limit: int, open_only: bool) -> list[dict[str, Any]]:
        """The games of the lobby, newest first: private ones never; with ``open_only``, only the
        unfinished games with an open seat."""
        if not open_only:
            def listed() -> list[dict[str, Any]]:
                games = self.service.list_games(limit)
                private = self.private_ids([g["id"] for g in games])
                return [g for g in games if g["id"] not in private]

            return await asyncio.to_thread(listed)

        def waiting() -> list[str]:
            with self.engine.connect() as conn:
                opened = (select(Seat.game_id).where(Seat.kind == OPEN).distinct())
                private = select(GameOptions.game_id).where(GameOptions.private.is_(True))
                return conn.execute(select(Game.id).where(Game.id.in_(opened), Game.id.not_in(private), Game.over.is_(False),
                                                          Game.watch_only.is_(False))
                                    .order_by(Game.created.desc()).limit(limit)).scalars().all()

        out = []
        for gid in await asyncio.to_thread(waiting):
            try:
                live = await self.service.load(gid)
            except WebError:
                continue
            if "closed" not in live.meta:
                out.append({**self.service.summary(live), "open": [s["seat"] for s in live.seats if s["kind"] == OPEN]})
        return out

    def is_creator(self, live: Live, tokens: list[str], who: Who | None, opts: GameOptions | None) -> bool:
        """Whether the request is the game's creator's: its creator token, or the account that made
        it (``opts``: the game's :meth:`options`)."""
        if live.creator_hash is not None and any(matches(t, live.creator_hash) for t in tokens):
            return True
        return who is not None and opts is not None and opts.creator_account == who.id

    async def _require_creator(self, live: Live, tokens: list[str], who: Who | None) -> GameOptions | None:
        opts = await asyncio.to_thread(self.options, live.id)
        if not self.is_creator(live, tokens, who, opts):
            raise Forbidden("only the game's creator (its account or creator token) may do this")
        return opts

    # -- changing seats -----------------------------------------------------------------------------
    async def _change(self, live: Live, check, seats: dict[int, dict[str, Any]], text: str,
                      config: dict[str, Any] | None = None, accounts: dict[int, str] | None = None) -> Live:
        """Commit new ``seats`` (``{seat: {"kind", "token_hash", "name"?}}``) and the line ``text`` of
        the log in one guarded transaction, under the game's lock; ``check()`` runs first under the
        lock (and again after catching up with a writer that came first). ``accounts``: seats taken
        by an account (``seat_accounts``). ``config``: the game's config with the players' new names
        (only before the first action: the state is replayed with them)."""
        svc = self.service
        async with live.lock:
            for _ in range(2):
                if live.state.is_over or live.watch_only:
                    raise Conflict("the game is over" if live.state.is_over else "this game is watch only")
                svc._require_open(live)
                check()
                meta = svc._event(live, text)
                new_config = config if config is not None and not live.actions else None
                now = time.time()
                values: dict[str, Any] = {"meta": meta, "updated": now}
                if new_config is not None:
                    values["config"] = new_config

                def tx(conn: Any, values: dict[str, Any] = values, now: float = now) -> int:
                    version = store.claim(conn, live.id, live.version, values=values)
                    for k, change in seats.items():
                        conn.execute(update(Seat.__table__).where(Seat.game_id == live.id, Seat.seat == k).values(**change))
                    for k, aid in (accounts or {}).items():
                        conn.execute(delete(SeatAccount.__table__).where(SeatAccount.game_id == live.id, SeatAccount.seat == k))
                        conn.execute(insert(SeatAccount.__table__).values(game_id=live.id, seat=k, account_id=aid, joined=now))
                    store.notify(conn, live.id, version, svc.origin)
                    return version

                try:
                    version = await svc._transact(tx)
                    break
                except Behind:
                    await svc._acatch_up(live)
            else:
                raise StaleVersion()
            from .limits import capped

            live.meta, live.version = meta, version
            live.touched = time.time()  # bots and clocks count from the change (a game that starts now)
            for k, change in seats.items():
                live.seats[k] = {**live.seats[k], **change}
                kind = live.seats[k]["kind"]
                if kind in (HUMAN, OPEN):
                    live.bots.pop(k, None)
                else:
                    live.bots[k] = capped(make_bot(live.game, kind, seed=live.seed * 101 + k), svc.settings)
            if new_config is not None:
                live.config = new_config
                svc._rebuild(live)  # (no action yet: nothing to replay but the setup)
            live.docs.clear()
            svc._changed(live)
            await svc._asettle(live)
        svc._kick(live)
        return live

    def _seat(self, live: Live, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise Malformed(f"there is no seat {seat!r} in this game (seats 0 to {len(live.seats) - 1})")
        return seat

    async def join(self, gid: str, who: Who, seat: Any, invite: str | None = None) -> Live:
        """The account takes the open ``seat``: it plays it from now on with its cookie.

        Raises:
            NotFound, Malformed (no such seat), Forbidden (a private game without its invite code),
            SeatTaken (409: the seat is not open, or the account already sits in the game),
            Conflict (over, imported or ended).
        """
        live = await self.service.load(gid)
        seat = self._seat(live, seat)
        opts = await asyncio.to_thread(self.options, gid)
        if opts is not None and opts.private and not (invite and matches(invite, opts.invite_hash)):
            raise Forbidden("this game is private: join it through its invite link")
        key_hash = hash_token(who.seat_key)

        def check() -> None:
            if live.seats[seat]["kind"] != OPEN:
                raise SeatTaken(f"seat {seat} ({live.seats[seat]['name']}) is not open")
            if any(s["token_hash"] == key_hash for s in live.seats):
                raise SeatTaken("you already sit in this game")

        config = None
        if isinstance(live.config.get("names"), list) and len(live.config["names"]) == len(live.seats):
            config = {**live.config, "names": [who.name if k == seat else n for k, n in enumerate(live.config["names"])]}
        return await self._change(live, check, {seat: {"kind": HUMAN, "token_hash": key_hash, "name": who.name}},
                                  f"{who.name} took seat {seat + 1}", config=config, accounts={seat: who.id})

    def _bot(self, live: Live, bot: Any) -> str:
        from rolling.bots import resolve_bot
        from rolling.core.errors import UsageError

        from .limits import check_budget

        try:
            kind = resolve_bot(live.game, str(bot or "bot")[:64], play=True)
        except UsageError as e:
            raise WebError(str(e)) from None
        check_budget(live.game, kind, self.service.settings)
        return kind

    async def start_now(self, gid: str, tokens: list[str], who: Who | None, bot: Any = "bot") -> Live:
        """The creator starts the game with ``bot`` in every open seat.

        Raises:
            NotFound, Forbidden (not the creator), WebError (400: an unknown bot, or no open seat),
            Conflict (over, imported or ended).
        """
        live = await self.service.load(gid)
        await self._require_creator(live, tokens, who)
        kind = self._bot(live, bot)
        opened = [s["seat"] for s in live.seats if s["kind"] == OPEN]

        def check() -> None:
            if not opened or any(live.seats[k]["kind"] != OPEN for k in opened):
                raise SeatTaken("the game has no open seat (or one was taken meanwhile)")

        which = ", ".join(str(k + 1) for k in opened)
        return await self._change(live, check, {k: {"kind": kind, "token_hash": None} for k in opened},
                                  f"the creator started the game: the bot {kind} took the open seat{'s' if len(opened) > 1 else ''} {which}")

    def idle_for(self, live: Live, seat: int) -> float:
        """Seconds ``seat`` has been to act without acting (0 when it is not to act)."""
        if live.state.is_over or seat not in live.state.to_act:
            return 0.0
        return max(0.0, time.time() - live.last_time)

    async def replace(self, gid: str, tokens: list[str], who: Who | None, seat: Any, to: Any) -> Live:
        """The creator replaces a person's seat idle longer than the game's idle time (its settings)
        with a bot (``to``: ``bot``, ``bot:NAME``, ``NAME``) or reopens it (``to``: ``open``): the
        person's link or account no longer holds it.

        Raises:
            NotFound, Forbidden (not the creator), Malformed (no such seat), SeatTaken (409: not a
            person's seat), Conflict (409: not idle long enough, or the game is over or ended),
            WebError (400: an unknown bot).
        """
        live = await self.service.load(gid)
        opts = await self._require_creator(live, tokens, who)
        seat = self._seat(live, seat)
        reopen = str(to or "").strip().lower() == OPEN
        kind = OPEN if reopen else self._bot(live, to)
        limit = opts.idle_seconds if opts is not None else 0.0

        def check() -> None:
            if live.seats[seat]["kind"] != HUMAN:
                raise SeatTaken(f"seat {seat} ({live.seats[seat]['name']}) is not a person's")
            idle = self.idle_for(live, seat)
            if not limit or idle < limit:
                need = f"after {_duration(limit)}" if limit else "never (no idle time is set)"
                raise Conflict(f"seat {seat} has been idle {_duration(math.floor(idle))}; it may be replaced {need}")

        name = live.seats[seat]["name"]
        text = (f"the creator reopened the seat of {name}, idle too long" if reopen
                else f"the creator handed the seat of {name}, idle too long, to the bot {kind}")
        return await self._change(live, check, {seat: {"kind": kind, "token_hash": None}}, text)

    # -- settings -----------------------------------------------------------------------------------
    async def settings_of(self, live: Live, tokens: list[str], who: Who | None) -> dict[str, Any]:
        """A game's settings (public): time limits, bot pace, idle time, private, open seats, the
        seats' idle times, and whether the request is the creator's."""
        opts = await asyncio.to_thread(self.options, live.id)
        return {"id": live.id, "title": live.title, "time_limits": dict(live.time_limits),
                "timed_phases": list(TIMED_PHASES.get(live.game, ())),
                "bot_pace": live.meta.get("bot_pace", self.service.bot_pace),
                "idle_seconds": opts.idle_seconds if opts is not None else 0.0,
                "private": bool(opts.private) if opts is not None else False,
                "open": [s["seat"] for s in live.seats if s["kind"] == OPEN],
                "seats": [{"seat": s["seat"], "name": s["name"], "kind": s["kind"],
                           "idle": round(self.idle_for(live, s["seat"]))} for s in live.seats],
                "over": bool(live.state.is_over), "creator": self.is_creator(live, tokens, who, opts)}

    async def set_settings(self, gid: str, tokens: list[str], who: Who | None, time_limits: Any = None,
                           bot_pace: Any = None, idle_seconds: Any = None) -> dict[str, Any]:
        """The creator changes the game's time limits, bot pace or idle time (None: unchanged).

        Raises:
            NotFound, Forbidden (not the creator), WebError (400: a value out of its range),
            Conflict (over or ended).
        """
        live = await self.service.load(gid)
        await self._require_creator(live, tokens, who)
        limits = None
        if time_limits is not None:
            limits = {}
            for k, v in dict(time_limits).items():
                if str(k) not in TIMED_PHASES.get(live.game, ()):
                    raise WebError(f"no time limit can be set for phase {k!r} (phases: {', '.join(TIMED_PHASES.get(live.game, ())) or 'none'})")
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 7 * 86400:
                    raise WebError("a time limit is a whole number of seconds from 1 to 604800 (or 0: none)")
                if v:
                    limits[str(k)] = v
        if bot_pace is not None and not (isinstance(bot_pace, int | float) and 0 <= bot_pace <= MAX_BOT_PACE):
            raise WebError(f"the bot pace is 0 to {MAX_BOT_PACE:g} seconds")
        if idle_seconds is not None and not (isinstance(idle_seconds, int | float) and 0 <= idle_seconds <= 90 * 86400):
            raise WebError("the idle time is 0 (never) to 7776000 seconds (90 days)")
        svc = self.service
        async with live.lock:
            for _ in range(2):
                svc._require_open(live)
                if live.state.is_over:
                    raise Conflict("the game is over")
                meta = dict(live.meta)
                if bot_pace is not None:
                    meta["bot_pace"] = float(bot_pace)
                values: dict[str, Any] = {"meta": meta}
                if limits is not None:
                    values["time_limits"] = limits
                # when the next automated action is due under the new settings: the workers' sweeper reads it
                values["due_at"] = svc._due_after(live, meta=meta, time_limits=live.time_limits if limits is None else limits)

                def tx(conn: Any, values: dict[str, Any] = values) -> int:
                    # no decision changes: the version stays, the row is still guarded
                    version = store.claim(conn, live.id, live.version, bump=False, values=values)
                    if idle_seconds is not None:
                        got = conn.execute(update(GameOptions.__table__).where(GameOptions.game_id == live.id)
                                           .values(idle_seconds=float(idle_seconds))).rowcount
                        if not got:  # (a game made before its options were kept)
                            conn.execute(insert(GameOptions.__table__).values(
                                game_id=live.id, private=False, invite_hash=None, creator_account=None,
                                idle_seconds=float(idle_seconds)))
                    store.notify(conn, live.id, version, svc.origin)
                    return version

                try:
                    await svc._transact(tx)
                    break
                except Behind:
                    await svc._acatch_up(live)
            else:
                raise StaleVersion()
            live.meta = meta
            if limits is not None:
                live.time_limits = limits
            live.docs.clear()
            svc._changed(live)
        svc._kick(live)
        return await self.settings_of(live, tokens, who)

    # -- an account's games -------------------------------------------------------------------------
    async def games_of(self, who: Who) -> dict[str, Any]:
        """The account's games (the seats it holds now; a seat handed on is not its any more), those
        waiting for it first, and per game and edition the games it finished and won. Nothing
        hidden: a game's title, its seats' names, who is to act, whether it is over."""
        key_hash = hash_token(who.seat_key)

        def read() -> list[Any]:
            with self.engine.connect() as conn:
                return conn.execute(
                    select(SeatAccount.game_id, SeatAccount.seat, Seat.name, Seat.token_hash, Game.title, Game.game,
                           Game.config, Game.over, Game.to_act, Game.updated, Game.meta)
                    .join(Seat, (Seat.game_id == SeatAccount.game_id) & (Seat.seat == SeatAccount.seat))
                    .join(Game, Game.id == SeatAccount.game_id)
                    .where(SeatAccount.account_id == who.id)).all()

        rows = await asyncio.to_thread(read)
        games: dict[str, dict[str, Any]] = {}
        for r in rows:
            if r.token_hash != key_hash:
                continue
            g = games.setdefault(r.game_id, {"id": r.game_id, "title": r.title, "game": r.game,
                                             "edition": (r.config or {}).get("edition"), "over": bool(r.over),
                                             "closed": bool((r.meta or {}).get("closed")), "to_act": list(r.to_act or []),
                                             "updated": r.updated, "seats": [], "waiting": False})
            g["seats"].append({"seat": r.seat, "name": r.name})
            if not r.over and r.seat in (r.to_act or []):
                g["waiting"] = True
        listed = sorted(games.values(), key=lambda g: (not g["waiting"], g["over"], -g["updated"]))
        finished = [g for g in listed if g["over"] and not g["closed"]]
        results = await asyncio.to_thread(self._results, [g["id"] for g in finished])
        stats: dict[tuple[str, str], dict[str, Any]] = {}
        for g in finished:
            entry = stats.setdefault((g["game"], g["edition"] or ""), {"game": g["game"], "edition": g["edition"],
                                                                       "played": 0, "won": 0})
            entry["played"] += 1
            seats = {s["seat"] for s in g["seats"]}
            if any(seat in seats and win for seat, win in results.get(g["id"], ())):
                entry["won"] += 1
        return {"games": listed, "waiting": [g["id"] for g in listed if g["waiting"]], "stats": list(stats.values())}

    def _results(self, gids: list[str]) -> dict[str, list[tuple[int, bool]]]:
        """``{game: [(seat, win)]}`` of the finished games ``gids``, read from ``game_results``;
        a game finished before results were kept (migration 0007) is replayed once and its results
        stored (any thread)."""
        if not gids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(GameResult.game_id, GameResult.seat, GameResult.win)
                                .where(GameResult.game_id.in_(gids))).all()
        out: dict[str, list[tuple[int, bool]]] = {}
        for r in rows:
            out.setdefault(r.game_id, []).append((r.seat, bool(r.win)))
        for gid in gids:
            if gid in out:
                continue
            try:
                state = self.service._read(gid).state  # (replayed here, not cached: once per game)
            except WebError:  # (deleted meanwhile, or a record that no longer replays: not counted as won)
                continue
            if not state.is_over:
                continue
            standings = state.standings()
            try:
                with self.engine.begin() as conn:
                    store.store_results(conn, gid, standings)
            except IntegrityError:  # another request stored them first: the same rows
                pass
            out[gid] = [(int(r["seat"]), bool(r.get("win", r.get("rank") == 1))) for r in standings]
        return out


__all__ = ["DEFAULT_IDLE_SECONDS", "SeatTaken", "Seating"]
