"""``rolling analyze`` speed (issue 32): a 500-action 4-player Rolling Stock Stars game at 0.1 s
per decision on 2 workers, target: at most 60 s.

The game: the first 500 actions of a 4-player game of heuristic bots (seed 1; a whole game is
about 1,100 actions). Prints one JSON line: wall seconds, decisions per second, the mean
determinizations per decision, the CPU count and the 1-minute load average before and after (on a
shared machine other processes take cores from the workers: the load says how busy it was).

Run: ``python benchmarks/analysis_bench.py [ACTIONS] [BUDGET] [WORKERS]`` (defaults 500 0.1s 2).
"""

from __future__ import annotations

import json
import os
import sys
import time

from rolling.analysis import analyze
from rolling.bots.stars_heuristic import StarsHeuristicBot
from rolling.core.record import GameRecord
from rolling.games.stars import Config, new_game
from rolling.sim.stars import pick_seat


def heuristic_record(actions: int, seed: int = 1, players: int = 4) -> GameRecord:
    """The first ``actions`` actions of a heuristic game (all of it if shorter)."""
    s = new_game(Config(players=players), seed)
    bots = [StarsHeuristicBot(k) for k in range(players)]
    record = GameRecord("stars", s.config.to_json(), seed)
    last = 0
    while not s.is_over and len(record.actions) < actions:
        seat = pick_seat(s, last)
        a = bots[seat].choose(s, seat)
        record.actions.append(a.to_json())
        s.apply(a)
        last = seat
    return record


def main() -> None:
    actions = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    budget = sys.argv[2] if len(sys.argv) > 2 else "0.1s"
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    record = heuristic_record(actions)
    load_before = os.getloadavg()[0]
    t0 = time.perf_counter()
    result = analyze(record, budget=budget, seed=0, workers=workers)
    wall = time.perf_counter() - t0
    its = [d["iterations"] for d in result["decisions"]]
    print(json.dumps({
        "actions": len(record.actions), "budget": budget, "workers": workers, "seconds": round(wall, 1),
        "target_seconds": 60, "decisions_per_s": round(len(its) / wall, 1),
        "mean_determinizations": round(sum(its) / len(its), 2), "cpus": os.cpu_count(),
        "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
    }))


if __name__ == "__main__":
    main()
