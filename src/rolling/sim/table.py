"""The results table of a batch: one row per game and seat entry (:func:`play_rows`).

Every game has the columns :data:`COMMON`; each game adds its own (its runner's ``COLUMNS``):

- ``game``: ``"stars"``, ``"freight"`` or ``"market"``; ``version``: the version of rolling that
  played it (``rolling.__version__``: its engines and bots, so runs of different versions can be
  told apart);
- ``index``: the game's number in the run, from 0; ``seed``: its engine seed (derived from the
  run's seed and ``index`` only, by the runner's ``game_seed``; a 64-bit unsigned int for market);
- ``entry``: the entry of the seat list (0 for the first ``--seats`` word), ``bot`` its bot's
  registry name, ``seat`` the engine seat it played, ``position`` that seat's player-order position
  at the start (1 = first player), ``players`` the player count;
- ``score`` (the game's score: $ in Stars and Market, stock in Freight), ``rank`` (1 = best, the
  rules' tie-breaks applied), ``win`` (the standings' ``win``: rank 1, and in the Stars two-handed
  variant both hands of the winning person), ``turns`` (the runner's ``turns``), ``actions``
  (actions applied in the whole game);
- ``error``: empty for a game that ended; for a game that raised, ``"Type: message (at
  file.py:line)"``, and then the result columns are empty (a failure is data, the batch goes on).

The rows depend only on the game, the seat list, the options, ``index`` and the run's seed, never
on the process that played them, so a run gives the same rows on one process, on a pool of
workers or on Ray.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from typing import Any

from rolling import __version__
from rolling.bots import make_bot
from rolling.sim import play_game, runner
from rolling.sim.collector import simulation_collector

#: the columns of every game, in order: (name, type) with type one of int, uint, str, bool
COMMON: tuple[tuple[str, str], ...] = (
    ("game", "str"),
    ("version", "str"),
    ("index", "int"),
    ("seed", "uint"),
    ("entry", "int"),
    ("bot", "str"),
    ("seat", "int"),
    ("position", "int"),
    ("players", "int"),
    ("score", "int"),
    ("rank", "int"),
    ("win", "bool"),
    ("turns", "int"),
    ("actions", "int"),
    ("error", "str"),
)

#: an error message longer than this is cut (a row stays small)
MAX_ERROR = 400


def columns(game: str) -> tuple[tuple[str, str], ...]:
    """The columns of ``game``'s results table, in order: :data:`COMMON`, then the game's own.

    Raises:
        ValueError: an unknown game.
    """
    return COMMON + tuple(runner(game).COLUMNS)


def seat_list(labels: list[str]) -> str:
    """A short name of a seat list: runs of one bot counted (``heuristic×3,random``)."""
    parts: list[list] = []
    for label in labels:
        if parts and parts[-1][0] == label:
            parts[-1][1] += 1
        else:
            parts.append([label, 1])
    return ",".join(f"{label}×{n}" if n > 1 else label for label, n in parts)


def describe_error(exc: BaseException) -> str:
    """One line: ``"Type: message (at file.py:line)"``, the innermost frame of the traceback."""
    where = ""
    tb = traceback.extract_tb(exc.__traceback__)
    if tb:
        frame = tb[-1]
        where = f" (at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})"
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    return text[: MAX_ERROR - len(where)] + where


def play_rows(game: str, labels: Sequence[str], index: int, seed: int, options: dict[str, Any]) -> list[dict]:
    """Play game ``index`` of a run with seed ``seed`` between the bots ``labels`` (registry
    names, checked beforehand); return its rows, one per label in label order, each with every
    column of :func:`columns` in order (``None`` where there is no value; see the module docstring).

    A game that raises (anything but KeyboardInterrupt and SystemExit) gives rows with ``error`` set.
    """
    run = runner(game)
    names = [name for name, _ in COMMON + tuple(run.COLUMNS)]
    game_seed = run.game_seed(seed, index)
    n = len(labels)
    base = {"game": game, "version": __version__, "index": index, "seed": game_seed, "players": n}
    try:
        state, seats = run.deal(n, game_seed, index, **options)
        bots = {seat: make_bot(game, labels[j], run.bot_seed(game_seed, index, j)) for j, seat in enumerate(seats)}
        positions = [run.position(state, seat) for seat in seats]
        watch = run.Watch(state)
        actions = len(play_game(state, bots, run.pick_seat, on_action=watch))
        by_seat = {r["seat"]: r for r in state.standings()}
        per_game, per_entry = watch.facts(state, seats)
        turns = run.turns(state)
    except Exception as e:  # noqa: BLE001 - a failing game is recorded, the batch goes on
        error = describe_error(e)
        rows = [{**base, "entry": j, "bot": label, "error": error} for j, label in enumerate(labels)]
        return [{name: row.get(name) for name in names} for row in rows]
    rows = []
    for j, seat in enumerate(seats):
        row = by_seat[seat]
        rows.append({
            **base,
            "entry": j,
            "bot": labels[j],
            "seat": seat,
            "position": positions[j],
            "score": row["score"],
            "rank": row["rank"],
            "win": row["win"],
            "turns": turns,
            "actions": actions,
            "error": "",
            **per_game,
            **per_entry[j],
        })
    return [{name: row.get(name) for name in names} for row in rows]


def play_chunk(game: str, labels: Sequence[str], seed: int, options: dict[str, Any],
               start: int, stop: int) -> tuple[int, list[dict], float]:
    """Play games ``start`` to ``stop - 1`` of a run (what one worker does at a time).

    Returns:
        ``(start, rows in game order, seconds the chunk took)``.
    """
    t0 = time.perf_counter()
    rows: list[dict] = []
    with simulation_collector():  # the engines make no cycles: the collector's passes are waste here
        for index in range(start, stop):
            rows.extend(play_rows(game, labels, index, seed, options))
    return start, rows, time.perf_counter() - t0
