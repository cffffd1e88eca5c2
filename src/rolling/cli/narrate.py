"""Print a game record turn by turn, for ``rolling replay``.

A state may keep a log of readable events (``state.log``, a list of strings, switched on with
``state.enable_log()``); the narrator applies the record's actions one by one and prints the new
events after each. States without a log get one line per action.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, new_state
from rolling.games import get_game


def print_replay(record: GameRecord, out=print) -> None:
    """Apply the record's actions and print what happened, one line per event."""
    game = get_game(record.game)
    state = new_state(record)
    has_log = hasattr(state, "enable_log")
    if has_log:
        state.enable_log()
    seen = 0
    if has_log:
        for line in state.log:
            out(line)
        seen = len(state.log)
    for i, data in enumerate(record.actions):
        action = game.action_from_json(data)
        try:
            state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"action {i} ({data}) is illegal: {e}") from None
        if has_log:
            for line in state.log[seen:]:
                out(line)
            seen = len(state.log)
        else:
            out(str(data))
