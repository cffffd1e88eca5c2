"""Batch runs of any game between bots: :func:`simulate` and :func:`play_game`.

``simulate("freight", "bot,bot:random,random", games=100, seed=0, map="southern")`` plays 100 games
and reports, for each entry of the seat list in the order given, its win rate, wins, mean rank and
its score's mean, median, 5th and 95th percentile, with 95% intervals for the win rate and the mean
score, and the version of rolling that played. Seats use the vocabulary of
:mod:`rolling.bots.seats` (``bot``, ``bot:NAME``, ``NAME``; no ``human``).

What differs between games lives in one small module per game (:data:`RUNNERS`), each with:

- ``DEFAULT_SEED``: the seed of a run when none is given;
- ``check(players, **options)``: raise ``ValueError`` (RecordError, SeatError) for a player count
  or options the game does not allow;
- ``game_seeds(seed, games)``: the engine seed of each game of a run;
- ``deal(players, game_seed, index, **options) -> (state, seats)``: the new game number ``index``
  and, for each entry of the seat list, the seat it plays in that game (entries rotate through
  the positions from game to game so that nobody gains from sitting first);
- ``bot_seed(game_seed, index, entry)``: the seed of the bot of an entry;
- ``pick_seat(state, last)``: which of ``state.to_act`` to ask next.

A win is the ``win`` of the game's standings: rank 1 (with the rules' tie-break; a tie the rules
leave standing counts as a win for each tied seat), and in the Stars two-handed variant both hands
of the winning person (:func:`rolling.games.stars.state.two_handed_winner`). A one-seat game (Rolling Market) also reports its seat's score
statistics at the top level (``mean``, ``median``, ``p5``, ``p95``), as ``simulate market`` always did.

At scale (``rolling simulate GAME --workers K --ray --out FILE``): :mod:`rolling.sim.table` plays a
game into rows (one per seat entry, with each game's facts: each runner also has ``COLUMNS``,
``game_seed(seed, index)``, ``position(state, seat)``, ``turns(state)`` and a read-only ``Watch``);
:mod:`rolling.sim.batch` runs a batch on one process, a process pool or Ray, rows in game order;
:mod:`rolling.sim.files` writes and reads CSV/Parquet; :mod:`rolling.sim.tally` sums rows up into
the summary below; :mod:`rolling.sim.scaling` measures games/s per engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from rolling.bots import make_bot, parse_seats

#: game -> module holding its runner (see the module docstring)
RUNNERS = {"stars": "rolling.sim.stars", "freight": "rolling.sim.freight", "market": "rolling.sim.market"}

#: a game taking more actions than this is a bug in a bot or an engine
MAX_ACTIONS = 200_000


class GameTooLong(RuntimeError):
    """A game did not finish within :data:`MAX_ACTIONS` actions."""


def runner(game: str):
    """The runner module of ``game`` (see the module docstring).

    Raises:
        ValueError: no runner for that game.
    """
    if game not in RUNNERS:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(RUNNERS)})")
    return importlib.import_module(RUNNERS[game])


def first_to_act(state: Any, last: int) -> int:
    """The first seat of ``state.to_act`` (the default ``pick_seat``)."""
    return state.to_act[0]


def play_game(state: Any, bots, pick_seat: Callable[[Any, int], int] = first_to_act,
              max_actions: int = MAX_ACTIONS, on_action: Callable[[Any, int, Any], None] | None = None) -> list:
    """Play ``state`` to its end with ``bots[seat]`` (a list or a dict by seat); return the actions applied.

    ``on_action(state, seat, action)``, when given, is called after each action is applied (to
    watch the game; it must not change the state).

    Raises:
        GameTooLong: more than ``max_actions`` actions.
    """
    actions = []
    last = -1
    while not state.is_over:
        if len(actions) >= max_actions:
            raise GameTooLong(f"a game took more than {max_actions} actions")
        seat = pick_seat(state, last)
        action = bots[seat].choose(state, seat)
        state.apply(action)
        actions.append(action)
        if on_action is not None:
            on_action(state, seat, action)
        last = seat
    return actions


def play_one(game: str, labels: Sequence[str], game_seed: int, index: int, **options) -> tuple[list[dict], int]:
    """Play game number ``index`` of a run (engine seed ``game_seed``) between the bots ``labels``.

    Returns:
        one row ``{"seat", "score", "rank", "win"}`` per label, in label order, and the number of actions.
    """
    run = runner(game)
    state, seats = run.deal(len(labels), game_seed, index, **options)
    bots = {seat: make_bot(game, labels[j], run.bot_seed(game_seed, index, j)) for j, seat in enumerate(seats)}
    n = len(play_game(state, bots, run.pick_seat))
    by_seat = {r["seat"]: r for r in state.standings()}
    return [{k: by_seat[seat][k] for k in ("seat", "score", "rank", "win")} for seat in seats], n


def check_seats(game: str, seats: str | Sequence[str], **options) -> list[str]:
    """The bots' registry names for a seat list of ``game``, checked against the game and ``options``.

    Raises:
        ValueError: an unknown game, seat or bot (SeatError), or a player count or option the game
            does not allow (RecordError, SeatError).
    """
    run = runner(game)
    labels = parse_seats(game, seats, humans=False)
    run.check(len(labels), **options)
    return labels


def summarize(scores: Sequence[float]) -> dict[str, Any]:
    """``{"mean", "median", "p5", "p95"}`` of a list of scores, rounded to 3 decimals (numpy's
    linear interpolation for the percentiles; all ``None`` for no scores)."""
    import numpy as np

    a = np.asarray(scores, dtype=float)
    if a.size == 0:
        return {"mean": None, "median": None, "p5": None, "p95": None}
    return {
        "mean": round(float(a.mean()), 3),
        "median": round(float(np.median(a)), 3),
        "p5": round(float(np.percentile(a, 5)), 3),
        "p95": round(float(np.percentile(a, 95)), 3),
    }


def simulate(
    game: str,
    seats: str | Sequence[str],
    games: int,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    ray: bool = False,
    ray_address: str | None = None,
    **options,
) -> dict[str, Any]:
    """Play ``games`` games of ``game`` between bots and report each seat entry's results.

    Args:
        game: ``"stars"``, ``"freight"`` or ``"market"``.
        seats: the bots, one per player (``"bot,bot:random,random"`` or a list of such words).
        games: number of games, 1 or more.
        seed: seed of the run (the game's ``DEFAULT_SEED`` when ``None``); same seed, same result,
            whatever ``workers`` and ``ray``.
        progress: called with the number of games just finished (a chunk at a time).
        workers: processes to play on (1: this one); see :func:`rolling.sim.batch.run_batch`.
        ray: play on Ray, ``ray.init(address=ray_address)``.
        options: the game's own (``map`` for freight; ``edition``, ``variants`` for stars).

    Returns:
        ``{"game", "version", "games", "failed", "seed", "actions", "seats": [{"bot", "win_rate",
        "win_rate_low", "win_rate_high", "wins", "mean_rank", "mean_score", "mean_score_low",
        "mean_score_high", "median_score", "p5_score", "p95_score"}, ...]}`` with seats in the order
        given (and ``mean``, ``median``, ``p5``, ``p95`` at the top for a one-seat game);
        ``version`` is ``rolling.__version__``, ``games`` counts the games that ended, ``failed``
        those that raised, ``*_low``/``*_high`` bound 95% intervals (Wilson's for win rates,
        Student's t for mean scores; see :class:`rolling.sim.tally.Tally`).

    Raises:
        ValueError: an unknown game, seat or bot (SeatError), a player count or option the game does
            not allow (RecordError, SeatError), fewer than one game or worker.
        KeyboardInterrupt: Ctrl-C (the rows are lost here; the command line keeps them).
    """
    from rolling.sim.batch import Batch, run_batch
    from rolling.sim.tally import Tally

    run = runner(game)
    labels = check_seats(game, seats, **options)
    if games < 1:
        raise ValueError(f"at least one game is needed, not {games}")
    if seed is None:
        seed = run.DEFAULT_SEED
    tally = Tally(game, labels, seed)
    step = None if progress is None else (lambda n, failed: progress(n))
    outcome = run_batch(Batch(game, tuple(labels), games, seed, dict(options)), tally.add, workers, ray,
                        ray_address, step)
    if outcome.interrupted:
        raise KeyboardInterrupt
    return tally.summary()


__all__ = ["MAX_ACTIONS", "RUNNERS", "GameTooLong", "check_seats", "play_game", "play_one", "simulate", "summarize"]
