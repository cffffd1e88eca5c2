"""The search core shared by the search bots (rolling.bots.ismcts), on a toy game whose values are
known: a one-decision bandit with noisy arms, hidden information and an exact variant."""

from __future__ import annotations

import pytest

from rolling.bots.ismcts import Budget, Node, search, widened
from rolling.core.rng import Rng


class Toy:
    """One decision for seat 0: pull arm k (reward mean MEANS[k], noise drawn in the
    determinization: the hidden information), then the game is over."""

    MEANS = (0.3, 0.8, 0.5, 0.45)

    def __init__(self, noise: float = 0.2, exact: bool = False) -> None:
        self.noise = noise
        self.is_exact = exact
        self.determinized = 0

    class State:
        def __init__(self, arm=None, luck=0.0):
            self.arm = arm
            self.luck = luck

        @property
        def is_over(self):
            return self.arm is not None

        def apply(self, arm):
            assert self.arm is None
            self.arm = arm

    def determinize(self, state, seat, rng):
        self.determinized += 1
        luck = 0.0 if self.is_exact else (rng.below(1001) / 1000 - 0.5) * 2 * self.noise
        return Toy.State(state.arm, luck)

    def candidates(self, state, seat):
        return [(k, k) for k in range(len(self.MEANS))]

    def next_seat(self, state):
        return 0

    def policy(self, state, seat):
        raise AssertionError("the toy game has no other decision")

    def stop(self, state, root):
        return state.is_over

    def reward(self, state, seat):
        return min(1.0, max(0.0, self.MEANS[state.arm] + state.luck))

    def describe(self, state, action):
        return f"arm {action}"

    def new_playout(self):
        pass

    def exact(self, state):
        return self.is_exact


def test_the_search_finds_the_best_arm_and_visits_it_most():
    game = Toy()
    res = search(game, Toy.State(), 0, Budget(iterations=400), Rng(1))
    assert res.best == 1 and res.iterations == 400 == game.determinized
    assert res.ranked[0][2] > 200  # most visits on the best arm
    assert sum(v for _, _, v, _ in res.ranked) == 400
    assert res.ranked[0][3] == pytest.approx(0.8, abs=0.05)


def test_same_seed_and_iterations_same_statistics():
    a = search(Toy(), Toy.State(), 0, Budget(iterations=100), Rng(7))
    b = search(Toy(), Toy.State(), 0, Budget(iterations=100), Rng(7))
    assert a.ranked == b.ranked


def test_exact_decisions_play_each_candidate_once():
    game = Toy(exact=True)
    res = search(game, Toy.State(), 0, Budget(seconds=5.0), Rng(1))
    assert res.iterations == len(Toy.MEANS) and all(v == 1 for _, _, v, _ in res.ranked)
    assert res.best == 1 and res.seconds < 5.0


def test_a_time_budget_runs_at_least_a_few_iterations():
    res = search(Toy(), Toy.State(), 0, Budget(seconds=1e-9), Rng(1))
    assert res.iterations >= 4


def test_progressive_widening_opens_candidates_as_visits_grow():
    node = Node()
    seen = []
    for visits in (0, 1, 3, 8, 15, 1000):
        node.visits = visits
        seen.append(widened(node, 8))
    assert seen == sorted(seen) and seen[0] == 2 and seen[-1] == 8
    res = search(Toy(), Toy.State(), 0, Budget(iterations=1), Rng(1))
    assert [k for k, _, _, _ in res.ranked] == [0]  # one iteration tries the first candidate only


def test_a_time_budget_is_the_searching_threads_own_cpu_time():
    # issue 29 ("every request has a bound"): bots thinking at once in the web server's threads each
    # get their whole budget; with the process's CPU time, a busy neighbour thread (here: a loop
    # holding half the interpreter's time) ate half of it
    import threading
    import time

    stop = threading.Event()

    def busy():
        x = 0
        while not stop.is_set():
            x += 1

    neighbour = threading.Thread(target=busy)
    neighbour.start()
    try:
        out = {}

        def searcher():
            t0 = time.thread_time()
            out["result"] = search(Toy(), Toy.State(), 0, Budget(seconds=0.2), Rng(1))
            out["own"] = time.thread_time() - t0

        t = threading.Thread(target=searcher)
        t.start()
        t.join()
    finally:
        stop.set()
        neighbour.join()
    assert out["own"] >= 0.2 and out["result"].seconds >= 0.2
