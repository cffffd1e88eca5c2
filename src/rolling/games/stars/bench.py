"""Speed measurements of the Rolling Stock Stars engine (``rolling bench stars``).

- replay: actions per second replaying a recorded real 4-player game
  (``data/records/rss_hotseat_dividend.json``), state construction included;
- fixture replay: milliseconds to replay each of two imported 18xx.games records
  (``data/records/``: the 6-player ``rss_1005`` and the 4-player hotseat game), the minimum of
  repeated runs, log off, the record read and its actions parsed beforehand (the figures issue 10
  compares with the 18xx.games Ruby engine's 68 ms and 16.3 ms);
- fixture replay with parsing: the same, by :func:`rolling.core.record.replay` from the record's
  JSON actions, each read by the game's codec (what the Ruby engine's time includes: issue 34;
  ``benchmarks/ruby_replay.py`` times both engines in one run);
- random playouts: complete 4-player games per second with a uniform random policy over the
  compact legal moves (legal-move generation included);
- clone: microseconds per ``clone()`` of a mid-game state.
"""

from __future__ import annotations

import json
import time
from importlib import resources

from rolling.core.record import GameRecord, replay
from rolling.core.rng import Rng

from .actions import from_json
from .config import Config
from .engine import new_game

#: the bundled imported records, by name (``data/records/NAME.json``)
RECORDS = ("rss_1005", "rss_hotseat_dividend")


def bundled_record(name: str) -> GameRecord:
    """One of the bundled imported 18xx.games records (:data:`RECORDS`)."""
    text = resources.files(__package__).joinpath(f"data/records/{name}.json").read_text(encoding="utf-8")
    return GameRecord.from_json(json.loads(text))


def sample_record() -> GameRecord:
    """The bundled real 4-player hotseat game record."""
    return bundled_record("rss_hotseat_dividend")


def replay_ms(record: GameRecord, runs: int = 20, seconds: float = 0.0) -> float:
    """The fastest of at least ``runs`` replays of ``record`` (and as many more as fit in
    ``seconds``), in milliseconds: a new game, then every action (parsed beforehand), log off. The
    minimum is the figure least disturbed by whatever else the machine is doing."""
    config = Config.from_json(record.config)
    actions = [from_json(a) for a in record.actions]
    best = float("inf")
    done = 0
    start = time.perf_counter()
    while done < runs or time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        s = new_game(config, record.seed)
        for a in actions:
            s.apply(a)
        best = min(best, time.perf_counter() - t0)
        done += 1
    return best * 1000


def replay_parsed_ms(record: GameRecord, runs: int = 20, seconds: float = 0.0, clock=time.perf_counter) -> float:
    """The fastest of at least ``runs`` calls of :func:`rolling.core.record.replay` on ``record``
    (and as many more as fit in ``seconds``), in milliseconds of ``clock`` (wall time; pass
    ``time.process_time`` for this process's CPU time, which other jobs on the machine disturb
    less): a new game, then every action read from its JSON form and applied, log off (replay with
    parsing: issue 34)."""
    best = float("inf")
    done = 0
    start = time.perf_counter()
    while done < runs or time.perf_counter() - start < seconds:
        t0 = clock()
        replay(record)
        best = min(best, clock() - t0)
        done += 1
    return best * 1000


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


def run_bench(seconds: float = 3.0) -> dict:
    """Run the measurements, each for about ``seconds``; return ``{"replay_actions_per_s",
    "random_games_per_s", "clone_us", "fixture_replay_ms": {record name: ms},
    "fixture_replay_parse_ms": {record name: ms}}``."""
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
    fixtures = {name: round(replay_ms(bundled_record(name), 20, seconds / 2), 3) for name in RECORDS}
    parsed = {name: round(replay_parsed_ms(bundled_record(name), 20, seconds / 2), 3) for name in RECORDS}
    return {
        "replay_actions_per_s": round(replay, 1),
        "random_games_per_s": round(playouts, 2),
        "clone_us": round(clone_us, 3),
        "fixture_replay_ms": fixtures,
        "fixture_replay_parse_ms": parsed,
    }
