"""Issue 34 (a faster Freight engine): the major routes found by the compiled search
(``rolling.games.freight._routes``, C, built by ``setup.py`` where a C compiler is found) are the
very routes of the Python search (:func:`rolling.games.freight.routes._search_py`), route by route
and in order (the order of the listing, and so every random game, depends on it), and its early
answer "no route at any price" is the Python one (:func:`rolling.games.freight.routes._could_route`)
and right, at every decision of random games on both maps at every player count and for arbitrary
link ownerships, cargo and demand on the real maps (hypothesis); a search whose numbers do not fit its fixed-width
integers runs in Python (``ROLLING_PURE_PYTHON``, which turns it off, is tested with the walk's
tests: tests/freight/test_freight_walk_compiled.py).

Rule: "C: Establishing Major Routes" (what a route is: :func:`rolling.games.freight.routes.trace`).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from rolling.bots import make_bot
from rolling.core.rng import Rng
from rolling.games.freight import Config, legal, new_game, payways, routes
from rolling.games.freight.components import COLOURS, load_map
from rolling.sim import play_game

compiled = pytest.mark.skipif(routes._compiled_search is None, reason="built without a C compiler (setup.py)")


def listings_of_random_games(games: int) -> list[tuple]:
    """Every listing of major routes the random games asked for, both maps, every player count:
    ``(state, seat, the compiled listing)``, the state as it was then."""
    listings: list[tuple] = []
    enumerate_routes = routes.enumerate_routes

    def recording(state, seat):
        got = enumerate_routes(state, seat)
        listings.append((state.clone(), seat, got))
        return got

    routes.enumerate_routes = recording
    pure = payways._PURE
    payways._PURE = False  # recorded where the compiled search is asked, ROLLING_PURE_PYTHON or not
    try:
        for map_name, players in (("west-coast", 2), ("west-coast", 3), ("west-coast", 4),
                                  ("southern", 3), ("southern", 4), ("southern", 5)):
            for g in range(games):
                state = new_game(Config(map_name, players), 13 * g + players)
                play_game(state, [make_bot("freight", "random", 29 * g + i) for i in range(players)])
    finally:
        routes.enumerate_routes = enumerate_routes
        payways._PURE = pure
    return listings


@compiled
def test_compiled_routes_are_the_python_routes_along_random_games():
    """Issue 34: at every listing of major routes of random 2-5 player games on both maps the
    compiled search lists the same routes in the same order as the Python one (none falls back);
    the compiled early answer "no route at any price" is the Python one (:func:`_could_route`),
    and where it is given the Python search finds none at any price."""
    listings = listings_of_random_games(2)
    pure = payways._PURE
    searched = could_not = 0
    try:
        for state, seat, got in listings:
            payways._PURE = True
            assert routes.enumerate_routes(state, seat) == got, (state.map.name, seat)
            payways._PURE = pure
            if state.players[seat].links_owned == 0:
                continue
            could = routes._prepare_c(state, seat, state.n)
            assert could is not None
            assert (could is not False) == routes._could_route(state, seat)
            cap, avail, costs = search_args(state, seat)
            want = routes._search_py(state, seat, cap, avail, costs)
            assert routes._search_c(state, seat, cap, avail, costs) == want
            if could is False:
                could_not += 1
                assert not routes._search_py(state, seat, 10 ** 6, avail, costs)
            else:
                searched += 1
    finally:
        payways._PURE = pure
    assert searched > 1000 and could_not > 1000
    assert sum(len(s[-1]) for s in listings) > 5000  # routes found, not only empty listings
    assert any(s[0].players[s[1]].stations > s[0].stations_used for s in listings if s[-1])  # stations discount some


compiled_enumerate = pytest.mark.skipif(routes._compiled_enumerate is None, reason="built without a C compiler (setup.py)")


@compiled_enumerate
@pytest.mark.parametrize(("map_name", "players", "seed"),
                         [("west-coast", 2, 41), ("west-coast", 3, 42), ("west-coast", 4, 43), ("southern", 3, 44),
                          ("southern", 4, 45), ("southern", 5, 46)])
def test_whole_enumeration_in_c_at_every_decision(map_name, players, seed):
    """Issue 34: ``_routes.enumerate`` (the state, dice and owners read in C) gives, at every
    decision of random games of both maps and 2-5 players and for every seat, the routes of the
    Python reference (:func:`routes._enumerate_py` with ``ROLLING_PURE_PYTHON``'s pure search),
    route by route and in order, never falling back; ``enumerate_routes`` gives them too."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    pure = payways._PURE
    compared = found = 0
    try:
        while not state.is_over:
            seat = state.to_act[0]
            if state.stage != "draft":
                for s in range(players):
                    got = routes._compiled_enumerate(state, s, routes._C_CONTEXT)
                    payways._PURE = True
                    want = routes._enumerate_py(state, s)
                    payways._PURE = pure
                    assert got == want, (map_name, players, s)
                    assert routes.enumerate_routes(state, s) == want
                    compared += 1
                    found += len(want)
            state.apply(legal.random_move(state, seat, rng))
    finally:
        payways._PURE = pure
    assert compared > 300 and found > 50


def _python_routes(state, seat):
    pure = payways._PURE
    payways._PURE = True
    try:
        return routes._enumerate_py(state, seat)
    finally:
        payways._PURE = pure


@compiled_enumerate
def test_whole_enumeration_in_c_sees_every_board_change_between_calls():
    """Issue 34 (round 5): ``_routes.enumerate`` keeps the board it read while its objects are the
    same; a state and its clone asked in turn (a route made on the clone, its cargo and rings
    lists replaced), a city's cargo or rings list replaced, a link completed and the phase moved on
    each give the Python routes at once, for every seat."""
    state = new_game(Config("west-coast", 3), 47)
    rng = Rng(47)
    made = 0
    while not state.is_over and made < 6:
        seat = state.to_act[0]
        if state.stage != "draft" and routes.enumerate_routes(state, seat):
            twin = state.clone()
            move = legal.route_move(twin, seat, routes.enumerate_routes(twin, seat)[0])
            twin.apply(move)
            made += 1
            for s in range(3):
                for x in (state, twin, state, twin):
                    assert routes._compiled_enumerate(x, s, routes._C_CONTEXT) == _python_routes(x, s)
            origin = state.map.city_index[move.origin]
            for change in ("cargo", "rings", "owner", "phase"):
                other = state.clone()
                if change == "cargo":
                    other.cargo[origin] = []  # the cargo marker the route took, and any other
                elif change == "rings":
                    dest = state.map.city_index[move.dest]
                    other.rings[dest] = [[r[0], r[1], not r[2]] for r in other.rings[dest]]
                elif change == "owner":
                    free = [i for i, o in enumerate(other.owner) if o < 0]
                    if free:
                        other.owner[free[0]] = seat
                else:
                    other.phase += 1
                for s in range(3):
                    assert routes._compiled_enumerate(state, s, routes._C_CONTEXT) == _python_routes(state, s)
                    assert routes._compiled_enumerate(other, s, routes._C_CONTEXT) == _python_routes(other, s)
        state.apply(legal.random_move(state, seat, rng))
    assert made == 6


@compiled_enumerate
def test_whole_enumeration_in_c_falls_back_where_the_state_is_unexpected():
    """Issue 34: a seat out of range, a second route's dice and spent flags of different lengths, a
    face the tables have not met, eleven owners: ``_routes.enumerate`` answers None and
    ``enumerate_routes`` answers (or raises) as the Python does."""
    state, seat, other = a_state_with_routes()
    want = routes._enumerate_py(state, seat)
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) == want
    assert routes._compiled_enumerate(state, 9, routes._C_CONTEXT) is None
    assert routes._compiled_enumerate(state, -1, routes._C_CONTEXT) is None
    assert routes._compiled_enumerate(state, seat, ()) is None
    p = state.players[seat]
    p.dice.append("not a face of any die")
    p.spent.append(False)
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) is None
    with pytest.raises(ValueError):
        routes.enumerate_routes(state, seat)
    p.dice.pop()
    p.spent.pop()
    p.spent.append(True)
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) is None
    assert routes.enumerate_routes(state, seat) == want
    p.spent.pop()
    # the state's attributes as Python reads them: set after a call, or taken first by a class's property
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) == want
    state.saturation, saturation = 0, state.saturation
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) == [] == routes._enumerate_py(state, seat)
    state.saturation = saturation
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) == want
    shadowed = type("Shadowed", (type(state),), {"saturation": property(lambda self: 0)})
    state.__class__ = shadowed
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) == [] == routes._enumerate_py(state, seat)
    state.__class__ = shadowed.__base__
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) == want
    state.players += [state.players[other].copy() for _ in range(6)]
    state.n = 11
    state.owner = [10 if o == other else o for o in state.owner]
    assert routes._compiled_enumerate(state, seat, routes._C_CONTEXT) is None
    assert routes.enumerate_routes(state, seat) == want


@st_.composite
def situations(draw):
    """A route search on a real map: links owned at random (or not completed), cargo markers and
    open, saturated or later-phase demand anywhere, the seat's price cap, stations and each
    owner's dice per link (Friendly or not)."""
    m = load_map(draw(st_.sampled_from(("west-coast", "southern"))))
    n = draw(st_.integers(2, 5))
    seat = draw(st_.integers(0, n - 1))
    owner = [draw(st_.sampled_from((-1, -1, *range(n)))) for _ in m.links]
    colours = st_.sampled_from(COLOURS)
    cargo = [draw(st_.lists(colours, max_size=3)) if draw(st_.integers(0, 2)) == 0 else [] for _ in m.cities]
    rings = [[[draw(colours), draw(st_.integers(0, 2)), draw(st_.booleans())]
              for _ in range(draw(st_.integers(0, 2)))] for _ in m.cities]
    state = SimpleNamespace(map=m, owner=owner, cargo=cargo, rings=rings, phase=draw(st_.integers(0, 2)))
    costs = tuple(1 if o == seat else draw(st_.sampled_from((1, 2))) for o in range(n))
    avail = draw(st_.integers(0, 3))
    return state, seat, avail + draw(st_.integers(1, 9)), avail, costs


@compiled
@settings(max_examples=300, deadline=None)
@given(situations())
def test_compiled_routes_are_the_python_routes_for_any_situation(args):
    """Issue 34: for arbitrary ownerships, cargo and demand on both maps, the same routes in the
    same order either way, and the same early answer "no route at any price", which is right."""
    got = routes._search_c(*args)
    assert got is not None
    assert got == routes._search_py(*args)
    state, seat, _cap, avail, costs = args
    could = routes._could_route(state, seat)
    assert (routes._prepare_c(state, seat, len(costs)) is not False) == could
    if not could:
        assert not routes._search_py(state, seat, 10 ** 6, avail, costs)


def a_state_with_routes():
    """A 5-player Southern game played at random until the seat to act has major routes to
    choose from, some over another seat's links: ``(state, seat, that other seat)``."""
    state = new_game(Config("southern", 5), 3)
    bots = [make_bot("freight", "random", i) for i in range(5)]
    while True:
        for seat in state.to_act:
            if state.stage == "draft":
                continue
            for route in routes.enumerate_routes(state, seat):
                others = [state.owner[i] for i in route[3] if state.owner[i] != seat]
                if others:
                    return state, seat, others[0]
        seat = state.to_act[0]
        state.apply(bots[seat].choose(state, seat))


@compiled
def test_numbers_too_large_for_the_compiled_search_are_searched_in_python():
    """Issue 34: eleven owners (the packed link counts per owner need more than 64 bits) or a map
    of more than 64 cities do not fit the compiled search: it answers ``None`` and
    ``enumerate_routes`` gives the Python search's routes."""
    state, seat, other = a_state_with_routes()
    want = routes.enumerate_routes(state, seat)
    # six more players, the last owning the links another seat owned: the same routes, the same
    # dice (a copy of that player, Friendly or not), that seat's count packed 60 bits up
    state.players += [state.players[other].copy() for _ in range(6)]
    state.n = 11
    state.owner = [10 if o == other else o for o in state.owner]
    assert 10 in state.owner
    cap, avail, costs = search_args(state, seat)
    assert routes._search_c(state, seat, cap, avail, costs) is None
    assert routes.enumerate_routes(state, seat) == routes._search_py(state, seat, cap, avail, costs) == want
    big = SimpleNamespace(map=SimpleNamespace(name="southern", cities=[None] * 65), owner=[0] * 62,
                          cargo=[[]] * 65, rings=[[]] * 65, phase=0)
    assert routes._search_c(big, 0, 9, 0, (1, 2, 2)) is None


def search_args(state, seat: int) -> tuple:
    """``(cap, avail, costs)`` of ``enumerate_routes`` for the seat."""
    p = state.players[seat]
    budget = routes.generic_budget(p, "route", state.routes_done == 1)
    costs = tuple(routes.owner_link_cost(state, seat, o) for o in range(state.n))
    return budget + p.stations - state.stations_used, p.stations - state.stations_used, costs
