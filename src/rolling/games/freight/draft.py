"""Beginning the Game: the opening draft.

Dice are rolled before the draft. Starting with the player to the right of the start player and
going counter-clockwise, each player takes one contract or one improvement, free; then a second
round in the same order, each taking the kind not chosen the first time. The start player drafts
last and then takes the first turn. A drafted contract gets one of the player's cubes at once; a
drafted improvement die is rolled at once and added to the player's dice. The tracks refill after
every pick.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import events as E
from .actions import DraftContract, DraftImprovement, DraftPass
from .dice import add_die
from .refill import fill_contract_track, fill_improvement_track
from .turn import start_turn

RULE = "Beginning the Game"


def kind_allowed(state, seat: int) -> tuple[bool, bool]:
    """Whether the seat may draft (a contract, an improvement) at this pick."""
    first = state.players[seat].draft_kind
    return first != "contract", first != "improvement"


def legal(state, seat: int) -> list:
    """The draft picks open to ``seat``."""
    c_ok, i_ok = kind_allowed(state, seat)
    out = []
    if c_ok:
        out += [DraftContract(seat, i) for i, c in enumerate(state.contract_track) if c is not None]
    if i_ok:
        out += [DraftImprovement(seat, i) for i, c in enumerate(state.improvement_track) if c is not None]
    if not out:
        out.append(DraftPass(seat))
    return out


def _next_pick(state) -> None:
    state.draft_pos += 1
    if state.draft_pos >= len(state.draft_order):
        state.stage = "turn"
        state.current = state.draft_order[-1]
        start_turn(state)


def draft_contract(state, a: DraftContract) -> None:
    """Take a contract in the draft: place one cube on its link, refill the contract track."""
    c_ok, _ = kind_allowed(state, a.seat)
    if not c_ok:
        raise IllegalAction(RULE, "your second draft pick must be the kind not chosen the first time: an improvement")
    if not 0 <= a.slot < len(state.contract_track) or state.contract_track[a.slot] is None:
        raise IllegalAction(RULE, f"there is no contract in slot {a.slot}")
    card = state.contract_track[a.slot]
    p = state.players[a.seat]
    state.contract_track[a.slot] = None
    p.contracts.append(card)
    state.holder[card] = a.seat
    state.cubes[card] = 1
    if not p.draft_kind:
        p.draft_kind = "contract"
    if state.log is not None:
        state.log.append((E.DRAFT_CONTRACT, E.PUBLIC, a.seat, card))
    fill_contract_track(state, a.seat, False)
    _next_pick(state)


def draft_improvement(state, a: DraftImprovement) -> None:
    """Take an improvement in the draft: in effect at once; a new die is rolled at once."""
    _, i_ok = kind_allowed(state, a.seat)
    if not i_ok:
        raise IllegalAction(RULE, "your second draft pick must be the kind not chosen the first time: a contract")
    if not 0 <= a.slot < len(state.improvement_track) or state.improvement_track[a.slot] is None:
        raise IllegalAction(RULE, f"there is no improvement in slot {a.slot}")
    name = state.improvement_track[a.slot]
    p = state.players[a.seat]
    state.improvement_track[a.slot] = None
    p.improvements.append(name)
    if not p.draft_kind:
        p.draft_kind = "improvement"
    die = state.comp.improvements[name].die
    if die:
        add_die(state, a.seat, die)
    if state.log is not None:
        state.log.append((E.DRAFT_DIE, E.PUBLIC, a.seat, name, p.dice[-1]) if die
                         else (E.DRAFT_IMPROVEMENT, E.PUBLIC, a.seat, name))
    fill_improvement_track(state)
    _next_pick(state)


def draft_pass(state, a: DraftPass) -> None:
    """Pass a draft pick: only when no card of an allowed kind is on its track."""
    if any(not isinstance(x, DraftPass) for x in legal(state, a.seat)):
        raise IllegalAction(RULE, "you may pass only when there is nothing you may draft")
    if state.log is not None:
        state.log.append((E.DRAFT_PASS, E.PUBLIC, a.seat))
    _next_pick(state)
