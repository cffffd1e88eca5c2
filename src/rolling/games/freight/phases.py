"""Ending Phase A/B/C, Beginning Phase B/C, the end of the game.

When an End of Phase card comes onto the contract track, the player who drew it keeps it and a
replacement is drawn; every player then takes one more turn, the holder included, and the phase
ends: each player scores its cargo markers ($3/$2/$1 in phases A/B/C) and returns them to the box.
Phase B and C then begin: the B (C) cities open their new demand and get a random cargo from the
bag, the lowest contract and improvement go to the bottom of their decks and the tracks refill.
After phase C each cube on an unfinished contract scores $1 and the game is over.
"""

from __future__ import annotations

from . import events as E
from .refill import end_of_phase_drawn, fill_contract_track, fill_improvement_track
from .setup import draw_cargo


def after_turn(state) -> None:
    """Count down the final round; end the phase after the End of Phase holder's last turn."""
    if state.final_left < 0:
        return
    state.final_left -= 1
    if state.final_left == 0:
        end_phase(state)


def end_phase(state) -> None:
    """Ending Phase A/B/C: cargo bonuses; after C the unfinished-cube bonus and the game's end."""
    ph = state.phase
    bonus = state.comp.cargo_bonus[ph]
    for seat, p in enumerate(state.players):
        if p.cargo:
            p.stock += bonus * len(p.cargo)
            if state.log is not None:
                state.log.append((E.CARGO_SCORE, E.PUBLIC, seat, bonus * len(p.cargo), len(p.cargo)))
        state.cargo_returned += len(p.cargo)
        p.cargo = []
    state.eop_holder = -1
    state.final_left = -1
    state.eop_removed += 1
    if state.log is not None:
        state.log.append((E.PHASE_END, E.PUBLIC, ph, tuple((s, p.stock) for s, p in enumerate(state.players))))
    if ph == 2:
        per = state.comp.unfinished_cube_bonus
        for seat, p in enumerate(state.players):
            cubes = state.cubes_in_use(seat)
            if cubes:
                p.stock += per * cubes
                if state.log is not None:
                    state.log.append((E.CUBE_SCORE, E.PUBLIC, seat, per * cubes, cubes))
        state.stage = "over"
        if state.log is not None:
            state.log.append((E.GAME_OVER, E.PUBLIC, tuple((r["seat"], r["score"]) for r in state.standings())))
        return
    begin_phase(state, ph + 1)


def begin_phase(state, ph: int) -> None:
    """Beginning Phase B/C: grown cities get cargo, lowest cards go to the bottom, tracks refill."""
    state.phase = ph
    if state.log is not None:
        state.log.append((E.PHASE_BEGINS, E.PUBLIC, ph))
    key = "grow_b" if ph == 1 else "grow_c"
    for c in state.map.cities:
        if getattr(c, key):
            col = draw_cargo(state)
            if col:
                state.cargo[c.index] = state.cargo[c.index] + [col]  # shared with clones: replaced
                if state.log is not None:
                    state.log.append((E.CITY_GROWS, E.PUBLIC, c.index, getattr(c, key), col))
    nxt = (state.current + 1) % state.n
    track = [c for c in state.contract_track if c is not None]
    if track:
        state.contract_deck.insert(0, track[0])
        if state.log is not None:
            state.log.append((E.CONTRACT_REMOVED, E.PUBLIC, track[0]))
        track.pop(0)
    state.contract_track = track
    itrack = [c for c in state.improvement_track if c is not None]
    if itrack:
        state.improvement_deck.insert(0, itrack[0])
        if state.log is not None:
            state.log.append((E.IMPROVEMENT_REMOVED, E.PUBLIC, itrack[0]))
        itrack.pop(0)
    state.improvement_track = itrack
    fill_contract_track(state, nxt, False)
    fill_improvement_track(state)
    if state.eop_pending and state.final_left < 0:
        state.eop_pending -= 1
        end_of_phase_drawn(state, nxt, False)
