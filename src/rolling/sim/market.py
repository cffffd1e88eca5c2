"""How :func:`rolling.sim.simulate` runs Rolling Market (solitaire: one seat, seat 0).

The games of a run with seed ``s`` are dealt with the successive 64-bit numbers of a SplitMix64
stream seeded with ``s``; a game's bot is seeded with its engine seed mixed with a constant, so the
bot's choices and the dice are independent.
"""

from __future__ import annotations

from rolling.bots.base import SeatError
from rolling.core.rng import Rng
from rolling.games.market.state import MarketState
from rolling.sim import first_to_act as pick_seat  # noqa: F401  (the one seat)

DEFAULT_SEED = 0

#: mixed into a game's seed to seed its bot, so the bot's choices and the dice are independent
_BOT_SALT = 0x5BD1E9955BD1E995


def check(players: int) -> None:
    """Raise SeatError unless there is exactly one seat (Rolling Market is solitaire)."""
    if players != 1:
        raise SeatError(f"Rolling Market is solitaire: give one seat, not {players}")


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of ``games`` games of a run started with ``seed`` (SplitMix64 stream, 64-bit ints)."""
    rng = Rng(seed)
    return [rng.next64() for _ in range(games)]


def deal(players: int, game_seed: int, index: int) -> tuple[MarketState, list[int]]:
    """The new game; its one entry plays seat 0."""
    return MarketState(game_seed), [0]


def bot_seed(game_seed: int, index: int, entry: int) -> int:
    """The bot's seed: the game's seed mixed with a constant."""
    return game_seed ^ _BOT_SALT
