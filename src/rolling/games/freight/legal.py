"""Which moves are open now, and the dispatch of an action to the rule that applies it.

The top of the package's import tree (docs/freight-components.md, "Layers"): it binds the state's
rule methods (``FreightState.apply``, ``legal_actions``, ``enable_log``, ``log_lines``)."""

from __future__ import annotations

import dataclasses

from rolling.core import rng as _rng_module
from rolling.core.action import check_fields, field_kinds
from rolling.core.errors import IllegalAction
from rolling.core.rng import Rng

from . import construction, contracts, draft, improvements, routes, stations, stockpile, turn
from .actions import (
    Build,
    BuildStation,
    BuyImprovement,
    DraftContract,
    DraftImprovement,
    DraftPass,
    EndTurn,
    EstablishRoute,
    SteadyBuild,
    TakeContract,
)
from .components import OCEAN
from .construction import cubes_left
from .contracts import can_start, contract_cost, cost_cut
from .events import lines
from .improvements import affordable
from .payment import (
    _BUILD_RANKS,
    _PAY_MASK,
    BUILD_COLUMNS,
    _c_build_moves,
    _c_prices,
    _c_record,
    _c_takeable,
    build_dice,
    colour_payers,
    generic_budget,
    learn_pay_masks,
    pay_text,
)
from .payways import SeatPayments, best_payment, classes, payment_front, payments, tokens_of
from .setup import enable_log
from .state import FreightState
from .stations import station_cost
from .stockpile import options

_DRAFT = {DraftContract: draft.draft_contract, DraftImprovement: draft.draft_improvement, DraftPass: draft.draft_pass}
_TURN = {
    TakeContract: contracts.take_contract,
    Build: construction.build,
    SteadyBuild: construction.steady_build,
    EstablishRoute: routes.establish,
    BuildStation: stations.build_station,
    BuyImprovement: improvements.buy,
    EndTurn: turn.end_turn,
}
#: each move class's ``(field, kind)`` pairs of :func:`rolling.core.action.field_kinds`, taken once:
#: apply makes :func:`rolling.core.action.exact_check`'s quick test (each int, bool and str field
#: exactly of its kind) itself, a compiled loop without a Python call (issue 34)
_EXACT = {cls: tuple([(name, kind) for name, kind, _ in field_kinds(cls)]) for cls in (*_DRAFT, *_TURN)}


def _plain_record(cls) -> bool:
    """Whether ``cls(*values)`` (every field given, in order) is a frozen, slotted dataclass whose
    generated ``__init__`` only sets its fields in the order of its own ``__slots__``: what the C
    part ``_listing.record`` makes without calling it."""
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:
        return False
    fields = dataclasses.fields(cls)
    return (tuple(f.name for f in fields) == cls.__dict__.get("__slots__")
            and all(f.init for f in fields) and not hasattr(cls, "__post_init__")
            and cls.__init__.__code__.co_argcount == len(fields) + 1)


def _py_record(cls, *values):
    """``cls(*values)``: :func:`_record` where the C part is not built."""
    return cls(*values)


#: ``_record(cls, *values)`` is ``cls(*values)`` for a move class of a turn, every field given:
#: made by the C part ``_listing.record`` (a fifth of the dataclass ``__init__``'s cost) where it
#: is built and every such class is a plain record (:func:`_plain_record`), else by the class
_TURN_MOVES = (TakeContract, Build, SteadyBuild, EstablishRoute, BuildStation, BuyImprovement, EndTurn)
_record = (_c_record if _c_record is not None and all(_plain_record(cls) for cls in _TURN_MOVES)
           else _py_record)


def dispatch(state, action) -> None:
    """Apply ``action`` through its rule; every rule checks everything before changing anything."""
    table = _DRAFT if state.stage == "draft" else _TURN
    fn = table.get(type(action))
    if fn is None:
        where = "the opening draft" if state.stage == "draft" else "a turn"
        raise IllegalAction("On Your Turn" if state.stage != "draft" else draft.RULE,
                            f"{type(action).__name__} is not a move during {where}")
    fn(state, action)


def apply(state, action) -> None:
    """Apply a legal action and every automatic step after it; also the method
    ``FreightState.apply(action)``.

    Raises:
        IllegalAction: naming the rule section broken; the state is then unchanged.
    """
    stage = state.stage
    if stage == "over":
        raise IllegalAction("Winning", "the game is over")
    # whole numbers for seats, slots, links, cubes and dice: check_fields, whose first test (all
    # exact) is done here for this game's moves; anything else takes check_fields' whole way
    # (the tables read by subscript, not .get: compiled, a method call each; issue 34)
    cls = type(action)
    try:
        exact = _EXACT[cls]
    except KeyError:
        check_fields(action, "Actions")
    else:
        for name, kind in exact:  # exact_check(cls)(action), written out
            if type(getattr(action, name)) is not kind:
                check_fields(action, "Actions")
                break
    seat = getattr(action, "seat", None)
    # seat in state.to_act, the property written out (one seat acts at a time: issue 34)
    if stage == "draft":
        if seat != state.draft_order[state.draft_pos]:
            raise IllegalAction("On Your Turn", f"seat {seat} may not act now (to act: {list(state.to_act)})")
        table = _DRAFT
    else:
        if seat != state.current:
            raise IllegalAction("On Your Turn", f"seat {seat} may not act now (to act: {list(state.to_act)})")
        table = _TURN
    try:
        fn = table[cls]
    except KeyError:  # dispatch's refusal
        dispatch(state, action)
        return
    fn(state, action)


def legal_actions(state, seat: int) -> list:
    """Every move of ``seat`` now; also the method ``FreightState.legal_actions(seat)``. In a turn,
    those of :func:`take_moves`, :func:`build_moves`, :func:`route_moves`, :func:`station_moves`,
    :func:`improvement_moves` and :func:`end_turn_moves`, in that order.

    A contract, route, station or improvement is listed once with ``pay=""`` (the engine's best
    payment, :func:`.payways.best_payment`) and then once with each other distinct payment of
    :func:`.payways.payments`, named explicitly (issue 28 item 5). Major routes are listed once per
    distinct outcome (cargo marker, destination, links paid to each owner), of any length (see
    :func:`.routes.enumerate_routes`); any other valid path or payment is accepted by :func:`apply`.
    """
    if seat not in state.to_act:
        return []
    if state.stage == "draft":
        return draft.legal(state, seat)
    moves, ends = turn_listing(state, seat)
    return moves + [EndTurn(seat, store) for store, _g in ends]


def turn_listing(state, seat: int) -> tuple[list, tuple]:
    """:func:`legal_actions` of ``seat`` in a turn as ``(the moves before ending the turn, the
    stockpile options)``: the EndTurn moves are ``EndTurn(seat, store)`` for each ``(store,
    markers per colour)`` of :func:`.stockpile.options`, in that order (the research codec reads
    the markers from them instead of working each store out again). Assumes ``seat`` is to act."""
    # Whether a price can be paid at all, without building each payment: "any" dice count alike for
    # contracts, improvements and stations, and every token that pays a colour is worth one.
    budget = generic_budget(state.players[seat], "contract")
    return (take_moves(state, seat, budget) + build_moves(state, seat) + route_moves(state, seat)
            + station_moves(state, seat, budget) + improvement_moves(state, seat, budget),
            stockpile.options(state, seat))


# The parts of a turn's legal_actions, for a caller (a bot) that needs only some kinds of move;
# each assumes ``seat`` is to act in a turn. ``budget``: generic_budget(player, "contract").
# ``alternatives=False`` lists each move once, with the engine's payment only.


def pay_alternatives(state, seat: int, colour, generic: int, purpose: str, second: bool = False,
                     take=None, cache: dict | None = None, also: tuple = ()) -> list[str]:
    """The ``pay`` strings of the moves to list for one price: ``""`` (the engine's best) first,
    then every other distinct payment of :func:`.payways.payments`; ``[]`` when unaffordable. In a
    game with ``payment: "legacy"`` (:class:`.state.Config`), ``""`` is the old chooser's payment
    and each payment of the front that keeps something else is named.
    ``cache`` (a dict) shares the answer between prices alike within one listing; ``also``: the
    other prices of the listing (see :func:`.payways.payments`)."""
    key = (colour, generic, purpose, second, None if take is None else take.index)
    if cache is not None and key in cache:
        return cache[key]
    if state.config.payment != "legacy":
        front, toks = payment_front(state, seat, colour, generic, purpose, second, take, also)
        out = [""] + [pay_text(tokens_of(s, toks)) for s in front[1:]] if front else []
    else:
        out = _legacy_alternatives(state, seat, colour, generic, purpose, second, take, also)
    if cache is not None:
        cache[key] = out
    return out


def _legacy_alternatives(state, seat: int, colour, generic: int, purpose: str, second: bool, take,
                         also: tuple) -> list[str]:
    """:func:`pay_alternatives` in a game played before issue 28 item 5 (``payment: "legacy"``):
    ``""`` pays its old way, and each payment of the front that spends other tokens than that one
    is listed by name."""
    ways = payments(state, seat, colour, generic, purpose, second, take, also)
    if not ways:
        return []
    p = state.players[seat]
    old = best_payment(state, seat, colour, generic, purpose, second, take)
    mine = None if old is None else _kept_as(p, old)
    return ([""] if old is not None else []) + [pay_text(w) for w in ways if _kept_as(p, w) != mine]


def _kept_as(player, tokens) -> list:
    """What a payment spends, by token class (:func:`.payways.classes`): two payments spending
    the same classes keep the same."""
    keys, toks = classes(player)
    of = {t: j for j, group in enumerate(toks) for t in group}
    return sorted(of[t] for t in tokens)


def take_moves(state, seat: int, budget: int | None = None, alternatives: bool = True) -> list:
    """The TakeContract moves of ``seat`` (A), each payment as a move (see :func:`legal_actions`)."""
    if budget is None:
        budget = generic_budget(state.players[seat], "contract")
    out: list = []
    for slot, link, cost in takeable(state, seat, budget):
        if not alternatives:
            out.append(TakeContract(seat, slot))
            continue
        out += [TakeContract(seat, slot, pay)
                for pay in pay_alternatives(state, seat, link.colour, cost, "contract", take=link)]
    return out


def takeable(state, seat: int, budget: int) -> list[tuple]:
    """``(slot, link, cost)`` of each contract on the track that ``seat`` may take with ``budget``
    dice pips, in track order: the seat may start a contract, has a die of the link's colour, and
    keeps a pip over the contract's cost (A). The one rule for :func:`take_moves` and
    :func:`random_move`. Read by the C part ``_listing`` where it is built (a face first met
    put in :data:`.payment._PAY_MASK` first), by :func:`_takeable_py`, the reference, where not
    or where it answers None."""
    if _c_takeable is not None:
        got = _c_takeable(state, seat, budget, BUILD_COLUMNS, _PAY_MASK)
        if got is not None:
            return got
        learn_pay_masks(state.players[seat])
        got = _c_takeable(state, seat, budget, BUILD_COLUMNS, _PAY_MASK)
        if got is not None:
            return got
    return _takeable_py(state, seat, budget)


def _takeable_py(state, seat: int, budget: int) -> list[tuple]:
    """:func:`takeable` in Python."""
    if budget < 1 or can_start(state, seat) is not None:
        return []  # no die or marker left (the cheaper test first), or no contract may start
    out = []
    links = state.map.links
    p = state.players[seat]
    colours = colour_payers(p)
    cut = cost_cut(p)
    for slot, card in enumerate(state.contract_track):
        if card is None:
            continue
        link = links[card]
        if link.colour not in colours:
            continue
        cost = contract_cost(state, seat, link, cut)
        if cost <= budget - 1:
            out.append((slot, link, cost))
    return out


# The construction moves, kept once made: the same few recur listing after listing, and an action
# is a frozen record, so one made earlier is the very move (a cached record costs a fifth of a new
# one). By seat, link id and link colour (:func:`_made_key`), a list: the engine's build, the
# Steady Builder's cube, the marker's build, then at 3 + 3 * die + cubes the build paying with
# that die (cubes 0, or 1 or 2 for the cubes symbol), or None until first listed: one dict look-up
# per contract and a list index per move (the colour names the marker, and a link id has another
# colour on the other map). Bounded: link ids are the maps' (at most 62), a player has at most 14
# dice (6 basic, 8 specialty), so at most 5 seats x 2 x 62 links x 45 moves, about 28,000.
_made: dict[int | tuple[int, int, int], list] = {}


def _made_key(seat: int, lid: int, column: int) -> int | tuple[int, int, int]:
    """The key in ``_made`` of the contract of ``seat`` on link ``lid`` of colour column
    ``column`` (:data:`.payment.BUILD_COLUMNS`, 0-4): an int, as the C part ``_listing`` works
    it out, where the seat and the link id are in range (``(seat, lid, column)`` else)."""
    if 0 <= seat < 8 and 0 <= lid < 1099511627776:
        return (lid * 8 + column) * 8 + seat
    return (seat, lid, column)


def _made_for(key, seat: int, lid: int, colour: str) -> list:
    """A new entry of ``_made`` under ``key``: the moves of the contract on link ``lid`` that
    need no die."""
    marker = None if colour == OCEAN else _record(Build, seat, lid, colour, 0)  # a marker named by its colour
    made = _made[key] = [_record(Build, seat, lid, "", 0), _record(SteadyBuild, seat, lid), marker]
    return made


def _die_build(made: list, seat: int, lid: int, die: int, cubes: int) -> Build:
    """The kept ``Build(seat, lid, <die>, cubes)`` of ``made`` (an entry of ``_made``), made and
    kept when first listed."""
    k = 3 + 3 * die + cubes
    while len(made) <= k:
        made.append(None)
    move = made[k]
    if move is None:
        move = made[k] = _record(Build, seat, lid, str(die), cubes)  # str(die): the die's pay_text
    return move


def build_moves(state, seat: int) -> list:
    """The Build and SteadyBuild moves of ``seat``, contract by contract (B): one per token of
    :func:`.payment.build_options` (two for a *cubes* symbol that can add two), then the engine's
    build when it spends more than one die (:func:`.payment.auto_build`), then the Steady
    Builder's cube while one is left this turn. The dice are read once for all the contracts
    (:func:`.payment.build_dice`), and each contract's options and engine's build are read from
    them in one pass (tests/freight/test_freight_listing_parts.py checks them against
    ``build_options`` and ``auto_build``). Read by the C part ``_listing`` where it is built,
    from the kept moves of ``_made`` (a move first listed made and kept by :func:`_made_for` and
    :func:`_die_build`, as here) and :data:`.payment._BUILD_RANKS`; by :func:`_build_moves_py`,
    the reference, where not or where it answers None (a face first met, anything unexpected;
    tests/freight/test_freight_listing_compiled.py compares the two)."""
    if _c_build_moves is not None:
        got = _c_build_moves(state, seat, _made, BUILD_COLUMNS, _BUILD_RANKS, _made_for, _die_build)
        if got is not None:
            return got
    return _build_moves_py(state, seat)


def _build_moves_py(state, seat: int) -> list:
    """:func:`build_moves` in Python: it makes and keeps in ``_made`` the moves first listed."""
    p = state.players[seat]
    if not p.contracts:
        return []
    left = cubes_left(state, seat)
    if left <= 0:
        return []
    out: list = []
    links = state.map.links
    cubes = state.cubes
    dice = build_dice(p)
    markers = p.markers
    steady = state.steady_used < p.has("Steady Builder")
    for i in p.contracts:
        link = links[i]
        cap = min(link.length - cubes[i], left)
        lid = link.id
        colour = link.colour
        column = BUILD_COLUMNS[colour]
        key = _made_key(seat, lid, column)
        try:
            made = _made[key]
        except KeyError:
            made = _made_for(key, seat, lid, colour)
        able = 0  # how many dice can build the link
        best = 3  # the best build_rank among them: the die the engine's build spends first
        for d, first, ranks in dice:
            r = ranks[column]
            if r < 0:
                continue
            able += 1
            if r < best:
                best = r
            if not first:
                continue  # one move per face
            k = 3 + 3 * d
            if r == 2:
                # The cubes symbol's two outcomes are distinct moves; with one square or cube left only one.
                for n in range(1, 3 if cap >= 2 else 2):
                    move = made[k + n] if k + n < len(made) else None
                    out.append(move or _die_build(made, seat, lid, d, n))
            else:
                move = made[k] if k < len(made) else None
                out.append(move or _die_build(made, seat, lid, d, 0))
        if column < len(markers) and markers[column]:  # a marker of the colour (never ocean's)
            out.append(made[2])
        # The engine's build spends more than one die when another die can build and the first
        # (the cubes symbol adds two, any other die one) leaves squares and cubes to fill.
        if able > 1 and cap > (2 if best == 2 else 1):
            out.append(made[0])
        if steady:
            out.append(made[1])
    return out


def route_moves(state, seat: int, alternatives: bool = True) -> list:
    """The EstablishRoute moves of ``seat``, one per distinct outcome (C) and payment."""
    found = routes.enumerate_routes(state, seat)
    if not alternatives:
        return [route_move(state, seat, route) for route in found]
    second = state.routes_done == 1
    cache: dict = {}
    costs = tuple({route[4] for route in found})
    out = []
    for route in found:
        move = route_move(state, seat, route)
        for pay in pay_alternatives(state, seat, None, route[4], "route", second, cache=cache, also=costs):
            out.append(move if not pay else EstablishRoute(
                seat, move.origin, move.colour, move.dest, move.path, pay))
    return out


def route_move(state, seat: int, route: tuple, pay: str = "") -> EstablishRoute:
    """The EstablishRoute move of one ``(origin, colour, dest, path, cost)`` of
    :func:`routes.enumerate_routes`, paying ``pay``."""
    origin, colour, dest, path, _cost = route
    cities = state.map.cities
    return _record(EstablishRoute, seat, cities[origin].name, colour, cities[dest].name,
                   routes.path_text(state, path), pay)


def station_moves(state, seat: int, budget: int | None = None, alternatives: bool = True) -> list:
    """The BuildStation moves of ``seat`` (one per payment), if it may build one (D)."""
    if budget is None:
        budget = generic_budget(state.players[seat], "contract")
    cost = stations.station_cost(state, seat)
    if cost is None or cost > budget:
        return []
    if not alternatives:
        return [BuildStation(seat)]
    return [BuildStation(seat, pay) for pay in pay_alternatives(state, seat, None, cost, "station",
                                                                also=_buy_prices(state, seat, budget))]


def _buy_prices(state, seat: int, budget: int) -> tuple:
    """The any-dice prices of the station and the improvements the seat can afford (D, E): one
    walk finds the payments of them all (:func:`.payways.payments`)."""
    return _prices_of(stations.station_cost(state, seat), buyable(state, seat, budget), budget)


def _prices_of(station: int | None, buys, budget: int) -> tuple:
    """:func:`_buy_prices` from the station's cost (``None``: no station to build) and the
    ``(slot, cost)`` of :func:`buyable`, for a caller that has them at hand."""
    costs = {cost for _slot, cost in buys}
    if station is not None and station <= budget:
        costs.add(station)
    return tuple(sorted(costs))


def improvement_moves(state, seat: int, budget: int | None = None, alternatives: bool = True) -> list:
    """The BuyImprovement moves of ``seat`` (E): one per improvement to discard when at the limit,
    and one per payment."""
    if budget is None:
        budget = generic_budget(state.players[seat], "contract")
    out: list = []
    discards = discard_slots(state, seat)
    cache: dict = {}
    prices = None
    for slot, cost in buyable(state, seat, budget):
        if alternatives and prices is None:
            prices = _buy_prices(state, seat, budget)
        pays = (pay_alternatives(state, seat, None, cost, "improvement", cache=cache, also=prices)
                if alternatives else [""])
        out += [BuyImprovement(seat, slot, k, pay) for k in discards for pay in pays]
    return out


def buyable(state, seat: int, budget: int) -> list[tuple[int, int]]:
    """``(slot, cost)`` of each improvement on the track that ``seat`` can afford with ``budget``
    dice pips, in track order (E): :func:`.improvements.affordable`, the one rule for
    :func:`improvement_moves` and :func:`random_move` (which calls it directly)."""
    return improvements.affordable(state, seat, budget)


def discard_slots(state, seat: int) -> range | tuple[int]:
    """Which held improvement a purchase discards (E): each of them, ``range(n)``, when buying one
    more would pass the limit (the new one counted), otherwise ``(-1,)``, none."""
    p = state.players[seat]
    n = len(p.improvements) + len(p.pending) + 1  # improvements.held, not made to be counted
    return range(n) if n > state.comp.box["max_improvements"] else _NO_DISCARD


_NO_DISCARD = (-1,)
#: the C steps of :class:`rolling.core.rng.Rng` (None where not built or ``ROLLING_PURE_PYTHON``
#: is set: read once, at import, there as here)
_splitmix = _rng_module._splitmix


def end_turn_moves(state, seat: int) -> list:
    """The EndTurn moves of ``seat``: one per distinct stockpile outcome, most markers first (F)."""
    return [EndTurn(seat, store) for store, _g in stockpile.options(state, seat)]


def random_move(state, seat: int, rng):
    """``rng.choice(legal_actions(state, seat))``, the same move and the same draw from ``rng``,
    without building every listed move: the listing is counted run by run (:func:`turn_runs`)
    and only the move drawn is made: the random bot's way to play (issue 34). In the opening
    draft and in a ``payment: "legacy"`` game it lists.

    Raises:
        ValueError: ``seat`` has no move now (as ``rng.choice`` of an empty list).
    """
    stage = state.stage  # state.to_act is (state.current,) in a turn, () once over
    if stage == "draft" or stage == "over" or seat != state.current or state.config.payment == "legacy":
        return rng.choice(legal_actions(state, seat))
    runs, toks = _runs(state, seat, False)
    total = 0
    for run in runs:  # a plain loop: a generator costs more than the sum (issue 34)
        total += run[0]
    # Rng.below's C step taken here for an Rng itself (slotted: no method of an instance's own;
    # a subclass, such as a scripted or another library's draws, answers by its own below)
    got = _splitmix.below(rng.state, total) if type(rng) is Rng and _splitmix is not None and total > 0 else None
    if got is None:
        k = rng.below(total)
    else:
        rng.state = got[0]
        k = got[1]
    for count, kind, data in runs:
        if k >= count:
            k -= count
            continue
        if kind is list:
            return data[k]
        if kind is TakeContract:
            return _record(TakeContract, seat, data[0], _pay_text(data[1], toks, k))
        if kind is EstablishRoute:
            return route_move(state, seat, data[0], _pay_text(data[1], toks, k))
        if kind is BuildStation:
            return _record(BuildStation, seat, _pay_text(data, toks, k))
        if kind is BuyImprovement:
            slot, discards, front = data
            d, j = divmod(k, len(front))
            return _record(BuyImprovement, seat, slot, discards[d], _pay_text(front, toks, j))
        return _record(EndTurn, seat, data[k][0])
    raise AssertionError("the count of moves and the moves disagree")  # pragma: no cover


def turn_runs(state, seat: int) -> list[tuple]:
    """:func:`legal_actions` of ``seat`` in a turn of a ``"kept"`` payment game, as runs of
    ``(count, kind, data)`` in the listing's order, each standing for ``count`` listed moves,
    made only when one is wanted (the random bot draws one, the research codec indexes them):

    - ``(n, TakeContract, (slot, pays))``: ``TakeContract(seat, slot, pays[r])``, r < n;
    - ``(n, list, moves)``: the Build and SteadyBuild moves themselves;
    - ``(n, EstablishRoute, (route, pays))``: the route of :func:`.routes.enumerate_routes` as
      :func:`route_move`, paying ``pays[r]``;
    - ``(n, BuildStation, pays)``: ``BuildStation(seat, pays[r])``;
    - ``(len(discards) * len(pays), BuyImprovement, (slot, discards, pays))``: ``BuyImprovement(seat,
      slot, discards[d], pays[r])`` in the order d, then r;
    - ``(n, EndTurn, options)``: ``EndTurn(seat, store)`` of each ``(store, markers)`` of
      :func:`.stockpile.options`.

    ``pays`` are :class:`ListedPays` (one price's payments; moves of one kind and price share
    them). Assumes ``seat`` is to act in a turn (issue 34)."""
    return _runs(state, seat, True)[0]


def _runs(state, seat: int, listed: bool) -> tuple[list[tuple], list]:
    """:func:`turn_runs` and the seat's tokens (:attr:`.payways.SeatPayments.toks`); with
    ``listed=False`` each ``pays`` is the bare front of :meth:`.payways.SeatPayments.fronts`
    instead of a :class:`ListedPays` of it (:func:`_pay_text` reads one): the random bot makes
    one move of one run and spares the wrappers (issue 34)."""
    p = state.players[seat]
    budget = generic_budget(p, "contract")
    runs: list[tuple] = []
    seat_pays = SeatPayments(state, seat)
    fronts_of = seat_pays.fronts
    toks = seat_pays.toks
    for slot, link, cost in takeable(state, seat, budget):
        front = fronts_of(link.colour, cost, "contract", False, link)[cost]
        runs.append((len(front), TakeContract, (slot, ListedPays(front, toks) if listed else front)))
    built = build_moves(state, seat)
    runs.append((len(built), list, built))
    # the other modules' functions by the names imported (a module attribute read each costs more),
    # but for the route search, which tests/freight/test_freight_routes_compiled.py records
    found = routes.enumerate_routes(state, seat)
    if found:
        costs = sorted({route[4] for route in found})
        fronts = fronts_of(None, costs[0], "route", state.routes_done == 1, None, tuple(costs))  # one walk
        pays_of = {cost: ListedPays(fronts[cost], toks) for cost in costs} if listed else fronts  # one a price
        for route in found:
            cost = route[4]
            runs.append((len(fronts[cost]), EstablishRoute, (route, pays_of[cost])))
    station = station_cost(state, seat)
    if station is not None and station > budget:
        station = None  # not affordable: no BuildStation
    buys = affordable(state, seat, budget)  # buyable, without the extra call
    if station is not None or buys:
        # The station's and improvements' payments alike: one walk finds them all.
        prices = None if _c_prices is None else _c_prices(station, buys)
        if prices is None:
            prices = _prices_of(station, buys, budget)
        fronts = fronts_of(None, prices[0], "improvement", False, None, prices)
        pays_of = {cost: ListedPays(fronts[cost], toks) for cost in prices} if listed else fronts
        if station is not None:
            runs.append((len(fronts[station]), BuildStation, pays_of[station]))
        if buys:
            discards = discard_slots(state, seat)
            n = len(discards)
            for slot, cost in buys:
                runs.append((n * len(fronts[cost]), BuyImprovement, (slot, discards, pays_of[cost])))
    ends = options(state, seat)
    runs.append((len(ends), EndTurn, ends))
    return runs, toks


def _pay_text(front: tuple, toks: list, k: int) -> str:
    """The ``k``-th pay string of a price's listing (:class:`ListedPays`): ``""`` first (the
    engine's best), then each other payment of the front by name."""
    spent = front[k]  # IndexError past the end
    return "" if k == 0 or k == -len(front) else pay_text(tokens_of(spent, toks))


class ListedPays:
    """The ``pay`` strings :func:`pay_alternatives` lists for one price (in a ``"kept"`` game),
    made only when asked: ``""`` (the engine's best) and then each other payment's text, from
    :func:`.payways.payment_front`'s ``(front, tokens)``. A read-only sequence (``len``, ``[r]``);
    ``[r]`` raises IndexError past the end."""

    __slots__ = ("front", "toks")

    def __init__(self, front: tuple, toks: list):
        self.front = front
        self.toks = toks

    def __len__(self) -> int:
        return len(self.front)

    def __repr__(self) -> str:
        return repr([self[k] for k in range(len(self.front))])  # as the list it stands for

    def __getitem__(self, k: int) -> str:
        return _pay_text(self.front, self.toks, k)


# The state's rule methods, bound here at the top so that the state (at the bottom) imports none
# of the rules: a reader follows the imports one way (docs/freight-components.md, "Layers").
FreightState.legal_actions = legal_actions  # type: ignore[method-assign]
FreightState.apply = apply  # type: ignore[method-assign]
FreightState.enable_log = enable_log  # type: ignore[attr-defined]
FreightState.log_lines = lines  # type: ignore[attr-defined]
