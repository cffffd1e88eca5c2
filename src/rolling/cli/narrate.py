"""Print a game record turn by turn, for ``rolling replay``.

A state may keep a log of readable events (``state.log``, a list of strings, switched on with
``state.enable_log()``); the narrator applies the record's actions one by one and prints the new
events after each. States without a log get one line per action.
"""

from __future__ import annotations

from rolling.core.record import GameRecord, replay_steps


def print_replay(record: GameRecord, out=print) -> None:
    """Apply the record's actions and print what happened, one line per event."""
    seen = 0
    for n, state in enumerate(replay_steps(record, log=True)):
        if hasattr(state, "log"):
            for line in state.log[seen:]:
                out(line)
            seen = len(state.log)
        elif n:
            out(str(record.actions[n - 1]))
