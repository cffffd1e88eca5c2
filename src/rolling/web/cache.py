"""The game cache: the games this process holds in memory, each its replayed state
(:class:`~rolling.web.live.Live`), loaded from the database on first use, dropped when idle beyond
a bound, and brought up to the database's version by reading only the new rows (catch-up, issue 30).
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from types import SimpleNamespace
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from rolling.bots import HUMAN, OPEN, make_bot
from rolling.bots.reasons import decode
from rolling.core.errors import IllegalAction
from rolling.core.record import GameRecord, new_state
from rolling.core.reveal import UndoFloor, actor
from rolling.games import get_game

from .errors import NotFound, WebError
from .live import IMPORTED, MAX_UNDOS_KEPT, Live, _iso
from .models import ActionRow, BotReasonRow, ChatRow, Game, ProgramRow, Seat

log = logging.getLogger("rolling.web")

#: a game in memory keeps a copy of its state every this many actions, so that an undo or a past
#: position (the history) replays at most this many actions, not the whole game
SNAPSHOT_EVERY = 200


class GameCache:
    """The cache's part of :class:`~rolling.web.service.GameService` (a mix-in: ``self`` is the service)."""

    # -- loading -------------------------------------------------------------------------------------
    def get(self, gid: str) -> Live:
        """The live game ``gid``, loaded and replayed from the database on first use, in the calling
        thread (the event loop's tasks use :meth:`load`).

        Raises:
            NotFound: no such game.
        """
        live = self._held(gid)
        return live if live is not None else self._keep(self._read(gid))

    async def load(self, gid: str) -> Live:
        """:meth:`get` with the database read and the replay in a worker thread, so that the event
        loop goes on serving the other games meanwhile (issue 30).

        Raises:
            NotFound: no such game.
        """
        live = self._held(gid)
        return live if live is not None else self._keep(await asyncio.to_thread(self._read, gid))

    def _held(self, gid: str) -> Live | None:
        live = self.cache.get(gid)
        if live is not None:
            self.cache.move_to_end(gid)
        return live

    def _keep(self, live: Live) -> Live:
        """Put a game just read in the cache; one read meanwhile by another task wins (so that
        every page and task of the game shares one :class:`Live`)."""
        held = self._held(live.id)
        if held is not None:
            return held
        self.cache[live.id] = live
        self._evict()
        return live

    def _read(self, gid: str) -> Live:
        """The game ``gid`` read from the database and replayed (any thread: it touches nothing of
        the service's but its settings).

        Raises:
            NotFound: no such game.
            WebError: the stored record does not replay.
        """
        if not isinstance(gid, str) or len(gid) > 32:
            raise NotFound(f"no game {gid!r}")
        # SQLAlchemy Core rows, not ORM objects: a long game's cold load reads thousands of rows
        with self.engine.connect() as conn:
            g = conn.execute(select(Game.__table__).where(Game.id == gid)).first()
            if g is None:
                raise NotFound(f"no game {gid!r}")
            seats = conn.execute(select(Seat.__table__).where(Seat.game_id == gid).order_by(Seat.seat)).all()
            acts = conn.execute(select(ActionRow.__table__).where(ActionRow.game_id == gid).order_by(ActionRow.n)).all()
            chat = conn.execute(select(ChatRow.__table__).where(ChatRow.game_id == gid).order_by(ChatRow.id)).all()
            progs = conn.execute(select(ProgramRow.__table__).where(ProgramRow.game_id == gid)).all()
            reasons = conn.execute(select(BotReasonRow.__table__).where(BotReasonRow.game_id == gid)).all()
        live = Live(
            id=g.id, game=g.game, title=g.title, config=dict(g.config), seed=g.seed, created=g.created,
            seats=[{"seat": s.seat, "name": s.name, "kind": s.kind, "token_hash": s.token_hash} for s in seats],
            time_limits={str(k): int(v) for k, v in (g.time_limits or {}).items()}, meta=dict(g.meta or {}),
            watch_only=bool(g.watch_only), creator_hash=g.creator_hash,
        )
        live.actions = [dict(a.action) for a in acts]
        live.version = max(int(g.version or 0), len(live.actions))
        live.by = [(a.seat, a.by) for a in acts]
        live.times = [a.created for a in acts]
        live.reasons = {r.n: (r.seat, decode(r.text)) for r in reasons if r.n <= len(live.actions)}
        live.chat = [self._chat_json(live, c.seat, c.text, c.created) for c in chat]
        live.chat_rows = len(chat)
        live.programs = {(p.seat, p.kind): {"seat": p.seat, "kind": p.kind, "limit": p.limit,
                                             "assumption": dict(p.assumption or {})} for p in progs}
        from .limits import capped  # (limits' errors are WebErrors: imported here, not at the top)

        live.bots = {s["seat"]: capped(make_bot(live.game, s["kind"], seed=live.seed * 101 + s["seat"]), self.settings)
                     for s in live.seats if s["kind"] not in (HUMAN, IMPORTED, OPEN)}
        self._rebuild(live)
        return live

    def _evict(self) -> None:
        """Forget the least recently used idle games beyond :attr:`max_cached` (the database has
        them; the next request replays them). A game someone watches, acts in or whose bots or
        clock run stays."""
        over = len(self.cache) - self.max_cached
        if over <= 0:
            return
        for gid, live in list(self.cache.items()):
            if over <= 0:
                break
            busy = live.listeners or live.lock.locked() or (live.task is not None and not live.task.done())
            if not busy:
                del self.cache[gid]
                over -= 1

    def _rebuild(self, live: Live) -> None:
        """Replay the game's actions into a fresh state (log on); find the latest reveal (undo's
        floor); keep a copy of the state every :data:`SNAPSHOT_EVERY` actions.

        Raises:
            WebError: the stored record no longer replays (a bug, or an edited database).
        """
        rec = GameRecord(live.game, live.config, live.seed, [])
        state = new_state(rec)
        if hasattr(state, "enable_log"):
            state.enable_log()
        live.floor = UndoFloor(state)
        live.log_base = len(getattr(state, "log", None) or ())
        live.log_marks = []
        live.phases = []
        live.snapshots = {}
        self._replay_from(live, 0, state)
        live.lines.clear()
        live.docs.clear()
        live.rev += 1

    def _replay_from(self, live: Live, start: int, state: Any) -> None:
        """Apply ``live``'s actions after the first ``start`` to ``state`` (the position after them,
        ``live.floor`` and ``live.log_marks`` being as of there too), then make it the live state."""
        spec = get_game(live.game)
        for i in range(start, len(live.actions)):
            action = spec.action_from_json(live.actions[i])
            mover = actor(action, state)
            phase = spec.phase(state)
            try:
                state.apply(action)
            except IllegalAction as e:
                # the engine's reason may state a seat's secret cash: the server's log only (issue 29)
                log.error("game %s: action %d does not replay: %s", live.id, i + 1, e)
                raise WebError(f"the stored game {live.id} does not replay at action {i + 1} ({e.rule})") from None
            live.floor.after(i + 1, state, mover)
            live.log_marks.append(len(getattr(state, "log", None) or ()))
            live.phases.append(phase)
            if (i + 1) % SNAPSHOT_EVERY == 0:
                live.snapshots[i + 1] = (state.clone(), copy.copy(live.floor))
        live.state = state


    def _replayed(self, live: Live, keep: int) -> Live:
        """A watch-only copy of ``live`` as of after its first ``keep`` actions, replayed from the
        latest snapshot at or before ``keep`` (any thread: ``live`` is only read)."""
        past = Live(id=live.id, game=live.game, title=live.title, config=live.config, seed=live.seed,
                    created=live.created, seats=live.seats, time_limits={}, meta=live.meta, watch_only=True,
                    actions=live.actions[:keep], by=live.by[:keep], times=live.times[:keep],
                    reasons={k: v for k, v in live.reasons.items() if k <= keep}, log_base=live.log_base)
        start = max((k for k in live.snapshots if k <= keep), default=0)
        if start == 0:
            self._rebuild(past)
            return past
        state, floor = live.snapshots[start]
        past.floor, past.log_marks, past.phases = copy.copy(floor), live.log_marks[:start], live.phases[:start]
        past.snapshots = {k: v for k, v in live.snapshots.items() if k <= start}
        self._replay_from(past, start, state.clone())  # (a snapshot is never changed: a copy plays on)
        return past

    def _take_replay(self, live: Live, past: Live) -> None:
        """Make ``live`` the game ``past`` replayed (:meth:`_replayed`): an undo, once committed."""
        live.actions, live.by, live.times, live.reasons = past.actions, past.by, past.times, past.reasons
        live.state, live.floor, live.log_marks, live.phases = past.state, past.floor, past.log_marks, past.phases
        live.snapshots = past.snapshots
        live.lines.clear()
        live.docs.clear()
        live.rev += 1

    def _reload(self, live: Live) -> None:
        """Read the game again from the database into ``live`` (the same object: pages and tasks
        keep it), replaying it whole; a game that is gone is marked deleted."""
        try:
            fresh = self._read(live.id)
        except NotFound:
            self._gone(live)
            return
        except WebError:
            return
        self._replace(live, fresh)

    async def _areload(self, live: Live) -> None:
        """:meth:`_reload` with the read and the replay in a worker thread."""
        try:
            fresh = await asyncio.to_thread(self._read, live.id)
        except NotFound:
            self._gone(live)
            return
        except WebError:
            return
        self._replace(live, fresh)

    def _replace(self, live: Live, fresh: Live) -> None:
        live.__dict__.update({k: v for k, v in fresh.__dict__.items()
                              if k not in ("lock", "wake", "task", "listeners")})
        self.cache[live.id] = live

    def _gone(self, live: Live) -> None:
        """The game was deleted (by another process): its pages hear so, the cache forgets it."""
        self.cache.pop(live.id, None)
        if live.meta.get("closed", {}).get("text") != "the game was deleted":
            live.meta = {**live.meta, "closed": {"by": "creator", "at": _iso(time.time()), "text": "the game was deleted"}}
        live.docs.clear()
        self._changed(live)

    def _catch_up(self, live: Live) -> bool:
        """Bring the cached game up to the database's (issue 30): read only what changed since the
        version held (the new action rows and their bots' reasons, the game's row, seats, programs,
        chat when it grew) and apply the new actions to the live state; an undo elsewhere that took
        back actions held here means a replay (:meth:`_rebuild`). True when anything changed.
        Call it under the game's lock. Never raises: a database error leaves the game as it was
        (the next guarded write finds it behind again). In the calling thread (the event loop's
        tasks use :meth:`_acatch_up`)."""
        got = self._catch_up_read(live)
        changed = self._catch_up_apply(live, got)
        if changed is None:
            self._reload(live)
            return True
        return changed

    async def _acatch_up(self, live: Live) -> bool:
        """:meth:`_catch_up` with the database read in a worker thread (under the game's lock)."""
        got = await asyncio.to_thread(self._catch_up_read, live)
        changed = self._catch_up_apply(live, got)
        if changed is None:
            await self._areload(live)
            return True
        return changed

    def _catch_up_read(self, live: Live) -> Any:
        """What changed in the database since the version ``live`` holds (any thread, under the
        game's lock): None after a database error, ``"gone"`` for a deleted game, else the rows."""
        t = Game.__table__
        held = len(live.actions)
        try:
            with self.engine.connect() as conn:
                g = conn.execute(select(t.c.version, t.c.meta, t.c.over, t.c.time_limits).where(t.c.id == live.id)).first()
                if g is None:
                    return "gone"
                version, meta = int(g.version), dict(g.meta or {})
                # (a game's settings change no decision and keep its version: read them every time)
                limits = {str(k): int(v) for k, v in (g.time_limits or {}).items()}
                keep = held
                if version != live.version:
                    undos = meta.get("undos", [])
                    if len(undos) >= MAX_UNDOS_KEPT and undos[0]["v"] > live.version + 1:
                        keep = 0  # undos older than the list keeps: read the whole record
                    else:
                        keep = min([held, *(u["keep"] for u in undos if u["v"] > live.version)])
                acts = conn.execute(select(ActionRow.n, ActionRow.seat, ActionRow.by, ActionRow.action, ActionRow.created)
                                    .where(ActionRow.game_id == live.id, ActionRow.n > keep)
                                    .order_by(ActionRow.n)).all() if version != live.version else []
                reasons = conn.execute(select(BotReasonRow.n, BotReasonRow.seat, BotReasonRow.text)
                                       .where(BotReasonRow.game_id == live.id, BotReasonRow.n > keep)).all() if acts else []
                seats = conn.execute(select(Seat.seat, Seat.name, Seat.kind, Seat.token_hash)
                                     .where(Seat.game_id == live.id).order_by(Seat.seat)).all()
                progs = conn.execute(select(ProgramRow.seat, ProgramRow.kind, ProgramRow.limit, ProgramRow.assumption)
                                     .where(ProgramRow.game_id == live.id)).all()
                chat_rows = conn.execute(select(func.count()).select_from(ChatRow).where(ChatRow.game_id == live.id)).scalar_one()
                chat = (conn.execute(select(ChatRow.seat, ChatRow.text, ChatRow.created).where(ChatRow.game_id == live.id)
                                     .order_by(ChatRow.id)).all() if chat_rows != live.chat_rows else None)
        except SQLAlchemyError as e:
            log.warning("game %s: catching up failed (%s)", live.id, e)
            return None
        return SimpleNamespace(version=version, meta=meta, keep=keep, acts=acts, reasons=reasons, seats=seats,
                               progs=progs, chat_rows=chat_rows, chat=chat, time_limits=limits)

    def _catch_up_apply(self, live: Live, got: Any) -> bool | None:
        """Apply what :meth:`_catch_up_read` found (on the event loop, under the game's lock): True
        when anything changed, None when only a whole replay (:meth:`_reload`) will do."""
        if got is None:
            return False
        if got == "gone":
            self._gone(live)
            return True
        held = len(live.actions)
        version, meta, keep, acts, reasons = got.version, got.meta, got.keep, got.acts, got.reasons
        seats, progs, chat_rows, chat = got.seats, got.progs, got.chat_rows, got.chat
        changed = False
        if any(a.n != keep + 1 + i for i, a in enumerate(acts)):
            log.warning("game %s: the stored actions have a gap after %d; replaying the record", live.id, keep)
            return None
        if version != live.version:
            changed = True
            new_reasons = {r.n: (r.seat, decode(r.text)) for r in reasons}
            if keep < held:  # an undo elsewhere took back actions held here: replay
                del live.actions[keep:], live.by[keep:], live.times[keep:]
                live.reasons = {k: v for k, v in live.reasons.items() if k <= keep}
                live.touched = time.time()
                for a in acts:
                    live.actions.append(dict(a.action))
                    live.by.append((a.seat, a.by))
                    live.times.append(a.created)
                live.reasons.update(new_reasons)
                try:
                    self._rebuild(live)
                except WebError:
                    return None
            else:
                spec = get_game(live.game)
                s = live.state.clone()  # (a published state never changes: threads may be reading it)
                for a in acts:
                    action = spec.action_from_json(a.action)
                    mover = actor(action, s)
                    phase = spec.phase(s)
                    try:
                        s.apply(action)
                    except IllegalAction as e:
                        log.error("game %s: stored action %d does not apply on the cached state: %s", live.id, a.n, e)
                        return None
                    live.actions.append(dict(a.action))
                    live.by.append((a.seat, a.by))
                    live.times.append(a.created)
                    live.floor.after(a.n, s, mover)
                    live.log_marks.append(len(getattr(s, "log", None) or ()))
                    live.phases.append(phase)
                live.state = s
                live.reasons.update(new_reasons)
            live.version = max(version, len(live.actions))
        if meta != live.meta:
            live.meta, changed = meta, True
        if got.time_limits != live.time_limits:  # changed on another process's settings page (issue 31)
            live.time_limits, changed = got.time_limits, True
        new_seats = [{"seat": r.seat, "name": r.name, "kind": r.kind, "token_hash": r.token_hash} for r in seats]
        if new_seats != live.seats:
            from .limits import capped

            if not live.actions and [x["name"] for x in new_seats] != [x["name"] for x in live.seats]:
                self._reload(live)  # a seat taken before the first action renames its player (issue 31)
                return True
            for st in new_seats:
                k = st["seat"]
                if st["kind"] in (HUMAN, IMPORTED, OPEN):
                    live.bots.pop(k, None)  # (a seat reopened or taken by a person elsewhere)
                elif k >= len(live.seats) or live.seats[k]["kind"] != st["kind"]:
                    live.bots[k] = capped(make_bot(live.game, st["kind"], seed=live.seed * 101 + k), self.settings)
            live.seats, changed = new_seats, True
        new_progs = {(p.seat, p.kind): {"seat": p.seat, "kind": p.kind, "limit": p.limit,
                                         "assumption": dict(p.assumption or {})} for p in progs}
        if new_progs != live.programs:
            live.programs, changed = new_progs, True
        if chat is not None:
            live.chat = [self._chat_json(live, c.seat, c.text, c.created) for c in chat]
            live.chat_rows, changed = chat_rows, True
        if changed:
            live.docs.clear()
            self._changed(live)
        return changed
