"""Commands: what people ask of a game (create, import, act, undo, program, chat, stop, delete,
hand a seat to a bot), each validated, then stored in one transaction guarded by the version this
process holds (:mod:`.store`), then scheduled (the automated actions it makes due: :mod:`.driving`)."""

from __future__ import annotations

import asyncio
import copy
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from rolling.bots import HUMAN, OPEN, default_names, make_bot, parse_seats
from rolling.bots.reasons import decode, encode
from rolling.core.errors import IllegalAction, RecordError, UsageError
from rolling.core.reveal import actor
from rolling.games import GAME_MODULES, get_game

from . import automation as A
from . import programs as P
from . import store
from .cache import SNAPSHOT_EVERY
from .errors import Conflict, Forbidden, Illegal, Malformed, NotFound, StaleVersion, UndoRefused, WebError
from .live import (
    BY_HUMAN,
    BY_IMPORT,
    BY_PROGRAM,
    BY_TIMER,
    IMPORTED,
    MAX_CHAT,
    MAX_REASON,
    MAX_UNDOS_KEPT,
    NOTHING_TO_UNDO,
    TIMED_PHASES,
    Live,
    _duration,
    _iso,
    _title,
    waiting,
)
from .models import ActionRow, AnalysisRow, BotReasonRow, ChatRow, Game, ProgramRow, Seat
from .stale import basis as decision_basis
from .stale import what_changed
from .store import Behind
from .tokens import hash_token, matches, new_game_id, new_token

log = logging.getLogger("rolling.web")

_INSERT_ACTION = insert(ActionRow.__table__)
_INSERT_REASON = insert(BotReasonRow.__table__)
_UPDATE_GAME = (update(Game.__table__).where(Game.__table__.c.id == bindparam("gid"))
                .values(over=bindparam("over"), to_act=bindparam("to_act"), updated=bindparam("updated"),
                        due_at=bindparam("due_at")))


class Commands:
    """The commands' part of :class:`~rolling.web.service.GameService` (a mix-in)."""

    # -- who holds what ------------------------------------------------------------------------------
    @staticmethod
    def held(live: Live, tokens: Iterable[str]) -> tuple[int, ...]:
        """The seats whose token is among ``tokens`` (sorted)."""
        hashes = {hash_token(t) for t in tokens}
        return tuple(s["seat"] for s in live.seats if s["token_hash"] is not None and s["token_hash"] in hashes)

    @staticmethod
    def _require(live: Live, held: tuple[int, ...], seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise Malformed(f"there is no seat {seat!r} in this game (seats 0 to {len(live.seats) - 1})")
        if seat not in held:
            raise Forbidden(f"this request does not carry the token of seat {seat} ({live.seats[seat]['name']})")
        return seat


    # -- creating ------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        """What the lobby form offers, per game: player counts, editions, variants, bots."""
        from rolling.bots import PLAY, STRONGEST, bot_names

        out: dict[str, Any] = {}
        for game in GAME_MODULES:
            entry: dict[str, Any] = {"bots": bot_names(game), "strongest": PLAY.get(game, STRONGEST.get(game))}
            if game == "stars":
                from rolling.games.stars.config import EDITIONS, PLAYERS, TITLES, VARIANTS

                entry.update({"title": TITLES["stars"], "players": [2, 6], "editions": list(EDITIONS),
                              "players_by_edition": {e: list(PLAYERS[e]) for e in EDITIONS},
                              "variants": list(VARIANTS), "time_limits": {"3": 120, "4": 60}})
            elif game == "freight":
                from .freight import maps

                entry.update({"title": "Rolling Freight", "players": [2, 5], "editions": [], "variants": [], "maps": maps()})
            else:
                entry.update({"title": "Rolling Market", "players": [1, 1], "editions": [], "variants": []})
            out[game] = entry
        return {"games": out}

    async def create(self, game: str, config: dict[str, Any] | None, seats: list[str] | None,
                     names: list[str] | None = None, seed: int | None = None,
                     time_limits: dict[str, int] | None = None,
                     creator_token: str | None = None) -> tuple[Live, dict[int, str]]:
        """Create a game; return it and the token of each human seat (shown once, stored hashed).
        ``creator_token`` (stored hashed) may later stop or delete the game (:meth:`stop_game`, :meth:`delete_game`).

        Raises:
            WebError: unknown game, a bad config, seat list, names or time limit (400).
        """
        try:
            spec = get_game(game)
        except RecordError as e:
            raise WebError(str(e)) from None
        config = dict(config or {})
        try:
            kinds = parse_seats(game, seats, players=config.get("players") if isinstance(config.get("players"), int) else None,
                                default_players=2 if game == "stars" else 1, open_seats=True)
        except UsageError as e:
            raise WebError(str(e)) from None
        from .limits import check_budget

        for kind in kinds:
            if kind not in (HUMAN, OPEN):
                check_budget(game, kind, self.settings)
        if "players" not in config and game != "market":
            config["players"] = len(kinds)
        if names:
            if len(names) != len(kinds):
                raise WebError(f"{len(names)} names given for {len(kinds)} seats")
            names = [str(n).strip()[:40] or d for n, d in zip(names, default_names(kinds), strict=True)]
        else:
            names = default_names(kinds)
        if game in ("stars", "freight") and not config.get("names"):
            config["names"] = names
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31:
            raise WebError("the seed must be a whole number from 0 to 2147483647")
        try:
            cfg = spec.config_from_json(config)
            state = spec.new_game(cfg, seed)
        except (RecordError, ValueError) as e:
            raise WebError(f"bad config: {e}") from None
        config = cfg.to_json() if hasattr(cfg, "to_json") else config
        n_seats = len(state.standings())  # every game ranks every seat, from the start
        if n_seats != len(kinds):
            raise WebError(f"{len(kinds)} seats given for {n_seats} players")
        limits: dict[str, int] = {}
        for k, v in (time_limits or {}).items():
            if str(k) not in TIMED_PHASES.get(game, ()):
                raise WebError(f"no time limit can be set for phase {k!r} (phases: {', '.join(TIMED_PHASES.get(game, ())) or 'none'})")
            if v is None or v == 0:
                continue
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 7 * 86400:
                raise WebError("a time limit is a whole number of seconds from 1 to 604800 (or 0: none)")
            limits[str(k)] = v
        now = time.time()
        gid = new_game_id()
        tokens: dict[int, str] = {}
        seat_rows = []
        for k, kind in enumerate(kinds):
            token_hash = None
            if kind == HUMAN:
                tokens[k] = new_token()
                token_hash = hash_token(tokens[k])
            seat_rows.append({"seat": k, "name": names[k], "kind": kind, "token_hash": token_hash})
        title = _title(game, config, len(kinds))
        # something automated may be due (a worker's first job stores exactly when; the sweeper
        # finds the game even if that job is never deferred)
        due = now if (limits or any(kind != HUMAN for kind in kinds)) and not state.is_over else None

        def tx() -> None:
            with self.Session.begin() as db:
                db.add(Game(id=gid, game=game, title=title, config=config, seed=seed, created=now, time_limits=limits,
                            meta={}, watch_only=False, version=0, over=bool(state.is_over), to_act=list(state.to_act),
                            updated=now, creator_hash=hash_token(creator_token) if creator_token else None,
                            due_at=due))
                db.flush()
                for r in seat_rows:
                    db.add(Seat(game_id=gid, **r))

        await asyncio.to_thread(tx)
        live = await self.load(gid)
        async with live.lock:
            await self._asettle(live)
        await self._schedule(live)
        return live, tokens

    async def import_export(self, data: Any) -> Live:
        """Create a watch-only game from an 18xx.games export of Rolling Stock Stars (the actions
        our engine accepted, up to the first it refused).

        Raises:
            WebError: not such an export (400).
        """
        from rolling.interop.e18xx import import_export

        try:
            result = import_export(data)
        except RecordError as e:
            raise WebError(str(e)) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise WebError(f"not a readable 18xx.games export: {e}") from None
        rec = result.record
        names = [str(n) for n in rec.meta.get("names", [])]
        players = int(rec.config.get("players", len(names)))
        if len(names) != players:
            names = [f"Player {k}" for k in range(1, players + 1)]
        now = time.time()
        gid = new_game_id()
        meta = {"source": "18xx.games", "site_game_id": rec.meta.get("site_game_id"), "match": result.match}
        if result.error:
            meta["import_error"] = result.error
        state = result.state
        title = f"{_title('stars', rec.config, players)} (18xx.games {rec.meta.get('site_game_id') or 'export'})"
        def tx() -> None:
            with self.Session.begin() as db:
                db.add(Game(id=gid, game="stars", title=title[:200], config=rec.config, seed=rec.seed, created=now,
                            time_limits={}, meta=meta, watch_only=True, version=len(rec.actions),
                            over=bool(state.is_over), to_act=list(state.to_act), updated=now))
                db.flush()
                for k in range(players):
                    db.add(Seat(game_id=gid, seat=k, name=names[k][:100], kind=IMPORTED, token_hash=None))
                db.flush()
                db.add_all([ActionRow(game_id=gid, n=i + 1, seat=a.get("seat"), by=BY_IMPORT, action=a, created=now)
                            for i, a in enumerate(rec.actions)])

        await asyncio.to_thread(tx)
        return await self.load(gid)


    # -- acting --------------------------------------------------------------------------------------
    def _commit(self, live: Live, action: Any, seat: int | None, by: str, reason: str | None = None) -> None:
        """Commit ``action`` in one transaction guarded by the game's version (:func:`.store.claim`)
        with the bot's ``reason`` for it, if any, and the programs it cancels; then count it in the
        live game and tell the pages (and, on PostgreSQL, the other processes). In the calling
        thread; the event loop's tasks use :meth:`_acommit`, the same with the transaction in a
        worker thread.

        Raises:
            IllegalAction: the rules forbid it; nothing changed (the transaction is rolled back).
            Behind: the database's game moved on (another process or task wrote first); nothing
                changed: the caller catches up (:meth:`_catch_up`).
            StaleVersion: the database refused the commit otherwise; nothing changed.
        """
        self._committed(live, self._commit_tx(live, action, seat, by, reason))

    async def _acommit(self, live: Live, action: Any, seat: int | None, by: str, reason: str | None = None) -> None:
        """:meth:`_commit` with the database's transaction (and the engine's apply) in a worker
        thread, so that the event loop serves other games meanwhile; the caller holds the game's
        lock, so the game's changes stay in order (issue 30)."""
        self._committed(live, await asyncio.to_thread(self._commit_tx, live, action, seat, by, reason))

    def _commit_tx(self, live: Live, action: Any, seat: int | None, by: str, reason: str | None) -> SimpleNamespace:
        """The transaction of :meth:`_commit` (any thread, under the game's lock): ``action`` is
        applied to a copy of the live state (``state.clone()``), so that the pages, read on the
        event loop meanwhile, see the game as stored until the commit; what to count once committed."""
        s = live.state.clone()
        data = action.to_json()
        n = len(live.actions) + 1
        now = time.time()
        stored = encode(reason, MAX_REASON) if reason and seat is not None else None
        try:
            # SQLAlchemy Core, not the ORM: this is the hot path (a few hundred µs instead of ms)
            with self.engine.begin() as conn:
                version = store.claim(conn, live.id, live.version)
                mover = actor(action, s)
                phase = get_game(live.game).phase(s)
                s.apply(action)  # IllegalAction: the transaction rolls back, the live state is untouched
                conn.execute(_INSERT_ACTION, {"game_id": live.id, "n": n, "seat": seat, "by": by, "action": data,
                                              "created": now})
                if stored:
                    conn.execute(_INSERT_REASON, {"game_id": live.id, "n": n, "seat": seat, "text": stored})
                programs = self._check_programs(live, s, conn)
                due = self._due_after(live, state=s, touched=now,
                                      programs=live.programs if programs is None else programs)
                conn.execute(_UPDATE_GAME, {"gid": live.id, "over": bool(s.is_over), "to_act": list(s.to_act),
                                            "updated": now, "due_at": due})
                if s.is_over:  # the seats' results, read by the accounts' records (issue 31)
                    store.store_results(conn, live.id, s.standings())
                store.notify(conn, live.id, version, self.origin)
        except SQLAlchemyError as e:
            log.warning("game %s: action %d not stored (%s)", live.id, n, e)
            raise StaleVersion() from None
        return SimpleNamespace(state=s, data=data, n=n, now=now, stored=stored, version=version, seat=seat, by=by,
                               programs=programs, mover=mover, phase=phase)

    def _committed(self, live: Live, c: SimpleNamespace) -> None:
        """Count a committed action (:meth:`_commit_tx`) in the live game (on the event loop)."""
        live.state = c.state
        live.floor.after(c.n, c.state, c.mover)
        if c.n % SNAPSHOT_EVERY == 0:  # (the published state never changes: kept as it is)
            live.snapshots[c.n] = (c.state, copy.copy(live.floor))
        if c.programs is not None:
            live.programs = c.programs
        live.actions.append(c.data)
        live.version = c.version
        live.by.append((c.seat, c.by))
        live.times.append(c.now)
        live.log_marks.append(len(getattr(c.state, "log", None) or ()))
        live.phases.append(c.phase)
        if c.stored:
            live.reasons[c.n] = (c.seat, decode(c.stored))  # as a restart reads it back
        self._changed(live)

    def _due_after(self, live: Live, **changes: Any) -> float | None:
        """When the game's next automated action will be due once ``changes`` (attributes of
        :class:`Live`: ``state``, ``programs``, ``bots``, ``touched``...) are made: the ``due_at``
        to store with them (:func:`.automation.due_at`; any thread, ``live`` is only read)."""
        proxy = copy.copy(live)
        for k, v in changes.items():
            setattr(proxy, k, v)
        found = A.due_at(proxy, self.bot_pace)
        return found[0] if found is not None else None

    async def _schedule(self, live: Live) -> None:
        """After a change: the automated actions it made due are the queue's (a job deferred,
        :mod:`.tasks`) or, without a queue, this process's own background task (:meth:`_kick`)."""
        if self.jobs is not None:
            await self.jobs.schedule(live)
        else:
            self._kick(live)

    async def _transact(self, fn: Callable[[Connection], Any]) -> Any:
        """``fn(conn)`` in one transaction, in a worker thread (the event loop goes on meanwhile);
        its result. The caller holds the game's lock: the game's changes stay in order."""
        def run() -> Any:
            with self.engine.begin() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    async def act(self, gid: str, tokens: list[str], seat: Any, version: Any, data: Any, basis: Any = None) -> Live:
        """Apply a person's action for ``seat`` chosen on ``version``, when the page showed the seat's
        decision ``basis`` (the document's ``basis[seat]``, :mod:`.stale`).

        An action chosen on an older version is taken when ``basis`` is given, nothing it covers
        has changed and the action is still legal (the any-order phases: issue 29); otherwise it is
        refused with StaleVersion saying what changed.

        Raises:
            NotFound, Forbidden (token), Malformed (not an action of this game, or for another
            seat), StaleVersion (``version`` is not current and the decision changed), Illegal (the
            rules forbid it; the rule is named), Conflict (the game is over or watch-only).
        """
        live = await self.load(gid)
        held = self.held(live, tokens)
        seat = self._require(live, held, seat)
        if not isinstance(data, dict):
            raise Malformed("an action is a JSON object with a 'type'")
        data = dict(data)
        if "seat" not in data and self._has_seat_field(live, data):
            data["seat"] = seat
        try:
            action = get_game(live.game).action_from_json(data)
        except (RecordError, TypeError, ValueError) as e:
            raise Malformed(str(e)) from None
        acting = getattr(action, "seat", seat)
        if acting != seat:
            raise Forbidden(f"the action is for seat {acting!r}, not seat {seat}")
        async with live.lock:
            if isinstance(version, int) and version > live.version:
                await self._acatch_up(live)  # the page saw the game on a process ahead of this one
            for _ in range(2):  # once more after catching up with a writer that came first
                if seat not in self.held(live, tokens):  # (the seat was handed to a bot meanwhile)
                    raise Forbidden(f"this request does not carry the token of seat {seat} ({live.seats[seat]['name']})")
                stale = version != live.version
                if stale and basis is None:
                    raise StaleVersion()
                if live.watch_only:
                    raise Conflict("this game was imported to be watched; nobody plays it here")
                self._require_open(live)
                if live.state.is_over:
                    raise Conflict("the game is over")
                if waiting(live):
                    raise Conflict("the game waits for its open seats to be taken (or for its creator to start it)")
                if stale:
                    changed = what_changed(basis, decision_basis(live.game, live.state, seat), data)
                    if changed is not None:
                        raise StaleVersion(changed)
                try:
                    await self._acommit(live, action, seat, BY_HUMAN)
                    break
                except Behind:
                    await self._acatch_up(live)
                except IllegalAction as e:
                    if stale:  # legal on the page's version, not any more
                        raise StaleVersion(f"the game changed: {e.reason}") from None
                    raise Illegal(e.reason, rule=e.rule) from None
            else:
                raise StaleVersion()
            await self._asettle(live)
        await self._schedule(live)
        return live

    def _has_seat_field(self, live: Live, data: dict[str, Any]) -> bool:
        import dataclasses

        if live.game != "stars":
            return False
        from rolling.games.stars.actions import ACTIONS

        cls = ACTIONS.get(data.get("type")) if isinstance(data.get("type"), str) else None
        return cls is not None and any(f.name == "seat" for f in dataclasses.fields(cls))

    # -- undo ----------------------------------------------------------------------------------------
    def _undo_point(self, live: Live, held: tuple[int, ...]) -> tuple[int | None, str]:
        """The number of actions to keep to take back the last decision the held seats may take
        back, or ``(None, why not)``.

        The last decision of a person (their own action or programmed action) must be one of the
        held seats' (so no other person has acted since; holding several seats, as at a hotseat
        table, any of theirs). Never past a phase's time running out, nor past what the held seats
        learned since: a reveal (a card drawn, dice rolled), a move of any seat they do not hold (a
        bot's answer, a step forced by secret cash: a person's undo never takes back another
        seat's decision), or the end of the game: the one rule of
        :meth:`rolling.core.reveal.UndoFloor.refusal`, the held seats its party."""
        last = None
        for i in range(len(live.by) - 1, -1, -1):
            seat, by = live.by[i]
            if by in (BY_HUMAN, BY_PROGRAM):
                last = i
                break
            if by in (BY_TIMER, BY_IMPORT):
                return None, "the phase's time ran out since" if by == BY_TIMER else "an imported game cannot be changed"
        if last is None:
            return None, NOTHING_TO_UNDO
        if live.by[last][0] not in held:
            return None, "another player has decided since your last decision"
        why = live.floor.refusal(last, live.state, held, [s["name"] for s in live.seats])
        if why is not None:
            return None, why
        return last, ""

    async def undo(self, gid: str, tokens: list[str], seat: Any, version: Any) -> Live:
        """Take back the last decision of the held seats (see :meth:`_undo_point`).

        Raises:
            NotFound, Forbidden, Malformed (no such seat), StaleVersion, UndoRefused.
        """
        live = await self.load(gid)
        held = self.held(live, tokens)
        seat = self._require(live, held, seat)
        async with live.lock:
            if isinstance(version, int) and version > live.version:
                await self._acatch_up(live)  # the page saw the game on a process ahead of this one
            if version != live.version:
                raise StaleVersion()
            self._require_open(live)
            held = self.held(live, tokens)
            keep, why = self._undo_point(live, held)
            if keep is None:
                raise UndoRefused(why)
            undone_seat = live.by[keep][0]
            now = time.time()
            # a process behind learns from meta["undos"] which of its actions went (:meth:`_catch_up`)
            undos = [*live.meta.get("undos", []), {"v": live.version + 1, "keep": keep}][-MAX_UNDOS_KEPT:]
            meta = {**live.meta, "undos": undos}

            def tx() -> tuple[int, Live]:
                with self.engine.begin() as conn:
                    # the guard first: of an undo here and an action elsewhere, one commits, the other is 409
                    new_version = store.claim(conn, live.id, live.version, values={"meta": meta, "updated": now})
                    conn.execute(delete(ActionRow.__table__).where(ActionRow.game_id == live.id, ActionRow.n > keep))
                    conn.execute(delete(BotReasonRow.__table__).where(BotReasonRow.game_id == live.id, BotReasonRow.n > keep))
                    conn.execute(delete(ProgramRow.__table__).where(ProgramRow.game_id == live.id, ProgramRow.seat == undone_seat))
                    past = self._replayed(live, keep)  # (the live game is untouched until the commit)
                    s = past.state
                    due = self._due_after(live, state=s, touched=now, meta=meta,
                                          programs={k: v for k, v in live.programs.items() if k[0] != undone_seat})
                    conn.execute(_UPDATE_GAME, {"gid": live.id, "over": bool(s.is_over), "to_act": list(s.to_act),
                                                "updated": now, "due_at": due})
                    store.notify(conn, live.id, new_version, self.origin)
                return new_version, past

            try:
                new_version, past = await asyncio.to_thread(tx)
            except Behind:
                await self._acatch_up(live)
                raise StaleVersion() from None
            except SQLAlchemyError as e:
                log.warning("game %s: undo not stored (%s); rebuilding from the database", live.id, e)
                await self._areload(live)
                raise StaleVersion() from None
            self._take_replay(live, past)
            live.meta = meta
            live.version = new_version  # committed: the undo is a change of its own
            # a program of the seat would take the same decision again at once
            live.programs = {k: v for k, v in live.programs.items() if k[0] != undone_seat}
            live.touched = now
            self._changed(live)
        await self._schedule(live)
        return live


    # -- programs ------------------------------------------------------------------------------------
    def _check_programs(self, live: Live, state: Any, conn: Any) -> dict | None:
        """The game's programs after an action led to ``state``: those whose assumption no longer
        holds cancelled, the others' assumptions updated, both stored in the action's transaction
        ``conn``; None when nothing changed (``live.programs`` is left as it is: the caller counts
        the new ones once committed)."""
        if not live.programs:
            return None
        gone, changed = [], []
        for key, p in live.programs.items():
            new = P.check(p["kind"], p["assumption"], state, p["seat"])
            if new is None:
                gone.append(key)
            elif new != p["assumption"]:
                changed.append({**p, "assumption": new})
        if not gone and not changed:
            return None
        t = ProgramRow.__table__
        out = {k: v for k, v in live.programs.items() if k not in gone}
        for seat, kind in gone:
            conn.execute(delete(t).where(t.c.game_id == live.id, t.c.seat == seat, t.c.kind == kind))
        for p in changed:
            conn.execute(update(t).where(t.c.game_id == live.id, t.c.seat == p["seat"], t.c.kind == p["kind"])
                         .values(assumption=p["assumption"]))
            out[(p["seat"], p["kind"])] = p
        return out

    async def set_program(self, gid: str, tokens: list[str], seat: Any, kind: Any, limit: Any) -> Live:
        """Set (or replace) a programmed action of ``seat`` (see :mod:`.programs`).

        Raises:
            NotFound, Forbidden, Malformed (no such seat), WebError (400: the program cannot be set now).
        """
        live = await self.load(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        try:
            kind = P.canonical(str(kind))
            if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
                raise P.ProgramError("the limit is a whole number of $")
            async with live.lock:
                for attempt in range(2):  # once more after catching up with a writer that came first
                    if live.watch_only:
                        raise Conflict("this game was imported to be watched; nobody plays it here")
                    self._require_open(live)
                    if seat not in self.held(live, tokens):
                        raise Forbidden(f"this request does not carry the token of seat {seat}")
                    assumption = P.start(live.game, kind, limit, live.state, seat)

                    def tx(conn: Connection, assumption: dict = assumption) -> None:
                        t = ProgramRow.__table__
                        # a program assumes the state held here: the version must be the stored one
                        due = self._due_after(live, programs={**live.programs, (seat, kind): {
                            "seat": seat, "kind": kind, "limit": limit, "assumption": assumption}})
                        version = store.claim(conn, live.id, live.version, bump=False, open_only=False,
                                              values={"due_at": due})
                        conn.execute(delete(t).where(t.c.game_id == live.id, t.c.seat == seat, t.c.kind == kind))
                        conn.execute(insert(t).values(game_id=live.id, seat=seat, kind=kind, limit=limit,
                                                      assumption=assumption, created=time.time()))
                        store.notify(conn, live.id, version, self.origin)

                    try:
                        await self._transact(tx)
                        break
                    except Behind:
                        await self._acatch_up(live)
                        if attempt:
                            raise StaleVersion() from None
                live.programs[(seat, kind)] = {"seat": seat, "kind": kind, "limit": limit, "assumption": assumption}
                self._changed(live)
                await self._asettle(live)
        except P.ProgramError as e:
            raise WebError(str(e)) from None
        await self._schedule(live)
        return live

    async def delete_program(self, gid: str, tokens: list[str], seat: Any, kind: str) -> Live:
        """Cancel a programmed action of ``seat`` (nothing happens when there is none).

        Raises:
            NotFound, Forbidden, Malformed.
        """
        live = await self.load(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        kind = P.ALIASES.get(kind, kind)
        async with live.lock:
            if (seat, kind) in live.programs:
                t = ProgramRow.__table__

                def tx(conn: Connection) -> None:
                    version = store.lock(conn, live.id)  # (cancelling depends on no state)
                    conn.execute(delete(t).where(t.c.game_id == live.id, t.c.seat == seat, t.c.kind == kind))
                    store.notify(conn, live.id, version, self.origin)

                try:
                    await self._transact(tx)
                except Behind:
                    await self._acatch_up(live)
                    raise NotFound(f"no game {gid!r}") from None
                del live.programs[(seat, kind)]
                self._changed(live)
        return live


    async def chat(self, gid: str, tokens: list[str], seat: Any, text: Any) -> Live:
        """Add a chat line of ``seat`` (kept with the game, shown to every page).

        Raises:
            NotFound, Forbidden, Malformed (no such seat, or an empty line).
        """
        live = await self.load(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        text = " ".join(str(text or "").split())[:MAX_CHAT]
        if not text:
            raise Malformed("an empty chat line")
        now = time.time()

        def tx(conn: Connection) -> int:
            version = store.lock(conn, live.id)  # (a chat line depends on no state: any version)
            conn.execute(insert(ChatRow.__table__).values(game_id=live.id, seat=seat, text=text, created=now))
            rows = conn.execute(select(func.count()).select_from(ChatRow)
                                .where(ChatRow.game_id == live.id)).scalar_one()
            store.notify(conn, live.id, version, self.origin)
            return rows

        async with live.lock:
            try:
                rows = await self._transact(tx)
            except Behind:
                await self._acatch_up(live)
                raise NotFound(f"no game {gid!r}") from None
            if rows == live.chat_rows + 1:
                live.chat.append(self._chat_json(live, seat, text, now))
                live.chat_rows = rows
                self._changed(live)
            else:  # lines of other processes came meanwhile: read them all, in order
                live.chat_rows = -1
                await self._acatch_up(live)
        return live


    def hint(self, gid: str, tokens: list[str], seat: Any) -> dict[str, Any]:
        """What the game's strongest bot would do as ``seat`` now, with its reason (:mod:`.hints`).

        Raises:
            NotFound, Forbidden, Malformed (no such seat), Conflict (over or watch-only),
            WebError (400: no hints in this game, or the seat has no decision now).
        """
        from .hints import NoHint, hint

        live = self.get(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        if live.watch_only or live.state.is_over:
            raise Conflict("the game is over" if live.state.is_over else "this game is watch only")
        self._require_open(live)
        try:
            return hint(live.game, live.state, seat)
        except NoHint as e:
            raise WebError(str(e)) from None


    # -- lifecycle: stop, delete, hand a seat to a bot, idle games end ---------------------------------
    @staticmethod
    def _require_open(live: Live) -> None:
        """Raises Conflict (409) when the game was ended before its end (stopped, idle)."""
        closed = live.meta.get("closed")
        if closed:
            raise Conflict(f"the game was ended: {closed['text']}")

    def _require_creator(self, live: Live, tokens: list[str]) -> None:
        if live.creator_hash is None or not any(matches(t, live.creator_hash) for t in tokens):
            raise Forbidden("only the game's creator (the creator's token) may stop or delete it")

    @staticmethod
    def _event(live: Live, text: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """``meta`` (default the game's) with a server's line added to the game's log (kept in
        ``meta["events"]``, after the actions so far): the meta to store."""
        meta = live.meta if meta is None else meta
        events = [*meta.get("events", []), {"n": live.played, "at": _iso(time.time()), "text": text}]
        return {**meta, "events": events}


    async def _close(self, live: Live, text: str, by: str) -> None:
        """End the game before its end (``by``: ``creator`` or ``idle``): no more actions, no bots;
        the reason in its log. The hidden information stays hidden (the rules' end did not come)."""
        now = time.time()
        meta = {**self._event(live, text), "closed": {"by": by, "at": _iso(now), "text": text}}

        def tx(conn: Connection) -> int:  # Behind: the game moved on (or ended) meanwhile
            version = store.claim(conn, live.id, live.version,
                                  values={"meta": meta, "over": True, "to_act": [], "updated": now, "due_at": None})
            store.notify(conn, live.id, version, self.origin)
            return version

        version = await self._transact(tx)
        live.meta, live.version = meta, version
        live.docs.clear()
        self._changed(live)
        log.info("game %s: %s", live.id, text)

    async def stop_game(self, gid: str, tokens: list[str]) -> Live:
        """The creator stops the game: it ends where it is, said in its log.

        Raises:
            NotFound, Forbidden (not the creator's token), Conflict (over, imported or already ended).
        """
        live = await self.load(gid)
        self._require_creator(live, tokens)
        async with live.lock:
            for _ in range(2):  # once more after catching up with a writer that came first
                if live.state.is_over or live.watch_only:
                    raise Conflict("the game is over")
                self._require_open(live)
                try:
                    await self._close(live, "the game was stopped by its creator", "creator")
                    break
                except Behind:
                    await self._acatch_up(live)
            else:
                raise StaleVersion()
        return live

    async def delete_game(self, gid: str, tokens: list[str]) -> None:
        """The creator deletes the game and everything kept with it (actions, chat, programs).

        Raises:
            NotFound, Forbidden (not the creator's token).
        """
        live = await self.load(gid)
        self._require_creator(live, tokens)

        def tx(conn: Connection) -> None:
            try:
                version = store.lock(conn, live.id)
            except Behind:
                version = None  # deleted meanwhile: deleted all the same
            for table in (AnalysisRow, BotReasonRow, ProgramRow, ChatRow, ActionRow, Seat):
                conn.execute(delete(table.__table__).where(table.game_id == live.id))
            conn.execute(delete(Game.__table__).where(Game.id == live.id))
            if version is not None:
                store.notify(conn, live.id, version + 1, self.origin)

        async with live.lock:
            await self._transact(tx)
            self.cache.pop(live.id, None)
            live.meta = {**live.meta, "closed": {"by": "creator", "at": _iso(time.time()), "text": "the game was deleted"}}
            live.docs.clear()
            self._changed(live)
            if live.task is not None and not live.task.done() and live.task is not asyncio.current_task():
                live.task.cancel()
        log.info("game %s deleted by its creator", live.id)

    async def hand_to_bot(self, gid: str, tokens: list[str], seat: Any, bot: Any) -> Live:
        """The holder of ``seat`` hands it to a bot (``bot``, ``bot:NAME``, ``NAME:BUDGET``; default
        the strongest where people play): the seat's token no longer holds it, the bot plays on.

        Raises:
            NotFound, Forbidden, Malformed (no such seat), WebError (400: an unknown bot or a budget
            over the server's caps), Conflict (over, imported or ended).
        """
        from rolling.bots import resolve_bot

        from .limits import capped, check_budget

        live = await self.load(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        try:
            kind = resolve_bot(live.game, str(bot or "bot")[:64], play=True)
        except UsageError as e:
            raise WebError(str(e)) from None
        check_budget(live.game, kind, self.settings)
        async with live.lock:
            for _ in range(2):  # once more after catching up with a writer that came first
                if live.state.is_over or live.watch_only:
                    raise Conflict("the game is over" if live.state.is_over else "this game is watch only")
                self._require_open(live)
                if seat not in self.held(live, tokens):
                    raise Forbidden(f"this request does not carry the token of seat {seat}")
                name = live.seats[seat]["name"]
                meta = self._event(live, f"{name} handed their seat to the bot {kind}")

                def tx(conn: Connection, meta: dict = meta) -> int:
                    # who plays a seat is a change of the game: pages' pending actions of it go stale
                    now = time.time()
                    due = self._due_after(live, touched=now, bots={**live.bots, seat: kind},
                                          programs={k: v for k, v in live.programs.items() if k[0] != seat})
                    version = store.claim(conn, live.id, live.version,
                                          values={"meta": meta, "updated": now, "due_at": due})
                    conn.execute(update(Seat.__table__).where(Seat.game_id == live.id, Seat.seat == seat)
                                 .values(kind=kind, token_hash=None))
                    conn.execute(delete(ProgramRow.__table__).where(ProgramRow.game_id == live.id, ProgramRow.seat == seat))
                    store.notify(conn, live.id, version, self.origin)
                    return version

                try:
                    version = await self._transact(tx)
                    break
                except Behind:
                    await self._acatch_up(live)
            else:
                raise StaleVersion()
            live.meta, live.version = meta, version
            live.seats[seat] = {**live.seats[seat], "kind": kind, "token_hash": None}
            live.bots[seat] = capped(make_bot(live.game, kind, seed=live.seed * 101 + seat), self.settings)
            live.programs = {k: v for k, v in live.programs.items() if k[0] != seat}
            live.docs.clear()
            self._changed(live)
            await self._asettle(live)
        await self._schedule(live)
        return live

    async def _end_idle_games(self) -> None:
        """Background task: every so often, end the games in which nobody has acted for
        ``settings.idle_end_seconds`` (said in their log), so that no game holds a seat forever."""
        idle = self.settings.idle_end_seconds
        every = min(max(idle / 4, 0.05), 600.0)
        while not self.closed:
            try:
                await self.end_idle_games()
            except Exception:  # a failed sweep is tried again at the next one
                log.exception("ending idle games failed")
            await asyncio.sleep(every)

    async def end_idle_games(self, now: float | None = None) -> list[str]:
        """End the unfinished games idle for ``settings.idle_end_seconds`` at ``now`` (default:
        the time); their ids."""
        idle = self.settings.idle_end_seconds
        now = time.time() if now is None else now
        cutoff = now - idle
        ids = await self._transact(lambda conn: conn.execute(
            select(Game.id).where(Game.over.is_(False), Game.watch_only.is_(False), Game.updated < cutoff)).scalars().all())
        ended = []
        for gid in ids:
            try:
                live = await self.load(gid)
            except WebError:
                continue
            async with live.lock:
                if live.state.is_over or "closed" in live.meta or live.last_time >= cutoff:
                    continue
                try:
                    await self._close(live, f"the game ended after {_duration(idle)} without a move", "idle")
                except Behind:  # moved (or ended) on another process meanwhile: not idle after all
                    await self._acatch_up(live)
                    continue
            ended.append(gid)
        return ended
