"""G. Refilling the contract track and the improvement track (also used by setup, draft and phases),
and the End of Phase card a refill may draw (the final round it starts; :mod:`.phases` ends it).

Tracks are lists with slot 0 the lowest card; decks are lists with the top card at the end.
"""

from __future__ import annotations

from . import events as E
from .components import END_OF_PHASE


def end_of_phase_drawn(state, drawer: int, in_turn: bool) -> None:
    """An End of Phase card came onto the contract track, drawn by ``drawer``.

    ``in_turn``: drawn during the drawer's own turn (step G), so the final round starts after it.
    A card drawn while a final round is already running (possible only if a whole contract set
    is drawn within one round) takes effect when the next phase begins.
    """
    if state.final_left >= 0:
        state.eop_pending += 1
        if state.log is not None:
            state.log.append((E.END_OF_PHASE_AGAIN, E.PUBLIC, drawer))
        return
    state.eop_holder = drawer
    state.final_left = state.n + (1 if in_turn else 0)
    if state.log is not None:
        state.log.append((E.END_OF_PHASE_DRAWN, E.PUBLIC, drawer))


def draw_contract(state, drawer: int, in_turn: bool) -> None:
    """Draw the top contract onto the track; an End of Phase card goes to ``drawer`` instead.

    ("Ending Phase A": the player that drew the End of Phase card places it in front of him, then
    draws a new contract to replace it.)
    """
    while state.contract_deck:
        card = state.contract_deck.pop()
        state.reveals += 1
        state.last_reveal = ("card", "")
        if card == END_OF_PHASE:
            end_of_phase_drawn(state, drawer, in_turn)
            continue
        state.contract_track.append(card)
        if state.log is not None:
            state.log.append((E.CONTRACT_DRAWN, E.PUBLIC, card))
        return


def fill_contract_track(state, drawer: int, in_turn: bool) -> None:
    """Slide the contracts down over gaps and draw from the deck until the track is full."""
    track = state.contract_track
    if None in track:  # slid down (a full track without gaps is left as it is: issue 34)
        track = state.contract_track = [c for c in track if c is not None]
    size = state.comp.box["contract_track"]
    while len(track) < size and state.contract_deck:
        draw_contract(state, drawer, in_turn)  # onto this list, state.contract_track


def fill_improvement_track(state) -> None:
    """Slide the improvements down and refill; a duplicate of a card on the track goes face down
    to the bottom of the deck and another card is drawn (there may never be duplicates)."""
    track = state.improvement_track
    if None in track:  # slid down (a full track without gaps is left as it is: issue 34)
        track = state.improvement_track = [c for c in track if c is not None]
    size = state.comp.box["improvement_track"]
    deck = state.improvement_deck
    tries = 0
    while len(track) < size and deck and tries <= len(deck):
        card = deck.pop()
        state.reveals += 1
        state.last_reveal = ("card", card)
        if card in track:
            deck.insert(0, card)
            if state.log is not None:
                state.log.append((E.IMPROVEMENT_DUPLICATE, E.PUBLIC, card))
            tries += 1
            continue
        tries = 0
        track.append(card)
        if state.log is not None:
            state.log.append((E.IMPROVEMENT_DRAWN, E.PUBLIC, card))


def refill_tracks(state, drawer: int, in_turn: bool = True) -> None:
    """G: refill both tracks (each fill left out where it would change nothing: no gap, and the
    track full or its deck empty; issue 34)."""
    box = state.comp.box
    track = state.contract_track
    if None in track or (len(track) < box["contract_track"] and state.contract_deck):
        fill_contract_track(state, drawer, in_turn)
    track = state.improvement_track
    if None in track or (len(track) < box["improvement_track"] and state.improvement_deck):
        fill_improvement_track(state)
