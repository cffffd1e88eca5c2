"""Issue 34 (a faster Freight engine): the stockpile options listed by the C part
(``rolling.games.freight._stockpile``, built by ``setup.py`` where a C compiler is found) are those
of the Python reference (:func:`rolling.games.freight.stockpile._options_py`), entry for entry and in
order (the listing's order, and so every random game, depends on it), along random games of both
maps at every player count and for arbitrary hands; where the memos lack a face or the split dice
the C part answers None and the reference runs (``ROLLING_PURE_PYTHON`` turns the C part off).

Rule: "F. Stockpiling Resources".
"""

from __future__ import annotations

import pytest
from freight_helpers import after_draft, turn_decisions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from rolling.games.freight import stockpile
from rolling.games.freight.components import load_components

compiled = pytest.mark.skipif(stockpile._compiled is None, reason="not built (no C compiler, setup.py) or ROLLING_PURE_PYTHON set")
compiled_of = pytest.mark.skipif(stockpile._compiled_of is None, reason="not built (no C compiler, setup.py) or ROLLING_PURE_PYTHON set")


def compiled_options(state, seat: int):
    """The C part's answer for ``seat`` (None: not in the memos), called as :func:`stockpile.options` calls it."""
    p = state.players[seat]
    storage = p.improvements.count("Efficient Storage")
    return stockpile._compiled(p.dice, p.spent, p.die_kinds, storage >= 2, 0 if storage else 1, state.supply,
                               stockpile._FACE_CODE, stockpile._SPLITS, stockpile._ALLOCATIONS, "")


def compiled_options_of(state, seat: int):
    """The C part's whole answer for ``seat``, the state read in C (None: the reference runs), as
    :func:`stockpile.options` asks it."""
    return stockpile._compiled_of(state, seat, stockpile._C_CONTEXT)


GAMES = [("west-coast", 2, 21), ("west-coast", 3, 22), ("west-coast", 4, 23), ("southern", 3, 24),
         ("southern", 4, 25), ("southern", 5, 26)]


@compiled
@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_compiled_options_are_the_python_options_along_random_games(map_name, players, seed):
    """F, issue 34: at every decision of a random game, every seat's options from C (the memos
    filled by the reference first) are the reference's, entry for entry; :func:`stockpile.options`
    gives them too."""
    compared = 0
    for state in turn_decisions(map_name, players, seed):
        for s in range(players):
            want = stockpile._options_py(state, s)
            assert compiled_options(state, s) == want, (s, state.players[s].dice, state.players[s].spent)
            assert compiled_options_of(state, s) == want, (s, state.players[s].dice, state.players[s].spent)
            assert stockpile.options(state, s) == want
            compared += 1
    assert compared > 300


#: (die kind, face) for every face of every die in the box
DIE_FACES = sorted({("basic", f) for d in load_components().basic_dice for f in d}
                   | {(k, f) for k, d in load_components().improvement_dice.items() for f in d})


@compiled
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(dice=st_.lists(st_.tuples(st_.sampled_from(DIE_FACES), st_.booleans()), max_size=14),
       storage=st_.integers(0, 3),
       supply=st_.lists(st_.integers(-1, 9), min_size=4, max_size=4))
def test_compiled_options_are_the_python_options_for_any_hand(dice, storage, supply):
    """F, issue 34: any dice of the box (split faces of any pairs, symbols), any spent, none to
    three Efficient Storage, any supply (a negative one too): before the memos know the hand the
    C part answers None or the reference's options, after the reference ran, the reference's."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.dice = [f for (_, f), _ in dice]
    p.die_kinds = [k for (k, _), _ in dice]
    p.spent = [s for _, s in dice]
    p.improvements = ["Efficient Storage"] * storage
    st.supply = supply[:]
    before = compiled_options(st, seat)
    before_of = compiled_options_of(st, seat)
    want = stockpile._options_py(st, seat)
    assert before is None or before == want
    assert before_of is None or before_of == want
    assert compiled_options(st, seat) == want
    got = compiled_options_of(st, seat)
    assert got == want or (got is None and too_big_for_c(st, seat))
    assert stockpile.options(st, seat) == want


def too_big_for_c(state, seat: int) -> bool:
    """Whether the hand is past the C part's fixed sizes (512 outcomes, 8192 allocations, a count
    past 255), where it answers None."""
    p = state.players[seat]
    both = p.improvements.count("Efficient Storage") >= 2
    base, _splits, split = stockpile._read_dice(p, both)
    ways = 1
    for code in set(split):
        ways *= len(stockpile._group(code, split.count(code)))
    return ways > 8192 or len(stockpile._options_py(state, seat)) > 512 or max(
        (base >> 8 * k & 255) for k in range(4)) > 255


@compiled_of
def test_whole_options_in_c_along_random_games_every_decision():
    """F, issue 34: ``options_of`` (the mat read in C, the allocations worked out in C) at every
    decision of random games of both maps and 2-5 players, for every seat, from fresh memos of
    allocations: the reference's options, entry for entry; the allocations memo is never needed."""
    for map_name, players, seed in GAMES + [(m, n, seed + 100) for m, n, seed in GAMES]:
        compared = 0
        for state in turn_decisions(map_name, players, seed):
            for s in range(players):
                got = compiled_options_of(state, s)
                assert got == stockpile._options_py(state, s), (map_name, players, s, state.players[s].dice)
                compared += 1
        assert compared > 300


@compiled_of
def test_options_of_answers_none_where_the_hand_is_not_as_expected():
    """Issue 34: a face not in the codes yet, a spent flag not a bool, a seat out of range, a count
    past the packed width: None from ``options_of``, and the reference then runs (and raises where
    it raises)."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    assert compiled_options_of(st, 7) is None
    assert compiled_options_of(st, -1) is None
    p.dice, p.die_kinds, p.spent = ["no such face at all"], ["basic"], [False]
    assert compiled_options_of(st, seat) is None
    p.dice, p.die_kinds, p.spent = ["yellow"], ["basic"], [0]
    assert compiled_options_of(st, seat) is None
    assert stockpile.options(st, seat) == stockpile._options_py(st, seat)
    p.dice, p.die_kinds, p.spent = ["yellow"] * 300, ["basic"] * 300, [False] * 300
    stockpile._FACE_CODE.setdefault("yellow", stockpile._face_code("yellow"))
    assert compiled_options_of(st, seat) is None
    with pytest.raises(IndexError):
        stockpile.options(st, seat)


@compiled
def test_compiled_options_answer_none_where_the_memos_lack_the_hand():
    """Issue 34: a face with no code yet, or split dice with no allocations yet, or a count past
    the packed width: None (the reference then runs, and raises where it raises)."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.dice, p.die_kinds, p.spent = ["no such face"], ["basic"], [False]
    assert compiled_options(st, seat) is None
    p.dice, p.die_kinds, p.spent = ["yellow"] * 300, ["basic"] * 300, [False] * 300
    stockpile._FACE_CODE.setdefault("yellow", stockpile._face_code("yellow"))
    assert compiled_options(st, seat) is None
    with pytest.raises(IndexError):
        stockpile.options(st, seat)
