"""How :func:`rolling.sim.simulate` runs Rolling Stock Stars.

Game ``g`` of a run with seed ``s`` is dealt with engine seed ``s + g``. The seat entries rotate
through the initial player-order positions: entry ``j`` sits at position ``(j + g) mod n`` of that
game's initial player order, so over a multiple of ``n`` games every entry spends the same number
of games in each position and no bot gains from sitting first.

Wins: the rules break ties by player order, so :meth:`StarsState.standings` always ranks exactly one
player first; an entry wins a game when its seat has rank 1 (no split wins).

In the any-order phases (3 and 4) several seats may act; the runner gives the turn to seats that
have a proposal (or, with the variant deals, a deal) to answer first, else to the next seat (by
seat number, cyclically) after the one that acted last, so no seat is always first.
"""

from __future__ import annotations

from collections.abc import Sequence

from rolling.core.rng import Rng
from rolling.games.stars import Config, StarsState, new_game

DEFAULT_SEED = 1


def check(players: int, edition: str = "stars", variants: Sequence[str] = ()) -> None:
    """Raise RecordError unless ``players`` may play the ``edition`` with ``variants``."""
    Config(players=players, edition=edition, variants=tuple(variants)).validate()


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
