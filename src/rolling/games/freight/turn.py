"""On Your Turn: the start of a turn and the end-of-turn steps F, G and H."""

from __future__ import annotations

from . import events as E
from .actions import EndTurn
from .dice import roll_all
from .phases import after_turn
from .refill import refill_tracks
from .stockpile import stockpile_store


def start_turn(state) -> None:
    """Reset the once-per-turn counters for the player about to act."""
    state.turn += 1
    state.routes_done = 0
    state.stations_used = 0
    state.steady_used = 0
    if state.log is not None:
        state.log.append((E.TURN, E.PUBLIC, state.turn, state.phase, state.current,
                          tuple(state.players[state.current].dice)))


def end_turn(state, a: EndTurn) -> None:
    """F stockpile, improvements bought this turn take effect, G refill, H roll; next player.

    Raises:
        IllegalAction: a ``store`` string naming a colour a die does not show (F).
    """
    seat = a.seat
    stockpile_store(state, seat, a.store)
    p = state.players[seat]
    if p.pending:
        p.improvements += p.pending
        p.pending = []
    refill_tracks(state, seat, True)
    roll_all(state, seat)
    if state.final_left >= 0:  # after_turn's test, written out (issue 34)
        after_turn(state)
        if state.stage == "over":
            return
    state.current = current = (state.current + 1) % state.n
    # start_turn, written out (issue 34)
    state.turn += 1
    state.routes_done = 0
    state.stations_used = 0
    state.steady_used = 0
    if state.log is not None:
        state.log.append((E.TURN, E.PUBLIC, state.turn, state.phase, current,
                          tuple(state.players[current].dice)))
