"""Fan-out: who hears of a change of a game. In one process, the live pages (WebSockets) of the
game (:class:`Listener`); across processes, PostgreSQL's LISTEN/NOTIFY (:data:`.store.CHANNEL`):
each web process listens on one connection and catches up the games it holds (issue 30)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError

from . import store
from .live import Live

log = logging.getLogger("rolling.web")


@dataclass(eq=False)
class Listener:
    """One live page (WebSocket): the seats its tokens hold, and an event set on every change."""

    held: tuple[int, ...]
    event: asyncio.Event = field(default_factory=asyncio.Event)



class FanOut:
    """The fan-out's part of :class:`~rolling.web.service.GameService` (a mix-in)."""

    def _changed(self, live: Live) -> None:
        live.rev += 1
        for listener in live.listeners:
            listener.event.set()


    # -- other processes' changes (PostgreSQL) -------------------------------------------------------
    async def _listen(self) -> None:
        """Background task: one LISTEN connection (psycopg 3, asyncio) on :data:`.store.CHANNEL`; each
        notification of another process catches up the game if this process holds it
        (:meth:`_notified`). A lost connection is opened again (waiting 0.2 s, doubling up to 5 s),
        and every cached game is then checked against the database (:meth:`recheck`), since
        notifications sent meanwhile are lost."""
        import psycopg

        dsn = store.listen_dsn(self.engine.url)
        delay = 0.2
        while not self.closed:
            try:
                async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {store.CHANNEL}")
                    delay = 0.2
                    await self.recheck()
                    async for n in conn.notifies():
                        self._notified(n.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database restarted, the network failed: listen again
                log.warning("listening for other processes' changes failed (%s); again in %.1f s", e, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _notified(self, payload: str) -> None:
        """A notification ``GID:VERSION:ORIGIN``: catch up ``GID`` if it is cached and another
        process sent it (one catch-up task per game at a time: a burst of moves is one read)."""
        parsed = store.parse_payload(payload)
        if parsed is None or parsed[2] == self.origin:
            return
        gid, version, _ = parsed
        live = self.cache.get(gid)
        if live is None or gid in self._catching:
            return
        self._catching.add(gid)
        asyncio.get_running_loop().create_task(self._catch_up_task(live))

    async def _catch_up_task(self, live: Live) -> None:
        async with live.lock:
            self._catching.discard(live.id)  # (a notification from now on needs another look)
            changed = await self._acatch_up(live)
        if changed and live.id in self.cache:
            self._kick(live)

    async def recheck(self) -> None:
        """Catch up every cached game whose stored version differs, and those that pages watch
        (whose chat may have grown): after the LISTEN connection was (re)opened."""
        gids = list(self.cache)
        def read() -> dict[str, int]:
            with self.engine.connect() as conn:
                return store.versions(conn, gids)

        try:
            stored = await asyncio.to_thread(read)
        except SQLAlchemyError as e:
            log.warning("checking the cached games failed (%s)", e)
            return
        for gid in gids:
            live = self.cache.get(gid)
            if live is not None and (stored.get(gid) != live.version or live.listeners):
                await self._catch_up_task(live)

    # -- live pages ----------------------------------------------------------------------------------
    def listen(self, live: Live, held: tuple[int, ...]) -> Listener:
        """Register a live page; its event is set on every change of the game."""
        listener = Listener(held)
        live.listeners.add(listener)
        return listener

    def unlisten(self, live: Live, listener: Listener) -> None:
        """Forget a live page."""
        live.listeners.discard(listener)
