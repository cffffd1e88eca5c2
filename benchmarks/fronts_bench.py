"""Rolling Freight's payment fronts alone: fronts per second (issue 34).

Run: ``python benchmarks/fronts_bench.py [GAMES] [REPEATS]``. Plays ``GAMES`` (default 10)
random 3-player West Coast games (the games of ``rolling bench freight``), records every walk
the listings asked for (:func:`rolling.games.freight.payways._fronts`: one hand, contracts and set
of prices; the memo's hits are not walks), then walks them all again ``REPEATS`` times (default
3) and prints one JSON line: the walks, the CPU seconds of the fastest pass and the fronts per
second, and the CPU seconds of the games themselves.

CPU time (``time.process_time``), not wall time, so that a shared machine skews it less; compare
two checkouts by running this alternately with each on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import sys
import time

from rolling.bots import make_bot
from rolling.games.freight import Config, new_game, payways
from rolling.sim import play_game


def record(games: int) -> tuple[list[tuple], float]:
    """The arguments of every walk of ``games`` random games, and the games' CPU seconds."""
    with payways.recorded_walks() as walks:
        t = time.process_time()
        for g in range(games):
            state = new_game(Config("west-coast", 3), g)
            play_game(state, [make_bot("freight", "random", g * 10 + i) for i in range(3)])
        cpu = time.process_time() - t
    return walks, cpu


def bench(games: int = 10, repeats: int = 3) -> dict:
    """Record the walks of ``games`` games and walk them again (module docstring)."""
    walks, games_cpu = record(games)
    walk = payways._fronts
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        for args in walks:
            walk(*args)
        best = min(best, time.process_time() - t)
    return {"bench": "fronts", "games": games, "walks": len(walks), "prices": sum(len(a[-1]) for a in walks),
            "cpu_s": round(best, 3), "fronts_per_s": round(len(walks) / best),
            "us_per_front": round(best / len(walks) * 1e6, 1), "games_cpu_s": round(games_cpu, 2)}


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(json.dumps(bench(n, reps)))
