"""Bounds on what one request may cost the server (issue 29, "every request has a bound"): the
thinking a bot seat may be given, and the rate limits of creating, acting, chatting and importing
(the ``limits`` library, counted in memory per client address and per seat token).

Both read :class:`~rolling.web.settings.Settings`.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

from fastapi import Request
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from rolling.bots import get_bot_class
from rolling.bots.ismcts import Budget, parse_budget
from rolling.core.errors import UsageError

from .service import WebError
from .settings import Settings
from .tokens import split_tokens

# -- bot budgets -------------------------------------------------------------------------------------


def seat_budget(game: str, kind: str) -> Budget | None:
    """The search budget per decision of the seat ``kind`` (a registry name such as
    ``search:0.5s``; a search bot without one has its ``DEFAULT_BUDGET``), or None for a bot that
    takes no budget (it thinks for a bounded, small time by construction)."""
    base, _, budget = kind.partition(":")
    try:
        cls = get_bot_class(game, base)
    except UsageError:
        return None
    default = getattr(cls, "DEFAULT_BUDGET", None)
    if not budget and default is None:
        return None
    return parse_budget(budget or default)


def check_budget(game: str, kind: str, settings: Settings) -> None:
    """Refuse a bot seat whose budget per decision is over the server's caps.

    Raises:
        WebError: (400) the budget is over ``settings.bot_max_seconds`` or
            ``settings.bot_max_iterations``; the message names the cap.
    """
    b = seat_budget(game, kind)
    if b is None:
        return
    if b.seconds is not None and b.seconds > settings.bot_max_seconds:
        raise WebError(f"bot {kind!r} thinks {b.seconds:g} s per decision; this server allows at most "
                       f"{settings.bot_max_seconds:g} s (e.g. search:{settings.bot_max_seconds:g}s)")
    if b.iterations is not None and b.iterations > settings.bot_max_iterations:
        raise WebError(f"bot {kind!r} searches {b.iterations} iterations per decision; this server allows at most "
                       f"{settings.bot_max_iterations} (e.g. search:{settings.bot_max_iterations})")


def capped(bot: Any, settings: Settings) -> Any:
    """``bot`` with its budget brought under the server's caps (a game stored before the caps, or
    under larger ones, keeps its seats but not their day-long thinking); other bots unchanged."""
    b = getattr(bot, "budget", None)
    if isinstance(b, Budget):
        if b.seconds is not None and b.seconds > settings.bot_max_seconds:
            bot.budget = Budget(seconds=settings.bot_max_seconds)
        elif b.iterations is not None and b.iterations > settings.bot_max_iterations:
            bot.budget = Budget(iterations=settings.bot_max_iterations)
    return bot


# -- rate limits -------------------------------------------------------------------------------------


class TooManyRequests(WebError):
    """429: a rate limit was reached; ``retry_after`` seconds until the next request may pass."""

    status, name = 429, "TooManyRequests"

    def __init__(self, what: str, retry_after: int):
        super().__init__(f"too many {what} requests; try again in {retry_after} s")
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class _MemoryStorage(MemoryStorage):
    """``limits``' memory storage, its expired entries dropped once a second instead of every
    10 ms: its thread waking a hundred times a second to walk every key cost the server about a
    millisecond per request under load (benchmarks/serve_bench.py). The limits stay exact (each
    hit compares times itself); only the memory of old entries waits a little longer."""

    def _MemoryStorage__schedule_expiry(self) -> None:  # the parent's private hook, by its mangled name
        if not self.timer.is_alive():
            self.timer = threading.Timer(1.0, self._MemoryStorage__expire_events)
            self.timer.daemon = True
            self.timer.start()


#: what each limited route counts, and the settings holding its limits (per address, per token)
KINDS = {
    "create": ("rate_create", None),
    "import": ("rate_import", None),
    "act": ("rate_act_address", "rate_act_token"),
    "chat": ("rate_chat_address", "rate_chat_token"),
    "register": ("rate_register", None),
    # (the "token" of a login is the account name tried: guessing one account's password from
    # many addresses is bounded too)
    "login": ("rate_login_address", "rate_login_name"),
}


class RateLimits:
    """The rate limits of one app (moving windows kept in memory: one server process).

    Raises:
        UsageError: a limit in the settings that the ``limits`` notation cannot read.
    """

    def __init__(self, settings: Settings):
        self.enabled = settings.rate_limits
        self.limiter = MovingWindowRateLimiter(_MemoryStorage())
        self.rules: dict[str, tuple[list, list]] = {}
        for kind, (by_address, by_token) in KINDS.items():
            try:
                self.rules[kind] = (parse_many(getattr(settings, by_address)),
                                    parse_many(getattr(settings, by_token)) if by_token else [])
            except ValueError as e:
                raise UsageError(f"rate limit of {kind}: {e}") from None

    def hit(self, kind: str, address: str, tokens: list[str]) -> None:
        """Count one ``kind`` request from ``address`` carrying ``tokens``.

        Raises:
            TooManyRequests: (429, with ``Retry-After``) one of its limits is reached; nothing counted
                for the limits after it.
        """
        if not self.enabled:
            return
        by_address, by_token = self.rules[kind]
        keys = [(item, kind, "address", address) for item in by_address]
        if tokens:
            who = ",".join(sorted(tokens))  # a hotseat page sends several: they count as one holder
            keys += [(item, kind, "token", who) for item in by_token]
        for item, *ids in keys:
            if not self.limiter.hit(item, *ids):
                reset = self.limiter.get_window_stats(item, *ids).reset_time
                raise TooManyRequests(kind, max(1, math.ceil(reset - time.time())))

    def dependency(self, kind: str):
        """A FastAPI dependency counting ``kind`` for the request's address and seat tokens."""

        async def check(request: Request) -> None:  # async: on the event loop, not in a worker thread
            address = request.client.host if request.client else "?"
            tokens = split_tokens(request.headers.get("x-seat-tokens")) + split_tokens(request.query_params.get("t"))
            self.hit(kind, address, tokens)

        return check


__all__ = ["RateLimits", "TooManyRequests", "capped", "check_budget", "seat_budget"]
