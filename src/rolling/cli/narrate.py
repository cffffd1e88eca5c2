"""Print a game record turn by turn, for ``rolling replay``.

A state may keep a log of events (``state.log``, switched on with ``state.enable_log()``); the
narrator applies the record's actions one by one and prints the new events after each, as an
onlooker sees them. A log is either a list of strings, or a list of structured events that the
state renders per viewer with ``state.log_lines(seat, start)`` (Rolling Stock Stars: hidden money
stays hidden). States without a log get one line per action.
"""

from __future__ import annotations

from rolling.core.record import GameRecord, replay_steps


def print_replay(record: GameRecord, out=print) -> None:
    """Apply the record's actions and print what happened, one line per event."""
    seen = 0
    for n, state in enumerate(replay_steps(record, log=True)):
        if hasattr(state, "log_lines"):
            for line in state.log_lines(None, seen):
                out(line)
            seen = len(state.log)
        elif hasattr(state, "log"):
            for line in state.log[seen:]:
                out(line)
            seen = len(state.log)
        elif n:
            out(str(record.actions[n - 1]))
