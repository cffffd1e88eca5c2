"""Issue 34 (a faster Freight engine): the roll of step H by the C part
(``rolling.games.freight._dice``, built by ``setup.py`` where a C compiler is found) draws the same
numbers and shows the same faces as the Python reference (:func:`rolling.games.freight.dice._draw_py`,
``Rng.draws``), at every decision of random games of both maps and for any generator state and
dice; on anything not of its form it answers None and the reference runs (``ROLLING_PURE_PYTHON``
turns the C part off).

Rule: "H. Rolling Your Dice".
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from rolling.core.rng import Rng
from rolling.games.freight import Config, dice, legal, new_game

compiled = pytest.mark.skipif(dice._roll_c is None, reason="not built (no C compiler, setup.py) or ROLLING_PURE_PYTHON set")


def both(state: int, faces: tuple):
    """``(the C part's answer, the reference's (state, faces))`` from generator state ``state``."""
    rng = Rng(0)
    rng.state = state
    py = dice._draw_py(rng, faces, [len(f) for f in faces])
    return dice._roll_c(state, faces), (rng.state, py)


GAMES = [("west-coast", 2, 31), ("west-coast", 3, 32), ("west-coast", 4, 33), ("southern", 3, 34),
         ("southern", 5, 35)]


@compiled
@pytest.mark.parametrize(("map_name", "players", "seed"), GAMES)
def test_compiled_roll_is_the_python_roll_along_random_games(map_name, players, seed):
    """H, issue 34: at every decision of a random game, each seat's dice (improvement dice
    included) rolled from the game's generator state by C are the reference's."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    compared = 0
    while not state.is_over:
        if state.stage != "draft":
            for s in range(players):
                faces = tuple(f for _, f in dice.die_set(state, s))
                c, py = both(state.rng.state, faces)
                assert c == py
                assert c[1] and all(type(f) is str for f in c[1])
                compared += 1
        state.apply(legal.random_move(state, state.to_act[0], rng))
    assert compared > 300


FACES = ("red", "blue", "gray", "yellow", "wild", "red/blue", "x")


@compiled
@settings(max_examples=300, deadline=None, derandomize=True)
@given(state=st_.integers(0, 2**64 - 1),
       faces=st_.lists(st_.lists(st_.sampled_from(FACES), min_size=1, max_size=13).map(tuple), max_size=14))
def test_compiled_roll_is_the_python_roll_for_any_dice(state, faces):
    """H, issue 34: any generator state, any number of dice with any number of faces (bounds
    that reject many draws too): the same faces and the same next state."""
    c, py = both(state, tuple(faces))
    assert c == py


@compiled
def test_compiled_roll_answers_none_where_the_arguments_are_not_its_form():
    """Issue 34: a state out of 0..2**64-1 or no int, faces not a tuple of non-empty tuples: None,
    nothing drawn (the caller rolls in Python)."""
    good = (("red", "blue"),)
    assert dice._roll_c(-1, good) is None
    assert dice._roll_c(2**64, good) is None
    assert dice._roll_c("1", good) is None
    assert dice._roll_c(1, [("red",)]) is None
    assert dice._roll_c(1, (["red"],)) is None
    assert dice._roll_c(1, (("red",), ())) is None
    assert dice._roll_c(1, ()) == (1, [])
    with pytest.raises(TypeError):
        dice._roll_c(1)


def test_roll_all_is_the_same_with_and_without_the_c_part(monkeypatch):
    """H, issue 34: a game whose every roll goes through the reference (the C part set aside)
    ends in the same digest as one rolled by the C part (where built)."""
    def play(state):
        rng = Rng(7)
        while not state.is_over:
            state.apply(legal.random_move(state, state.to_act[0], rng))
        return state.digest()

    first = play(new_game(Config("west-coast", 3), 7))
    monkeypatch.setattr(dice, "_roll_c", None)
    assert play(new_game(Config("west-coast", 3), 7)) == first
