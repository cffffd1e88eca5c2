"""Where the web app keeps its data unless told otherwise, and the bounds it puts on every request
(:class:`Settings`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

#: the bot pace of ``rolling serve``: seconds between a move and a bot's answer, so people see it
DEFAULT_BOT_PACE = 0.3


def default_db_path() -> Path:
    """``platformdirs.user_data_dir("rolling")/rolling.db`` (on Linux ``~/.local/share/rolling/rolling.db``)."""
    return Path(platformdirs.user_data_dir("rolling")) / "rolling.db"


def default_db_url() -> str:
    """The SQLAlchemy URL of the default SQLite database (its folder is created when needed)."""
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class Settings:
    """The bounds of the web server (issue 29, "every request has a bound"); each can be set by an
    environment variable ``ROLLING_<FIELD>`` (upper case) read by :meth:`from_env`.

    Attributes:
        bot_max_seconds: the most CPU seconds (of its own thread) a bot may think per decision; a
            seat asking for more (``bot:search:99999s``) is refused with 400 naming the cap.
        bot_max_iterations: the most search iterations a bot may be given per decision.
        max_body: the largest request body of the API, bytes (413 beyond, before it is read).
        max_import: the largest 18xx.games export (``POST /api/import``), bytes.
        rate_limits: whether the rate limits below apply (off: none is counted).
        rate_create, rate_import: per client address (``limits`` notation: ``"10/minute;60/hour"``).
        rate_act_address, rate_act_token: acting (and undo, programs), per address and per seat token.
        rate_chat_address, rate_chat_token: chat lines, per address and per seat token.
        idle_end_seconds: a game nobody has acted in for this long is ended by the server (0: never).
        rate_register, rate_login_address, rate_login_name: accounts made per address; login
            attempts per address and per account name (issue 31).
        session_days: how long a login lasts.
        secret_key: the key signing session cookies and deriving accounts' seat keys; empty: one
            made at the first start and kept in the database (``server_keys``). Set it to keep it
            out of the database (a copy of the database then gives nobody an account's seats).
        public_url: the address of the site in notifications' links (``https://rolling.example``);
            ``rolling serve`` defaults it to its own host and port.
        notify_allow_private: allow webhooks (apprise URLs, Web Push endpoints) to private,
            loopback and link-local addresses (``ROLLING_NOTIFY_ALLOW_PRIVATE=1``; off: refused, as
            18xx.games does, so that nobody makes the server call into its own network).
        notify_delay: seconds a notification waits before it is sent, so that a burst of bots'
            moves makes one message, and a turn taken meanwhile none.
        notify_every: seconds between two rounds of the notifier (finding events, sending).
        smtp_host, smtp_port, smtp_user, smtp_password, smtp_from, smtp_security: the mail server
            of email notifications and password resets (``smtp_security``: ``starttls``, ``ssl`` or
            ``none``; no ``smtp_host``: no email is sent).
        vapid_subject: the contact (``mailto:...``) sent to Web Push services with each push.
    """

    bot_max_seconds: float = 5.0
    bot_max_iterations: int = 20_000
    max_body: int = 64 * 1024
    max_import: int = 20 * 1024 * 1024
    rate_limits: bool = True
    rate_create: str = "20/minute;200/hour"
    rate_import: str = "5/minute;50/hour"
    rate_act_address: str = "100/second"
    rate_act_token: str = "20/second;600/minute"
    rate_chat_address: str = "20/second"
    rate_chat_token: str = "3/second;60/minute"
    idle_end_seconds: float = 30 * 86400.0
    rate_register: str = "5/minute;50/day"
    rate_login_address: str = "20/minute;200/hour"
    rate_login_name: str = "5/minute;50/hour"
    session_days: float = 30.0
    secret_key: str = field(default="", repr=False)
    public_url: str = ""
    notify_allow_private: bool = False
    notify_delay: float = 2.0
    notify_every: float = 1.0
    smtp_host: str = ""
    smtp_port: int = 0
    smtp_user: str = ""
    smtp_password: str = field(default="", repr=False)
    smtp_from: str = "rolling@localhost"
    smtp_security: str = "starttls"
    vapid_subject: str = "mailto:rolling@localhost"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """The defaults, then ``ROLLING_<FIELD>`` variables of ``environ`` (default ``os.environ``),
        then ``overrides``.

        Raises:
            UsageError: a variable whose value does not read as its field's type (one line).
        """
        from rolling.core.errors import UsageError

        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"ROLLING_{f.name.upper()}")
            if raw is None:
                continue
            default = f.default
            try:
                if isinstance(default, bool):
                    if raw.strip().lower() not in ("1", "0", "true", "false", "on", "off", "yes", "no"):
                        raise ValueError(raw)
                    values[f.name] = raw.strip().lower() in ("1", "true", "on", "yes")
                elif isinstance(default, int):
                    values[f.name] = int(raw)
                elif isinstance(default, float):
                    values[f.name] = float(raw)
                else:
                    values[f.name] = raw.strip()
            except ValueError:
                kind = {bool: "on or off", int: "a whole number", float: "a number"}.get(type(default), "a text")
                raise UsageError(f"ROLLING_{f.name.upper()}={raw!r}: expected {kind}") from None
        values.update(overrides)
        return replace(cls(), **values)
