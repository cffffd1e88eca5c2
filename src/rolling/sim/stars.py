"""How :func:`rolling.sim.simulate` runs Rolling Stock Stars.

Game ``g`` of a run with seed ``s`` is dealt with engine seed ``s + g``. The seat entries rotate
through the initial player-order positions: entry ``j`` sits at position ``(j + g) mod n`` of that
game's initial player order, so over a multiple of ``n`` games every entry spends the same number
of games in each position and no bot gains from sitting first.

Wins: the rules break ties by player order, so :meth:`StarsState.standings` always ranks exactly one
player first; an entry wins a game when its seat has rank 1 (no split wins), and in the two-handed
variant when its seat is a hand of the winning person (the standings' ``win``): two entries win.

In the any-order phases (3 and 4) several seats may act; the runner gives the turn to seats that
have a proposal (or, with the variant deals, a deal) to answer first, else to the next seat (by
seat number, cyclically) after the one that acted last, so no seat is always first.

Results table (:mod:`rolling.sim.table`): :class:`Watch` notes, without touching the game, which
seat formed each corporation and each corporation's share price at the end of every turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from rolling.core.rng import Rng
from rolling.games.stars import Config, StarsState, new_game
from rolling.games.stars.data import CORP_SYMBOLS, N_CORPS

DEFAULT_SEED = 1

#: the game's own columns of the results table, (name, type) (see :func:`Watch.facts`)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("edition", "str"),
    ("variants", "str"),
    ("end_reason", "str"),
    ("corporations", "str"),
    ("formed", "str"),
    ("presides", "str"),
    *((f"price_{sym}", "int") for sym in CORP_SYMBOLS),
    *((f"path_{sym}", "str") for sym in CORP_SYMBOLS),
)


def check(players: int, edition: str = "stars", variants: Sequence[str] = ()) -> None:
    """Raise RecordError unless ``players`` may play the ``edition`` with ``variants``."""
    Config(players=players, edition=edition, variants=tuple(variants)).validate()


def game_seed(seed: int, index: int) -> int:
    """The engine seed of game ``index`` of a run with ``seed``: ``seed + index``."""
    return seed + index


def game_seeds(seed: int, games: int) -> range:
    """Game ``g`` is dealt with engine seed ``seed + g``."""
    return range(seed, seed + games)


def pick_seat(state: StarsState, last: int) -> int:
    """The seat to ask next: one of ``state.to_act`` (see the module docstring)."""
    seats = state.to_act
    if len(seats) == 1:
        return seats[0]
    for p in state.pending:
        if p[3] in seats:
            return p[3]
    for _, _, waiting in state.deals:
        for seat in seats:
            if waiting >> seat & 1:
                return seat
    n = state.n
    return min(seats, key=lambda seat: (seat - last - 1) % n)


def seat_assignment(state: StarsState, labels: Sequence[str], game_index: int) -> dict[int, int]:
    """Seat -> entry index for game ``game_index``: entry j at position (j + game_index) mod n."""
    n = len(labels)
    return {state.order[(j + game_index) % n]: j for j in range(n)}


def deal(players: int, game_seed: int, index: int, edition: str = "stars",
         variants: Sequence[str] = ()) -> tuple[StarsState, list[int]]:
    """The new game and the seat of each entry (see the module docstring)."""
    state = new_game(Config(players=players, edition=edition, variants=tuple(variants)), game_seed)
    return state, [state.order[(j + index) % players] for j in range(players)]


def bot_seed(game_seed: int, index: int, entry: int) -> int:
    """The seed of the bot playing entry ``entry`` in the game dealt with ``game_seed``."""
    return Rng(game_seed * 7919 + entry).next64() >> 1


def position(state: StarsState, seat: int) -> int:
    """The initial player-order position of ``seat``, 1 for the first player."""
    return state.order.index(seat) + 1


def turns(state: StarsState) -> int:
    """The turn the game is in (the turn it ended in, once over)."""
    return state.turn


def _prices(state: StarsState) -> list[int | None]:
    return [state.share_price(c) if state.corp_active[c] else None for c in range(N_CORPS)]


class Watch:
    """Follows a game from outside, action by action, for the results table; never changes it.

    Call the instance after every action (``watch(state, seat, action)``), then :meth:`facts`.
    It notes each corporation's forming (the president at that moment formed it: Phase 9, IPO) and
    every active corporation's share price at the end of each turn.
    """

    __slots__ = ("active", "formed", "turn", "paths")

    def __init__(self, state: StarsState):
        self.active = list(state.corp_active)
        self.formed: list[tuple[int, int]] = []  # (corporation, seat) in the order formed
        self.turn = state.turn
        self.paths: list[list[int | None]] = []  # share prices at the end of each turn

    def __call__(self, state: StarsState, seat: int, action) -> None:
        if state.corp_active != self.active:
            for c in range(N_CORPS):
                if state.corp_active[c] and not self.active[c]:
                    self.formed.append((c, state.president[c]))
            self.active = list(state.corp_active)
        if state.turn != self.turn:
            self.paths.append(_prices(state))
            self.turn = state.turn

    def facts(self, state: StarsState, seats: Sequence[int]) -> tuple[dict, list[dict]]:
        """The game's columns (:data:`COLUMNS`) for the table: ``(per game, [per entry])``.

        Per game: ``edition``; ``variants`` (comma list); ``end_reason``; ``corporations`` formed,
        symbols in the order formed (space-separated); ``price_SYM``: final share price in $ of each
        corporation active at the end (else empty); ``path_SYM``: its share price at the end of each
        turn, space-separated, ``-`` for a turn it was not active. Per entry: the symbols of the
        corporations its seat ``formed``, and of those it ``presides`` over at the end.
        """
        paths = self.paths + [_prices(state)] if state.is_over else self.paths
        game: dict = {
            "edition": state.config.edition,
            "variants": ",".join(state.config.variants),
            "end_reason": state.end_reason,
            "corporations": " ".join(CORP_SYMBOLS[c] for c, _ in self.formed),
        }
        final = _prices(state)
        for c, sym in enumerate(CORP_SYMBOLS):
            game[f"price_{sym}"] = final[c]
            game[f"path_{sym}"] = " ".join("-" if p[c] is None else str(p[c]) for p in paths)
        per_entry = []
        for seat in seats:
            per_entry.append({
                "formed": " ".join(CORP_SYMBOLS[c] for c, s in self.formed if s == seat),
                "presides": " ".join(CORP_SYMBOLS[c] for c in range(N_CORPS)
                                     if state.corp_active[c] and state.president[c] == seat),
            })
        return game, per_entry
