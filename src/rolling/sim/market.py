"""How :func:`rolling.sim.simulate` runs Rolling Market (solitaire: one seat, seat 0).

The games of a run with seed ``s`` are dealt with the successive 64-bit numbers of a SplitMix64
stream seeded with ``s``; a game's bot is seeded with its engine seed mixed with a constant, so the
bot's choices and the dice are independent.

Results table (:mod:`rolling.sim.table`): the final cash and the closed-market turns, read from the
state at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from rolling.bots.base import SeatError
from rolling.core.rng import Rng
from rolling.games.market.state import MarketState
from rolling.sim import first_to_act as pick_seat  # noqa: F401  (the one seat)

DEFAULT_SEED = 0

#: mixed into a game's seed to seed its bot, so the bot's choices and the dice are independent
_BOT_SALT = 0x5BD1E9955BD1E995
#: SplitMix64's increment: the stream's state after i steps is the seed plus i times it
_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1

#: the game's own columns of the results table, (name, type) (see :meth:`Watch.facts`)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("cash", "int"),
    ("closed_turns", "int"),
)


def check(players: int) -> None:
    """Raise SeatError unless there is exactly one seat (Rolling Market is solitaire)."""
    if players != 1:
        raise SeatError(f"Rolling Market is solitaire: give one seat, not {players}")


def game_seed(seed: int, index: int) -> int:
    """The engine seed of game ``index`` of a run with ``seed``: number ``index`` (from 0) of the
    SplitMix64 stream seeded with ``seed``, computed directly (a 64-bit unsigned int)."""
    return Rng((seed + index * _GOLDEN) & _MASK).next64()


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


def position(state: MarketState, seat: int) -> int:
    """Always 1: solitaire."""
    return 1


def turns(state: MarketState) -> int:
    """Turns played so far: buy/sell turns and closed-market turns (market fluctuations rolled)."""
    return state.rolls


class Watch:
    """Rolling Market's facts are all in the final state: this watch only reads it."""

    __slots__ = ()

    def __init__(self, state: MarketState):
        pass

    def __call__(self, state: MarketState, seat: int, action) -> None:
        pass

    def facts(self, state: MarketState, seats: Sequence[int]) -> tuple[dict, list[dict]]:
        """``({}, [{"cash", "closed_turns"}])``: the final cash in $ (the score) and the game's
        closed-market turns."""
        return {}, [{"cash": state.cash, "closed_turns": state.closed}]
