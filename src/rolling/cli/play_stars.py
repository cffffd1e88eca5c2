"""``rolling play stars``: a whole game of Rolling Stock Stars in the terminal, with and against bots.

The game record is saved atomically after every action (with humans at the table, to
``rolling-stars-<seed>.json`` unless ``--save`` names a file), so a crash or Ctrl-C loses nothing;
``--resume FILE`` continues it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console

from rolling.bots import bot_names, make_bot
from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, load_record, replay, save_record
from rolling.games.stars import Config
from rolling.games.stars.config import EDITIONS, PLAYERS, VARIANTS
from rolling.ui.stars_input import InputError, help_text, menu, parse
from rolling.ui.stars_screen import render, standings_table

EDITION_HELP = "one of " + ", ".join(EDITIONS)
PLAYERS_HELP = ", ".join(f"{e}: {lo}-{hi}" for e, (lo, hi) in PLAYERS.items())
VARIANT_HELP = "any of " + ", ".join(VARIANTS) + " (repeatable)"


def parse_seats(spec: str | None, players: int | None) -> list[str]:
    """Seat kinds from ``--seats``: ``human``, ``bot`` (the heuristic bot), ``bot:NAME`` or a bot name.

    Raises:
        RecordError: an unknown kind or a count that does not match ``--players``.
    """
    if not spec:
        n = players or 4
        return ["human"] + ["heuristic"] * (n - 1)
    seats = []
    for word in spec.split(","):
        w = word.strip().lower()
        if w.startswith("bot:"):
            w = w[4:]
        elif w == "bot":
            w = "heuristic"
        if w != "human" and w not in bot_names("stars"):
            raise RecordError(f"unknown seat {word!r}: use human, bot, or bot:NAME ({', '.join(bot_names('stars'))})")
        seats.append(w)
    if players is not None and players != len(seats):
        raise RecordError(f"--players {players} but {len(seats)} seats given")
    return seats


class Table:
    """A game at the terminal: the state, the record, who sits where, and saving."""

    def __init__(self, record: GameRecord, seats: list[str], save_path: Path | None, console: Console):
        self.record = record
        self.seats = seats
        self.save_path = save_path
        self.console = console
        self.config = Config.from_json(record.config)
        self.bots = {k: make_bot(kind, seed=record.seed * 101 + k) for k, kind in enumerate(seats) if kind != "human"}
        self.decisions: dict[int, list[int]] = {int(k): list(v) for k, v in record.meta.get("decisions", {}).items()}
        self.rebuild(len(record.actions))
        self.seen = {k: len(self.state.log) for k in range(len(seats))}

    def rebuild(self, upto: int) -> None:
        """Replay the record's first ``upto`` actions (the rest are dropped)."""
        self.record.actions = self.record.actions[:upto]
        self.state = replay(self.record, log=True)

    def save(self) -> None:
        if self.save_path is None:
            return
        self.record.meta["seats"] = self.seats
        self.record.meta["names"] = list(self.state.names)
        self.record.meta["decisions"] = {str(k): v for k, v in self.decisions.items()}
        save_record(self.record, self.save_path)

    def apply(self, action) -> None:
        self.state.apply(action)
        self.record.actions.append(action.to_json())
        self.save()

    def undo(self, seat: int) -> bool:
        """Back to ``seat``'s previous decision; False if there is none."""
        marks = self.decisions.get(seat, [])
        if not marks:
            return False
        k = marks.pop()
        for other in self.decisions.values():
            while other and other[-1] >= k:
                other.pop()
        self.rebuild(k)
        self.seen[seat] = 0
        self.save()
        return True


def choose_seat(s, seats: list[str]) -> int:
    """Who acts next: a bot that may act goes first; otherwise the first human in player order."""
    acting = s.to_act
    for seat in acting:
        if seats[seat] != "human":
            return seat
    return acting[0]


def human_turn(t: Table, seat: int) -> str | None:
    """Prompt a human until they act; returns 'quit' to stop the game."""
    c = t.console
    s = t.state
    news = s.log_lines(seat, t.seen.get(seat, 0))
    if news:
        c.rule(f"Since {s.names[seat]}'s last decision")
        for line in news[-60:]:
            c.print(line, highlight=False, markup=False)
    c.print(render(s.view(seat), me=seat))
    while True:
        items = menu(s, seat)
        c.print(f"[bold cyan]{s.names[seat]}[/], your choice:")
        group = None
        for k, (g, line, _) in enumerate(items, 1):
            if g != group:
                c.print(f"  [dim]{g}[/]")
                group = g
            c.print(f"   {k:>2}. {line}", highlight=False, markup=False)
        try:
            text = input(f"{s.names[seat]}> ").strip()
        except EOFError:
            t.save()
            c.print(f"\nInput ended; the game is saved{' to ' + str(t.save_path) if t.save_path else ''}.")
            return "quit"
        word = text.lower()
        if word in ("help", "?"):
            c.print(help_text(s.config.edition), highlight=False, markup=False)
            continue
        if word == "quit":
            t.save()
            c.print(f"Game saved{' to ' + str(t.save_path) if t.save_path else ''}. Bye.")
            return "quit"
        if word == "save":
            t.save()
            c.print(f"Saved to {t.save_path}." if t.save_path else "No save file (use --save FILE).")
            continue
        if word == "undo":
            if t.undo(seat):
                c.print(f"Back to {s.names[seat]}'s previous decision.")
                return None
            c.print("Nothing to undo: this is your first decision.")
            continue
        try:
            action = parse(s, seat, text, items)
            mark = len(t.record.actions)
            t.apply(action)
        except (InputError, IllegalAction) as e:
            c.print(f"[red]{e}[/]")
            continue
        t.decisions.setdefault(seat, []).append(mark)
        t.seen[seat] = len(t.state.log)
        return None


def play(t: Table, narrate_bots: bool) -> int:
    """Run the game to the end (or until a human quits); returns the exit status."""
    c = t.console
    printed = len(t.state.log)
    humans = [k for k, kind in enumerate(t.seats) if kind == "human"]
    while not t.state.is_over:
        seat = choose_seat(t.state, t.seats)
        if t.seats[seat] == "human":
            if human_turn(t, seat) == "quit":
                return 0
            printed = len(t.state.log)
            continue
        t.apply(t.bots[seat].choose(t.state, seat))
        if narrate_bots and not humans:
            for line in t.state.log_lines(None, printed):
                c.print(line, highlight=False, markup=False)
            printed = len(t.state.log)
    s = t.state
    # the closing screen is one player's when one person plays, an onlooker's when several share
    # the keyboard (with secret money nobody's cash shows) or nobody does
    viewer = humans[0] if len(humans) == 1 else None
    if humans:
        for line in s.log_lines(viewer, min(t.seen.values())):
            c.print(line, highlight=False, markup=False)
    c.print(render(s.view(viewer), me=viewer))
    c.print(standings_table(s.standings()))
    if "two-handed" in s.config.variants:
        from rolling.games.stars.state import two_handed_winner

        c.print(f"Two-handed variant: person {two_handed_winner(s.standings())} wins.")
    if t.save_path:
        c.print(f"Game record: {t.save_path}")
    return 0


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``rolling play stars``."""

    @groups["play"].command("stars")
    def play_stars(
        players: int = typer.Option(None, "--players", help=f"number of players ({PLAYERS_HELP}; default: seats given, or 4)"),
        seats: str = typer.Option(None, "--seats", help="comma list: human, bot, bot:heuristic, bot:random"),
        seed: int = typer.Option(None, "--seed", help="seed of the deck and player order (default: random)"),
        edition: str = typer.Option("stars", "--edition", help=EDITION_HELP),
        variant: list[str] = typer.Option([], "--variant", help=VARIANT_HELP),
        names: str = typer.Option(None, "--names", help="comma list of player names"),
        save: str = typer.Option(None, "--save", help="save the game record here after every action"),
        resume: str = typer.Option(None, "--resume", help="continue a saved game"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="bots-only games: print only the result"),
    ) -> None:
        """Play Rolling Stock Stars in the terminal, alone against bots or with friends at one keyboard."""
        console = Console(highlight=False)
        if not console.is_terminal:
            console = Console(highlight=False, width=140)
        if resume:
            record = load_record(resume)
            if record.game != "stars":
                raise RecordError(f"{resume} is a {record.game} game, not Rolling Stock Stars")
            seat_kinds = parse_seats(seats, None) if seats else list(record.meta.get("seats") or [])
            cfg = Config.from_json(record.config)
            if len(seat_kinds) != cfg.players:
                seat_kinds = parse_seats(None, cfg.players)
            path = Path(save or resume)
        else:
            for v in variant:
                if v not in VARIANTS:
                    raise RecordError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
            if "two-handed" in variant and not seats:
                seats = "human,human,human,human"
            seat_kinds = parse_seats(seats, players)
            if seed is None:
                import secrets

                seed = secrets.randbelow(2**31)
            name_list = tuple(x.strip() for x in names.split(",")) if names else ()
            if not name_list and "two-handed" in variant:
                # the variant's seating: A's right hand 1, B's left 2, B's right 3, A's left 4
                name_list = ("A right hand", "B left hand", "B right hand", "A left hand")
            if not name_list:
                name_list = tuple(
                    (f"Player {k + 1}" if kind == "human" else f"{kind.capitalize()} {k + 1}") for k, kind in enumerate(seat_kinds)
                )
            cfg = Config(players=len(seat_kinds), edition=edition, variants=tuple(variant), names=name_list)
            cfg.validate()
            record = GameRecord("stars", cfg.to_json(), seed, [], {"seats": seat_kinds})
            path = Path(save) if save else (Path(f"rolling-stars-{seed}.json") if "human" in seat_kinds else None)
        try:
            table = Table(record, seat_kinds, path, console)
        except RecordError as e:
            raise RecordError(f"the saved game cannot be replayed: {e}") from None
        table.save()
        if path and "human" in seat_kinds:
            console.print(f"Saving the game to {path} after every action.")
        try:
            code = play(table, narrate_bots=not quiet)
        except KeyboardInterrupt:
            table.save()
            print(f"\nInterrupted; the game is saved{' to ' + str(path) if path else ''}.", file=sys.stderr)
            raise typer.Exit(130) from None
        raise typer.Exit(code)
