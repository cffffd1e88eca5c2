"""What the ``rolling`` commands of every game share: the one-line error exit, the options of
``play`` and ``simulate`` (one seat vocabulary), running a game at the terminal table, and running
and printing a batch of bot games. The game modules only declare their own options and call these.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer
from rich.console import Console

from rolling.ui.terminal import PlayOptions

__all__ = ["PlayOptions", "fail", "games_progress", "run_play", "run_simulate"]

SEATS_HELP = "comma list, one seat per player: human, bot (the strongest bot), bot:NAME or NAME"

#: the options every ``rolling play GAME`` has (typer reads them as parameter defaults)
SEATS = typer.Option(None, "--seats", help=SEATS_HELP + " (default: you against the strongest bots)")
SEED = typer.Option(None, "--seed", help="seed of the game (default: random)")
NAMES = typer.Option(None, "--names", help="comma list of player names (default: Player 1, Heuristic 2, ...)")
SAVE = typer.Option(None, "--save", help="save the game record here after every action "
                    "(default when a person plays: rolling-GAME-SEED.json)")
RESUME = typer.Option(None, "--resume", help="continue the game saved in this record file")
QUIET = typer.Option(False, "--quiet", "-q", help="games of bots only: print only the result")
JSON = typer.Option(False, "--json", help="print one JSON object (see README: simulate)")


def players_option(players_help: str):
    """The ``--players`` option, its help naming the game's player counts."""
    return typer.Option(None, "--players", help=f"number of players ({players_help}; default: as many as --seats)")


def sim_seats_option(default: str):
    """The ``--seats`` option of ``simulate``: bots only, one per player."""
    return typer.Option(default, "--seats", help="comma list of bots, one per player: bot (the strongest), bot:NAME or NAME")


def games_option(default: int):
    """The ``--games`` option of ``simulate``."""
    return typer.Option(default, "--games", help="number of games")


def sim_seed_option(default: int):
    """The ``--seed`` option of ``simulate``."""
    return typer.Option(default, "--seed", help="seed of the run; the same seed gives the same result")


def fail(message: str, code: int = 2) -> None:
    """Print ``rolling: <message>`` on stderr and exit with ``code`` (a bad command line).

    Raised directly rather than through typer, so that option errors never depend on which click
    the installed typer uses.
    """
    print(f"rolling: {message}", file=sys.stderr)
    raise SystemExit(code)


@contextmanager
def games_progress(label: str, games: int, transient: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar of ``games`` on stderr (so stdout stays clean for ``--json``); yields a
    function that advances it by n games. ``transient`` removes the bar when done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=transient) as bar:
        task = bar.add_task("games", total=games)
        yield lambda n: bar.advance(task, n)


def run_play(screen, opts, new_config, default_players: int, set_up: tuple[str, ...] = ()) -> None:
    """Open the game (new or ``--resume``) and play it at the terminal; exits with its status.

    See :func:`rolling.ui.terminal.open_session` for the arguments.
    """
    from rolling.ui.terminal import make_console, open_session, play

    session = open_session(screen, opts, new_config, default_players, set_up)
    raise typer.Exit(play(session, screen, make_console(), quiet=opts.quiet))


def run_simulate(game: str, title: str, seats: str, games: int, seed: int, as_json: bool, **options) -> None:
    """Run ``rolling simulate GAME``: check the options, play the games with a progress bar on
    stderr, and print a table, or with ``as_json`` the object :func:`rolling.sim.simulate` returns."""
    from rolling.sim import check_seats, simulate

    if games < 1:
        fail(f"--games must be 1 or more, not {games}")
    labels = check_seats(game, seats, **options)  # a bad seat list is said before the progress bar
    t0 = time.perf_counter()
    with games_progress(f"{game} {','.join(labels)}", games, transient=as_json) as advance:
        stats = simulate(game, labels, games, seed, progress=advance, **options)
    wall = time.perf_counter() - t0
    if as_json:
        print(json.dumps(stats))
        return
    rows = stats["seats"]
    print(f"{title}, {len(rows)} player{'s' if len(rows) != 1 else ''}, {games} games, seed {seed} ({wall:.1f} s)")
    print(f"  {'seat':<5}{'bot':<12}{'win rate':>9}{'wins':>7}{'mean rank':>11}"
          f"{'mean score':>12}{'median':>8}{'p5':>8}{'p95':>8}")
    for j, row in enumerate(rows, 1):
        print(f"  {j:<5}{row['bot']:<12}{row['win_rate'] * 100:>8.1f}%{row['wins']:>7}{row['mean_rank']:>11.2f}"
              f"{row['mean_score']:>12.1f}{row['median_score']:>8.1f}{row['p5_score']:>8.1f}{row['p95_score']:>8.1f}")
