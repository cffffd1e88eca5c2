"""The garbage collector as simulation runs it (rolling.sim.collector, issue 34): seldom, and only
while games are played, because the engines' games make no reference cycles."""

from __future__ import annotations

import gc

import pytest

from rolling.sim import table
from rolling.sim.collector import SIMULATION_THRESHOLD, simulation_collector
from rolling.sim.table import play_chunk

#: bots of each engine that simulate plays: the games must leave no cyclic garbage
SEATS = {
    "stars": ("heuristic", "random", "random", "heuristic"),
    "freight": ("heuristic", "random", "random"),
    "market": ("heuristic",),
}
OPTIONS = {"stars": {}, "freight": {"map": "west-coast"}, "market": {}}


@pytest.fixture
def default_collector():
    old = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*old)


def test_the_threshold_is_raised_inside_and_restored_after(default_collector):
    with simulation_collector():
        assert gc.get_threshold() == (SIMULATION_THRESHOLD, 10, 10)
        assert gc.isenabled()
    assert gc.get_threshold() == (700, 10, 10)


def test_restored_after_an_exception(default_collector):
    with pytest.raises(RuntimeError), simulation_collector(5000):
        assert gc.get_threshold()[0] == 5000
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_blocks_and_a_users_own_setting_are_kept(default_collector):
    with simulation_collector(), simulation_collector(2000):
        assert gc.get_threshold()[0] == SIMULATION_THRESHOLD  # the outer, seldomer setting stays
    assert gc.get_threshold() == (700, 10, 10)
    gc.set_threshold(500_000, 10, 10)
    with simulation_collector():
        assert gc.get_threshold()[0] == 500_000
    assert gc.get_threshold()[0] == 500_000


def test_a_threshold_below_one_is_refused(default_collector):
    with pytest.raises(ValueError, match="1 or more"), simulation_collector(0):
        pass  # pragma: no cover
    assert gc.get_threshold() == (700, 10, 10)


def test_cycles_are_still_collected(default_collector):
    class Node:
        __slots__ = ("other",)

    with simulation_collector():
        gc.collect()
        before = gc.get_stats()[0]["collections"]
        n = SIMULATION_THRESHOLD  # two nodes a cycle: more net objects than the threshold
        for _ in range(n):
            a, b = Node(), Node()
            a.other, b.other = b, a
            del a, b
        assert gc.get_stats()[0]["collections"] > before  # a pass ran by itself
        assert gc.collect() < 2 * n  # and found some of the cycles


def test_play_chunk_plays_with_the_simulation_collector(monkeypatch, default_collector):
    seen = []
    real = table.play_rows

    def watching(*args):
        seen.append(gc.get_threshold()[0])
        return real(*args)

    monkeypatch.setattr(table, "play_rows", watching)
    play_chunk("market", SEATS["market"], 3, {}, 0, 2)
    assert seen == [SIMULATION_THRESHOLD] * 2
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_engines_games_make_no_cyclic_garbage(game):
    """The premise of the seldom collector: each engine's games, played by the bots simulate
    plays, leave nothing that only the cyclic collector could free."""
    play_chunk(game, SEATS[game], 1, OPTIONS[game], 0, 1)  # imports and first-use tables made before
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        play_chunk(game, SEATS[game], 1, OPTIONS[game], 1, 4)
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()
