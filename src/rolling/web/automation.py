"""Automation: what is due in a game and what to play, as pure functions of a game in memory
(:class:`~rolling.web.live.Live`) and the time. The same functions serve the embedded worker of
``rolling serve`` (:mod:`.driving`) and ``rolling worker`` (:mod:`.tasks`): neither decides on its
own what a bot, a programmed action or a phase's time limit does.

Order of precedence when several seats are to act: a bot's move first, then a programmed action,
then (Stars, the any-order phases 3 and 4: Stars 002, 3.1) the phase's time running out.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from . import programs as P
from .live import BY_BOT, BY_PROGRAM, BY_TIMER, Live, waiting


def stopped(live: Live) -> bool:
    """Nothing automated happens in the game: watch-only, broken (a bot's move refused), over,
    ended before its end, or waiting for its open seats to be taken (issue 31)."""
    return bool(live.watch_only or live.broken or live.state.is_over or "closed" in live.meta or waiting(live))


def program_action(live: Live, seat: int) -> Any | None:
    """The action a programmed action of ``seat`` takes now (:mod:`.programs`), or None."""
    for (pseat, kind), p in live.programs.items():
        if pseat == seat:
            a = P.action(kind, p["limit"], live.state, seat)
            if a is not None:
                return a
    return None


def deadline(live: Live) -> float | None:
    """When the current phase's time limit runs out (seconds since the epoch), or None (no limit
    set for the phase, or nobody to act)."""
    s = live.state
    limit = live.time_limits.get(str(getattr(s, "phase", "")))
    if not limit or s.is_over or not s.to_act or waiting(live):
        return None
    return live.last_time + limit


def due_at(live: Live, bot_pace: float) -> tuple[float, str] | None:
    """``(when, what)`` of the game's next automated action: ``when`` in seconds since the epoch
    (a bot or program ``bot_pace`` seconds after the latest action; a timer at the phase's
    deadline), ``what`` one of ``bot``, ``program``, ``timer``; None when nothing is automated.
    A game's ``meta["bot_pace"]`` (its settings) replaces a ``bot_pace`` above 0."""
    if stopped(live):
        return None
    # a game's own pace (its settings page, issue 31) where the server paces its bots at all
    bot_pace = float(live.meta.get("bot_pace", bot_pace)) if bot_pace > 0 else 0.0
    to_act = live.state.to_act
    if any(seat in live.bots for seat in to_act):
        return live.last_time + bot_pace, BY_BOT
    if any(program_action(live, seat) is not None for seat in to_act):
        return live.last_time + bot_pace, BY_PROGRAM
    dl = deadline(live)
    if dl is not None:
        return dl, BY_TIMER
    return None


def due(live: Live, bot_pace: float, now: float | None = None) -> tuple[float, str] | None:
    """``(seconds from now, what)`` of the next automated action (:func:`due_at`), or None."""
    found = due_at(live, bot_pace)
    if found is None:
        return None
    now = time.time() if now is None else now
    return max(0.0, found[0] - now), found[1]


def bot_to_act(live: Live) -> tuple[int, Any] | None:
    """``(seat, bot)`` of the first seat to act that a bot plays, or None."""
    for seat in live.state.to_act:
        bot = live.bots.get(seat)
        if bot is not None:
            return seat, bot
    return None


def decision_seed(seed: int, seat: int, n: int) -> int:
    """The seed of a bot's decision: action ``n`` (from 1) of the game of ``seed``, by ``seat``
    (31 bits of BLAKE2b): the same move whichever process, thread or restart makes it (issue 30)."""
    digest = hashlib.blake2b(f"{seed}:{seat}:{n}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % 2**31


def decision_bot(live: Live, seat: int) -> Any:
    """The seat's bot, ready for the seat's next decision: its random numbers (``bot.rng``: the
    random and search bots) seeded by :func:`decision_seed`, so that a move depends on the game, not
    on how many moves the bot made before in this process; and a bot with memory (the Stars
    heuristic and search bots remember the proposals the seat made this phase, the search bot the
    companies seen) has it rebuilt from the game's record (:class:`rolling.bots.base.History`,
    :class:`rolling.bots.base.Recalling`), not kept from what this process happened to see: a
    worker that loads the game mid-phase, another worker, a process catching up or the game after
    an undo make the same move as an uninterrupted run (issue 30)."""
    from rolling.core.rng import Rng

    bot = live.bots[seat]
    if isinstance(getattr(bot, "rng", None), Rng):
        bot.rng = Rng(decision_seed(live.seed, seat, live.played + 1))
    recall = getattr(bot, "recall", None)
    if recall is not None:
        from rolling.bots.base import History

        recall(History.from_record(live.game, live.config, live.seed, live.state, live.actions, live.phases), seat)
    return bot


def timer_action(state: Any) -> tuple[int, Any] | None:
    """The phase's time ran out: the first seat still to act says ``done`` (or declines the
    question put to it), so that the phase ends once every seat has (Stars 002, 3.1)."""
    from rolling.games.stars import Done, Respond

    for seat in state.to_act:
        moves = state.legal_moves(seat)
        for m in moves:
            if m.kind is Done:
                return seat, Done(seat)
        for m in moves:
            if m.kind is Respond and m.field is None and not m.args.get("accept"):
                return seat, m.action()
    return None


def next_move(live: Live, now: float | None = None, timers: bool = True) -> tuple[str, int, Any] | None:
    """What to play now, if anything: ``("bot", seat, bot)`` (the bot still has to choose),
    ``("program", seat, action)`` or ``("timer", seat, action)`` (the phase's time ran out;
    ``timers`` off: never). Pacing is the caller's business (:func:`due`)."""
    if stopped(live):
        return None
    found = bot_to_act(live)
    if found is not None:
        return BY_BOT, found[0], found[1]
    for seat in live.state.to_act:
        a = program_action(live, seat)
        if a is not None:
            return BY_PROGRAM, seat, a
    dl = deadline(live) if timers and live.game == "stars" else None
    if dl is not None and dl <= (time.time() if now is None else now):
        t = timer_action(live.state)
        if t is not None:
            return BY_TIMER, t[0], t[1]
    return None
