"""Notifications (issue 31): an account is told when it is its turn (also when a programmed action
needs it), when a game of its is over, and when it is mentioned in chat (``@name``), by email, by
its apprise URLs and by Web Push.

Two steps, both run by a worker, never by a request (:meth:`Notifier.run_once`; a plain ``rolling
serve`` runs them in its own process, :meth:`Notifier.run`):

1. :meth:`Notifier.find_events` reads the games changed (and chat lines said) since its last look
   and queues one row of the table ``outbox`` per event and account. Each row's ``key`` is unique
   (``turn:ACCOUNT:GAME:SEAT:N``, N being the seat's own last action: one message per turn
   however many moves others make meanwhile; ``over:ACCOUNT:GAME``; ``mention:ACCOUNT:LINE``), so
   several workers, or one looking twice, queue it once.
2. :meth:`Notifier.deliver` sends the rows that are due, each account's rows as one message (a
   burst of bots' moves, or several games at once, make one message). A row waits
   ``notify_delay`` seconds first; a turn taken meanwhile is dropped, not sent. A channel that
   fails is tried again later (30 s, doubling, :data:`MAX_ATTEMPTS` times), the channels that
   took the message are not sent it twice.

A message holds only what every seat may see: the game's title, its link, and for a mention the
public chat line. Never a hand, secret cash or the deck.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import defaultdict
from typing import Any

from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import Session

from ..accounts import Accounts, seat_key, server_key
from ..models import Account, ActionRow, ChatRow, Game, OutboxRow, Seat, SeatAccount
from ..settings import Settings
from ..tokens import hash_token
from . import channels, guard

log = logging.getLogger("rolling.web.notify")

#: tries of a message before it is given up (``status = failed``)
MAX_ATTEMPTS = 6
#: the first wait before another try, seconds (doubling)
RETRY_SECONDS = 30.0
#: how long a worker holds the rows it is sending before another may take them, seconds
LEASE_SECONDS = 120.0
#: how far back a new notifier looks for changed games, seconds (after a restart)
LOOK_BACK = 600.0
#: the overlap of two looks (a change committed while one looked is seen by the next)
OVERLAP = 5.0


def _mentions(text: str, name_key: str) -> bool:
    """Whether a chat line says ``@name`` (any case; ``@bobby`` does not mention ``bob``)."""
    return re.search(rf"@{re.escape(name_key)}(?![A-Za-z0-9_.\-])", text.lower()) is not None


def _insert(engine: Engine):
    if engine.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(OutboxRow.__table__)


class Notifier:
    """The notifications of one database.

    Args:
        engine: the database.
        settings: ``public_url``, ``notify_delay``, ``notify_every``, ``notify_allow_private``, SMTP.
        accounts: the accounts (their secret gives each account's seat key).
    """

    def __init__(self, engine: Engine, settings: Settings, accounts: Accounts):
        self.engine = engine
        self.settings = settings
        self.accounts = accounts
        self.watermark = time.time() - LOOK_BACK
        self._vapid: tuple[str, str] | None = None
        self.insert = _insert(engine)

    # -- settings' checks ---------------------------------------------------------------------------
    def check_url(self, url: str) -> str:
        """An apprise URL the account may set (:func:`.guard.check_url`; raises Refused, 400)."""
        return guard.check_url(url, self.settings.notify_allow_private)

    def check_endpoint(self, endpoint: str) -> str:
        """A Web Push endpoint the account may set (raises Refused, 400)."""
        return guard.check_endpoint(endpoint, self.settings.notify_allow_private)

    def _keys(self) -> tuple[str, str]:
        """``(private key PEM, public key)`` of VAPID: made once, kept as one server key (both
        halves from the same process, whichever stored first)."""
        if self._vapid is None:
            pair = json.loads(server_key(self.engine, "vapid", lambda: json.dumps(channels.vapid_keys())))
            self._vapid = (pair[0], pair[1])
        return self._vapid

    def vapid_public(self) -> str:
        """The server's VAPID application server key (made at the first need, then kept)."""
        return self._keys()[1]

    def link(self, gid: str) -> str:
        """The address of game ``gid``'s page (``public_url`` + ``/g/GID``)."""
        return f"{self.settings.public_url.rstrip('/')}/g/{gid}"

    # -- queueing -----------------------------------------------------------------------------------
    def queue_reset(self, account_id: str, token: str) -> None:
        """Queue a password reset email (sent by the worker, at once)."""
        now = time.time()
        link = f"{self.settings.public_url.rstrip('/')}/account?reset={token}"
        with self.engine.begin() as conn:
            conn.execute(self.insert.values(key=f"reset:{hash_token(token)}", account_id=account_id, game_id=None, seat=None,
                                            event="reset", version=0, payload={"link": link}, created=now, due=now,
                                            attempts=0, status="pending").on_conflict_do_nothing(index_elements=["key"]))

    def find_events(self, now: float | None = None) -> int:
        """Queue the events since the last look (see the module's docstring); how many rows were new."""
        now = time.time() if now is None else now
        since = self.watermark
        with self.engine.connect() as conn:
            games = {g.id: g for g in conn.execute(
                select(Game.id, Game.title, Game.version, Game.over, Game.to_act, Game.meta)
                .where(Game.updated > since, Game.watch_only.is_(False)))}
            said = conn.execute(select(ChatRow.id, ChatRow.game_id, ChatRow.seat, ChatRow.text)
                                .where(ChatRow.created > since).order_by(ChatRow.id)).all()
            for gid in {c.game_id for c in said} - set(games):
                g = conn.execute(select(Game.id, Game.title, Game.version, Game.over, Game.to_act, Game.meta)
                                 .where(Game.id == gid)).first()
                if g is not None:
                    games[gid] = g
            if not games:
                self.watermark = now - OVERLAP
                return 0
            gids = list(games)
            seated = conn.execute(
                select(SeatAccount.game_id, SeatAccount.seat, SeatAccount.account_id, Seat.token_hash, Account.name_key)
                .join(Seat, (Seat.game_id == SeatAccount.game_id) & (Seat.seat == SeatAccount.seat))
                .join(Account, Account.id == SeatAccount.account_id)
                .where(SeatAccount.game_id.in_(gids))).all()
            # a game waiting for its open seats is nobody's turn yet
            waiting = set(conn.execute(select(Seat.game_id).where(Seat.game_id.in_(gids), Seat.kind == "open")).scalars())
            last = {(r[0], r[1]): r[2] for r in conn.execute(
                select(ActionRow.game_id, ActionRow.seat, func.max(ActionRow.n))
                .where(ActionRow.game_id.in_(gids), ActionRow.by.in_(("human", "program")))
                .group_by(ActionRow.game_id, ActionRow.seat))}
        rows = []
        due = now + self.settings.notify_delay
        # only the seats an account holds now (a seat handed on is not its any more)
        held = [r for r in seated if r.token_hash == hash_token(seat_key(self.accounts.secret, r.account_id))]
        for r in held:
            g = games[r.game_id]
            base = {"account_id": r.account_id, "game_id": r.game_id, "seat": r.seat, "version": g.version,
                    "created": now, "due": due, "attempts": 0, "status": "pending"}
            if g.over:
                closed = (g.meta or {}).get("closed")
                if closed and closed.get("text") == "the game was deleted":
                    continue
                rows.append({**base, "key": f"over:{r.account_id}:{r.game_id}", "event": "over",
                             "payload": {"title": g.title, **({"closed": closed["text"]} if closed else {})}})
            elif r.seat in (g.to_act or []) and r.game_id not in waiting:
                n = last.get((r.game_id, r.seat), 0)
                rows.append({**base, "key": f"turn:{r.account_id}:{r.game_id}:{r.seat}:{n}", "event": "turn",
                             "payload": {"title": g.title}})
        by_game: dict[str, list] = defaultdict(list)
        for r in held:
            by_game[r.game_id].append(r)
        names = {}
        for c in said:
            for r in by_game.get(c.game_id, ()):
                if r.seat != c.seat and _mentions(c.text, r.name_key):
                    if c.game_id not in names:
                        with self.engine.connect() as conn:
                            names[c.game_id] = dict(conn.execute(select(Seat.seat, Seat.name).where(Seat.game_id == c.game_id)).all())
                    g = games[c.game_id]
                    rows.append({"account_id": r.account_id, "game_id": c.game_id, "seat": r.seat, "version": g.version,
                                 "created": now, "due": due, "attempts": 0, "status": "pending",
                                 "key": f"mention:{r.account_id}:{c.id}", "event": "mention",
                                 "payload": {"title": g.title, "by": names[c.game_id].get(c.seat, "?"), "text": c.text[:300]}})
        added = 0
        if rows:
            with self.engine.begin() as conn:
                for row in rows:
                    stmt = self.insert.values(**row).on_conflict_do_nothing(index_elements=["key"])
                    # (RETURNING, not rowcount, which psycopg leaves at -1 here)
                    added += len(conn.execute(stmt.returning(OutboxRow.__table__.c.id)).all())
        self.watermark = now - OVERLAP
        return added

    # -- sending ------------------------------------------------------------------------------------
    def _claim(self, now: float) -> list[Any]:
        """The due rows this worker takes (each held for :data:`LEASE_SECONDS`)."""
        with Session(self.engine) as db:
            rows = db.scalars(select(OutboxRow).where(OutboxRow.status == "pending", OutboxRow.due <= now)
                              .order_by(OutboxRow.account_id, OutboxRow.id).limit(200)).all()
        taken = []
        t = OutboxRow.__table__
        with self.engine.begin() as conn:
            for row in rows:
                got = conn.execute(update(t).where(t.c.id == row.id, t.c.due == row.due, t.c.status == "pending")
                                   .values(due=now + LEASE_SECONDS)).rowcount
                if got:
                    taken.append(row)
        return taken

    def _still_true(self, rows: list[Any]) -> tuple[list[Any], list[Any]]:
        """``(rows to send, rows to drop)``: a turn already taken, a game gone, a seat handed on."""
        gids = list({r.game_id for r in rows if r.game_id})
        with self.engine.connect() as conn:
            games = {g.id: g for g in conn.execute(select(Game.id, Game.over, Game.to_act).where(Game.id.in_(gids)))} if gids else {}
            seats = {(s.game_id, s.seat): s.token_hash for s in conn.execute(
                select(Seat.game_id, Seat.seat, Seat.token_hash).where(Seat.game_id.in_(gids)))} if gids else {}
            waiting = set(conn.execute(select(Seat.game_id).where(Seat.game_id.in_(gids), Seat.kind == "open")).scalars()) if gids else set()
        keep, drop = [], []
        for r in rows:
            if r.event == "reset":
                keep.append(r)
                continue
            g = games.get(r.game_id)
            holds = seats.get((r.game_id, r.seat)) == hash_token(seat_key(self.accounts.secret, r.account_id))
            if g is None or not holds or (r.event == "turn" and (g.over or r.seat not in (g.to_act or []) or r.game_id in waiting)):
                drop.append(r)
            else:
                keep.append(r)
        return keep, drop

    def _text(self, rows: list[Any]) -> tuple[str, str, str]:
        """``(title, body, link)`` of one account's message."""
        lines = []
        for r in rows:
            p, link = r.payload or {}, self.link(r.game_id)
            if r.event == "turn":
                lines.append(f"Your turn in {p.get('title')}: {link}")
            elif r.event == "over":
                lines.append(f"{p.get('title')} is over{': ' + p['closed'] if p.get('closed') else ''}. {link}")
            elif r.event == "mention":
                lines.append(f"{p.get('by')} mentioned you in {p.get('title')}: \u201c{p.get('text')}\u201d {link}")
        first = rows[0]
        if len(rows) == 1:
            title = {"turn": "Your turn", "over": "Game over", "mention": "You were mentioned"}[first.event]
            title += f": {(first.payload or {}).get('title')}"
        else:
            title = f"Rolling: {len(rows)} things wait for you"
        return title, "\n".join(lines), self.link(first.game_id)

    def _send(self, account: Any, title: str, body: str, link: str, done: set[str]) -> tuple[set[str], list[str]]:
        """Send one message on every channel of ``account`` not in ``done``; ``(channels that took
        it, errors)``. A channel is ``email``, ``url:K`` or ``push:ENDPOINT``."""
        notify = account.notify or {}
        took, errors = set(), []
        targets: list[tuple[str, Any]] = []
        if notify.get("email") and channels.email_configured(self.settings):
            targets.append(("email", None))
        targets += [(f"url:{u}", u) for u in notify.get("urls", [])]
        targets += [(f"push:{p.get('endpoint')}", p) for p in notify.get("push", [])]
        for name, target in targets:
            if name in done:
                continue
            try:
                if name == "email":
                    channels.send_email(self.settings, account.email, title, body)
                elif name.startswith("url:"):
                    with self._guarded():  # (the address checked is the address called)
                        channels.send_apprise(guard.check_url(target, self.settings.notify_allow_private), title, body)
                else:
                    keys = self._keys()
                    with self._guarded():
                        guard.check_endpoint(target["endpoint"], self.settings.notify_allow_private)
                        channels.send_push(target, keys[0], self.settings.vapid_subject,
                                           {"title": title, "body": body, "url": link})
                took.add(name)
            except (channels.SendFailed, guard.Refused) as e:
                errors.append(f"{name.split(':')[0]}: {getattr(e, 'message', None) or e}")
        return took, errors

    def _guarded(self) -> Any:
        """:func:`.guard.pinned` where private addresses are refused (else nothing to pin)."""
        import contextlib

        return contextlib.nullcontext() if self.settings.notify_allow_private else guard.pinned()

    def deliver(self, now: float | None = None) -> int:
        """Send the due rows (see the module's docstring); how many messages went out."""
        now = time.time() if now is None else now
        rows = self._claim(now)
        if not rows:
            return 0
        keep, drop = self._still_true(rows)
        t = OutboxRow.__table__
        if drop:
            with self.engine.begin() as conn:
                conn.execute(update(t).where(t.c.id.in_([r.id for r in drop])).values(status="dropped", sent=now))
        by_account: dict[str, list[Any]] = defaultdict(list)
        for r in keep:
            by_account[r.account_id].append(r)
        sent = 0
        for account_id, mine in by_account.items():
            with Session(self.engine) as db:
                acc = db.get(Account, account_id)
            if acc is None:
                continue
            resets = [r for r in mine if r.event == "reset"]
            events = [r for r in mine if r.event != "reset"]
            batches = [[r] for r in resets] + ([events] if events else [])
            for batch in batches:
                done = set().union(*[set((r.payload or {}).get("done", [])) for r in batch])
                if batch[0].event == "reset":
                    try:
                        channels.send_email(self.settings, acc.email, "Rolling: reset your password",
                                            f"Set a new password (within an hour) at\n{batch[0].payload['link']}\n\n"
                                            "If you did not ask for it, nothing changes.")
                        took, errors = {"email"}, []
                    except channels.SendFailed as e:
                        took, errors = set(), [str(e)]
                else:
                    title, body, link = self._text(batch)
                    took, errors = self._send(acc, title, body, link, done)
                nowhere = not took and not done and not errors  # (the account set no channel)
                done |= took
                with self.engine.begin() as conn:
                    for r in batch:
                        if not errors:
                            conn.execute(update(t).where(t.c.id == r.id).values(
                                status="dropped" if nowhere else "sent", sent=time.time(), error=None))
                            continue
                        attempts = r.attempts + 1
                        status = "failed" if attempts >= MAX_ATTEMPTS else "pending"
                        conn.execute(update(t).where(t.c.id == r.id).values(
                            status=status, attempts=attempts, due=now + RETRY_SECONDS * 2 ** (attempts - 1),
                            error="; ".join(errors)[:1000], payload={**(r.payload or {}), "done": sorted(done)}))
                if errors:
                    log.warning("notification to account %s: %s", account_id, "; ".join(errors))
                elif not nowhere:
                    sent += 1
        return sent

    def run_once(self, now: float | None = None) -> tuple[int, int]:
        """One round: :meth:`find_events` then :meth:`deliver`; ``(rows queued, messages sent)``.
        What a worker's periodic job calls."""
        return self.find_events(now), self.deliver(now)

    async def run(self) -> None:
        """The embedded worker's loop of a plain ``rolling serve``: :meth:`run_once` every
        ``notify_every`` seconds in a thread (sending is blocking I/O), until cancelled."""
        while True:
            try:
                await asyncio.to_thread(self.run_once)
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed round is tried again at the next one
                log.exception("notifications: a round failed")
            await asyncio.sleep(self.settings.notify_every)


__all__ = ["MAX_ATTEMPTS", "Notifier"]
