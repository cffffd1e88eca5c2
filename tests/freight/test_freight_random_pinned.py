"""Random and mixed Freight games, and every ``legal_actions`` list along random games, pinned:
making the engine faster must not change a single listed move or outcome (issue 28 item 5's
payment listing made cheap; recorded with main at 2167105, before that speed-up)."""

from __future__ import annotations

import hashlib

import pytest

from rolling.bots import make_bot
from rolling.core.rng import Rng
from rolling.games.freight import Config, new_game
from rolling.sim import play_game

# (map, seats, seed) -> (actions, digest of the actions, final state digest)
GAMES = [
    ("west-coast", ("random",) * 3, 1, (398, "c83241aca07456c9", "4bd13dbe772c7ad5")),
    ("southern", ("random",) * 4, 2, (603, "0b50801d6a7d51fd", "3acde548709e168d")),
    ("west-coast", ("heuristic", "random", "random"), 5, (325, "556f58b106835068", "78d61af216017bbd")),
    ("southern", ("heuristic", "heuristic", "random"), 6, (405, "e6f52f94860a5816", "14a9bc17e27c73e4")),
]

# (map, players, seed) -> (decisions, digest of every legal_actions list of the seat to act)
LISTINGS = [
    ("west-coast", 3, 21, (413, "73e23f06d8d1f9c0")),
    ("southern", 5, 22, (525, "991e4bdd4e3e216c")),
    ("west-coast", 4, 23, (379, "958c52f2e3655a8e")),
]


@pytest.mark.parametrize(("map_name", "seats", "seed", "expected"), GAMES)
def test_bot_game_is_pinned(map_name, seats, seed, expected):
    state = new_game(Config(map_name, len(seats)), seed)
    actions = play_game(state, [make_bot("freight", b, seed * 10 + i) for i, b in enumerate(seats)])
    digest = hashlib.sha256("\n".join(repr(a) for a in actions).encode()).hexdigest()[:16]
    assert (len(actions), digest, state.digest()[:16]) == expected


@pytest.mark.parametrize(("map_name", "players", "seed", "expected"), LISTINGS)
def test_legal_actions_are_pinned(map_name, players, seed, expected):
    """Every legal_actions list (moves, payments and their order) along a game of random picks."""
    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed + 1000)
    h = hashlib.sha256()
    n = 0
    while not state.is_over:
        acts = state.legal_actions(state.to_act[0])
        h.update(repr(acts).encode())
        n += 1
        state.apply(acts[rng.below(len(acts))])
    assert (n, h.hexdigest()[:16]) == expected


@pytest.mark.parametrize(("map_name", "players", "seed"), [("west-coast", 3, 31), ("southern", 5, 32)])
def test_random_move_is_the_choice_among_legal_actions(map_name, players, seed):
    """Issue 34: the random bot's way to draw a move without listing them all
    (``legal.random_move``) gives at every decision the move ``rng.choice(legal_actions)`` gives,
    leaving the generator at the same point."""
    from rolling.games.freight.legal import random_move

    state = new_game(Config(map_name, players), seed)
    rng = Rng(seed)
    n = 0
    while not state.is_over:
        seat = state.to_act[0]
        twin = rng.copy()
        move = random_move(state, seat, rng)
        assert move == twin.choice(state.legal_actions(seat)) and rng.state == twin.state
        state.apply(move)
        n += 1
    assert n > 300
