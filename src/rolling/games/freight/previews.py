"""What a move would do, in numbers, before it is made (Rolling Freight): for every screen
(terminal, web) and for bots that explain their moves.

Each preview takes the move as the player would make it (a :mod:`.actions` action) and computes
with the rule modules' own functions, without changing the state: the numbers are those the
engine would produce. Costs are in dice (any-colour dice, the rules' ◇, plus a die of a colour
where one is asked); earnings are $ of stock; a payment is a tuple of tokens (``("d", i)`` die
``i``, ``("m", k)`` a marker of colour ``COLOURS[k]``, see :mod:`.payment`), ``None`` when the
player cannot pay.

- :func:`contract` (A: Taking on Contracts), :func:`improvement` (E), :func:`station` (D): what
  taking the card or building the station costs;
- :func:`build` (B: Constructing Links): the cubes a build adds, with what, and what completing
  the contract scores;
- :func:`route` (C: Establishing Major Routes): the dice, and the $ it pays to each owner, the
  distance bonus and the bonus dice;
- :func:`stockpile` (F): the markers ending the turn takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rolling.core.errors import IllegalAction

from .actions import Build, BuildStation, BuyImprovement, EndTurn, EstablishRoute, TakeContract
from .construction import contract_score, plan_build
from .contracts import contract_cost
from .improvements import held, improvement_cost
from .payment import bonus_faces, check_purchase, parse_pay
from .payways import best_payment
from .routes import check_route, distance_bonus, payouts, route_payment, route_price
from .stations import station_cost
from .stockpile import gains, parse_store


def _payment(state, a, colour, dice: int, purpose: str, take=None) -> tuple | None:
    """The tokens the move pays with: its ``pay`` if it names one (``None`` if that payment is
    not valid), else the engine's best (:func:`.payways.best_payment`)."""
    if a.pay.strip():
        p = state.players[a.seat]
        try:
            tokens = parse_pay(a.pay, p, "preview")
            check_purchase(p, tokens, colour, dice, purpose, "preview")
        except IllegalAction:
            return None
        return tuple(tokens)
    pay = best_payment(state, a.seat, colour, dice, purpose, take=take)
    return None if pay is None else tuple(pay)


@dataclass(frozen=True, slots=True)
class Cost:
    """What taking a contract or an improvement, or building a station, costs.

    Attributes:
        colour: the one die of a colour a contract asks for (``"ocean"``: a die showing two
            colours, for a Slash contract); ``None`` for an improvement or a station.
        dice: any-colour dice besides it (the printed cost, one fewer with Acquisition Expert).
        pay: the tokens the move pays with (its ``pay``, or the engine's best when empty), or
            ``None`` if the player cannot pay (or the named payment is not valid).
    """

    colour: str | None
    dice: int
    pay: tuple | None


def contract(state, a: TakeContract) -> Cost:
    """A: Taking on Contracts: the contract in slot ``a.slot`` costs one die of its colour (a split
    die for Slash) and its printed cost in any dice, one fewer with Acquisition Expert.

    Raises:
        IndexError: no contract in that slot.
    """
    card = state.contract_track[a.slot]
    if card is None:
        raise IndexError(f"no contract in slot {a.slot}")
    link = state.map.links[card]
    dice = contract_cost(state, a.seat, link)
    return Cost(link.colour, dice, _payment(state, a, link.colour, dice, "contract", link))


@dataclass(frozen=True, slots=True)
class ImprovementCost:
    """What buying an improvement costs (E. Purchasing Improvements).

    Attributes:
        name: the improvement.
        cost: its :class:`Cost` in any dice.
        returned: the improvement going back to the bottom of the deck (a fourth one taken), or None.
    """

    name: str
    cost: Cost
    returned: str | None


def improvement(state, a: BuyImprovement) -> ImprovementCost:
    """E. Purchasing Improvements: the improvement in slot ``a.slot`` costs its printed dice (one
    fewer with Acquisition Expert); taking a fourth returns the one ``a.discard`` names.

    Raises:
        IndexError: no improvement in that slot.
    """
    name = state.improvement_track[a.slot]
    if name is None:
        raise IndexError(f"no improvement in slot {a.slot}")
    dice = improvement_cost(state, a.seat, name)
    returned = (held(state, a.seat) + [name])[a.discard] if a.discard >= 0 else None
    return ImprovementCost(name, Cost(None, dice, _payment(state, a, None, dice, "improvement")), returned)


def station(state, a: BuildStation) -> Cost | None:
    """D: Building Switching Stations: the next station on the mat costs the dice printed on its
    space (one fewer with Acquisition Expert); ``None`` when the mat is full."""
    dice = station_cost(state, a.seat)
    if dice is None:
        return None
    return Cost(None, dice, _payment(state, a, None, dice, "station"))


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What a build does (B: Constructing Links).

    Attributes:
        link: the link's index.
        pay: the tokens spent.
        cubes: cubes it adds.
        filled: cubes on the link afterwards, of ``length`` squares.
        length: the link's length.
        score: $ of stock for completing the contract (0 if it stays unfinished): the table by
            length and contracts in progress, the completed one included.
    """

    link: int
    pay: tuple
    cubes: int
    filled: int
    length: int
    score: int


def build(state, a: Build) -> BuildResult:
    """B: Constructing Links: the cubes ``a`` adds (each die showing the link's colour adds one,
    the cubes symbol one or two), and the contract's score if the last square fills.

    Raises:
        IllegalAction: the build is not legal (as :func:`.construction.build` says).
    """
    link, tokens, added = plan_build(state, a)
    filled = state.cubes[link.index] + added
    score = 0
    if filled >= link.length:
        score = contract_score(state.comp, link.length, len(state.players[a.seat].contracts))
    return BuildResult(link.index, tuple(tokens), added, filled, link.length, score)


@dataclass(frozen=True, slots=True)
class RouteResult:
    """What a major route costs and pays (C: Establishing Major Routes, D: stations).

    Attributes:
        seat: the player establishing it.
        links: links in the route.
        base: dice before stations: one per link of your own, two per other player's link (one if
            its owner has Friendly).
        stations: dice your switching stations take off (down to one die to pay).
        dice: dice to pay, ``base - stations``.
        pay: the tokens paying it (``a.pay`` if given, else the engine's choice), or ``None`` if
            that payment is not valid or the player cannot pay.
        payouts: ``(seat, links used, $)`` per owner in seat order: $1 per link, a Friendly
            owner $1 more when another player uses its links.
        distance_bonus: $ for the cargo's speed and the route's length (Distance Bonuses table).
        dice_bonus: $2 per bonus symbol in the payment.
    """

    seat: int
    links: int
    base: int
    stations: int
    dice: int
    pay: tuple | None
    payouts: tuple[tuple[int, int, int], ...]
    distance_bonus: int
    dice_bonus: int

    def earns(self, seat: int) -> int:
        """$ of stock ``seat`` earns from the route: its links, and the bonuses if it is the mover's."""
        bonuses = self.distance_bonus + self.dice_bonus if seat == self.seat else 0
        return bonuses + sum(amount for owner, _, amount in self.payouts if owner == seat)


def route(state, a: EstablishRoute) -> RouteResult:
    """C: Establishing Major Routes: what route ``a`` costs in dice and pays, to whom. The
    bonuses (distance, bonus dice) go to ``a.seat`` on top of its links' $.

    Raises:
        IllegalAction: the route itself is not legal (cargo, demand, path); a payment the player
            cannot make gives ``pay=None`` instead.
    """
    _, _, _, path, base = check_route(state, a)
    dice, used = route_price(state, a.seat, base)
    try:
        pay = tuple(route_payment(state, a, dice))
    except IllegalAction:
        pay = None
    bonus = 2 * bonus_faces(state.players[a.seat], pay) if pay else 0
    return RouteResult(a.seat, len(path), base, used, dice, pay, tuple(payouts(state, a.seat, path)),
                       distance_bonus(state.comp, a.colour, len(path)), bonus)


def stockpile(state, a: EndTurn) -> tuple[int, ...]:
    """F. Stockpiling Resources: the markers per colour (blue, gray, red, yellow) ending the turn
    takes: one fewer than the dice left of each colour (one per die with Efficient Storage), no
    more than the supply holds.

    Raises:
        IllegalAction: a ``store`` string that does not fit the split dice.
    """
    return tuple(gains(state, a.seat, parse_store(state, a.seat, a.store)))
