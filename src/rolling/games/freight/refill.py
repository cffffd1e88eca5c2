"""G. Refilling the contract track and the improvement track (also used by setup, draft and phases).

Tracks are lists with slot 0 the lowest card; decks are lists with the top card at the end.
"""

from __future__ import annotations

from . import events as E
from .components import END_OF_PHASE


def draw_contract(state, drawer: int, in_turn: bool) -> None:
    """Draw the top contract onto the track; an End of Phase card goes to ``drawer`` instead.

    ("Ending Phase A": the player that drew the End of Phase card places it in front of him, then
    draws a new contract to replace it.)
    """
    from . import phases

    while state.contract_deck:
        card = state.contract_deck.pop()
        state.reveals += 1
        state.last_reveal = ("card", "")
        if card == END_OF_PHASE:
            phases.end_of_phase_drawn(state, drawer, in_turn)
            continue
        state.contract_track.append(card)
        if state.log is not None:
            state.log.append((E.CONTRACT_DRAWN, E.PUBLIC, card))
        return


def fill_contract_track(state, drawer: int, in_turn: bool) -> None:
    """Slide the contracts down over gaps and draw from the deck until the track is full."""
    state.contract_track = [c for c in state.contract_track if c is not None]
    size = state.comp.box["contract_track"]
    while len(state.contract_track) < size and state.contract_deck:
        draw_contract(state, drawer, in_turn)


def fill_improvement_track(state) -> None:
    """Slide the improvements down and refill; a duplicate of a card on the track goes face down
    to the bottom of the deck and another card is drawn (there may never be duplicates)."""
    state.improvement_track = [c for c in state.improvement_track if c is not None]
    size = state.comp.box["improvement_track"]
    deck = state.improvement_deck
    tries = 0
    while len(state.improvement_track) < size and deck and tries <= len(deck):
        card = deck.pop()
        state.reveals += 1
        state.last_reveal = ("card", card)
        if card in state.improvement_track:
            deck.insert(0, card)
            if state.log is not None:
                state.log.append((E.IMPROVEMENT_DUPLICATE, E.PUBLIC, card))
            tries += 1
            continue
        tries = 0
        state.improvement_track.append(card)
        if state.log is not None:
            state.log.append((E.IMPROVEMENT_DRAWN, E.PUBLIC, card))


def refill_tracks(state, drawer: int, in_turn: bool = True) -> None:
    """G: refill both tracks."""
    fill_contract_track(state, drawer, in_turn)
    fill_improvement_track(state)
