"""What every terminal game session shares: apply-record-save after each action, undo within the
current turn by replaying the turn's actions onto a copy of the state at its start, reading a line
of input, and the one-line error exit."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console

from rolling.core.record import save_record


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


class Quit(Exception):
    """Leave a play loop (the quit command, or the end of input)."""


def read_line(console: Console, prompt: str) -> str:
    """Show ``prompt`` and read one line from standard input (raises Quit at end of input)."""
    console.print(prompt, end="", markup=False, highlight=False)
    console.file.flush()
    line = sys.stdin.readline()
    if not line:
        raise Quit
    return line


class TurnUndo:
    """Mixin for a session with the attributes ``state`` (with its log on), ``record`` (a
    GameRecord), ``path`` (where the record is saved), ``turn_state`` (a clone of the state when
    the current turn began) and ``turn_start`` (how many recorded actions came before the turn).

    Subclasses say which actions end a turn (:meth:`ends_turn`) and how to read an action back
    from JSON (``read_action``).
    """

    read_action: Callable[[Any], Any]

    def ends_turn(self, action: Any, before: tuple[int, ...]) -> bool:
        """True when ``action`` (taken while ``before`` were to act) closes the current turn."""
        raise NotImplementedError

    def after_undo(self) -> None:
        """Hook run after an undo (e.g. to reset what the screen has shown)."""

    def apply(self, action: Any) -> None:
        """Apply an action, record it and save the record (IllegalAction leaves all unchanged)."""
        before = self.state.to_act
        self.state.apply(action)
        self.record.actions.append(action.to_json())
        if self.ends_turn(action, before):
            self.turn_state, self.turn_start = self.state.clone(), len(self.record.actions)
        self.save()

    def undo(self) -> bool:
        """Take back the last action of this turn; False if this turn has none."""
        if len(self.record.actions) <= self.turn_start:
            return False
        self.record.actions.pop()
        state = self.turn_state.clone()
        for data in self.record.actions[self.turn_start :]:
            state.apply(type(self).read_action(data))
        self.state = state
        self.after_undo()
        self.save()
        return True

    def save(self) -> None:
        """Write the record to its file (atomically)."""
        save_record(self.record, self.path)
