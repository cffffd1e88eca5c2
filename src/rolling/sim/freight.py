"""How :func:`rolling.sim.simulate` runs Rolling Freight.

Game ``g`` of a run with seed ``s`` is dealt with engine seed ``s * 1_000_003 + g``; entry ``k`` of the
seat list plays seat ``(k + g) mod n``, so the entries rotate through the positions.
"""

from __future__ import annotations

from rolling.games.freight import Config, FreightState, config_from_json, new_game
from rolling.sim import first_to_act as pick_seat  # noqa: F401  (one seat acts at a time)

DEFAULT_SEED = 0


def check(players: int, map: str = "west-coast") -> None:
    """Raise RecordError for an unknown map or a player count the map does not allow."""
    config_from_json({"map": map, "players": players})


def game_seeds(seed: int, games: int) -> range:
    """Game ``g`` is dealt with engine seed ``seed * 1_000_003 + g``."""
    return range(seed * 1_000_003, seed * 1_000_003 + games)


def deal(players: int, game_seed: int, index: int, map: str = "west-coast") -> tuple[FreightState, list[int]]:
    """The new game and the seat of each entry: entry ``k`` at seat ``(k + index) mod players``."""
    return new_game(Config(map, players), game_seed), [(k + index) % players for k in range(players)]


def bot_seed(game_seed: int, index: int, entry: int) -> int:
    """The seed of entry ``entry``'s bot: ``game_seed + 30 * index + entry``."""
    return game_seed + 30 * index + entry
