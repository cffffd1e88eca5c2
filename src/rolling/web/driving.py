"""The embedded worker: background tasks of one process that take a game's automated actions
(bots, programmed actions, time limits) when due, under the game's lock; what is due and what to
play is :mod:`.automation`'s business."""

from __future__ import annotations

import asyncio
import logging

from rolling.core.errors import IllegalAction

from . import automation as A
from .errors import StaleVersion
from .live import BY_BOT, MAX_INLINE, Live
from .store import Behind

log = logging.getLogger("rolling.web")


class Driving:
    """The embedded worker's part of :class:`~rolling.web.service.GameService` (a mix-in)."""

    def _due(self, live: Live) -> tuple[float, str] | None:
        """``(seconds from now, what)`` of the next automated action, or None (:func:`.automation.due`)."""
        return A.due(live, self.bot_pace)

    def _step(self, live: Live, timers: bool = True, chosen: tuple | None = None) -> bool:
        """Take the automated action due now, if any; True when one was taken. ``chosen``: a bot's
        ``(seat, action, reason)`` already worked out for this state (:meth:`_think`). In the
        calling thread (the event loop's tasks use :meth:`_astep`)."""
        try:
            move = self._move(live, timers, chosen)
            if move is None:
                return False
            self._commit(live, *move)
            return True
        except (IllegalAction, Behind, StaleVersion) as e:
            if isinstance(e, Behind):
                self._catch_up(live)
            else:
                self._step_failed(live, e)
            return False

    async def _astep(self, live: Live, timers: bool = True, chosen: tuple | None = None) -> bool:
        """:meth:`_step` with the database's transaction in a worker thread (under the game's lock)."""
        try:
            move = self._move(live, timers, chosen)
            if move is None:
                return False
            await self._acommit(live, *move)
            return True
        except (IllegalAction, Behind, StaleVersion) as e:
            if isinstance(e, Behind):
                await self._acatch_up(live)
            else:
                self._step_failed(live, e)
            return False

    def _move(self, live: Live, timers: bool, chosen: tuple | None) -> tuple | None:
        """``(action, seat, by, reason)`` of the automated action due now (:func:`.automation.next_move`;
        a bot chooses here unless ``chosen`` holds its choice), or None."""
        move = A.next_move(live, timers=timers)
        if move is None:
            return None
        what, seat, found = move
        if what != BY_BOT:
            return found, seat, what, None
        if chosen is not None and chosen[0] == seat:
            return chosen[1], seat, BY_BOT, chosen[2]
        bot = A.decision_bot(live, seat)
        return bot.choose(live.state, seat), seat, BY_BOT, getattr(bot, "last_reason", None)

    def _step_failed(self, live: Live, e: Exception) -> None:
        if isinstance(e, IllegalAction):
            # every page shows why play stopped: the rule only, since the engine's reason may state
            # the mover's cash (secret with secret money, issue 29); the server's log has it whole
            live.broken = f"automated play stopped: a move the rules refuse ({e.rule})"
            log.error("game %s: automated play stopped: %s", live.id, e)
            self._changed(live)  # the pages learn that play stopped (and a cached document goes)
        # (Behind: another process, or a page's action, wrote first: this move is void, the game goes
        # on from the stored one, after catching up; StaleVersion: the database failed, try later)

    async def _think(self, live: Live) -> tuple | None:
        """The first bot to act works out its move in a worker thread, so that a search bot's
        thinking (half a second where people play) does not stop the server answering other
        requests; the game's lock is held, so the state cannot change meanwhile. Returns
        ``(seat, action, reason)``, or None when no bot is to act."""
        if A.stopped(live):
            return None
        due = A.bot_to_act(live)
        if due is None:
            return None
        seat = due[0]
        bot = A.decision_bot(live, seat)
        action = await asyncio.to_thread(bot.choose, live.state, seat)
        return seat, action, getattr(bot, "last_reason", None)

    def _settle(self, live: Live) -> None:
        """With a bot pace of 0: take every automated action due now (a bots-only game to its end)."""
        if self.bot_pace > 0 or self.queue == "defer":  # (--no-worker: bots are the workers')
            return
        for _ in range(MAX_INLINE):
            if not self._step(live, timers=False):
                return

    async def _asettle(self, live: Live) -> None:
        """:meth:`_settle` with each action's transaction in a worker thread (under the game's lock)."""
        if self.bot_pace > 0 or self.queue == "defer":  # (--no-worker: bots are the workers')
            return
        for _ in range(MAX_INLINE):
            if not await self._astep(live, timers=False):
                return

    def _kick(self, live: Live) -> None:
        """Wake the game's background task (started if needed) to look for automated actions."""
        if not self.start_workers or self.closed or self.queue is not None:
            return
        live.wake.set()
        if live.task is None or live.task.done():
            if self._due(live) is None:
                return
            live.task = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: Live) -> None:
        """Background task: take the game's automated actions when due, one at a time, under its lock."""
        try:
            while not self.closed:
                due = self._due(live)
                if due is None:
                    return
                delay = due[0]
                if delay > 0:
                    live.wake.clear()
                    try:
                        await asyncio.wait_for(live.wake.wait(), delay)
                        continue  # something changed: look again
                    except TimeoutError:
                        pass
                async with live.lock:
                    due = self._due(live)
                    if due is not None and due[0] <= 0.001:
                        await self._astep(live, chosen=await self._think(live))
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in a bot must not take the server down; the game stays as stored
            log.exception("game %s: background task failed", live.id)
            live.broken = "automated play stopped by an error"
