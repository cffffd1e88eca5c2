"""Issue 34 (a faster Freight engine): a seat's construction moves and prices read by the C part
(``rolling.games.freight._listing``, built by ``setup.py`` where a C compiler is found) are those
of the Python references: :func:`legal._build_moves_py` (the very kept move objects, in order),
:func:`legal._takeable_py`, :func:`payment._generic_budget_py`, :func:`improvements._affordable_py`
and :func:`stations._station_cost_py`, at every turn decision of random games of both maps at
every player count and for arbitrary hands; where a table lacks a face or a kept move the C part
answers None and the reference runs (``ROLLING_PURE_PYTHON`` turns the C part off).

Rules: "A: Taking on Contracts", "B: Construction", "D: Building Switching Stations",
"E. Purchasing Improvements".
"""

from __future__ import annotations

import pytest
from freight_helpers import after_draft, turn_decisions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from rolling.games.freight import improvements, legal, payment, stations
from rolling.games.freight.components import load_components
from rolling.games.freight.payment import PURPOSES

compiled = pytest.mark.skipif(not payment.listing_compiled(),
                              reason="not built (no C compiler, setup.py) or ROLLING_PURE_PYTHON set")


def c_answers(state, seat: int, budget: int) -> tuple:
    """The C part's five answers for ``seat`` (None: not in the tables), called as the rules call it."""
    p = state.players[seat]
    return (payment._c_budget(p, payment.face_units("contract", False)),
            payment._c_build_moves(state, seat, legal._made, payment.BUILD_COLUMNS, payment._BUILD_RANKS,
                                   legal._made_for, legal._die_build),
            payment._c_takeable(state, seat, budget, payment.BUILD_COLUMNS, payment._PAY_MASK),
            payment._c_affordable(state, seat, budget),
            payment._c_station_cost(state, seat))


def py_answers(state, seat: int, budget: int) -> tuple:
    """The references' answers (the station's full mat as -1, as the C part answers it)."""
    station = stations._station_cost_py(state, seat)
    return (payment._generic_budget_py(state.players[seat], "contract"), legal._build_moves_py(state, seat),
            legal._takeable_py(state, seat, budget), improvements._affordable_py(state, seat, budget),
            -1 if station is None else station)


def assert_same(state, seat: int) -> None:
    """Each C answer, once the references have filled the tables, is the reference's (the build
    moves the very same objects), and the rules' own functions give them too."""
    budget = payment._generic_budget_py(state.players[seat], "contract")
    want = py_answers(state, seat, budget)
    payment.learn_pay_masks(state.players[seat])
    got = c_answers(state, seat, budget)
    assert got == want, (seat, state.players[seat].dice, state.players[seat].spent)
    assert all(a is b for a, b in zip(got[1], want[1], strict=True))
    for purpose in PURPOSES:
        for second in (False, True):
            expected = payment._generic_budget_py(state.players[seat], purpose, second)  # fills the table
            assert payment._c_budget(state.players[seat], payment.face_units(purpose, second)) == expected
    assert payment.generic_budget(state.players[seat], "contract") == budget
    assert legal.build_moves(state, seat) == want[1]
    assert legal.takeable(state, seat, budget) == want[2]
    assert improvements.affordable(state, seat, budget) == want[3]
    assert stations.station_cost(state, seat) == (None if want[4] == -1 else want[4])


GAMES = [("west-coast", 2, 31), ("west-coast", 3, 32), ("west-coast", 4, 33), ("southern", 5, 34),
         ("southern", 3, 36), ("southern", 4, 37), ("southern", 5, 38)]


@compiled
@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_compiled_listing_parts_are_the_python_ones_along_random_games(map_name, players, seed):
    """A, B, D, E, issue 34: at every turn decision of a random game, every seat's five answers
    from C are the references' (the build moves the very kept objects, in order)."""
    compared = 0
    for state in turn_decisions(map_name, players, seed):
        for s in range(players):
            assert_same(state, s)
            compared += 1
    assert compared > 200


COMPONENTS = load_components()
#: every face of every die in the box, and a face that is none
FACES = sorted({f for d in COMPONENTS.basic_dice for f in d}
               | {f for d in COMPONENTS.improvement_dice.values() for f in d})
IMPROVEMENTS = sorted(COMPONENTS.improvements)


@compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(dice=st_.lists(st_.tuples(st_.sampled_from(FACES), st_.booleans()), max_size=14),
       markers=st_.lists(st_.integers(0, 3), min_size=4, max_size=4),
       contracts=st_.lists(st_.integers(0, 200), max_size=4, unique=True),
       cubes=st_.lists(st_.integers(0, 8), min_size=4, max_size=4),
       held=st_.lists(st_.sampled_from(IMPROVEMENTS + ["Acquisition Expert", "Steady Builder"]), max_size=4),
       steady_used=st_.integers(0, 2), stations_built=st_.integers(0, 6), links_owned=st_.integers(0, 12),
       track=st_.lists(st_.one_of(st_.none(), st_.integers(0, 200)), max_size=8),
       shop=st_.lists(st_.one_of(st_.none(), st_.sampled_from(IMPROVEMENTS)), max_size=8))
def test_compiled_listing_parts_are_the_python_ones_for_any_hand(dice, markers, contracts, cubes, held,
                                                                  steady_used, stations_built, links_owned,
                                                                  track, shop):
    """A, B, D, E, issue 34: any dice of the box, any spent, markers, contracts with any cubes on
    them, improvements held, stations built, contract and improvement tracks: before the tables
    know the hand each C answer is None or the reference's; after the references ran, the
    reference's."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    n = len(st.map.links)
    p.dice = [f for f, _ in dice]
    p.spent = [s for _, s in dice]
    p.markers = markers
    p.contracts = sorted({c % n for c in contracts})
    for i, c in zip(p.contracts, cubes, strict=False):
        st.cubes[i] = c
    p.improvements = held
    st.steady_used = steady_used
    p.stations = stations_built
    p.links_owned = links_owned
    st.contract_track = [None if c is None else c % n for c in track]
    st.improvement_track = shop
    budget = payment._generic_budget_py(p, "contract")
    before = c_answers(st, seat, budget)
    want = py_answers(st, seat, budget)
    assert all(b is None or b == w for b, w in zip(before, want, strict=True))
    assert_same(st, seat)


@compiled
def test_compiled_listing_parts_answer_none_where_anything_is_unexpected():
    """Issue 34: a face not in the tables, a die list that is no list, a seat out of range: None
    (the reference then runs, and raises where it raises)."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.dice, p.spent = ["no such face"], [False]
    assert payment._c_budget(p, payment.face_units("contract", False)) is None
    with pytest.raises(ValueError):
        payment.generic_budget(p, "contract")
    assert payment._c_takeable(st, 7, 3, payment.BUILD_COLUMNS, payment._PAY_MASK) is None
    assert payment._c_station_cost(st, -1) is None
    assert payment._c_affordable(st, seat, "3") is None
    p.dice, p.spent = ("blue",), None
    assert payment._c_budget(p, payment.face_units("contract", False)) is None
    p.dice, p.spent, p.contracts = ["blue"], [False], [0]
    assert payment._c_build_moves(st, seat, legal._made, payment.BUILD_COLUMNS, {}, legal._made_for,
                                  legal._die_build) is None  # no ranks of the face yet
    assert payment._c_build_moves(st, seat, legal._made, payment.BUILD_COLUMNS, payment._BUILD_RANKS, None,
                                  legal._die_build) in (None, legal._build_moves_py(st, seat))


@compiled
def test_compiled_build_moves_make_and_keep_the_moves_first_listed():
    """B, issue 34: a move not kept yet is made by the Python's own helpers (legal._made_for,
    legal._die_build) and kept in ``legal._made`` under :func:`legal._made_key`, the very
    object the reference then lists."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.dice, p.spent, p.markers, p.contracts = ["blue", "blue", "red", "wild"], [False] * 4, [1, 0, 0, 0], [0]
    st.cubes[0] = 1
    colour = st.map.links[0].colour
    key = legal._made_key(seat, st.map.links[0].id, payment.BUILD_COLUMNS[colour])
    legal._made.pop(key, None)
    got = payment._c_build_moves(st, seat, legal._made, payment.BUILD_COLUMNS, payment._BUILD_RANKS,
                                 legal._made_for, legal._die_build)
    if got is None:  # the faces' ranks first met: the reference fills them
        legal._made.pop(key, None)
        legal._build_moves_py(st, seat)
        legal._made.pop(key, None)
        got = payment._c_build_moves(st, seat, legal._made, payment.BUILD_COLUMNS, payment._BUILD_RANKS,
                                     legal._made_for, legal._die_build)
    assert key in legal._made
    want = legal._build_moves_py(st, seat)
    assert got == want and all(a is b for a, b in zip(got, want, strict=True))


@compiled
def test_record_makes_the_move_its_class_makes():
    """``_listing.record(cls, *values)`` (:data:`legal._record`) is ``cls(*values)`` for every move
    class of a turn: the same type, fields, equality, hash and JSON; for anything else (another
    count of values, a class that is not a plain record, not a type) it calls ``cls`` itself."""
    import dataclasses

    from rolling.games.freight.actions import (
        Build,
        BuildStation,
        BuyImprovement,
        EndTurn,
        EstablishRoute,
        SteadyBuild,
        TakeContract,
    )

    assert legal._record is payment._c_record
    samples = {TakeContract: (1, 3, "0 2"), Build: (2, 31, "4", 2), SteadyBuild: (0, 7),
               EstablishRoute: (1, "Seattle", "red", "Portland", "31,24", ""), BuildStation: (2, "blue"),
               BuyImprovement: (0, 1, -1, ""), EndTurn: (2, "red,blue")}
    assert set(samples) == set(legal._TURN_MOVES)
    for cls, values in samples.items():
        for _ in range(3):  # the kind read, then kept
            made, want = legal._record(cls, *values), cls(*values)
            assert type(made) is cls and made == want and hash(made) == hash(want)
            assert made.to_json() == want.to_json() and dataclasses.astuple(made) == values
    assert legal._record(EndTurn, 1) == EndTurn(1)  # a default left out: the class's own __init__
    assert legal._record(int, "7") == 7
    with pytest.raises(TypeError):
        legal._record(EndTurn, 1, "", 3)
    with pytest.raises(TypeError):
        legal._record(5, 1)

    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        a: int

    assert not legal._plain_record(Unslotted) and legal._record(Unslotted, 4) == Unslotted(4)


@compiled
@settings(max_examples=200, deadline=None)
@given(st_.one_of(st_.none(), st_.integers(0, 12)), st_.lists(st_.tuples(st_.integers(0, 5), st_.integers(0, 12)),
                                                              max_size=8))
def test_prices_are_prices_of(station, buys):
    """``_listing.prices`` (read by ``legal._runs``) is :func:`legal._prices_of` for a station
    within the budget; None for anything not a list of (slot, int cost) pairs."""
    assert payment._c_prices(station, buys) == legal._prices_of(station, buys, 12)
    assert payment._c_prices(station, tuple(buys)) is None
    assert payment._c_prices(station, [*buys, (0, 1.0)]) is None
