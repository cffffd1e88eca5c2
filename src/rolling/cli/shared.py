"""What the ``rolling`` commands of every game share: the one-line error exit, the options of
``play`` and ``simulate`` (one seat vocabulary) and running a game at the terminal table (a batch
of bot games: :mod:`rolling.cli.batch`). The game modules only declare their own options and call these.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.padding import Padding
from rich.table import Table

from rolling.core.whole import parse_whole
from rolling.ui.terminal import PlayOptions

__all__ = ["PlayOptions", "columns_table", "fail", "print_table", "run_play", "whole_option"]


def whole_parser(name: str, signed: bool = False) -> Callable[[Any], int]:
    """The parser of the whole-number option ``name`` (``"--games"``): its text is ASCII digits
    (:func:`rolling.core.whole.parse_whole`), after one ``-`` where ``signed``; ``int`` alone would
    also read ``"1_0"``, ``" 3"``, ``"+3"`` and other scripts' digits.

    Raises:
        typer.BadParameter: anything else (a one-line ``Invalid value for '--games': ...``).
    """

    def parse(value: Any) -> int:
        if isinstance(value, int):  # a default, which older typers pass through the parser too
            return value
        negative = signed and value.startswith("-")
        number = parse_whole(value[1:] if negative else value)
        if number is None:
            sign = "an optional - and " if signed else ""
            raise typer.BadParameter(f"{value!r} is not a whole number ({sign}the digits 0-9 only)",
                                     param_hint=f"'{name}'")
        return -number if negative else number

    return parse


def whole_option(default: int | None, name: str, *, signed: bool = False, **options: Any):
    """A typer option ``name`` of a whole number (:func:`whole_parser`; negative only where
    ``signed``), with ``default`` and typer's other ``options`` (``help``, ``metavar``)."""
    return typer.Option(default, name, parser=whole_parser(name, signed), **options)



def seats_option(game: str):
    """``--seats`` of ``rolling play GAME``, its help naming what ``bot`` means for ``game`` where
    people play (:data:`rolling.bots.PLAY`)."""
    from rolling.bots import PLAY

    bot = PLAY[game]
    return typer.Option(None, "--seats", help=f"comma list, one seat per player: human, bot (the strongest bot: "
                        f"{bot}), bot:NAME or NAME (default: you, then the search bot {bot} in every other seat)")


#: the options every ``rolling play GAME`` has (typer reads them as parameter defaults)
SEED = whole_option(None, "--seed", signed=True, help="seed of the game (default: random)")
NAMES = typer.Option(None, "--names", help="comma list of player names (default: Player 1 for a person, the bot's "
                     "name for a bot, numbered by seat: Player 1, Vsearch 2, ...)")
SAVE = typer.Option(None, "--save", help="save the game record here after every action "
                    "(default when a person plays: rolling-GAME-SEED.json)")
RESUME = typer.Option(None, "--resume", help="continue the game saved in this record file")
QUIET = typer.Option(False, "--quiet", "-q", help="games of bots only: print only the result")
JSON = typer.Option(False, "--json", help="print one JSON object (see README: simulate)")


def players_option(players_help: str):
    """The ``--players`` option, its help naming the game's player counts."""
    return whole_option(None, "--players", help=f"number of players ({players_help}; default: as many as --seats)")


def sim_seats_option(default: str):
    """The ``--seats`` option of ``simulate``: bots only, one per player."""
    return typer.Option(default, "--seats", help="comma list of bots, one per player: bot (in simulate the fastest "
                        "strong bot: heuristic in Stars and Freight, value in Market), bot:NAME or NAME")


def games_option(default: int):
    """The ``--games`` option of ``simulate``."""
    return whole_option(default, "--games", help="number of games")


def sim_seed_option(default: int):
    """The ``--seed`` option of ``simulate``."""
    return whole_option(default, "--seed", signed=True, help="seed of the run; the same seed gives the same result")


def fail(message: str, code: int = 2) -> None:
    """Print ``rolling: <message>`` on stderr and exit with ``code`` (a bad command line).

    Raised directly rather than through typer, so that option errors never depend on which click
    the installed typer uses.
    """
    print(f"rolling: {message}", file=sys.stderr)
    raise SystemExit(code)


def run_play(screen, opts, new_config, default_players: int, set_up: tuple[str, ...] = ()) -> None:
    """Open the game (new or ``--resume``) and play it at the terminal; exits with its status.

    See :func:`rolling.ui.terminal.open_session` for the arguments.
    """
    from rolling.ui.terminal import make_console, open_session, play

    session = open_session(screen, opts, new_config, default_players, set_up)
    raise typer.Exit(play(session, screen, make_console(), quiet=opts.quiet))


def columns_table(*headers: str) -> Table:
    """A table of plain columns for :func:`print_table`: no borders, two spaces between columns, a
    bold header; a header ending in ``>`` (``"score>"``) is a right-aligned (number) column."""
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold", show_edge=False)
    for header in headers:
        right = header.endswith(">")
        table.add_column(header.rstrip(">"), justify="right" if right else "left", no_wrap=True)
    return table


def print_table(table: Table, indent: int = 0) -> None:
    """Print ``table`` on stdout, indented by ``indent`` spaces: each column as wide as its widest
    cell (long bot or player names included), so the columns line up. Into a file or a pipe it
    is never wrapped or cut; in a terminal too narrow for it rich folds it to the width."""
    console = Console(highlight=False)
    shown = Padding(table, (0, 0, 0, indent)) if indent else table
    if not console.is_terminal:
        # the table's natural width (measured on a console wide enough not to clamp it)
        width = Console(width=10_000).measure(shown).maximum
        console = Console(highlight=False, width=max(width, 1), no_color=True)
    console.print(shown)

