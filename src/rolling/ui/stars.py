"""Rolling Stock Stars at the terminal table: the screen (:mod:`.stars_screen`), the numbered menu
and typed commands (:mod:`.stars_input`), plugged into the shared loop of :mod:`.terminal`."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from rolling.core.record import GameRecord
from rolling.games.stars.config import TITLES

from .session import PlaySession
from .stars_input import AskAmount, amount, cautions, check_phase, help_text, menu, parse
from .stars_screen import render
from .terminal import Screen, confirm, read_line


class StarsScreen(Screen):
    """Rolling Stock Stars (either edition): the table from the seat's view and a menu of its legal
    moves before every prompt; a number, ``N AMOUNT`` or a typed command answers."""

    game = "stars"
    standings_columns = (("hand", "hand", False), ("cash", "cash", True), ("companies", "companies", True),
                         ("shares", "shares", True))

    def __init__(self) -> None:
        self.items: list = []

    def title(self, session: PlaySession) -> str:
        """The edition's title, and the variants played."""
        cfg = session.state.config
        variants = f" ({', '.join(cfg.variants)})" if cfg.variants else ""
        return TITLES[cfg.edition] + variants

    def commands(self, session: PlaySession) -> str:
        """The typed commands, with examples in the edition's corporation codes."""
        return help_text(session.state.config.edition)

    def players(self, record: GameRecord) -> int:
        """The number of seats in the record's config."""
        return int(record.config.get("players", 4))

    def show(self, session: PlaySession, seat: int, console: Console, first: bool) -> None:
        """The table (for a new decision) and always the menu, whose numbers the next line may use."""
        s = session.state
        if first:
            console.print(render(s.view(seat), me=seat))
        self.items = menu(s, seat)
        console.print(f"[bold cyan]{session.names[seat]}[/], your choice:")
        group = None
        for k, (g, line, _) in enumerate(self.items, 1):
            if g != group:
                console.print(f"  [dim]{g}[/]")
                group = g
            console.print(f"   {k:>2}. {line}", highlight=False, markup=False)

    def read(self, session: PlaySession, seat: int, line: str, console: Console) -> Any:
        """A menu number (``N``, which asks for the amount a ranged choice needs, or ``N AMOUNT``)
        or a typed command (raises InputError); a question first where a careful player would ask
        one (:func:`.stars_input.cautions`); None when the person answers no."""
        s = session.state
        got = parse(s, seat, line.strip(), self.items)
        if isinstance(got, AskAmount):
            m = got.move
            answer = read_line(console, f"Amount for '{got.line}' (${m.lo} to ${m.hi}; nothing to cancel): ").strip()
            if not answer:
                console.print("Nothing chosen.", markup=False, highlight=False)
                return None
            got = amount(m, answer)
        check_phase(s, got)
        caution = cautions(s, seat, got)
        if caution is not None:
            question, actions = caution
            if not confirm(console, question):
                console.print("Nothing done.", markup=False, highlight=False)
                return None
            return actions
        return got

    def final(self, session: PlaySession, console: Console, viewer: int | None) -> None:
        """The final table, and with the two-handed variant the person who wins."""
        s = session.state
        console.print(render(s.view(viewer), me=viewer))
        if "two-handed" in s.config.variants:
            from rolling.games.stars.state import two_handed_winner

            console.print(f"Two-handed variant: person {two_handed_winner(s.standings())} wins.")
