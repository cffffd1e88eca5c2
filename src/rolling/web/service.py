"""Games on the server: each one is its record in the database, with a cached live state.

A game is its config, seed and list of actions. The database is the only truth (issue 30): every
change is one transaction guarded by the version this process holds (:func:`.store.claim`), so of
two actions sent at once for one game, to one process or to two, one is applied and the other gets
:class:`StaleVersion`; the cached state counts an action only once it is committed, and no page is
told before. The state is rebuilt by replay when a game is first needed after a start; a process
behind the database catches up by reading only the new rows (:meth:`GameService._catch_up`), told
by PostgreSQL's notifications (:meth:`GameService._listen`). Each game also has an
:class:`asyncio.Lock`, which orders the requests and tasks of one process.

Seats are ``human`` (a token per seat, stored as its SHA-256), a bot's registry name, or
``import`` (the players of an imported game, which nobody plays). Bots act on the server right
after the action that makes it their turn (after ``bot_pace`` seconds, so that people see the moves
go by; with a pace of 0, within the same request). Programmed actions (:mod:`.programs`) and the
time limits of the any-order phases act the same way. A bot's reason for its move (its
``last_reason``) is committed with the move (table ``bot_reasons``, public and full text) and
shown under the move's lines of the log, the same to everyone: its public part while the game goes
on, all of it (the bot's limits, valuations, search statistics) once the game is over
(:func:`rolling.bots.reasons.shown_reason`).

All methods run on the event loop's thread; the database calls are short and synchronous.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Engine, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import sessionmaker

from rolling.bots import HUMAN, OPEN, default_names, make_bot, parse_seats
from rolling.bots.reasons import Reason, decode, encode, shown_reason
from rolling.core.errors import IllegalAction, RecordError, UsageError
from rolling.core.events import segment_lines
from rolling.core.record import GameRecord, new_state
from rolling.core.reveal import UndoFloor
from rolling.games import GAME_MODULES, get_game

from . import decisions as D
from . import programs as P
from . import store
from .models import ActionRow, BotReasonRow, ChatRow, Game, ProgramRow, Seat
from .settings import Settings
from .stale import basis as decision_basis
from .stale import what_changed
from .store import Behind
from .tokens import hash_token, matches, new_game_id, new_token

log = logging.getLogger("rolling.web")

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

_INSERT_ACTION = insert(ActionRow.__table__)
_INSERT_REASON = insert(BotReasonRow.__table__)
_UPDATE_GAME = (update(Game.__table__).where(Game.__table__.c.id == bindparam("gid"))
                .values(over=bindparam("over"), to_act=bindparam("to_act"), updated=bindparam("updated")))

# -- errors ------------------------------------------------------------------------------------------


class WebError(Exception):
    """An error with its HTTP status and JSON name: ``{"error": name, "message", "rule"?}``."""

    status = 400
    name = "BadRequest"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def body(self) -> dict[str, Any]:
        """The JSON error body."""
        d: dict[str, Any] = {"error": self.name, "message": self.message}
        if self.rule:
            d["rule"] = self.rule
        return d


class NotFound(WebError):
    """No such game (404)."""

    status, name = 404, "NotFound"


class Forbidden(WebError):
    """The request does not carry the token of the seat it acts for (403)."""

    status, name = 403, "Forbidden"


class StaleVersion(WebError):
    """The action was chosen on a version of the game that is no longer current (409)."""

    status, name = 409, "StaleVersion"

    def __init__(self, message: str = "the game changed, look again"):
        super().__init__(message)


class Illegal(WebError):
    """The rules forbid the action (400); ``rule`` names the rule section."""

    status, name = 400, "IllegalAction"


class Malformed(WebError):
    """The action is not an action of this game (unknown type, missing or wrong fields) (422)."""

    status, name = 422, "MalformedAction"


class UndoRefused(WebError):
    """Undo is not allowed now (403): another person acted since, a card was drawn or dice rolled
    since (:mod:`rolling.core.reveal`), the game is over, or nothing to undo; the message says which."""

    status, name = 403, "UndoRefused"


class Conflict(WebError):
    """The game is over or watch-only (409)."""

    status, name = 409, "GameClosed"


# -- live games --------------------------------------------------------------------------------------


@dataclass(eq=False)
class Listener:
    """One live page (WebSocket): the seats its tokens hold, and an event set on every change."""

    held: tuple[int, ...]
    event: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class LogSoFar:
    """The log as one viewer reads it, rendered as far as the first ``actions`` actions (``events``
    events), with the bots' reasons placed in it: ``{"n", "seat", "line", "text"}``, ``line`` being
    how many lines of the log come before the reason, ``text`` the whole :class:`Reason` (what a
    viewer reads of it is :func:`_shown`'s business)."""

    actions: int = 0
    events: int = 0
    lines: list[str] = field(default_factory=list)
    reasons: list[dict[str, Any]] = field(default_factory=list)


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
    reasons: dict[int, tuple[int, Reason]] = field(default_factory=dict)  # action n (from 1) -> (seat, bot's reason)
    state: Any = None
    floor: Any = None  # how far back undo may reach (rolling.core.reveal.UndoFloor), set by _rebuild
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


def _shown(reasons: list[dict[str, Any]], over: bool) -> list[dict[str, Any]]:
    """The bots' reasons ``{n, seat, line, text}`` as every viewer reads them: the public parts while
    the game goes on, the full texts once it is over (:func:`rolling.bots.reasons.shown_reason`);
    a reason with nothing to show is left out."""
    out = []
    for r in reasons:
        text = shown_reason(r["text"], over)
        if text is not None:
            out.append({**r, "text": text})
    return out


def _duration(seconds: float) -> str:
    """``"30 days"``, ``"2 hours"``, ``"90 seconds"``: the largest whole unit."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            k = int(seconds // size)
            return f"{k} {unit}{'s' if k != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


#: the log events that open a section of the log: a phase (Stars), a turn or phase (Freight), a turn
#: (Market)
_HEADINGS = frozenset({"phase", "turn", "phase_begins"})


def _heading_after(log: list[tuple] | None, start: int, end: int) -> int:
    """The index of the first section heading among the events ``start + 1`` to ``end - 1`` of
    ``log`` (the events of one action, whose first is its own), else ``end``."""
    for k in range(start + 1, end if log is not None else start):
        if log[k][0] in _HEADINGS:
            return k
    return end


def _waiting(live: Live) -> bool:
    """Whether the game waits for its open seats to be taken (issue 31): nobody plays meanwhile,
    neither people nor bots nor clocks."""
    return any(x["kind"] == OPEN for x in live.seats)


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _title(game: str, config: dict[str, Any], players: int) -> str:
    if game == "stars":
        from rolling.games.stars.config import TITLES

        base = TITLES.get(config.get("edition", "stars"), "Rolling Stock Stars")
    else:
        base = {"freight": "Rolling Freight", "market": "Rolling Market"}.get(game, game)
    return f"{base}, {players} player{'s' if players != 1 else ''}"


# -- the service -------------------------------------------------------------------------------------


class GameService:
    """Every game of one database, their live states, bots and pages.

    Args:
        engine: the database (schema already upgraded: :func:`rolling.web.db.open_database`).
        bot_pace: seconds between the action that makes it a bot's (or a program's) turn and its
            move; 0 plays them within the request that triggered them.
        start_workers: run the background tasks (paced bots, time limits, resuming after a
            restart); off, only what happens inline happens.
        settings: the server's bounds (:class:`~rolling.web.settings.Settings`): bots' budgets
            are capped by them.
    """

    def __init__(self, engine: Engine, bot_pace: float = 0.3, start_workers: bool = True,
                 max_cached: int = MAX_CACHED, settings: Settings | None = None):
        self.engine = engine
        self.settings = settings or Settings()
        self.Session = sessionmaker(engine, expire_on_commit=False)
        self.bot_pace = max(0.0, float(bot_pace))
        self.start_workers = start_workers
        self.cache: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self.max_cached = max_cached
        self.closed = False
        self.sweeper: asyncio.Task | None = None  # ends idle games (:meth:`_end_idle_games`)
        self.origin = store.new_origin()  # this process's name in the notifications it sends
        self.listener: asyncio.Task | None = None  # PostgreSQL LISTEN (:meth:`_listen`)
        self._catching: set[str] = set()  # games with a catch-up task waiting for their lock

    # -- start and stop ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for the other processes' changes (PostgreSQL: :meth:`_listen`); resume the games
        whose turn is a bot's, a program's or under a time limit (after a restart)."""
        if self.engine.dialect.name == "postgresql" and self.listener is None:
            self.listener = asyncio.get_running_loop().create_task(self._listen())
        if not self.start_workers:
            return
        with self.Session() as db:
            rows = db.execute(select(Game.id).where(Game.over.is_(False), Game.watch_only.is_(False))).scalars().all()
        for gid in rows:
            try:
                live = self.get(gid)
            except WebError:
                continue
            if self._due(live) is not None:
                self._kick(live)
        if self.settings.idle_end_seconds > 0:
            self.sweeper = asyncio.get_running_loop().create_task(self._end_idle_games())

    async def stop(self) -> None:
        """Cancel the background tasks (the database holds everything)."""
        self.closed = True
        tasks = [live.task for live in self.cache.values() if live.task is not None and not live.task.done()]
        if self.sweeper is not None:
            tasks.append(self.sweeper)
        if self.listener is not None:
            tasks.append(self.listener)
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass

    # -- loading -------------------------------------------------------------------------------------
    def get(self, gid: str) -> Live:
        """The live game ``gid``, loaded and replayed from the database on first use.

        Raises:
            NotFound: no such game.
        """
        live = self.cache.get(gid)
        if live is not None:
            self.cache.move_to_end(gid)
            return live
        if not isinstance(gid, str) or len(gid) > 32:
            raise NotFound(f"no game {gid!r}")
        with self.Session() as db:
            g = db.get(Game, gid)
            if g is None:
                raise NotFound(f"no game {gid!r}")
            seats = db.execute(select(Seat).where(Seat.game_id == gid).order_by(Seat.seat)).scalars().all()
            acts = db.execute(select(ActionRow).where(ActionRow.game_id == gid).order_by(ActionRow.n)).scalars().all()
            chat = db.execute(select(ChatRow).where(ChatRow.game_id == gid).order_by(ChatRow.id)).scalars().all()
            progs = db.execute(select(ProgramRow).where(ProgramRow.game_id == gid)).scalars().all()
            reasons = db.execute(select(BotReasonRow).where(BotReasonRow.game_id == gid)).scalars().all()
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
        self.cache[gid] = live
        self._evict()
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
        """Replay the game's actions into a fresh state (log on); find the latest reveal (undo's floor).

        Raises:
            WebError: the stored record no longer replays (a bug, or an edited database).
        """
        spec = get_game(live.game)
        rec = GameRecord(live.game, live.config, live.seed, [])
        state = new_state(rec)
        if hasattr(state, "enable_log"):
            state.enable_log()
        live.floor = UndoFloor(state)
        live.log_marks = []
        for i, data in enumerate(live.actions):
            action = spec.action_from_json(data)
            try:
                state.apply(action)
            except IllegalAction as e:
                # the engine's reason may state a seat's secret cash: the server's log only (issue 29)
                log.error("game %s: action %d does not replay: %s", live.id, i + 1, e)
                raise WebError(f"the stored game {live.id} does not replay at action {i + 1} ({e.rule})") from None
            live.floor.after(i + 1, state)
            live.log_marks.append(len(getattr(state, "log", None) or ()))
        live.state = state
        live.lines.clear()
        live.docs.clear()
        live.rev += 1

    # -- who holds what ------------------------------------------------------------------------------
    @staticmethod
    def held(live: Live, tokens: Iterable[str]) -> tuple[int, ...]:
        """The seats whose token is among ``tokens`` (sorted)."""
        hashes = {hash_token(t) for t in tokens}
        return tuple(s["seat"] for s in live.seats if s["token_hash"] is not None and s["token_hash"] in hashes)

    @staticmethod
    def _require(live: Live, held: tuple[int, ...], seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
            raise Malformed(f"there is no seat {seat!r} in this game (seats 0 to {len(live.seats) - 1})")
        if seat not in held:
            raise Forbidden(f"this request does not carry the token of seat {seat} ({live.seats[seat]['name']})")
        return seat

    # -- creating ------------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        """What the lobby form offers, per game: player counts, editions, variants, bots."""
        from rolling.bots import PLAY, STRONGEST, bot_names

        out: dict[str, Any] = {}
        for game in GAME_MODULES:
            entry: dict[str, Any] = {"bots": bot_names(game), "strongest": PLAY.get(game, STRONGEST.get(game))}
            if game == "stars":
                from rolling.games.stars.config import EDITIONS, PLAYERS, TITLES, VARIANTS

                entry.update({"title": TITLES["stars"], "players": [2, 6], "editions": list(EDITIONS),
                              "players_by_edition": {e: list(PLAYERS[e]) for e in EDITIONS},
                              "variants": list(VARIANTS), "time_limits": {"3": 120, "4": 60}})
            elif game == "freight":
                from .freight import maps

                entry.update({"title": "Rolling Freight", "players": [2, 5], "editions": [], "variants": [], "maps": maps()})
            else:
                entry.update({"title": "Rolling Market", "players": [1, 1], "editions": [], "variants": []})
            out[game] = entry
        return {"games": out}

    async def create(self, game: str, config: dict[str, Any] | None, seats: list[str] | None,
                     names: list[str] | None = None, seed: int | None = None,
                     time_limits: dict[str, int] | None = None,
                     creator_token: str | None = None) -> tuple[Live, dict[int, str]]:
        """Create a game; return it and the token of each human seat (shown once, stored hashed).
        ``creator_token`` (stored hashed) may later stop or delete the game (:meth:`stop_game`, :meth:`delete_game`).

        Raises:
            WebError: unknown game, a bad config, seat list, names or time limit (400).
        """
        try:
            spec = get_game(game)
        except RecordError as e:
            raise WebError(str(e)) from None
        config = dict(config or {})
        try:
            kinds = parse_seats(game, seats, players=config.get("players") if isinstance(config.get("players"), int) else None,
                                default_players=2 if game == "stars" else 1, open_seats=True)
        except UsageError as e:
            raise WebError(str(e)) from None
        from .limits import check_budget

        for kind in kinds:
            if kind not in (HUMAN, OPEN):
                check_budget(game, kind, self.settings)
        if "players" not in config and game != "market":
            config["players"] = len(kinds)
        if names:
            if len(names) != len(kinds):
                raise WebError(f"{len(names)} names given for {len(kinds)} seats")
            names = [str(n).strip()[:40] or d for n, d in zip(names, default_names(kinds), strict=True)]
        else:
            names = default_names(kinds)
        if game in ("stars", "freight") and not config.get("names"):
            config["names"] = names
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31:
            raise WebError("the seed must be a whole number from 0 to 2147483647")
        try:
            cfg = spec.config_from_json(config)
            state = spec.new_game(cfg, seed)
        except (RecordError, ValueError) as e:
            raise WebError(f"bad config: {e}") from None
        config = cfg.to_json() if hasattr(cfg, "to_json") else config
        n_seats = len(state.standings())  # every game ranks every seat, from the start
        if n_seats != len(kinds):
            raise WebError(f"{len(kinds)} seats given for {n_seats} players")
        limits: dict[str, int] = {}
        for k, v in (time_limits or {}).items():
            if str(k) not in TIMED_PHASES.get(game, ()):
                raise WebError(f"no time limit can be set for phase {k!r} (phases: {', '.join(TIMED_PHASES.get(game, ())) or 'none'})")
            if v is None or v == 0:
                continue
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 7 * 86400:
                raise WebError("a time limit is a whole number of seconds from 1 to 604800 (or 0: none)")
            limits[str(k)] = v
        now = time.time()
        gid = new_game_id()
        tokens: dict[int, str] = {}
        seat_rows = []
        for k, kind in enumerate(kinds):
            token_hash = None
            if kind == HUMAN:
                tokens[k] = new_token()
                token_hash = hash_token(tokens[k])
            seat_rows.append({"seat": k, "name": names[k], "kind": kind, "token_hash": token_hash})
        title = _title(game, config, len(kinds))
        with self.Session.begin() as db:
            db.add(Game(id=gid, game=game, title=title, config=config, seed=seed, created=now, time_limits=limits,
                        meta={}, watch_only=False, version=0, over=bool(state.is_over), to_act=list(state.to_act),
                        updated=now, creator_hash=hash_token(creator_token) if creator_token else None))
            db.flush()
            for r in seat_rows:
                db.add(Seat(game_id=gid, **r))
        live = self.get(gid)
        async with live.lock:
            self._settle(live)
        self._kick(live)
        return live, tokens

    async def import_export(self, data: Any) -> Live:
        """Create a watch-only game from an 18xx.games export of Rolling Stock Stars (the actions
        our engine accepted, up to the first it refused).

        Raises:
            WebError: not such an export (400).
        """
        from rolling.interop.e18xx import import_export

        try:
            result = import_export(data)
        except RecordError as e:
            raise WebError(str(e)) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise WebError(f"not a readable 18xx.games export: {e}") from None
        rec = result.record
        names = [str(n) for n in rec.meta.get("names", [])]
        players = int(rec.config.get("players", len(names)))
        if len(names) != players:
            names = [f"Player {k}" for k in range(1, players + 1)]
        now = time.time()
        gid = new_game_id()
        meta = {"source": "18xx.games", "site_game_id": rec.meta.get("site_game_id"), "match": result.match}
        if result.error:
            meta["import_error"] = result.error
        state = result.state
        title = f"{_title('stars', rec.config, players)} (18xx.games {rec.meta.get('site_game_id') or 'export'})"
        with self.Session.begin() as db:
            db.add(Game(id=gid, game="stars", title=title[:200], config=rec.config, seed=rec.seed, created=now,
                        time_limits={}, meta=meta, watch_only=True, version=len(rec.actions), over=bool(state.is_over),
                        to_act=list(state.to_act), updated=now))
            db.flush()
            for k in range(players):
                db.add(Seat(game_id=gid, seat=k, name=names[k][:100], kind=IMPORTED, token_hash=None))
            db.flush()
            db.add_all([ActionRow(game_id=gid, n=i + 1, seat=a.get("seat"), by=BY_IMPORT, action=a, created=now)
                        for i, a in enumerate(rec.actions)])
        return self.get(gid)

    # -- acting --------------------------------------------------------------------------------------
    def _commit(self, live: Live, action: Any, seat: int | None, by: str, reason: str | None = None) -> None:
        """Commit ``action`` in one transaction guarded by the game's version (:func:`.store.claim`),
        applying it to the live state inside it (with the bot's ``reason`` for it, if any, and the
        programs it cancels), then tell the pages (and, on PostgreSQL, the other processes).

        Raises:
            IllegalAction: the rules forbid it; nothing changed (the transaction is rolled back
                and the engine refuses before it changes the state).
            Behind: the database's game moved on (another process or task wrote first); nothing
                changed: the caller catches up (:meth:`_catch_up`).
            StaleVersion: the database refused the commit otherwise; the state was rebuilt from it.
        """
        s = live.state
        data = action.to_json()
        n = len(live.actions) + 1
        now = time.time()
        stored = encode(reason, MAX_REASON) if reason and seat is not None else None
        applied = False
        try:
            # SQLAlchemy Core, not the ORM: this is the hot path (a few hundred µs instead of ms)
            with self.engine.begin() as conn:
                version = store.claim(conn, live.id, live.version)
                s.apply(action)  # IllegalAction: the transaction rolls back, the state is as it was
                applied = True
                conn.execute(_INSERT_ACTION, {"game_id": live.id, "n": n, "seat": seat, "by": by, "action": data,
                                              "created": now})
                if stored:
                    conn.execute(_INSERT_REASON, {"game_id": live.id, "n": n, "seat": seat, "text": stored})
                conn.execute(_UPDATE_GAME, {"gid": live.id, "over": bool(s.is_over), "to_act": list(s.to_act),
                                            "updated": now})
                live.floor.after(n, s)
                self._check_programs(live, conn)
                store.notify(conn, live.id, version, self.origin)
        except SQLAlchemyError as e:
            log.warning("game %s: action %d not stored (%s); rebuilding from the database", live.id, n, e)
            if applied:
                self._reload(live)
            raise StaleVersion() from None
        except BaseException:
            if applied:  # (a bug past the engine's apply: the database has nothing of it)
                self._reload(live)
            raise
        live.actions.append(data)
        live.version = version
        live.by.append((seat, by))
        live.times.append(now)
        live.log_marks.append(len(getattr(s, "log", None) or ()))
        if stored:
            live.reasons[n] = (seat, decode(stored))  # as a restart reads it back
        self._changed(live)

    def _reload(self, live: Live) -> None:
        """Read the game again from the database into ``live`` (the same object: pages and tasks
        keep it), replaying it whole; a game that is gone is marked deleted."""
        self.cache.pop(live.id, None)
        try:
            fresh = self.get(live.id)
        except NotFound:
            self._gone(live)
            return
        except WebError:
            return
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
        (the next guarded write finds it behind again)."""
        t = Game.__table__
        held = len(live.actions)
        try:
            with self.engine.connect() as conn:
                g = conn.execute(select(t.c.version, t.c.meta, t.c.over).where(t.c.id == live.id)).first()
                if g is None:
                    self._gone(live)
                    return True
                version, meta = int(g.version), dict(g.meta or {})
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
            return False
        changed = False
        if any(a.n != keep + 1 + i for i, a in enumerate(acts)):
            log.warning("game %s: the stored actions have a gap after %d; replaying the record", live.id, keep)
            self._reload(live)
            return True
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
                    self._reload(live)
                    return True
            else:
                spec = get_game(live.game)
                s = live.state
                for a in acts:
                    try:
                        s.apply(spec.action_from_json(a.action))
                    except IllegalAction as e:
                        log.error("game %s: stored action %d does not apply on the cached state: %s", live.id, a.n, e)
                        self._reload(live)
                        return True
                    live.actions.append(dict(a.action))
                    live.by.append((a.seat, a.by))
                    live.times.append(a.created)
                    live.floor.after(a.n, s)
                    live.log_marks.append(len(getattr(s, "log", None) or ()))
                live.reasons.update(new_reasons)
            live.version = max(version, len(live.actions))
        if meta != live.meta:
            live.meta, changed = meta, True
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

    def _changed(self, live: Live) -> None:
        live.rev += 1
        for listener in live.listeners:
            listener.event.set()

    async def act(self, gid: str, tokens: list[str], seat: Any, version: Any, data: Any, basis: Any = None) -> Live:
        """Apply a person's action for ``seat`` chosen on ``version``, when the page showed the seat's
        decision ``basis`` (the document's ``basis[seat]``, :mod:`.stale`).

        An action chosen on an older version is taken when ``basis`` is given, nothing it covers
        has changed and the action is still legal (the any-order phases: issue 29); otherwise it is
        refused with StaleVersion saying what changed.

        Raises:
            NotFound, Forbidden (token), Malformed (not an action of this game, or for another
            seat), StaleVersion (``version`` is not current and the decision changed), Illegal (the
            rules forbid it; the rule is named), Conflict (the game is over or watch-only).
        """
        live = self.get(gid)
        held = self.held(live, tokens)
        seat = self._require(live, held, seat)
        if not isinstance(data, dict):
            raise Malformed("an action is a JSON object with a 'type'")
        data = dict(data)
        if "seat" not in data and self._has_seat_field(live, data):
            data["seat"] = seat
        try:
            action = get_game(live.game).action_from_json(data)
        except (RecordError, TypeError, ValueError) as e:
            raise Malformed(str(e)) from None
        acting = getattr(action, "seat", seat)
        if acting != seat:
            raise Forbidden(f"the action is for seat {acting!r}, not seat {seat}")
        async with live.lock:
            if isinstance(version, int) and version > live.version:
                self._catch_up(live)  # the page saw the game on a process ahead of this one
            for _ in range(2):  # once more after catching up with a writer that came first
                if seat not in self.held(live, tokens):  # (the seat was handed to a bot meanwhile)
                    raise Forbidden(f"this request does not carry the token of seat {seat} ({live.seats[seat]['name']})")
                stale = version != live.version
                if stale and basis is None:
                    raise StaleVersion()
                if live.watch_only:
                    raise Conflict("this game was imported to be watched; nobody plays it here")
                self._require_open(live)
                if live.state.is_over:
                    raise Conflict("the game is over")
                if _waiting(live):
                    raise Conflict("the game waits for its open seats to be taken (or for its creator to start it)")
                if stale:
                    changed = what_changed(basis, decision_basis(live.game, live.state, seat), data)
                    if changed is not None:
                        raise StaleVersion(changed)
                try:
                    self._commit(live, action, seat, BY_HUMAN)
                    break
                except Behind:
                    self._catch_up(live)
                except IllegalAction as e:
                    if stale:  # legal on the page's version, not any more
                        raise StaleVersion(f"the game changed: {e.reason}") from None
                    raise Illegal(e.reason, rule=e.rule) from None
            else:
                raise StaleVersion()
            self._settle(live)
        self._kick(live)
        return live

    def _has_seat_field(self, live: Live, data: dict[str, Any]) -> bool:
        import dataclasses

        if live.game != "stars":
            return False
        from rolling.games.stars.actions import ACTIONS

        cls = ACTIONS.get(data.get("type")) if isinstance(data.get("type"), str) else None
        return cls is not None and any(f.name == "seat" for f in dataclasses.fields(cls))

    # -- undo ----------------------------------------------------------------------------------------
    def _undo_point(self, live: Live, held: tuple[int, ...]) -> tuple[int | None, str]:
        """The number of actions to keep to take back the last decision the held seats may take
        back, or ``(None, why not)``.

        The last decision of a person (their own action or programmed action) must be one of the
        held seats' (so no other person has acted since; holding several seats, as at a hotseat
        table, any of theirs); bots' moves after it go with it. Never past a phase's time running
        out, nor past a reveal (a card drawn, dice rolled) or the end of the game: the one rule of
        :meth:`rolling.core.reveal.UndoFloor.refusal`."""
        last = None
        for i in range(len(live.by) - 1, -1, -1):
            seat, by = live.by[i]
            if by in (BY_HUMAN, BY_PROGRAM):
                last = i
                break
            if by in (BY_TIMER, BY_IMPORT):
                return None, "the phase's time ran out since" if by == BY_TIMER else "an imported game cannot be changed"
        if last is None:
            return None, NOTHING_TO_UNDO
        if live.by[last][0] not in held:
            return None, "another player has decided since your last decision"
        why = live.floor.refusal(last, live.state)
        if why is not None:
            return None, why
        return last, ""

    async def undo(self, gid: str, tokens: list[str], seat: Any, version: Any) -> Live:
        """Take back the last decision of the held seats (see :meth:`_undo_point`).

        Raises:
            NotFound, Forbidden, Malformed (no such seat), StaleVersion, UndoRefused.
        """
        live = self.get(gid)
        held = self.held(live, tokens)
        seat = self._require(live, held, seat)
        async with live.lock:
            if isinstance(version, int) and version > live.version:
                self._catch_up(live)  # the page saw the game on a process ahead of this one
            if version != live.version:
                raise StaleVersion()
            self._require_open(live)
            held = self.held(live, tokens)
            keep, why = self._undo_point(live, held)
            if keep is None:
                raise UndoRefused(why)
            undone_seat = live.by[keep][0]
            now = time.time()
            # a process behind learns from meta["undos"] which of its actions went (:meth:`_catch_up`)
            undos = [*live.meta.get("undos", []), {"v": live.version + 1, "keep": keep}][-MAX_UNDOS_KEPT:]
            meta = {**live.meta, "undos": undos}
            try:
                with self.engine.begin() as conn:
                    # the guard first: of an undo here and an action elsewhere, one commits, the other is 409
                    new_version = store.claim(conn, live.id, live.version, values={"meta": meta, "updated": now})
                    conn.execute(delete(ActionRow.__table__).where(ActionRow.game_id == live.id, ActionRow.n > keep))
                    conn.execute(delete(BotReasonRow.__table__).where(BotReasonRow.game_id == live.id, BotReasonRow.n > keep))
                    conn.execute(delete(ProgramRow.__table__).where(ProgramRow.game_id == live.id, ProgramRow.seat == undone_seat))
                    del live.actions[keep:], live.by[keep:], live.times[keep:]
                    live.reasons = {k: v for k, v in live.reasons.items() if k <= keep}
                    self._rebuild(live)
                    s = live.state
                    conn.execute(_UPDATE_GAME, {"gid": live.id, "over": bool(s.is_over), "to_act": list(s.to_act),
                                                "updated": now})
                    store.notify(conn, live.id, new_version, self.origin)
            except Behind:
                self._catch_up(live)
                raise StaleVersion() from None
            except SQLAlchemyError as e:
                log.warning("game %s: undo not stored (%s); rebuilding from the database", live.id, e)
                self._reload(live)
                raise StaleVersion() from None
            live.meta = meta
            live.version = new_version  # committed: the undo is a change of its own
            # a program of the seat would take the same decision again at once
            live.programs = {k: v for k, v in live.programs.items() if k[0] != undone_seat}
            live.touched = now
            self._changed(live)
        self._kick(live)
        return live

    # -- automated play: bots, programs, time limits --------------------------------------------------
    def _program_action(self, live: Live, seat: int) -> Any | None:
        for (pseat, kind), p in live.programs.items():
            if pseat == seat:
                a = P.action(kind, p["limit"], live.state, seat)
                if a is not None:
                    return a
        return None

    def _deadline(self, live: Live) -> float | None:
        s = live.state
        limit = live.time_limits.get(str(getattr(s, "phase", "")))
        if not limit or s.is_over or not s.to_act or _waiting(live):
            return None
        return live.last_time + limit

    def _due(self, live: Live) -> tuple[float, str] | None:
        """``(seconds from now, what)`` of the next automated action, or None."""
        s = live.state
        if live.watch_only or live.broken or s.is_over or "closed" in live.meta or _waiting(live):
            return None
        to_act = s.to_act
        # a game's own pace (its settings page, issue 31) where the server paces its bots at all
        pace = float(live.meta.get("bot_pace", self.bot_pace)) if self.bot_pace > 0 else 0.0
        wait = max(0.0, live.last_time + pace - time.time())
        if any(seat in live.bots for seat in to_act):
            return wait, BY_BOT
        if any(self._program_action(live, seat) is not None for seat in to_act):
            return wait, BY_PROGRAM
        deadline = self._deadline(live)
        if deadline is not None:
            return max(0.0, deadline - time.time()), BY_TIMER
        return None

    def _timer_action(self, live: Live) -> tuple[int, Any] | None:
        """The phase's time ran out: the first seat still to act says ``done`` (or declines the
        question put to it), so that the phase ends once every seat has."""
        from rolling.games.stars import Done, Respond

        s = live.state
        for seat in s.to_act:
            moves = s.legal_moves(seat)
            for m in moves:
                if m.kind is Done:
                    return seat, Done(seat)
            for m in moves:
                if m.kind is Respond and m.field is None and not m.args.get("accept"):
                    return seat, m.action()
        return None

    def _step(self, live: Live, timers: bool = True, chosen: tuple | None = None) -> bool:
        """Take the automated action due now, if any; True when one was taken. ``chosen``: a bot's
        ``(seat, action, reason)`` already worked out for this state (:meth:`_think`)."""
        s = live.state
        if live.watch_only or live.broken or s.is_over or "closed" in live.meta or _waiting(live):
            return False
        try:
            due = self._bot_to_act(live)
            if due is not None:
                seat, bot = due
                if chosen is not None and chosen[0] == seat:
                    action, reason = chosen[1], chosen[2]
                else:
                    action = bot.choose(s, seat)
                    reason = getattr(bot, "last_reason", None)
                self._commit(live, action, seat, BY_BOT, reason)
                return True
            for seat in s.to_act:
                a = self._program_action(live, seat)
                if a is not None:
                    self._commit(live, a, seat, BY_PROGRAM)
                    return True
            deadline = self._deadline(live) if timers and live.game == "stars" else None
            if deadline is not None and deadline <= time.time():
                found = self._timer_action(live)
                if found is not None:
                    self._commit(live, found[1], found[0], BY_TIMER)
                    return True
        except IllegalAction as e:
            # every page shows why play stopped: the rule only, since the engine's reason may state
            # the mover's cash (secret with secret money, issue 29); the server's log has it whole
            live.broken = f"automated play stopped: a move the rules refuse ({e.rule})"
            log.error("game %s: automated play stopped: %s", live.id, e)
            self._changed(live)  # the pages learn that play stopped (and a cached document goes)
        except Behind:
            # another process (or a page's action) wrote first: this move is void, the game goes on
            # from the stored one (no retry of the same move, nothing to log above debug)
            log.debug("game %s: an automated move lost the race; catching up", live.id)
            self._catch_up(live)
            return False
        except StaleVersion:
            return False
        return False

    async def _think(self, live: Live) -> tuple | None:
        """The first bot to act works out its move in a worker thread, so that a search bot's
        thinking (half a second where people play) does not stop the server answering other
        requests; the game's lock is held, so the state cannot change meanwhile. Returns
        ``(seat, action, reason)``, or None when no bot is to act."""
        s = live.state
        if live.watch_only or live.broken or s.is_over or "closed" in live.meta:
            return None
        due = self._bot_to_act(live)
        if due is None:
            return None
        seat, bot = due
        action = await asyncio.to_thread(bot.choose, s, seat)
        return seat, action, getattr(bot, "last_reason", None)

    @staticmethod
    def _bot_to_act(live: Live) -> tuple[int, Any] | None:
        """``(seat, bot)`` of the first seat to act that a bot plays, or None."""
        for seat in live.state.to_act:
            bot = live.bots.get(seat)
            if bot is not None:
                return seat, bot
        return None

    def _settle(self, live: Live) -> None:
        """With a bot pace of 0: take every automated action due now (a bots-only game to its end)."""
        if self.bot_pace > 0:
            return
        for _ in range(MAX_INLINE):
            if not self._step(live, timers=False):
                return

    def _kick(self, live: Live) -> None:
        """Wake the game's background task (started if needed) to look for automated actions."""
        if not self.start_workers or self.closed:
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
                        self._step(live, chosen=await self._think(live))
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in a bot must not take the server down; the game stays as stored
            log.exception("game %s: background task failed", live.id)
            live.broken = "automated play stopped by an error"

    # -- programs ------------------------------------------------------------------------------------
    def _check_programs(self, live: Live, conn: Any) -> None:
        """Cancel the programs whose assumption no longer holds; store updated assumptions (in the
        action's transaction ``conn``)."""
        if not live.programs:
            return
        gone, changed = [], []
        for key, p in live.programs.items():
            new = P.check(p["kind"], p["assumption"], live.state, p["seat"])
            if new is None:
                gone.append(key)
            elif new != p["assumption"]:
                p["assumption"] = new
                changed.append(p)
        if not gone and not changed:
            return
        t = ProgramRow.__table__
        for seat, kind in gone:
            conn.execute(delete(t).where(t.c.game_id == live.id, t.c.seat == seat, t.c.kind == kind))
            del live.programs[(seat, kind)]
        for p in changed:
            conn.execute(update(t).where(t.c.game_id == live.id, t.c.seat == p["seat"], t.c.kind == p["kind"])
                         .values(assumption=p["assumption"]))

    async def set_program(self, gid: str, tokens: list[str], seat: Any, kind: Any, limit: Any) -> Live:
        """Set (or replace) a programmed action of ``seat`` (see :mod:`.programs`).

        Raises:
            NotFound, Forbidden, Malformed (no such seat), WebError (400: the program cannot be set now).
        """
        live = self.get(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        try:
            kind = P.canonical(str(kind))
            if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
                raise P.ProgramError("the limit is a whole number of $")
            async with live.lock:
                for attempt in range(2):  # once more after catching up with a writer that came first
                    if live.watch_only:
                        raise Conflict("this game was imported to be watched; nobody plays it here")
                    self._require_open(live)
                    if seat not in self.held(live, tokens):
                        raise Forbidden(f"this request does not carry the token of seat {seat}")
                    assumption = P.start(live.game, kind, limit, live.state, seat)
                    t = ProgramRow.__table__
                    try:
                        with self.engine.begin() as conn:
                            # a program assumes the state held here: the version must be the stored one
                            version = store.claim(conn, live.id, live.version, bump=False, open_only=False)
                            conn.execute(delete(t).where(t.c.game_id == live.id, t.c.seat == seat, t.c.kind == kind))
                            conn.execute(insert(t).values(game_id=live.id, seat=seat, kind=kind, limit=limit,
                                                          assumption=assumption, created=time.time()))
                            store.notify(conn, live.id, version, self.origin)
                        break
                    except Behind:
                        self._catch_up(live)
                        if attempt:
                            raise StaleVersion() from None
                live.programs[(seat, kind)] = {"seat": seat, "kind": kind, "limit": limit, "assumption": assumption}
                self._changed(live)
                self._settle(live)
        except P.ProgramError as e:
            raise WebError(str(e)) from None
        self._kick(live)
        return live

    async def delete_program(self, gid: str, tokens: list[str], seat: Any, kind: str) -> Live:
        """Cancel a programmed action of ``seat`` (nothing happens when there is none).

        Raises:
            NotFound, Forbidden, Malformed.
        """
        live = self.get(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        kind = P.ALIASES.get(kind, kind)
        async with live.lock:
            if (seat, kind) in live.programs:
                t = ProgramRow.__table__
                try:
                    with self.engine.begin() as conn:
                        version = store.lock(conn, live.id)  # (cancelling depends on no state)
                        conn.execute(delete(t).where(t.c.game_id == live.id, t.c.seat == seat, t.c.kind == kind))
                        store.notify(conn, live.id, version, self.origin)
                except Behind:
                    self._catch_up(live)
                    raise NotFound(f"no game {gid!r}") from None
                del live.programs[(seat, kind)]
                self._changed(live)
        return live

    # -- chat ----------------------------------------------------------------------------------------
    def _chat_json(self, live: Live, seat: int, text: str, at: float) -> dict[str, Any]:
        name = live.seats[seat]["name"] if 0 <= seat < len(live.seats) else "?"
        return {"seat": seat, "name": name, "text": text, "at": _iso(at)}

    async def chat(self, gid: str, tokens: list[str], seat: Any, text: Any) -> Live:
        """Add a chat line of ``seat`` (kept with the game, shown to every page).

        Raises:
            NotFound, Forbidden, Malformed (no such seat, or an empty line).
        """
        live = self.get(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        text = " ".join(str(text or "").split())[:MAX_CHAT]
        if not text:
            raise Malformed("an empty chat line")
        now = time.time()
        async with live.lock:
            try:
                with self.engine.begin() as conn:
                    version = store.lock(conn, live.id)  # (a chat line depends on no state: any version)
                    conn.execute(insert(ChatRow.__table__).values(game_id=live.id, seat=seat, text=text, created=now))
                    rows = conn.execute(select(func.count()).select_from(ChatRow)
                                        .where(ChatRow.game_id == live.id)).scalar_one()
                    store.notify(conn, live.id, version, self.origin)
            except Behind:
                self._catch_up(live)
                raise NotFound(f"no game {gid!r}") from None
            if rows == live.chat_rows + 1:
                live.chat.append(self._chat_json(live, seat, text, now))
                live.chat_rows = rows
                self._changed(live)
            else:  # lines of other processes came meanwhile: read them all, in order
                live.chat_rows = -1
                self._catch_up(live)
        return live

    # -- reading -------------------------------------------------------------------------------------
    def _lines(self, live: Live, viewer: int | None) -> LogSoFar:
        """The log as ``viewer`` may read it, with the bots' reasons placed after the lines of their
        actions; rendered once and extended as the game goes on (a new object when it grows: a
        document made before keeps what it had)."""
        s = live.state
        size = len(getattr(s, "log", None) or ())
        so_far = live.lines.get(viewer) or LogSoFar()
        if so_far.events < size or so_far.actions < live.played:
            lines, reasons, events = list(so_far.lines), list(so_far.reasons), so_far.events
            for n in range(so_far.actions + 1, live.played + 1):
                reason = live.reasons.get(n)
                if reason is None:
                    continue
                mark = live.log_marks[n - 1]
                # the reason goes under the bot's own lines, before the heading of a phase (or turn)
                # its move began: it belongs to the phase it was given in (issue 29)
                own = live.log_marks[n - 2] if n >= 2 else 0  # where the move's own events begin
                cut = _heading_after(getattr(s, "log", None), max(events, own), mark)
                lines += segment_lines(s, viewer, events, cut)
                events = cut
                reasons.append({"n": n, "seat": reason[0], "line": len(lines), "text": reason[1]})
            lines += s.log_lines(viewer, events)
            so_far = LogSoFar(live.played, size, lines, reasons)
            live.lines[viewer] = so_far
        return so_far

    def document(self, live: Live, held: tuple[int, ...]) -> dict[str, Any]:
        """The game document (see docs/web.md) as the seats ``held`` see it (none: a spectator).

        ``view`` is ``state.view(seat)`` for ``view_seat``: the first held seat that may act, else
        the first held seat, else ``None`` (a spectator: no secret money)."""
        key = held
        cached = live.docs.get(key)
        if cached is not None and cached[0] == live.rev:
            return cached[1]
        s = live.state
        to_act = list(s.to_act) if not s.is_over else []
        acting = [k for k in held if k in to_act]
        viewer = acting[0] if acting else (held[0] if held else None)
        decisions = {} if live.watch_only or _waiting(live) else {str(k): D.decisions(live.game, s, k) for k in acting}
        # each acting seat's decision basis, sent back with its action (a stale one may still count)
        bases = {k: decision_basis(live.game, s, int(k)) for k in decisions}
        undo: dict[str, bool] = {}
        undo_refused = None
        if not live.watch_only and held:
            keep, why = self._undo_point(live, held)
            if keep is None and why != NOTHING_TO_UNDO:
                undo_refused = why
            undo = {str(k): keep is not None and live.by[keep][0] == k for k in held}
            if keep is not None and len(held) > 1:
                undo = {str(k): True for k in held}  # hotseat: any decision at the table
        deadline = self._deadline(live) if live.game == "stars" else None
        doc = {
            "id": live.id,
            "game": live.game,
            "title": live.title,
            "version": live.version,
            "played": live.played,
            "over": bool(s.is_over),
            "to_act": to_act,
            "you": list(held),
            "view_seat": viewer,
            "seats": [{"seat": x["seat"], "name": x["name"], "kind": x["kind"]} for x in live.seats],
            "view": s.view(viewer),
            "log": self._with_events(live, viewer)[0],
            "reasons": _shown(self._with_events(live, viewer)[1], s.is_over),
            "decisions": decisions,
            "basis": {k: b for k, b in bases.items() if b is not None},
            "standings": s.standings() if s.is_over else None,
            "chat": live.chat[-200:],
            "programs": [{"seat": p["seat"], "kind": p["kind"], "limit": p["limit"],
                          **({"company": p["assumption"]["company"]} if "company" in p["assumption"] else {})}
                         for p in live.programs.values() if p["seat"] in held],
            "undo": undo,
            "undo_refused": undo_refused,
            "time_limit": ({"phase": getattr(s, "phase", None), "deadline": _iso(deadline),
                            "seconds_left": max(0, round(deadline - time.time()))} if deadline else None),
            "watch_only": live.watch_only,
            "meta": {k: v for k, v in live.meta.items() if k in ("source", "site_game_id", "match", "import_error")},
            "stopped": live.broken,
            "closed": live.meta.get("closed"),
            "open": [x["seat"] for x in live.seats if x["kind"] == OPEN],
        }
        if deadline is None:
            live.docs[key] = (live.rev, doc)
        return doc

    def document_json(self, live: Live, held: tuple[int, ...]) -> bytes:
        """:meth:`document` as UTF-8 JSON, kept until the game changes (every page of the same seats
        shares it; serialising the document is most of the cost of a request)."""
        key = ("json", held)
        cached = live.docs.get(key)
        if cached is not None and cached[0] == live.rev:
            return cached[1]
        doc = self.document(live, held)
        body = orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS)
        if doc["time_limit"] is None:
            live.docs[key] = (live.rev, body)
        return body

    def summary(self, live: Live) -> dict[str, Any]:
        """One game of the lobby's list."""
        s = live.state
        return {"id": live.id, "game": live.game, "title": live.title, "created": _iso(live.created),
                "version": live.version, "played": live.played, "over": bool(s.is_over), "to_act": list(s.to_act) if not s.is_over else [],
                "seats": [{"seat": x["seat"], "name": x["name"], "kind": x["kind"]} for x in live.seats],
                "watch_only": live.watch_only, "closed": live.meta.get("closed")}

    def list_games(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest games (at most ``limit``), from the database's summaries (no replay)."""
        with self.Session() as db:
            games = db.execute(select(Game).order_by(Game.created.desc()).limit(limit)).scalars().all()
            ids = [g.id for g in games]
            seats = db.execute(select(Seat).where(Seat.game_id.in_(ids)).order_by(Seat.seat)).scalars().all() if ids else []
            played = dict(db.execute(select(ActionRow.game_id, func.count()).where(ActionRow.game_id.in_(ids))
                                     .group_by(ActionRow.game_id)).all()) if ids else {}
        by_game: dict[str, list[dict[str, Any]]] = {}
        for x in seats:
            by_game.setdefault(x.game_id, []).append({"seat": x.seat, "name": x.name, "kind": x.kind})
        return [{"id": g.id, "game": g.game, "title": g.title, "created": _iso(g.created), "version": g.version,
                 "played": int(played.get(g.id, 0)), "over": g.over, "to_act": [] if g.over else list(g.to_act or []), "seats": by_game.get(g.id, []),
                 "watch_only": g.watch_only, "closed": (g.meta or {}).get("closed")} for g in games]

    def history(self, live: Live, held: tuple[int, ...]) -> dict[str, Any]:
        """Every action with who took it and its log text (as the first held seat reads it)."""
        viewer = held[0] if held else None
        s = live.state
        out = []
        prev = 0
        for i, data in enumerate(live.actions):
            mark = live.log_marks[i] if i < len(live.log_marks) else prev
            text = " ".join(segment_lines(s, viewer, prev, mark))
            seat, by = live.by[i]
            reason = live.reasons.get(i + 1)
            out.append({"n": i + 1, "seat": seat, "by": by, "action": data, "text": text, "at": _iso(live.times[i]),
                        "reason": shown_reason(reason[1], s.is_over) if reason else None})
            prev = mark
        return {"actions": out, "version": live.version, "played": live.played, "over": bool(s.is_over)}

    def document_at(self, live: Live, n: Any, held: tuple[int, ...]) -> dict[str, Any]:
        """The game document as of after action ``n`` (0: the start), without decisions.

        Raises:
            NotFound: ``n`` is not between 0 and the version.
        """
        if not isinstance(n, int) or not 0 <= n <= live.played:
            raise NotFound(f"no action {n} in this game (0 to {live.played})")
        past = Live(id=live.id, game=live.game, title=live.title, config=live.config, seed=live.seed,
                    created=live.created, seats=live.seats, time_limits={}, meta=live.meta, watch_only=True,
                    actions=live.actions[:n], by=live.by[:n], times=live.times[:n],
                    reasons={k: v for k, v in live.reasons.items() if k <= n})
        self._rebuild(past)
        doc = self.document(past, held)
        doc.update({"version": live.version, "played": live.played, "at": n, "watch_only": live.watch_only, "undo": {}, "undo_refused": None, "decisions": {},
                    "chat": [], "programs": [],
                    # the game's own end, not the past position's, says whether the plans may show
                    "reasons": _shown(self._lines(past, doc["view_seat"]).reasons, live.state.is_over)})
        return doc

    def charts(self, live: Live) -> dict[str, Any]:
        """The game's charts over the turns (:func:`rolling.web.charts.charts`), kept until the next change."""
        if live.charts is not None and live.charts[0] == live.version:
            return live.charts[1]
        from .charts import charts

        out = charts(GameRecord(live.game, live.config, live.seed, live.actions), [x["name"] for x in live.seats])
        live.charts = (live.version, out)
        return out

    def hint(self, gid: str, tokens: list[str], seat: Any) -> dict[str, Any]:
        """What the game's strongest bot would do as ``seat`` now, with its reason (:mod:`.hints`).

        Raises:
            NotFound, Forbidden, Malformed (no such seat), Conflict (over or watch-only),
            WebError (400: no hints in this game, or the seat has no decision now).
        """
        from .hints import NoHint, hint

        live = self.get(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        if live.watch_only or live.state.is_over:
            raise Conflict("the game is over" if live.state.is_over else "this game is watch only")
        self._require_open(live)
        try:
            return hint(live.game, live.state, seat)
        except NoHint as e:
            raise WebError(str(e)) from None

    # -- lifecycle: stop, delete, hand a seat to a bot, idle games end ---------------------------------
    @staticmethod
    def _require_open(live: Live) -> None:
        """Raises Conflict (409) when the game was ended before its end (stopped, idle)."""
        closed = live.meta.get("closed")
        if closed:
            raise Conflict(f"the game was ended: {closed['text']}")

    def _require_creator(self, live: Live, tokens: list[str]) -> None:
        if live.creator_hash is None or not any(matches(t, live.creator_hash) for t in tokens):
            raise Forbidden("only the game's creator (the creator's token) may stop or delete it")

    @staticmethod
    def _event(live: Live, text: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """``meta`` (default the game's) with a server's line added to the game's log (kept in
        ``meta["events"]``, after the actions so far): the meta to store."""
        meta = live.meta if meta is None else meta
        events = [*meta.get("events", []), {"n": live.played, "at": _iso(time.time()), "text": text}]
        return {**meta, "events": events}

    def _with_events(self, live: Live, viewer: int | None) -> tuple[list[str], list[dict[str, Any]]]:
        """The viewer's log lines with the server's events (:meth:`_event`) placed after the
        lines of the actions before them, and the bots' reasons moved to match."""
        so_far = self._lines(live, viewer)
        events = [e for e in live.meta.get("events", ()) if e["n"] <= live.played]
        if not events:
            return so_far.lines, so_far.reasons
        s = live.state
        lines, reasons = list(so_far.lines), [dict(r) for r in so_far.reasons]
        for k, e in enumerate(events):
            n = e["n"]
            if n == live.played:
                at = len(so_far.lines)
            else:  # (before the first action: after the lines the game's setup wrote, unknown here)
                at = len(segment_lines(s, viewer, 0, live.log_marks[n - 1])) if n > 0 else 0
            at = min(at + k, len(lines))  # after the events before it
            lines.insert(at, f"— {e['text']}")
            for r in reasons:
                if r["n"] > n:
                    r["line"] += 1
        return lines, reasons

    def _close(self, live: Live, text: str, by: str) -> None:
        """End the game before its end (``by``: ``creator`` or ``idle``): no more actions, no bots;
        the reason in its log. The hidden information stays hidden (the rules' end did not come)."""
        now = time.time()
        meta = {**self._event(live, text), "closed": {"by": by, "at": _iso(now), "text": text}}
        with self.engine.begin() as conn:  # Behind: the game moved on (or ended) meanwhile
            version = store.claim(conn, live.id, live.version,
                                  values={"meta": meta, "over": True, "to_act": [], "updated": now})
            store.notify(conn, live.id, version, self.origin)
        live.meta, live.version = meta, version
        live.docs.clear()
        self._changed(live)
        log.info("game %s: %s", live.id, text)

    async def stop_game(self, gid: str, tokens: list[str]) -> Live:
        """The creator stops the game: it ends where it is, said in its log.

        Raises:
            NotFound, Forbidden (not the creator's token), Conflict (over, imported or already ended).
        """
        live = self.get(gid)
        self._require_creator(live, tokens)
        async with live.lock:
            for _ in range(2):  # once more after catching up with a writer that came first
                if live.state.is_over or live.watch_only:
                    raise Conflict("the game is over")
                self._require_open(live)
                try:
                    self._close(live, "the game was stopped by its creator", "creator")
                    break
                except Behind:
                    self._catch_up(live)
            else:
                raise StaleVersion()
        return live

    async def delete_game(self, gid: str, tokens: list[str]) -> None:
        """The creator deletes the game and everything kept with it (actions, chat, programs).

        Raises:
            NotFound, Forbidden (not the creator's token).
        """
        live = self.get(gid)
        self._require_creator(live, tokens)
        async with live.lock:
            with self.engine.begin() as conn:
                try:
                    version = store.lock(conn, live.id)
                except Behind:
                    version = None  # deleted meanwhile: deleted all the same
                for table in (BotReasonRow, ProgramRow, ChatRow, ActionRow, Seat):
                    conn.execute(delete(table.__table__).where(table.game_id == live.id))
                conn.execute(delete(Game.__table__).where(Game.id == live.id))
                if version is not None:
                    store.notify(conn, live.id, version + 1, self.origin)
            self.cache.pop(live.id, None)
            live.meta = {**live.meta, "closed": {"by": "creator", "at": _iso(time.time()), "text": "the game was deleted"}}
            live.docs.clear()
            self._changed(live)
            if live.task is not None and not live.task.done() and live.task is not asyncio.current_task():
                live.task.cancel()
        log.info("game %s deleted by its creator", live.id)

    async def hand_to_bot(self, gid: str, tokens: list[str], seat: Any, bot: Any) -> Live:
        """The holder of ``seat`` hands it to a bot (``bot``, ``bot:NAME``, ``NAME:BUDGET``; default
        the strongest where people play): the seat's token no longer holds it, the bot plays on.

        Raises:
            NotFound, Forbidden, Malformed (no such seat), WebError (400: an unknown bot or a budget
            over the server's caps), Conflict (over, imported or ended).
        """
        from rolling.bots import resolve_bot

        from .limits import capped, check_budget

        live = self.get(gid)
        seat = self._require(live, self.held(live, tokens), seat)
        try:
            kind = resolve_bot(live.game, str(bot or "bot")[:64], play=True)
        except UsageError as e:
            raise WebError(str(e)) from None
        check_budget(live.game, kind, self.settings)
        async with live.lock:
            for _ in range(2):  # once more after catching up with a writer that came first
                if live.state.is_over or live.watch_only:
                    raise Conflict("the game is over" if live.state.is_over else "this game is watch only")
                self._require_open(live)
                if seat not in self.held(live, tokens):
                    raise Forbidden(f"this request does not carry the token of seat {seat}")
                name = live.seats[seat]["name"]
                meta = self._event(live, f"{name} handed their seat to the bot {kind}")
                try:
                    with self.engine.begin() as conn:
                        # who plays a seat is a change of the game: pages' pending actions of it go stale
                        version = store.claim(conn, live.id, live.version, values={"meta": meta, "updated": time.time()})
                        conn.execute(update(Seat.__table__).where(Seat.game_id == live.id, Seat.seat == seat)
                                     .values(kind=kind, token_hash=None))
                        conn.execute(delete(ProgramRow.__table__).where(ProgramRow.game_id == live.id, ProgramRow.seat == seat))
                        store.notify(conn, live.id, version, self.origin)
                    break
                except Behind:
                    self._catch_up(live)
            else:
                raise StaleVersion()
            live.meta, live.version = meta, version
            live.seats[seat] = {**live.seats[seat], "kind": kind, "token_hash": None}
            live.bots[seat] = capped(make_bot(live.game, kind, seed=live.seed * 101 + seat), self.settings)
            live.programs = {k: v for k, v in live.programs.items() if k[0] != seat}
            live.docs.clear()
            self._changed(live)
            self._settle(live)
        self._kick(live)
        return live

    async def _end_idle_games(self) -> None:
        """Background task: every so often, end the games in which nobody has acted for
        ``settings.idle_end_seconds`` (said in their log), so that no game holds a seat forever."""
        idle = self.settings.idle_end_seconds
        every = min(max(idle / 4, 0.05), 600.0)
        while not self.closed:
            try:
                await self.end_idle_games()
            except Exception:  # a failed sweep is tried again at the next one
                log.exception("ending idle games failed")
            await asyncio.sleep(every)

    async def end_idle_games(self, now: float | None = None) -> list[str]:
        """End the unfinished games idle for ``settings.idle_end_seconds`` at ``now`` (default:
        the time); their ids."""
        idle = self.settings.idle_end_seconds
        now = time.time() if now is None else now
        cutoff = now - idle
        with self.Session() as db:
            ids = db.execute(select(Game.id).where(Game.over.is_(False), Game.watch_only.is_(False),
                                                   Game.updated < cutoff)).scalars().all()
        ended = []
        for gid in ids:
            try:
                live = self.get(gid)
            except WebError:
                continue
            async with live.lock:
                if live.state.is_over or "closed" in live.meta or live.last_time >= cutoff:
                    continue
                try:
                    self._close(live, f"the game ended after {_duration(idle)} without a move", "idle")
                except Behind:  # moved (or ended) on another process meanwhile: not idle after all
                    self._catch_up(live)
                    continue
            ended.append(gid)
        return ended

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
            changed = self._catch_up(live)
        if changed and live.id in self.cache:
            self._kick(live)

    async def recheck(self) -> None:
        """Catch up every cached game whose stored version differs, and those that pages watch
        (whose chat may have grown): after the LISTEN connection was (re)opened."""
        gids = list(self.cache)
        try:
            with self.engine.connect() as conn:
                stored = store.versions(conn, gids)
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


__all__ = ["BY_BOT", "BY_HUMAN", "BY_PROGRAM", "BY_TIMER", "GameService", "Listener", "Live", "WebError"]
