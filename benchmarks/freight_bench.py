"""Rolling Freight engine speed: games and actions per second with random and heuristic bots.

Run: ``python benchmarks/freight_bench.py [GAMES]``. Prints one JSON line per map and bot mix.
"""

from __future__ import annotations

import json
import sys
import time

from rolling.bots import make_bot
from rolling.games.freight import Config, new_game
from rolling.sim import play_game
from rolling.sim.collector import simulation_collector


def bench(map_name: str, seats: list[str], games: int) -> dict:
    """Play ``games`` games and time them (bot time included, the collector as simulation runs it)."""
    t0 = time.perf_counter()
    actions = 0
    with simulation_collector():  # as `rolling simulate` plays
        for g in range(games):
            state = new_game(Config(map_name, len(seats)), g)
            actions += len(play_game(state, [make_bot("freight", b, g * 10 + i) for i, b in enumerate(seats)]))
    wall = time.perf_counter() - t0
    return {"map": map_name, "seats": seats, "games": games, "seconds": round(wall, 2),
            "games_per_s": round(games / wall, 2), "actions_per_s": round(actions / wall)}


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for map_name in ("west-coast", "southern"):
        for seats in (["random"] * 3, ["heuristic", "random", "random"]):
            print(json.dumps(bench(map_name, seats, n)))
