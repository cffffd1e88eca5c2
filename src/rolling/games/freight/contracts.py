"""A: Taking on contracts.

Pay the contract's cost in any-colour dice and one die of its colour (a split die for an ocean
"Slash" contract); the card goes to your mat and one of your cubes onto its link. At most three
contracts at a time. Gaps on the contract track stay until step G.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import events as E
from .actions import TakeContract
from .construction import cubes_left
from .payment import check_purchase, parse_pay, spend
from .payways import best_payment

RULE = "A: Taking on Contracts"


def contract_cost(state, seat: int, link, cut: int | None = None) -> int:
    """Any-colour dice to take ``link``'s contract: its printed cost, one fewer with Acquisition
    Expert. ``cut``: :func:`cost_cut` of the seat, when the caller prices several contracts."""
    if cut is None:
        cut = cost_cut(state.players[seat])
    return max(0, link.cost - cut)


def cost_cut(player) -> int:
    """How many dice fewer each contract costs ``player``: one per Acquisition Expert in effect."""
    return player.has("Acquisition Expert")


def can_start(state, seat: int) -> str | None:
    """Why the seat may not take another contract now, or ``None``."""
    p = state.players[seat]
    box = state.comp.box
    held = len(p.contracts)
    if held >= box["max_contracts"]:
        return f"you already have {box['max_contracts']} contracts; complete one first"
    if p.links_owned + held >= box["sticks_per_player"]:
        return "you have no rail link sticks left"
    if cubes_left(state, seat) <= 0:
        return "you have no construction cubes left"
    return None


def take_contract(state, a: TakeContract) -> None:
    """Take the contract in ``a.slot``.

    Raises:
        IllegalAction: no card there, three contracts already, no cube or stick left, or a
            payment that is not one die of the colour plus the cost.
    """
    seat = a.seat
    slot = a.slot
    track = state.contract_track
    if not 0 <= slot < len(track) or track[slot] is None:
        raise IllegalAction(RULE, f"there is no contract in slot {slot} of the track")
    why = can_start(state, seat)
    if why:
        raise IllegalAction(RULE, why)
    card = track[slot]
    link = state.map.links[card]
    cost = contract_cost(state, seat, link)
    p = state.players[seat]
    pay = a.pay
    if pay.strip():
        tokens = parse_pay(pay, p, RULE)
        check_purchase(p, tokens, link.colour, cost, "contract", RULE)
    else:
        tokens = best_payment(state, seat, link.colour, cost, "contract", take=link)
        if tokens is None:
            raise IllegalAction(RULE, f"you cannot pay for {link.label}: one {link.colour} die and {cost} more")
    if state.log is not None:
        state.log.append((E.TAKE_CONTRACT, E.PUBLIC, seat, card, tuple(tokens)))
    spend(state, seat, tokens)
    track[slot] = None
    p.contracts.append(card)
    state.holder[card] = seat
    state.cubes[card] = 1
