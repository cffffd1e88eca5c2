"""Speed measurements of the Rolling Stock Stars engine (``rolling bench stars``).

- replay: actions per second replaying a recorded real 4-player game (``data/sample_game.json``),
  state construction included;
- random playouts: complete 4-player games per second with a uniform random policy over the
  compact legal moves (legal-move generation included);
- clone: microseconds per ``clone()`` of a mid-game state.
"""

from __future__ import annotations

import json
import time
from importlib import resources

from rolling.core.record import GameRecord
from rolling.core.rng import Rng

from .actions import from_json
from .config import Config
from .engine import new_game


def sample_record() -> GameRecord:
    """The bundled real 4-player game record."""
    text = resources.files(__package__).joinpath("data/sample_game.json").read_text(encoding="utf-8")
    return GameRecord.from_json(json.loads(text))


def random_playout(seed: int, players: int = 4) -> int:
    """Play one game to the end choosing uniformly among seats, moves and values; return its length."""
    rng = Rng(seed)
    s = new_game(Config(players=players), seed)
    n = 0
    while not s.over:
        seat = rng.choice(s.to_act)
        m = rng.choice(s.legal_moves(seat))
        s.apply(m.action(rng.randint(m.lo, m.hi) if m.field else None))
        n += 1
    return n


def run_bench(seconds: float = 3.0) -> dict[str, float]:
    """Run the three measurements, each for about ``seconds``; return
    ``{"replay_actions_per_s", "random_games_per_s", "clone_us"}``."""
    record = sample_record()
    config = Config.from_json(record.config)
    actions = [from_json(a) for a in record.actions]
    n_actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = new_game(config, record.seed)
        for a in actions:
            s.apply(a)
        n_actions += len(actions)
    replay = n_actions / (time.perf_counter() - t0)

    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        random_playout(games)
        games += 1
    playouts = games / (time.perf_counter() - t0)

    s = new_game(config, record.seed)
    for a in actions[: len(actions) // 2]:
        s.apply(a)
    reps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(1000):
            s.clone()
        reps += 1000
    clone_us = (time.perf_counter() - t0) / reps * 1e6
    return {"replay_actions_per_s": round(replay, 1), "random_games_per_s": round(playouts, 2), "clone_us": round(clone_us, 3)}
