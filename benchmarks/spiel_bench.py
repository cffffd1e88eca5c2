"""OpenSpiel search cost on Rolling Freight (issue 33 item 1).

Run: ``python benchmarks/spiel_bench.py [DECISIONS] [--mcts GAMES]``. Prints JSON lines:

- ``clone``: at ``DECISIONS`` decisions (default 120) into a 3-player West Coast game of random
  play, the CPU time of ``state.clone()`` (OpenSpiel's, from C++), of ``copy.deepcopy(state)`` and
  of the engine's own ``FreightState.clone()``, in microseconds, and their ratios (goal: at most 5);
- ``mcts`` (with ``--mcts``): the CPU seconds of whole 3-player games where seat 0 is OpenSpiel's
  ``MCTSBot`` (10 simulations, one random rollout each) and the others play at random (goal: under
  a minute a game).

CPU time (``time.process_time``), not wall time, so that a shared machine does not skew it.
"""

from __future__ import annotations

import copy
import json
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import rolling.spiel  # noqa: F401 - registers the games


def _cpu_us(fn, repeat: int) -> float:
    t = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - t) / repeat * 1e6


def clone_ratio(decisions: int = 120, repeat: int = 2000, seed: int = 0) -> dict:
    """Clone costs at ``decisions`` decisions into a random game (module docstring)."""
    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    made = 0
    while made < decisions and not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
            made += 1
    engine = s.table.state
    spiel_us = _cpu_us(s.clone, repeat)
    deep_us = _cpu_us(lambda: copy.deepcopy(s), repeat)
    engine_us = _cpu_us(engine.clone, repeat)
    return {"bench": "clone", "decisions": made, "history": len(s.history()),
            "spiel_clone_us": round(spiel_us, 1), "deepcopy_us": round(deep_us, 1),
            "engine_clone_us": round(engine_us, 1), "ratio": round(spiel_us / engine_us, 2),
            "deepcopy_ratio": round(deep_us / engine_us, 2)}


def mcts_game(seed: int = 0, simulations: int = 10) -> dict:
    """One 3-player Freight game, seat 0 ``MCTSBot`` with random rollouts, the others random."""
    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       random_state=np.random.RandomState(seed + 1))
    rng = np.random.default_rng(seed)
    t = time.process_time()
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
        elif s.current_player() == 0:
            s.apply_action(bot.step(s))
            moves += 1
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    cpu = time.process_time() - t
    return {"bench": "mcts", "seed": seed, "simulations": simulations, "mcts_moves": moves,
            "cpu_s": round(cpu, 1), "cpu_ms_per_move": round(cpu / max(moves, 1) * 1e3, 1),
            "returns": s.returns()}


if __name__ == "__main__":
    args = sys.argv[1:]
    games = 0
    if "--mcts" in args:
        i = args.index("--mcts")
        games = int(args[i + 1]) if i + 1 < len(args) else 1
        del args[i:i + 2]
    print(json.dumps(clone_ratio(int(args[0]) if args else 120)))
    for g in range(games):
        print(json.dumps(mcts_game(g)))
