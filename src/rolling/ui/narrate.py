"""Print a game record turn by turn, for ``rolling replay``.

A state may keep a log of events (``state.log``, switched on with ``state.enable_log()``); the
narrator applies the record's actions one by one and prints the new events after each, as an
onlooker sees them (:func:`rolling.ui.session.log_lines`: a game that renders its events per viewer
keeps hidden money hidden). States without a log get one line per action.
"""

from __future__ import annotations

from rolling.core.record import GameRecord, replay_steps

from .session import log_lines, log_size


def print_replay(record: GameRecord, out=print) -> None:
    """Apply the record's actions and print what happened, one line per event."""
    seen = 0
    for n, state in enumerate(replay_steps(record, log=True)):
        if hasattr(state, "log"):
            for line in log_lines(state, None, seen):
                out(line)
            seen = log_size(state)
        elif n:
            out(str(record.actions[n - 1]))
