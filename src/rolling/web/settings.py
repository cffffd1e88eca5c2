"""Where the web app keeps its data unless told otherwise, and the bounds it puts on every request
(:class:`Settings`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
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
