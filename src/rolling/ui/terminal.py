"""The terminal table every game is played at: one loop, one set of commands, one end of game.

:func:`open_session` starts a game or resumes a saved one from the options of ``rolling play GAME``
(one seat vocabulary, the default save file ``rolling-<game>-<seed>.json`` when a person plays);
:func:`play` runs it: bots move, and before each decision of a person it shows what happened since
their previous one (their own move and what followed it included), the game's screen and a prompt
``<name>> ``. A bot's reason for its move (its ``last_reason``) is printed dimmed right after the
lines of that move, in the news and when bots play alone: with a person at the table only its
public part until the game is over, whole with bots alone (:func:`rolling.bots.reasons.shown_reason`). Every game understands the same commands besides its own:

- ``undo``: back to your previous decision, never past what you learned since (a card drawn, dice
  rolled, another player's or a bot's move: several people at one keyboard see each other's
  decisions) nor the end of the game (:mod:`rolling.core.reveal`; a refusal says which);
- ``save``: save the game now (it is saved after every action anyway, atomically);
- ``help``: the game's commands and these;
- ``quit`` (or the end of input): save and leave; ``--resume FILE`` continues.

The game ends with the same block in every game, printed once: ``Game over.``, the game's final
screen, the final standings (players numbered from 1) and where the record is.

What differs between games is a :class:`Screen`: how to draw the position, read a typed line and
show the end. Screens only ask the engine what is legal; every action goes through the engine.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rolling.bots import HUMAN, default_names, default_seats, parse_seats
from rolling.core.errors import IllegalAction, RecordError, UsageError
from rolling.core.record import GameRecord, load_record

from .session import PlaySession, default_save_name, log_size

#: the commands every game understands, typed alone on a line
COMMANDS = {"help": "help", "h": "help", "?": "help", "quit": "quit", "q": "quit", "exit": "quit",
            "save": "save", "undo": "undo", "u": "undo", "more": "more", "m": "more"}

#: lines a screen leaves free below it besides its prompt: one message and the prompt asked again
#: keep the screen's first line in view (issue 28 item 9)
SLACK = 2
#: the fewest menu lines a page shows; a screen folds its optional parts to leave at least these
MIN_MENU = 6


class Part(NamedTuple):
    """A piece of a screen above its menu: ``full``, or ``short`` (a shorter form, e.g. a line
    naming the command that lists it) when the terminal is too short for everything (``None``:
    always shown in full)."""

    full: Any
    short: Any = None


def screen_height(console: Console) -> int | None:
    """The rows a screen may use: the terminal's height, or ``None`` (no limit) when the output is
    not a terminal (a pipe, a file)."""
    return console.size.height if console.is_terminal else None


def height_of(console: Console, renderables: list) -> int:
    """How many lines ``renderables`` take printed on ``console`` (at its width)."""
    options = console.options
    n = 0
    for r in renderables:
        if isinstance(r, Text) and "\n" not in r.plain and r.cell_len <= console.width:
            n += 1  # the menu's lines: most of what is measured, and one line each
        else:
            n += len(console.render_lines(r, options, pad=False))
    return n


def draw(console: Console, parts: list[Part], head: Text, menu: list, page: int) -> tuple[int, list[list]]:
    """Print a screen that fits the terminal: ``parts`` (folded to their short forms, the one
    that saves the most lines first, while the menu would get fewer than :data:`MIN_MENU` lines),
    then ``head`` (the line
    above the menu) and one page of ``menu`` (a renderable per entry, a line each as a rule);
    with more than one page, ``head`` ends with the page number and ``more`` (a menu number may be
    typed on any page). Without a terminal (:func:`screen_height` ``None``) everything is printed.

    Returns:
        ``(page shown, pages)``: ``page`` taken modulo the number of pages, and the menu's entries
        page by page (:func:`draw_menu` prints one again).
    """
    height = screen_height(console)
    shown = [p.full for p in parts]
    pages: list[list] = [menu]
    if height is not None and menu:
        room = height - 1 - SLACK - height_of(console, [head.copy().append(" [page 9/9: more]")])
        heights = [height_of(console, [r]) for r in shown]
        shorts = {k: height_of(console, [p.short]) for k, p in enumerate(parts) if p.short is not None}
        for k in sorted(shorts, key=lambda k: shorts[k] - heights[k]):
            if room - sum(heights) >= min(len(menu), MIN_MENU):
                break
            shown[k], heights[k] = parts[k].short, shorts[k]
        room = max(1, room - sum(heights))
        pages, used = [[]], 0
        for entry in menu:
            h = height_of(console, [entry])
            if pages[-1] and used + h > room:
                pages.append([])
                used = 0
            pages[-1].append(entry)
            used += h
    page %= len(pages)
    for r in shown:
        console.print(r)
    draw_menu(console, head, pages, page)
    return page, pages


def draw_menu(console: Console, head: Text, pages: list[list], page: int) -> None:
    """Print ``head`` (with the page number and ``more`` when there are several pages) and the
    entries of page ``page``."""
    if len(pages) > 1:
        head = head.copy().append(f" [page {page + 1}/{len(pages)}: more]", style="bold")
    console.print(head)
    for entry in pages[page]:
        console.print(entry)


class Quit(Exception):
    """Leave the play loop (the quit command, or the end of input)."""


#: the lines typed at the prompt that are kept for the next game (the up arrow brings them back)
HISTORY_LENGTH = 1000

_editor: list = []  # [readline module or None], once looked for


def line_editor(console: Console):
    """The ``readline`` module when the prompt is a terminal and Python has it (not on every
    platform), else ``None``: at the prompt a line can then be edited (arrows, Ctrl-A, Ctrl-E,
    Ctrl-U, ...) and earlier lines come back with the up arrow, also from earlier games (the
    history file ``history`` in the user data folder, e.g. ``~/.local/share/rolling/history``,
    written when the program ends)."""
    if not (sys.stdin.isatty() and console.file is sys.stdout and sys.stdout.isatty()):
        return None
    if not _editor:
        try:
            import readline
        except ImportError:  # pragma: no cover - Windows without pyreadline
            readline = None
        if readline is not None:
            import atexit

            import platformdirs

            path = Path(platformdirs.user_data_dir("rolling")) / "history"
            readline.set_history_length(HISTORY_LENGTH)
            try:
                readline.read_history_file(path)
            except OSError:  # none yet, or unreadable: start an empty history
                pass

            def save() -> None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    readline.write_history_file(path)
                except OSError:
                    pass

            atexit.register(save)
        _editor.append(readline)
    return _editor[0]


def read_line(console: Console, prompt: str) -> str:
    """Show ``prompt`` and read one line from standard input (raises Quit at the end of input);
    at a terminal with :func:`line_editor`'s line editing and history."""
    if line_editor(console) is not None:
        try:
            return input(prompt) + "\n"  # readline draws the prompt, so that editing never erases it
        except EOFError:
            raise Quit from None
    console.print(prompt, end="", markup=False, highlight=False)
    console.file.flush()
    line = sys.stdin.readline()
    if not line:
        raise Quit
    return line


def confirm(console: Console, question: str) -> bool:
    """Ask a yes-or-no ``question`` (`` (y/n) `` is added) until the answer is one of them; True
    for yes. Raises Quit at the end of input."""
    while True:
        answer = read_line(console, f"{question} (y/n) ").strip().lower()
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        console.print("Please answer y or n.", style="yellow", markup=False, highlight=False)


def make_console() -> Console:
    """The console a game is drawn on (140 columns wide when the output is not a terminal)."""
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=140)
    return console


class Screen:
    """One game's part of the terminal table; subclasses override what their game needs.

    Attributes:
        game: the game's registry name.
        undo_scope: how far back ``undo`` reaches, said in ``help`` (``" in this turn"``).
        standings_columns: ``(header, key, money)`` of the columns the final standings show after
            the score, when the game's standings rows have that key.
    """

    game = ""
    undo_scope = ""
    standings_columns: tuple[tuple[str, str, bool], ...] = ()
    #: the page of the menu shown (``more`` turns it; a new decision starts at the first)
    page = 0

    def title(self, session: PlaySession) -> str:
        """The game's name and set-up, for the first line (``Rolling Freight (west-coast)``)."""
        return self.game

    def commands(self, session: PlaySession) -> str:
        """The game's own commands, for ``help`` (the shared ones are listed below them)."""
        return ""

    def players(self, record: GameRecord) -> int:
        """How many seats the record's game has."""
        return int(record.config.get("players", 1))

    def show(self, session: PlaySession, seat: int, console: Console, first: bool) -> None:
        """Draw what ``seat`` needs before typing: the whole screen when ``first`` (a new decision),
        else only what must stay in view after a message (a menu)."""

    def read(self, session: PlaySession, seat: int, line: str, console: Console) -> Any | None:
        """The action meant by a typed line, a list of actions taken together as one decision, or
        ``None`` when the line was answered on screen (a listing, a cancelled preview); it may ask
        more (:func:`confirm`, :func:`read_line`).

        Raises:
            ValueError: the line means nothing here; the message says why, in one line.
        """
        raise NotImplementedError

    def final(self, session: PlaySession, console: Console, viewer: int | None) -> None:
        """The game's own part of the end block (the final position), as ``viewer`` sees it."""


@dataclass
class PlayOptions:
    """The options ``rolling play GAME`` shares across games (see :func:`open_session`)."""

    seats: str | None = None
    players: int | None = None
    seed: int | None = None
    names: str | None = None
    save: str | None = None
    resume: str | None = None
    quiet: bool = False


def open_session(
    screen: Screen,
    opts: PlayOptions,
    new_config: Callable[[list[str], list[str]], dict],
    default_players: int,
    set_up: tuple[str, ...] = (),
) -> PlaySession:
    """Start a new game, or resume a saved one, from the shared ``play`` options.

    Args:
        screen: the game's screen.
        opts: the shared options.
        new_config: ``(seats, names) -> config`` (JSON) of a new game; raises RecordError for a
            number of players the game does not allow.
        default_players: the number of players without ``--seats`` and ``--players``.
        set_up: the game's own set-up options given on the command line (``--map``), which a
            resumed game cannot take.

    Raises:
        UsageError: options that do not fit together, unknown seats, a wrong number of names.
        RecordError: a record that cannot be read or replayed, or a set-up the game does not allow.
    """
    game = screen.game
    if opts.resume:
        given = [flag for flag, value in (("--seed", opts.seed), ("--players", opts.players), ("--names", opts.names))
                 if value is not None] + list(set_up)
        if given:
            raise UsageError(f"{', '.join(given)} cannot be used with --resume (the saved game has them)")
        record = load_record(opts.resume)
        if record.game != game:
            raise RecordError(f"{opts.resume} is a game of {record.game}, not {game}")
        n = screen.players(record)
        if opts.seats:
            seats = parse_seats(game, opts.seats, players=n)
        else:
            seats = saved_seats(game, record, n, opts.resume)
    else:
        seats = parse_seats(game, opts.seats, opts.players, default_players)
        names = [x.strip() for x in opts.names.split(",")] if opts.names else default_names(seats)
        if len(names) != len(seats):
            raise UsageError(f"--names gives {len(names)} name{'s' if len(names) != 1 else ''}, but "
                             f"{len(seats)} are needed (one per seat)")
        seed = opts.seed if opts.seed is not None else secrets.randbelow(2**31)
        record = GameRecord(game, new_config(seats, names), seed, [], {"seats": seats, "names": names})
    path = opts.save or opts.resume or (default_save_name(game, record.seed) if HUMAN in seats else None)
    try:
        session = PlaySession(record, seats, path)
    except RecordError as e:
        raise RecordError(f"the saved game cannot be replayed: {e}") from None
    session.save()
    return session


def saved_seats(game: str, record: GameRecord, players: int, path: str) -> list[str]:
    """The seats a record was saved with (``meta["seats"]``), read with the one seat parser
    (:func:`rolling.bots.seats.parse_seats`), so that every seat comes back exactly, a bot's
    budget included (``search:0.05s``); a record without seats gets :func:`default_seats`.

    Raises:
        RecordError: saved seats that cannot be read, or not one per player (issue 28 item 8:
            never a silent fall back to other seats).
    """
    saved = record.meta.get("seats")
    if saved is None:
        return default_seats(game, players)
    if not isinstance(saved, list) or len(saved) != players:
        count = len(saved) if isinstance(saved, list) else "no list of"
        raise RecordError(f"{path}: the record names {count} seats for {players} players (use --seats)")
    try:
        return parse_seats(game, [str(s) for s in saved], players=players)
    except UsageError as e:
        raise RecordError(f"{path}: a saved seat cannot be read: {e} (use --seats)") from None


def play(session: PlaySession, screen: Screen, console: Console, quiet: bool = False) -> int:
    """Run the game to its end, or until a person quits; returns the exit status (130 on Ctrl-C).

    With nobody at the keyboard the game is narrated as it goes (unless ``quiet``); with people,
    each sees the news before their own decision. Either way each bot's reason for its move is
    printed dimmed after the lines of that move.
    """
    humans = session.humans
    if not quiet:
        where = f"; saving to {session.path} after every action" if session.path else ""
        hint = " Type 'help' for commands." if humans else ""
        console.print(f"{screen.title(session)}, seed {session.record.seed}{where}.{hint}", markup=False, highlight=False)
    printed = session.seen.get(0, 0)
    try:
        while not session.state.is_over:
            seat = session.next_seat()
            if seat in humans:
                decide(session, screen, console, seat)
                continue
            bot = session.decision_bot(seat)
            action = bot.choose(session.state, seat)
            session.apply(action)
            session.note_reason(seat, getattr(bot, "last_reason", None))
            if not humans and not quiet:
                print_news(console, session.news_with_reasons(None, printed, len(session.record.actions) - 1))
                printed = log_size(session.state)
    except Quit:
        session.save()
        console.print(f"\n{_saved(session)}", markup=False, highlight=False)
        return 0
    except KeyboardInterrupt:
        session.save()
        print(f"\nInterrupted. {_saved(session)}", file=sys.stderr)
        return 130
    end_block(session, screen, console)
    return 0


def _saved(session: PlaySession) -> str:
    if session.path is None:
        return "The game is not saved (no --save FILE)."
    return f"Saved to {session.path}; resume with: rolling play {session.game} --resume {session.path}"


def print_news(console: Console, news: list[tuple[str, bool]]) -> None:
    """Print log lines as they are and bots' reasons dimmed, in brackets (``  (Heuristic 2 bids for
    MS: ...)``); see :meth:`PlaySession.news_with_reasons`."""
    for text, reason in news:
        if reason:
            console.print(f"  ({text})", style="dim", markup=False, highlight=False)
        else:
            console.print(text, markup=False, highlight=False)


def decide(session: PlaySession, screen: Screen, console: Console, seat: int) -> None:
    """One decision of the person at ``seat``: news, screen, prompt, until an action is applied,
    the decision is undone, or they quit (raises Quit)."""
    name = session.names[seat]
    news = session.news_with_reasons(seat)
    if news:
        console.rule(f"Since {name}'s last decision" if session.decisions.get(seat) else "The game so far")
        # every line: what followed a person's own move is exactly what they need to read
        print_news(console, news)
    session.mark_seen(seat)
    first = True
    screen.page = 0
    while True:
        screen.show(session, seat, console, first)
        first = False
        line = read_line(console, f"{name}> ")
        command = COMMANDS.get(line.strip().lower())
        if command == "more":
            # the next page of the menu, drawn with the whole screen so its first line stays in view
            screen.page += 1
            first = True
            continue
        if command == "help":
            console.print(help_text(screen, session), markup=False, highlight=False)
            continue
        if command == "quit":
            raise Quit
        if command == "save":
            session.save()
            console.print(f"Saved to {session.path}." if session.path else "No save file (use --save FILE).",
                          markup=False, highlight=False)
            continue
        if command == "undo":
            if session.undo(seat):
                console.print(f"Undone. Back to {name}'s previous decision.", markup=False, highlight=False)
                return
            why = session.undo_refusal(seat) if session.decisions.get(seat) else None
            console.print(f"Not undone: {why}." if why else
                          f"There is nothing to undo: no decision of yours{screen.undo_scope or ' yet'}.",
                          style="yellow", markup=False, highlight=False)
            continue
        applied = 0
        try:
            action = screen.read(session, seat, line, console)
            if action is None:
                continue
            # one decision may be several actions (reject every open proposal, then done): undo
            # takes them back together, from the first
            for step in action if isinstance(action, list) else [action]:
                session.apply(step, decided_by=seat if applied == 0 else None)
                applied += 1
        except IllegalAction as e:
            console.print(f"Not allowed ({e.rule}): {e.reason}", style="yellow", markup=False, highlight=False)
            if applied:
                return  # part of the decision stands: the position has moved on
            continue
        except ValueError as e:
            console.print(str(e), style="yellow", markup=False, highlight=False)
            continue
        return


def help_text(screen: Screen, session: PlaySession) -> str:
    """The game's commands, then the commands every game shares."""
    shared = "\n".join([
        f"  undo            back to your previous decision{screen.undo_scope}",
        "  save            save the game now (it is also saved after every action)",
        "  more            the next page of the menu, when it has several (any number works on any page)",
        "  help            this text",
        "  quit            save and leave (continue later with --resume FILE)",
    ])
    own = screen.commands(session)
    return f"{own}\n{shared}" if own else f"Commands:\n{shared}"


def end_block(session: PlaySession, screen: Screen, console: Console) -> None:
    """The end of every game, printed once: what the players have not seen yet, ``Game over.``, the
    game's final screen, the final standings and where the record is.

    The closing screen is one player's when one person plays, an onlooker's when several share the
    keyboard (nobody's secret money shows) or nobody plays.
    """
    humans = session.humans
    viewer = humans[0] if len(humans) == 1 else None
    if humans:
        print_news(console, session.news_with_reasons(viewer, min(session.seen[k] for k in humans),
                                                      min(session.seen_at[k] for k in humans)))
    console.print("Game over.", style="bold")
    screen.final(session, console, viewer)
    console.print(standings_table(session, screen))
    if session.path:
        console.print(f"Game record: {session.path}; replay it with: rolling replay {session.path}",
                      markup=False, highlight=False)


def standings_table(session: PlaySession, screen: Screen) -> Table:
    """The final standings: rank, player, score and the game's own columns."""
    rows = session.state.standings()
    extra = [c for c in screen.standings_columns if any(c[1] in r for r in rows)]
    t = Table(box=box.SIMPLE_HEAD, title="Final standings", title_justify="left")
    for col in ("rank", "player", "score", *(c[0] for c in extra)):
        t.add_column(col)
    for r in rows:
        cells = [f"${r[key]}" if money else str(r[key]) for _, key, money in extra]
        t.add_row(str(r["rank"]), session.names[r["seat"]], f"${r['score']}", *cells)
    return t
