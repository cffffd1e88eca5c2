"""A game in memory (:class:`Live`): its facts, its actions with who took each, the live state
with its log on, its bots, programs and chat, and the pages watching it; and the names every room
of the web app shares (who took an action, the bounds of what a game keeps)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from rolling.bots import OPEN
from rolling.bots.reasons import Reason
from rolling.core.record import GameRecord

if TYPE_CHECKING:
    from .fanout import Listener

#: who took an action: a person, a person's programmed action, a bot, a phase's time limit, an import
BY_HUMAN, BY_PROGRAM, BY_BOT, BY_TIMER, BY_IMPORT = "human", "program", "bot", "timer", "import"
#: seat kind of the players of an imported game
IMPORTED = "import"
#: phases that may carry a time limit, per game (Stars 002, 3.1: the any-order phases 3 and 4)
TIMED_PHASES = {"stars": ("3", "4")}
#: the most automated actions one request carries out inline (a whole bots-only game fits)
MAX_INLINE = 100_000
#: games kept in memory (state, log, documents) before the least recently used idle ones are dropped
MAX_CACHED = 500
#: longest chat line kept, in characters
MAX_CHAT = 500
#: why an undo is refused when the held seats have decided nothing yet
NOTHING_TO_UNDO = "there is no decision to take back"
#: longest bot's reason kept, in characters
MAX_REASON = 1000
#: undos remembered in a game's ``meta["undos"]`` (``{"v": version after it, "keep": actions kept}``),
#: so that a process behind learns which of its actions were taken back (:meth:`GameService._catch_up`)
MAX_UNDOS_KEPT = 50


@dataclass
class LogSoFar:
    """The log as one viewer reads it, rendered as far as the first ``actions`` actions (``events``
    events), with the bots' reasons placed in it: ``{"n", "seat", "line", "text"}``, ``line`` being
    how many lines of the log come before the reason, ``text`` the whole :class:`Reason` (what a
    viewer reads of it is :func:`_shown`'s business); and when each line happened (``times``)."""

    actions: int = 0
    events: int = 0
    lines: list[str] = field(default_factory=list)
    reasons: list[dict[str, Any]] = field(default_factory=list)
    #: when the lines happened, as runs ``(line, at)``: line ``line`` and the lines after it up to the
    #: next run's were written at ``at`` (seconds since the epoch: the game's creation for its setup,
    #: else the time of the action that wrote them)
    times: list[tuple[int, float]] = field(default_factory=list)


@dataclass(eq=False)
class Live:
    """A game in memory: its facts, the actions (JSON) with who took each, the live state with its
    log on, the bots, programs and chat, and what pages are watching."""

    id: str
    game: str
    title: str
    config: dict[str, Any]
    seed: int
    created: float
    seats: list[dict[str, Any]]  # {"seat", "name", "kind", "token_hash"}
    time_limits: dict[str, int]
    meta: dict[str, Any]
    watch_only: bool
    actions: list[dict[str, Any]] = field(default_factory=list)
    by: list[tuple[int | None, str]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    log_marks: list[int] = field(default_factory=list)  # log size after each action
    phases: list[Any] = field(default_factory=list)  # the phase each action was played in (GameSpec.phase)
    log_base: int = 0  # log size of the setup, before the first action
    reasons: dict[int, tuple[int, Reason]] = field(default_factory=dict)  # action n (from 1) -> (seat, bot's reason)
    state: Any = None
    floor: Any = None  # how far back undo may reach (rolling.core.reveal.UndoFloor), set by _rebuild
    snapshots: dict[int, tuple[Any, Any]] = field(default_factory=dict)  # n -> (state, floor) after n actions
    bots: dict[int, Any] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    chat_rows: int = 0  # chat lines stored when ``chat`` was read (catch-up reads them again when more)
    programs: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None
    listeners: set[Listener] = field(default_factory=set)
    touched: float = 0.0  # when the game last went back (undo): bots and clocks count from there
    rev: int = 0  # changes with every action, undo, chat line or program
    broken: str | None = None  # why automated play stopped (a bot failed), if it did
    creator_hash: str | None = None  # SHA-256 of the creator's token (stop, delete)
    lines: dict[Any, LogSoFar] = field(default_factory=dict)  # viewer -> the log as rendered so far
    docs: dict[Any, tuple[int, dict]] = field(default_factory=dict)
    charts: tuple[int, dict] | None = None

    #: grows by one with every action and every undo, never repeats (an action chosen before an
    #: undo is stale even when the game is back at the same number of actions)
    version: int = 0

    @property
    def played(self) -> int:
        """The number of actions in the record."""
        return len(self.actions)

    @property
    def last_time(self) -> float:
        """When the latest action was taken (or the game created), seconds since the epoch."""
        return max(self.times[-1] if self.times else self.created, self.touched)

    def record(self) -> GameRecord:
        """The game's record (``rolling replay``-able), names and seats in ``meta``."""
        meta = dict(self.meta)
        meta["names"] = [s["name"] for s in self.seats]
        meta["seats"] = [s["kind"] for s in self.seats]
        return GameRecord(self.game, dict(self.config), self.seed, list(self.actions), meta)


def waiting(live: Live) -> bool:
    """Whether the game waits for its open seats to be taken (issue 31): nobody plays meanwhile,
    neither people nor bots nor clocks."""
    return any(x["kind"] == OPEN for x in live.seats)


def _duration(seconds: float) -> str:
    """``"30 days"``, ``"2 hours"``, ``"90 seconds"``: the largest whole unit."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            k = int(seconds // size)
            return f"{k} {unit}{'s' if k != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"



def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _title(game: str, config: dict[str, Any], players: int) -> str:
    if game == "stars":
        from rolling.games.stars.config import TITLES

        base = TITLES.get(config.get("edition", "stars"), "Rolling Stock Stars")
    else:
        base = {"freight": "Rolling Freight", "market": "Rolling Market"}.get(game, game)
    return f"{base}, {players} player{'s' if players != 1 else ''}"
