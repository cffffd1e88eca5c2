"""How :func:`rolling.sim.simulate` runs Rolling Freight.

Game ``g`` of a run with seed ``s`` is dealt with engine seed ``s * 1_000_003 + g``; entry ``k`` of the
seat list plays seat ``(k + g) mod n``, so the entries rotate through the positions. Seat 0 is the
start player (Setting Up), so a seat's player-order position is its number plus one.

Results table (:mod:`rolling.sim.table`): :class:`Watch` counts each seat's contracts taken and
routes established, without touching the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from rolling.games.freight import Config, FreightState, config_from_json, new_game
from rolling.games.freight.actions import DraftContract, EstablishRoute, TakeContract
from rolling.sim import first_to_act as pick_seat  # noqa: F401  (one seat acts at a time)

DEFAULT_SEED = 0

#: the game's own columns of the results table, (name, type) (see :meth:`Watch.facts`)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("map", "str"),
    ("contracts_taken", "int"),
    ("contracts", "int"),
    ("routes", "int"),
    ("stations", "int"),
    ("improvements", "int"),
)


def check(players: int, map: str = "west-coast") -> None:
    """Raise RecordError for an unknown map or a player count the map does not allow."""
    config_from_json({"map": map, "players": players})


def game_seed(seed: int, index: int) -> int:
    """The engine seed of game ``index`` of a run with ``seed``: ``seed * 1_000_003 + index``."""
    return seed * 1_000_003 + index


def game_seeds(seed: int, games: int) -> range:
    """Game ``g`` is dealt with engine seed ``seed * 1_000_003 + g``."""
    return range(seed * 1_000_003, seed * 1_000_003 + games)


def deal(players: int, game_seed: int, index: int, map: str = "west-coast") -> tuple[FreightState, list[int]]:
    """The new game and the seat of each entry: entry ``k`` at seat ``(k + index) mod players``."""
    return new_game(Config(map, players), game_seed), [(k + index) % players for k in range(players)]


def bot_seed(game_seed: int, index: int, entry: int) -> int:
    """The seed of entry ``entry``'s bot: ``game_seed + 30 * index + entry``."""
    return game_seed + 30 * index + entry


def position(state: FreightState, seat: int) -> int:
    """The player-order position of ``seat``: seat 0 is the start player, position 1."""
    return seat + 1


def turns(state: FreightState) -> int:
    """Player turns taken so far (every player's turn counts one)."""
    return state.turn


class Watch:
    """Counts, per seat, the contracts taken (in the draft and with A) and the routes established
    (C), from the actions applied; never changes the game. Call it after every action."""

    __slots__ = ("taken", "routes")

    def __init__(self, state: FreightState):
        self.taken = [0] * state.n
        self.routes = [0] * state.n

    def __call__(self, state: FreightState, seat: int, action) -> None:
        kind = type(action)
        if kind is EstablishRoute:
            self.routes[seat] += 1
        elif kind is TakeContract or kind is DraftContract:
            self.taken[seat] += 1

    def facts(self, state: FreightState, seats: Sequence[int]) -> tuple[dict, list[dict]]:
        """The game's columns (:data:`COLUMNS`): ``(per game, [per entry])``. Per game the ``map``;
        per entry its seat's ``contracts_taken``, ``contracts`` completed (links owned),
        ``routes`` established, switching ``stations`` built and ``improvements`` in effect."""
        per_entry = []
        for seat in seats:
            p = state.players[seat]
            per_entry.append({"contracts_taken": self.taken[seat], "contracts": p.links_owned,
                              "routes": self.routes[seat], "stations": p.stations,
                              "improvements": len(p.improvements)})
        return {"map": state.config.map}, per_entry
