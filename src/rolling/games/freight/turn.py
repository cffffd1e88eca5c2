"""On Your Turn: the start of a turn and the end-of-turn steps F, G and H."""

from __future__ import annotations

import os

from rolling.core.rng import Rng

from . import events as E
from .actions import EndTurn
from .components import END_OF_PHASE
from .dice import _SETS, _dice_set, roll_all
from .phases import after_turn
from .refill import refill_tracks
from .stockpile import _FACE_CODE, _SPLITS, options, stockpile_store

try:  # the end of a turn in C (issue 34), optional: :func:`_end_turn_py` is the reference
    if os.environ.get("ROLLING_PURE_PYTHON"):  # read once, at import
        raise ImportError
    from ._turn import end_turn as _end_turn_c
except ImportError:
    _end_turn_c = None


def compiled() -> bool:
    """Whether :func:`end_turn` runs through the optional C part ``_turn`` (built by ``setup.py``
    where a C compiler is found, and ``ROLLING_PURE_PYTHON`` not set); the turn ends the same way
    either way (:func:`_end_turn_py`)."""
    return _end_turn_c is not None


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

    The C part ``_turn`` ends every turn that does not end the phase, without a log, exactly as
    :func:`_end_turn_py` does, which ends the others (tests/freight/test_freight_turn_compiled.py).

    Raises:
        IllegalAction: a ``store`` string naming a colour a die does not show (F).
    """
    if _end_turn_c is not None:
        seat = a.seat
        store = a.store
        for _ in range(3):
            got = _end_turn_c(state, seat, store, _FACE_CODE, _SPLITS, _SETS, Rng, END_OF_PHASE)
            if got is True:
                return
            if got == 1:  # the engine's store, as stockpile_store reads it
                store = options(state, seat)[0][0]
            elif got == 2:  # the dice set after the improvements bought, as roll_all reads it
                p = state.players[seat]
                _dice_set(state, tuple(p.improvements + p.pending))
            else:
                break
    _end_turn_py(state, a)


def _end_turn_py(state, a: EndTurn) -> None:
    """:func:`end_turn` in Python: the reference of the C part."""
    seat = a.seat
    stockpile_store(state, seat, a.store)
    p = state.players[seat]
    if p.pending:
        p.improvements += p.pending
        p.pending = []
    refill_tracks(state, seat, True)
    roll_all(state, seat)
    after_turn(state)
    if state.stage == "over":
        return
    state.current = (state.current + 1) % state.n
    start_turn(state)
