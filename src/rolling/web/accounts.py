"""Accounts (issue 31): register, log in and out, reset a password by email, and the session cookie
that lets an account act for its seats on every device.

Passwords are hashed with argon2id (``pwdlib``, its recommended parameters). A login makes a
session: a random id whose SHA-256 is stored (table ``sessions``), sent in the cookie
``rolling_session`` signed with the server's secret (``itsdangerous``), HttpOnly, SameSite=Lax and
Secure behind https. Logging out deletes the session, a password reset deletes them all.

An account holds its seats the way a seat link does: its *seat key*, an HMAC of the account's id
under the server's secret, is a seat token that never leaves the server. A seat joined by an
account stores the key's SHA-256 as its ``token_hash``; :class:`AccountSeats` adds the key of the
logged-in account to every request's seat tokens, so every check of a seat (acting, undo, chat,
programs, handing the seat to a bot, the live page) holds for the account's seats and no other.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, Signer
from pwdlib import PasswordHash
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import Account, PasswordReset, ServerKey, SessionRow
from .service import Forbidden, WebError
from .settings import Settings
from .tokens import hash_token

#: the session cookie's name
COOKIE = "rolling_session"
#: an account name: letters, digits, ``_ . -`` (a chat mention is ``@name``)
NAME = re.compile(r"[A-Za-z0-9_.\-]{2,40}")
#: an email address, loosely (the mail server has the last word)
EMAIL = re.compile(r"[^@\s\x00]{1,64}@[^@\s\x00]+\.[^@\s\x00]+")
#: a password reset link is valid this long, seconds
RESET_SECONDS = 3600.0
#: how long a process trusts a session it has looked up, seconds (a logout elsewhere takes this long)
SESSION_CACHE_SECONDS = 10.0

_hasher = PasswordHash.recommended()  # argon2id


class Unauthorized(WebError):
    """Not logged in, or a wrong name or password (401)."""

    status, name = 401, "Unauthorized"


class Taken(WebError):
    """The account name is taken (409)."""

    status, name = 409, "NameTaken"


@dataclass(frozen=True)
class Who:
    """The logged-in account of a request: its id, name and seat key (a secret of the server)."""

    id: str
    name: str
    seat_key: str


def server_key(engine: Engine, name: str, make) -> str:
    """The server's key ``name``, made by ``make()`` at the first start and kept in ``server_keys``
    (every process of one database shares it; the first to store it wins)."""
    with engine.connect() as conn:
        row = conn.execute(select(ServerKey.value).where(ServerKey.name == name)).first()
    if row is not None:
        return row[0]
    try:
        with engine.begin() as conn:
            conn.execute(insert(ServerKey.__table__).values(name=name, value=make()))
    except IntegrityError:  # another process made it first: theirs counts
        pass
    with engine.connect() as conn:
        return conn.execute(select(ServerKey.value).where(ServerKey.name == name)).scalar_one()


def seat_key(secret: str, account_id: str) -> str:
    """The seat key of an account: ``HMAC-SHA256(secret, "seat:" + id)`` in hex (64 characters)."""
    return hmac.new(secret.encode(), f"seat:{account_id}".encode(), hashlib.sha256).hexdigest()


def _public(a: Account) -> dict[str, Any]:
    notify = a.notify or {}
    return {"id": a.id, "name": a.name, "email": a.email,
            "notifications": {"urls": list(notify.get("urls", [])), "email": bool(notify.get("email", False)),
                              "push": len(notify.get("push", []))}}


class Accounts:
    """The accounts of one database.

    Args:
        engine: the database (schema up to date).
        settings: ``secret_key``, ``session_days``, ``public_url``.
    """

    def __init__(self, engine: Engine, settings: Settings):
        self.engine = engine
        self.settings = settings
        self.secret = settings.secret_key or server_key(engine, "secret", lambda: secrets.token_hex(32))
        self.signer = Signer(self.secret, salt="rolling.session")
        self._cache: OrderedDict[str, tuple[float, Who | None]] = OrderedDict()

    # -- registering and logging in ---------------------------------------------------------------
    def register(self, name: Any, email: Any, password: Any) -> dict[str, Any]:
        """Make an account; its public part.

        Raises:
            WebError: a name, email or password that is not allowed (400, saying which).
            Taken: the name is taken, in any case (409).
        """
        name, email, password = str(name or "").strip(), str(email or "").strip(), str(password or "")
        if not NAME.fullmatch(name):
            raise WebError("an account name is 2 to 40 letters, digits, '_', '.' or '-'")
        if len(email) > 254 or not EMAIL.fullmatch(email):
            raise WebError("an email address is needed (for password resets and notifications)")
        if not 8 <= len(password) <= 200:
            raise WebError("a password is 8 to 200 characters")
        acc = Account(id=secrets.token_hex(8), name=name, name_key=name.lower(), email=email,
                      password_hash=_hasher.hash(password), created=time.time(), notify={"urls": [], "email": False, "push": []})
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(Account.__table__).values(
                    id=acc.id, name=acc.name, name_key=acc.name_key, email=acc.email,
                    password_hash=acc.password_hash, created=acc.created, notify=acc.notify))
        except IntegrityError:
            raise Taken(f"the name {name!r} is taken") from None
        return _public(acc)

    def login(self, name: Any, password: Any) -> tuple[str, dict[str, Any]]:
        """Check a name and password; ``(cookie value, account)`` of a new session.

        Raises:
            Unauthorized: no such account or a wrong password (the same answer for both).
        """
        key = str(name or "").strip().lower()
        acc = None
        if NAME.fullmatch(key):  # (a name no account can have is not looked up)
            with Session(self.engine) as db:
                acc = db.scalars(select(Account).where(Account.name_key == key)).first()
        # an unknown name costs the same hash as a wrong password: the answer time tells nothing
        stored = acc.password_hash if acc is not None else _DUMMY_HASH
        ok, new_hash = _hasher.verify_and_update(str(password or ""), stored)
        if acc is None or not ok:
            raise Unauthorized("wrong name or password")
        sid = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            if new_hash:  # (the recommended parameters grew since it was hashed)
                conn.execute(update(Account.__table__).where(Account.id == acc.id).values(password_hash=new_hash))
            conn.execute(insert(SessionRow.__table__).values(id_hash=hash_token(sid), account_id=acc.id,
                                                             created=time.time()))
        return self.signer.sign(sid.encode()).decode(), _public(acc)

    def logout(self, cookie: str | None) -> None:
        """End the cookie's session (nothing when there is none)."""
        sid = self._sid(cookie)
        if sid is None:
            return
        with self.engine.begin() as conn:
            conn.execute(delete(SessionRow.__table__).where(SessionRow.id_hash == hash_token(sid)))
        self._cache.pop(sid, None)

    def _sid(self, cookie: str | None) -> str | None:
        if not cookie or len(cookie) > 200:
            return None
        try:
            return self.signer.unsign(cookie.encode()).decode()
        except (BadSignature, UnicodeDecodeError):
            return None

    def cached(self, cookie: str | None) -> tuple[bool, Who | None]:
        """``(known, account)`` of a session cookie without the database: known when the cookie is
        not ours (no account) or this process looked its session up less than
        :data:`SESSION_CACHE_SECONDS` ago; otherwise ask :meth:`who`."""
        sid = self._sid(cookie)
        if sid is None:
            return True, None
        hit = self._cache.get(sid)
        if hit is not None and time.time() - hit[0] < SESSION_CACHE_SECONDS:
            return True, hit[1]
        return False, None

    def who(self, cookie: str | None) -> Who | None:
        """The account of a session cookie, or None (no cookie, a forged or expired one, logged
        out). Looked up at most every :data:`SESSION_CACHE_SECONDS` per session and process."""
        known, who = self.cached(cookie)
        if known:
            return who
        sid = self._sid(cookie)
        now = time.time()
        oldest = now - self.settings.session_days * 86400
        with self.engine.connect() as conn:
            row = conn.execute(select(Account.id, Account.name).join(SessionRow, SessionRow.account_id == Account.id)
                               .where(SessionRow.id_hash == hash_token(sid), SessionRow.created >= oldest)).first()
        who = Who(row.id, row.name, seat_key(self.secret, row.id)) if row is not None else None
        self._cache[sid] = (now, who)
        if len(self._cache) > 10_000:
            self._cache.popitem(last=False)
        return who

    def require(self, cookie: str | None) -> Who:
        """:meth:`who`, or Unauthorized (401) when nobody is logged in."""
        who = self.who(cookie)
        if who is None:
            raise Unauthorized("log in first (POST /api/session)")
        return who

    # -- the account ------------------------------------------------------------------------------
    def account(self, account_id: str) -> Account:
        """The account row (raises Unauthorized when it is gone)."""
        with Session(self.engine) as db:
            row = db.get(Account, account_id)
        if row is None:
            raise Unauthorized("the account no longer exists")
        return row

    def public(self, account_id: str) -> dict[str, Any]:
        """The account as its owner sees it (never the password's hash, never a seat key)."""
        return _public(self.account(account_id))

    def set_notify(self, account_id: str, notify: dict[str, Any]) -> dict[str, Any]:
        """Store the account's notification settings (already checked); its public part."""
        with self.engine.begin() as conn:
            conn.execute(update(Account.__table__).where(Account.id == account_id).values(notify=notify))
        return self.public(account_id)

    # -- password reset ----------------------------------------------------------------------------
    def start_reset(self, email: Any) -> list[tuple[str, str]]:
        """Make a one-time reset token for each account of ``email``: ``[(account id, token)]`` (the
        caller queues the emails; the answer to the request is the same whether any exists)."""
        email = str(email or "").strip()
        if not EMAIL.fullmatch(email):
            return []
        with self.engine.connect() as conn:
            ids = conn.execute(select(Account.id).where(Account.email == email)).scalars().all()
        out = []
        with self.engine.begin() as conn:
            for aid in ids:
                token = secrets.token_urlsafe(24)
                conn.execute(insert(PasswordReset.__table__).values(id_hash=hash_token(token), account_id=aid,
                                                                    expires=time.time() + RESET_SECONDS))
                out.append((aid, token))
        return out

    def finish_reset(self, token: Any, password: Any) -> None:
        """Set a new password with a reset token (used once); every session of the account ends.

        Raises:
            Forbidden: an unknown, used or expired token (403).
            WebError: a password that is not allowed (400).
        """
        password = str(password or "")
        if not 8 <= len(password) <= 200:
            raise WebError("a password is 8 to 200 characters")
        h = hash_token(str(token or ""))
        with self.engine.begin() as conn:
            row = conn.execute(delete(PasswordReset.__table__).where(PasswordReset.id_hash == h)
                               .returning(PasswordReset.account_id, PasswordReset.expires)).first()
            if row is None or row.expires < time.time():
                raise Forbidden("this reset link is unknown, used or expired")
            conn.execute(update(Account.__table__).where(Account.id == row.account_id)
                         .values(password_hash=_hasher.hash(password)))
            conn.execute(delete(SessionRow.__table__).where(SessionRow.account_id == row.account_id))
        self._cache.clear()


_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))


def _cookie_of(headers: list[tuple[bytes, bytes]]) -> str | None:
    from http.cookies import CookieError, SimpleCookie

    for k, v in headers:
        if k == b"cookie":
            try:
                jar = SimpleCookie(v.decode("latin-1"))
            except CookieError:
                return None
            morsel = jar.get(COOKIE)
            return morsel.value if morsel is not None else None
    return None


class AccountSeats:
    """ASGI middleware: a request (or WebSocket) of a logged-in account carries the account's seat
    key first among its seat tokens (header ``X-Seat-Tokens``), so that it acts for the account's
    seats with its cookie and no token; the account is also left in ``scope["state"]["account"]``.
    A request without a valid session passes unchanged."""

    def __init__(self, app, accounts: Accounts):
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            headers = list(scope.get("headers", ()))
            cookie = _cookie_of(headers)
            known, who = self.accounts.cached(cookie) if cookie else (True, None)
            if not known:  # (the session's row: a worker thread, not the event loop)
                who = await asyncio.to_thread(self.accounts.who, cookie)
            if who is not None:
                old = b""
                rest = []
                for k, v in headers:
                    if k == b"x-seat-tokens":
                        old = v
                    else:
                        rest.append((k, v))
                value = who.seat_key.encode() + (b"," + old if old else b"")
                scope = {**scope, "headers": [*rest, (b"x-seat-tokens", value)],
                         "state": {**scope.get("state", {}), "account": who}}
        await self.app(scope, receive, send)


__all__ = ["COOKIE", "AccountSeats", "Accounts", "Taken", "Unauthorized", "Who", "seat_key", "server_key"]
