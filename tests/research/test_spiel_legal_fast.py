"""Issue 33 item 1 (OpenSpiel search on Freight practical): ``legal_actions`` and
``is_chance_node`` are answered in Python, without OpenSpiel's C++ round trip; they must give
exactly what OpenSpiel's own (``pyspiel.State``'s, which calls ``_legal_actions``) gives, at every
node and for every player, in all three games."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("greenlet")

import rolling.spiel  # noqa: E402, F401 - registers the games


@pytest.mark.parametrize(("name", "params", "steps"), [
    ("python_rolling_freight", {"players": 3}, 700),
    ("python_rolling_freight", {"players": 4, "map": "southern"}, 400),
    ("python_rolling_stars", {}, 400),
    ("python_rolling_market", {}, 400),
])
def test_legal_actions_as_openspiel_gives_them(name, params, steps):
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(7)
    s = game.new_initial_state()
    seen = set()
    for _ in range(steps):
        for p in [None, *range(game.num_players())]:
            mine = s.legal_actions() if p is None else s.legal_actions(p)
            theirs = pyspiel.State.legal_actions(s) if p is None else pyspiel.State.legal_actions(s, p)
            assert mine == theirs
            assert all(type(k) is int for k in mine)
        assert s.is_chance_node() == pyspiel.State.is_chance_node(s)
        seen.add("chance" if s.is_chance_node() else "terminal" if s.is_terminal() else "decision")
        if s.is_terminal():
            break
        listed = s.legal_actions()
        s.apply_action(int(listed[rng.randint(len(listed))]))
    assert {"chance", "decision"} <= seen


def test_an_illegal_index_is_refused_and_changes_nothing():
    """Issue 33 item 1: the legality check reads the legal indices (no mask), an index outside
    the action space included."""
    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    s = game.new_initial_state()
    rng = np.random.RandomState(3)
    while s.is_chance_node():
        s.apply_action(int(rng.randint(len(s.chance_outcomes()))))
    legal = set(s.legal_actions())
    before = str(s)
    for bad in (next(k for k in range(game.num_distinct_actions()) if k not in legal),
                game.num_distinct_actions() + 5):
        with pytest.raises(Exception, match="not legal"):
            s.apply_action(bad)
        assert str(s) == before and set(s.legal_actions()) == legal
