"""D: Building switching stations.

Each station costs the any-colour dice of the next space on the mat (``stations.costs`` in the
data; one fewer with Acquisition Expert) and discounts major routes by one die, to a minimum of
one, from the turn it is built.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import events as E
from .actions import BuildStation
from .payment import _c_station_cost, check_purchase, parse_pay, spend
from .payways import best_payment

RULE = "D: Building Switching Stations"


def station_cost(state, seat: int) -> int | None:
    """Any-colour dice for the seat's next station, or ``None`` when the mat is full. Read by the
    C part ``_listing`` where it is built (-1 for the full mat), by :func:`_station_cost_py`, the
    reference, where not or where it answers None."""
    if _c_station_cost is not None:
        cost = _c_station_cost(state, seat)
        if cost is not None:
            return cost if cost >= 0 else None
    return _station_cost_py(state, seat)


def _station_cost_py(state, seat: int) -> int | None:
    """:func:`station_cost` in Python."""
    p = state.players[seat]
    costs = state.comp.station_costs
    if p.stations >= len(costs):
        return None
    return max(0, costs[p.stations] - p.improvements.count("Acquisition Expert"))  # p.has, no method call


def build_station(state, a: BuildStation) -> None:
    """Build a switching station.

    Raises:
        IllegalAction: the mat's station spaces are full, or the payment is wrong.
    """
    cost = station_cost(state, a.seat)
    if cost is None:
        raise IllegalAction(RULE, "you have built every switching station your mat holds")
    p = state.players[a.seat]
    if a.pay.strip():
        tokens = parse_pay(a.pay, p, RULE)
        check_purchase(p, tokens, None, cost, "station", RULE)
    else:
        tokens = best_payment(state, a.seat, None, cost, "station")
        if tokens is None:
            raise IllegalAction(RULE, f"a switching station costs {cost} dice; you cannot pay them")
    spend(state, a.seat, tokens)
    p.stations += 1
    if state.log is not None:
        state.log.append((E.STATION, E.PUBLIC, a.seat, p.stations, tuple(tokens)))
