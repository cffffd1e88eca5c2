"""Speed of the Rolling Market engine: actions/s, games/s, clones/s, and simulate's wall time.

Run: ``python benchmarks/market_bench.py [--games N]``. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

from rolling.core.rng import Rng
from rolling.games.market import DONE, MarketState
from rolling.sim import simulate


def engine_only(games: int) -> dict:
    # a cheap policy (a legal action drawn uniformly, or done half the time) so the engine dominates
    rng = Rng(1)
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        s = MarketState(g)
        while not s.over:
            a = DONE if rng.below(2) else rng.choice(s.legal_actions(0))
            s.apply(a)
            actions += 1
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": round(dt, 3), "games_per_s": round(games / dt),
            "actions_per_s": round(actions / dt)}


def clones(n: int) -> dict:
    s = MarketState(3)
    t0 = time.perf_counter()
    for _ in range(n):
        s.clone()
    dt = time.perf_counter() - t0
    return {"clones_per_s": round(n / dt)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=10000)
    args = p.parse_args()
    out = {"engine": engine_only(args.games), "clone": clones(200_000)}
    for bot in ("random", "heuristic"):
        t0 = time.perf_counter()
        stats = simulate("market", bot, args.games, seed=0)
        out[f"simulate_{bot}"] = {**{k: stats[k] for k in ("games", "mean", "median", "p5", "p95")},
                                  "seconds": round(time.perf_counter() - t0, 2)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
