"""The actions of Rolling Freight, one frozen record per kind of decision.

Payments (``pay``) name what is spent, separated by spaces or commas: a die by its index in the
player's dice (``"0 3"``), a stockpile marker by its colour (``"blue"``). An empty ``pay`` lets
the engine choose its best payment (by the order of what is kept, :mod:`.payways`);
``legal_actions`` lists each contract, route, station and improvement with ``pay=""`` first and
then with each other payment on the order's Pareto front (issue 28 item 5).
"""

from __future__ import annotations

from dataclasses import dataclass

from rolling.core.action import Action, action_type, json_reader

#: action type name -> class
REGISTRY: dict[str, type] = {}


@action_type(REGISTRY, "draft_contract")
@dataclass(frozen=True, slots=True)
class DraftContract(Action):
    """Opening draft: take the contract in ``slot`` (0 = lowest) of the contract track, free."""

    seat: int
    slot: int


@action_type(REGISTRY, "draft_improvement")
@dataclass(frozen=True, slots=True)
class DraftImprovement(Action):
    """Opening draft: take the improvement in ``slot`` (0 = lowest) of the improvement track, free."""

    seat: int
    slot: int


@action_type(REGISTRY, "draft_pass")
@dataclass(frozen=True, slots=True)
class DraftPass(Action):
    """Opening draft: pass, allowed only when no card of the kind one must draft is on its track."""

    seat: int


@action_type(REGISTRY, "take_contract")
@dataclass(frozen=True, slots=True)
class TakeContract(Action):
    """A: take on the contract in ``slot`` of the contract track, paying its cost plus one die of its colour."""

    seat: int
    slot: int
    pay: str = ""


@action_type(REGISTRY, "build")
@dataclass(frozen=True, slots=True)
class Build(Action):
    """B: spend dice or markers to add cubes to your contract on link ``link`` (its printed id).

    ``cubes`` is how many cubes to add; 0 adds as many as the payment can. It matters for the
    *cubes* symbol, which adds one or two cubes at the player's choice ("The Improvement Dice"):
    a payment of ``k`` dice or markers and ``j`` cubes symbols adds ``k + j`` to ``k + 2j`` cubes.
    """

    seat: int
    link: int
    pay: str = ""
    cubes: int = 0


@action_type(REGISTRY, "steady_build")
@dataclass(frozen=True, slots=True)
class SteadyBuild(Action):
    """Steady Builder: add one free cube to your contract on link ``link`` (once per turn per card)."""

    seat: int
    link: int


@action_type(REGISTRY, "route")
@dataclass(frozen=True, slots=True)
class EstablishRoute(Action):
    """C: deliver a ``colour`` cargo marker from city ``origin`` to city ``dest`` along ``path``.

    ``path`` lists the printed link ids in order from the origin, e.g. ``"31,24,27"``.
    """

    seat: int
    origin: str
    colour: str
    dest: str
    path: str
    pay: str = ""


@action_type(REGISTRY, "station")
@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """D: build a switching station."""

    seat: int
    pay: str = ""


@action_type(REGISTRY, "improvement")
@dataclass(frozen=True, slots=True)
class BuyImprovement(Action):
    """E: buy the improvement in ``slot``; ``discard`` is required when you would hold four.

    ``discard`` indexes the list of your held improvements with the new one appended (-1: none).
    """

    seat: int
    slot: int
    discard: int = -1
    pay: str = ""


@action_type(REGISTRY, "end_turn")
@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn: F stockpile, G refill the tracks, H roll.

    ``store`` gives, for each unspent split die in die order, the colour it stockpiles as
    (comma separated); empty lets the engine choose the most markers.
    """

    seat: int
    store: str = ""


#: ``freight_action_from_json(data)``: build a Rolling Freight action from its JSON form (raises
#: ``RecordError``; see :func:`rolling.core.action.json_reader`)
freight_action_from_json = json_reader(REGISTRY)
