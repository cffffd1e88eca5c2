"""Batch games of Rolling Stock Stars between bots.

:func:`simulate` plays ``games`` games. The bots are given as a list of *seat labels* (bot names,
e.g. ``["heuristic", "random", "random", "random"]``), one per player. Game ``g`` is dealt with engine
seed ``seed + g`` and the labels rotate through the initial player-order positions: label ``j`` sits
at position ``(j + g) mod n`` of that game's initial player order, so over a multiple of ``n`` games
every label spends the same number of games in each position and no bot gains from sitting first.

Wins: the rules break ties by player order, so :meth:`StarsState.standings` always ranks exactly one
player first; a label wins a game when its seat has rank 1 (no split wins). ``win_rate`` is wins /
games and ``mean_score`` the mean final score ($: cash + face values + share prices).

In the any-order phases (3 and 4) several seats may act; the runner gives the turn to seats that
have a proposal (or, with the variant deals, a deal) to answer first, else to the next seat (by seat number, cyclically) after the one
that acted last, so no seat is always first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rolling.bots import make_bot
from rolling.core.errors import RecordError
from rolling.core.rng import Rng
from rolling.games.stars import Config, StarsState, new_game
from rolling.games.stars.config import check_players

#: a game taking more actions than this is a bug in a bot or the engine
MAX_ACTIONS = 200_000


class GameTooLong(RuntimeError):
    """A game did not finish within :data:`MAX_ACTIONS` actions."""


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


def play_game(state: StarsState, bots: dict[int, object], max_actions: int = MAX_ACTIONS) -> StarsState:
    """Play ``state`` to the end with ``bots`` (seat -> bot) and return it.

    Raises:
        GameTooLong: more than ``max_actions`` actions.
    """
    last = -1
    count = 0
    while not state.is_over:
        seat = pick_seat(state, last)
        state.apply(bots[seat].choose(state, seat))
        last = seat
        count += 1
        if count > max_actions:
            raise GameTooLong(f"game with seed {state.seed} took more than {max_actions} actions")
    return state


def seat_assignment(state: StarsState, labels: Sequence[str], game_index: int) -> dict[int, int]:
    """Seat -> label index for game ``game_index``: label j at position (j + game_index) mod n."""
    n = len(labels)
    return {state.order[(j + game_index) % n]: j for j in range(n)}


def bot_seed(game_seed: int, label_index: int) -> int:
    """The seed of the bot playing label ``label_index`` in the game dealt with ``game_seed``."""
    return Rng(game_seed * 7919 + label_index).next64() >> 1


def play_one(labels: Sequence[str], game_seed: int, game_index: int, config: Config | None = None) -> list[dict]:
    """Play one game; return one row per label: ``{"seat", "score", "rank"}`` in label order."""
    n = len(labels)
    state = new_game(config or Config(players=n), game_seed)
    assign = seat_assignment(state, labels, game_index)
    bots = {seat: make_bot(labels[j], bot_seed(game_seed, j)) for seat, j in assign.items()}
    play_game(state, bots)
    rows: list[dict] = [{}] * n
    for r in state.standings():
        rows[assign[r["seat"]]] = {"seat": r["seat"], "score": r["score"], "rank": r["rank"]}
    return rows


def simulate(
    labels: Sequence[str],
    games: int,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Play ``games`` games between the bots named by ``labels`` (one per player, 2 to 6: the
    Rolling Stock Stars edition, :data:`~rolling.games.stars.config.PLAYERS`).

    Args:
        labels: bot names, one per seat label, in the order reported.
        games: number of games.
        seed: game ``g`` is dealt with engine seed ``seed + g``.
        progress: called with 1 after each game.

    Returns:
        ``{"games": n, "seats": [{"bot", "win_rate", "mean_score", "wins", "mean_rank"}, ...]}``,
        seats in the order of ``labels``.

    Raises:
        ValueError: a player count outside the edition's range, or fewer than one game.
        KeyError: an unknown bot name.
    """
    n = len(labels)
    try:
        check_players("stars", n)
    except RecordError as e:
        raise ValueError(str(e)) from None
    if games < 1:
        raise ValueError("at least one game is needed")
    for name in labels:
        make_bot(name, 0)  # fail early on an unknown name
    wins = [0] * n
    score = [0] * n
    rank = [0] * n
    for g in range(games):
        for j, row in enumerate(play_one(labels, seed + g, g)):
            score[j] += row["score"]
            rank[j] += row["rank"]
            if row["rank"] == 1:
                wins[j] += 1
        if progress is not None:
            progress(1)
    seats = [
        {
            "bot": labels[j],
            "win_rate": round(wins[j] / games, 4),
            "mean_score": round(score[j] / games, 2),
            "wins": wins[j],
            "mean_rank": round(rank[j] / games, 3),
        }
        for j in range(n)
    ]
    return {"games": games, "seats": seats}
