"""Issue 34 (a faster Freight engine): the end of a turn by the C part (``rolling.games.freight._turn``,
built by ``setup.py`` where a C compiler is found) leaves the state exactly as the Python reference
(:func:`rolling.games.freight.turn._end_turn_py`) does, at every end of a turn of random games of
both maps at every player count; where it answers None it has changed nothing and the reference
ends the turn (``ROLLING_PURE_PYTHON`` turns the C part off).

Rules: "On Your Turn", "F. Stockpiling Resources", "G. Refilling the Tracks", "H. Rolling Your Dice".
"""

from __future__ import annotations

import pytest
from freight_helpers import after_draft

from rolling.core.errors import IllegalAction
from rolling.core.rng import Rng
from rolling.games.freight import Config, dice, legal, new_game, stockpile, turn
from rolling.games.freight.actions import EndTurn
from rolling.games.freight.components import END_OF_PHASE
from rolling.games.freight.state import FreightState

compiled = pytest.mark.skipif(turn._end_turn_c is None, reason="not built (no C compiler, setup.py) or ROLLING_PURE_PYTHON set")


def c_end(state, a):
    """The C part's answer for ``a`` (True or None), asked as :func:`turn.end_turn` asks it: its
    answers 1 and 2 (asked again with the engine's store, the dice set worked out) change nothing."""
    store = a.store
    for _ in range(3):
        before = whole(state)
        got = turn._end_turn_c(state, a.seat, store, stockpile._FACE_CODE, stockpile._SPLITS, dice._SETS, Rng,
                               END_OF_PHASE)
        if got is True or got is None:  # (True == 1: asked by identity)
            return got
        assert whole(state) == before
        if got == 1:
            store = stockpile.options(state, a.seat)[0][0]
        else:
            p = state.players[a.seat]
            dice._dice_set(state, tuple(p.improvements + p.pending))
    return None


def whole(state) -> tuple:
    """Everything of ``state`` an end of a turn may change, the digest's and the reveals'."""
    return (state.digest(), state.reveals, state.last_reveal, state.rng.state, state.turn, state.current,
            [(p.dice, p.die_kinds, p.spent, p.improvements, p.pending, p.markers) for p in state.players])


GAMES = [("west-coast", 2, 41), ("west-coast", 3, 42), ("west-coast", 4, 43), ("southern", 3, 44),
         ("southern", 4, 45), ("southern", 5, 46)]


@compiled
@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_compiled_end_of_turn_is_the_python_one_along_random_games(map_name, players, seed):
    """Issue 34: at every EndTurn of a random game, also with the engine's store (""), the C part
    ends the turn as the reference does, or answers None having changed nothing."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    done = fell_back = drew_end = 0
    while not state.is_over:
        seat = state.to_act[0]
        move = legal.random_move(state, seat, rng)
        if isinstance(move, EndTurn):
            for a in (move, EndTurn(seat, "")):
                ref = state.clone()
                turn._end_turn_py(ref, a)
                mine = state.clone()
                before = whole(mine)
                got = c_end(mine, a)
                if got is None:
                    assert whole(mine) == before
                    fell_back += 1
                else:
                    assert got is True
                    assert whole(mine) == whole(ref)
                    assert (mine.eop_holder, mine.eop_pending, mine.final_left) == (ref.eop_holder, ref.eop_pending,
                                                                                      ref.final_left)
                    done += 1
                    drew_end += state.final_left < 0 <= mine.final_left
        state.apply(move)
    assert done > 10 * fell_back
    assert drew_end  # an End of Phase card drawn in C
    # the dice sets the C part worked out (and put into dice._SETS, which the reference reads too)
    # are those of dice._dice_set
    for names, entry in list(dice._SETS.items()):
        if entry[0] is state.comp:
            assert entry == python_dice_set(state.comp, names), names


def python_dice_set(comp, names: tuple) -> tuple:
    """dice._dice_set's entry for ``names``, worked out afresh (dice.die_set's steps)."""
    out = [("basic", faces) for faces in comp.basic_dice]
    for name in names:
        die = comp.improvements[name].die
        if die:
            out.append((die, comp.improvement_dice[die]))
    return (comp, tuple(k for k, _ in out), tuple(f for _, f in out), [len(f) for _, f in out])


@compiled
def test_compiled_end_of_turn_works_a_new_dice_set_out_as_python_does():
    """H, issue 34: a set of improvements not yet in dice._SETS (an improvement die bought): the C
    part puts dice._dice_set's entry for it there and rolls it as the reference does."""
    st = after_draft("west-coast", 3)
    seat = st.current
    p = st.players[seat]
    p.improvements = ["Friendly", "Black Die"]
    p.pending = ["Red Die"]
    names = ("Friendly", "Black Die", "Red Die")
    dice._SETS.pop(names, None)
    stockpile.options(st, seat)  # the faces known
    ref = st.clone()
    turn._end_turn_py(ref, EndTurn(seat, "blue,red"))
    dice._SETS.pop(names, None)
    assert turn._end_turn_c(st, seat, "blue,red", stockpile._FACE_CODE, stockpile._SPLITS, dice._SETS, Rng,
                            END_OF_PHASE) is True  # not 2: worked out in C
    assert dice._SETS[names] == python_dice_set(st.comp, names)
    assert whole(st) == whole(ref)
    assert len(st.players[seat].dice) == 8


@compiled
def test_compiled_end_of_turn_leaves_a_refused_store_to_the_reference():
    """F, issue 34: a store naming a colour no split die shows, or too many or too few colours:
    the C part answers None and changes nothing; the reference refuses it."""
    st = after_draft("west-coast", 3)
    seat = st.current
    stockpile.options(st, seat)  # the faces known
    for store in ("red,red", "gray", "blue,red,red", "purple,red", "gray;red"):
        before = whole(st)
        assert c_end(st, EndTurn(seat, store)) is None
        assert whole(st) == before
        with pytest.raises(IllegalAction):
            st.apply(EndTurn(seat, store))
        assert whole(st) == before


@compiled
def test_compiled_end_of_turn_with_a_log_is_the_reference():
    """Issue 34: with the log on, the C part answers None (the reference writes the events)."""
    st = after_draft("west-coast", 3)
    st.enable_log()
    seat = st.current
    before = whole(st)
    assert c_end(st, EndTurn(seat, "blue,red")) is None
    assert whole(st) == before
    st.apply(EndTurn(seat, "blue,red"))
    assert st.current != seat


def test_end_of_turn_is_the_same_with_and_without_the_c_part(monkeypatch):
    """Issue 34: a game whose every turn ends through the reference (the C part set aside) ends in
    the same digest as one through the C part (where built)."""
    def play(state):
        rng = Rng(5)
        while not state.is_over:
            state.apply(legal.random_move(state, state.to_act[0], rng))
        return state.digest()

    first = play(new_game(Config("southern", 4), 5))
    monkeypatch.setattr(turn, "_end_turn_c", None)
    assert play(new_game(Config("southern", 4), 5)) == first


@compiled
def test_compiled_end_of_turn_leaves_a_state_class_with_such_attributes_to_the_reference():
    """Issue 34: the C part reads and writes the state's attributes in its ``__dict__`` only for a
    class with none of their names (a property would be bypassed): otherwise None, nothing changed."""
    class Watched(FreightState):
        steady_used = 0  # a class attribute of a name the end of a turn writes

    st = after_draft("west-coast", 3)
    seat = st.current
    stockpile.options(st, seat)  # the faces known
    plain = st.clone()
    assert c_end(plain, EndTurn(seat, "blue,red")) is True
    st.__class__ = Watched
    before = whole(st)
    assert c_end(st, EndTurn(seat, "blue,red")) is None
    assert whole(st) == before
    st.apply(EndTurn(seat, "blue,red"))
    st.__class__ = FreightState
    assert whole(st) == whole(plain)
