"""Replay with parsing, Rolling against the 18xx.games Ruby engine, in one run (issue 34).

For each of the two imported 18xx.games records bundled with Rolling Stock Stars (``rss_1005``, 6
players; ``rss_hotseat_dividend``, 4 players), times Rolling's ``replay()`` of the record (a new
game and every action read from its JSON form and applied, log off; the fastest of ``--runs``)
before and after ``benchmarks/ruby_replay.rb`` times the Ruby engine's ``Engine::Game.load`` of
the site's export of the same game (``tests/fixtures/18xx``; the fastest of ``--runs``), and
reports both and their ratio, in wall time and in CPU time. The Ruby replay must finish with the export's recorded scores.

Run: ``python benchmarks/ruby_replay.py --checkout PATH/TO/18xx [--runs 20]`` (a clone of
github.com/tobymao/18xx; default: $ROLLING_18XX_CHECKOUT). Prints one JSON object. Without Ruby or
without the checkout it prints one line saying so and exits 0 (skipped).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from rolling.games.stars.bench import RECORDS, bundled_record, replay_ms, replay_parsed_ms

ROOT = Path(__file__).resolve().parent.parent
EXPORTS = ROOT / "tests" / "fixtures" / "18xx"
SCRIPT = Path(__file__).resolve().parent / "ruby_replay.rb"


def missing(checkout: str | None) -> str | None:
    """Why the comparison cannot run here (no Ruby, no checkout), or None."""
    if shutil.which("ruby") is None:
        return "no ruby on PATH"
    if not checkout:
        return "no 18xx.games checkout given (--checkout or ROLLING_18XX_CHECKOUT)"
    if not (Path(checkout) / "lib" / "engine.rb").is_file():
        return f"{checkout} is no 18xx.games checkout (no lib/engine.rb)"
    return None


def ruby_times(checkout: str, runs: int) -> dict:
    """The Ruby engine's figures from ``ruby_replay.rb`` (raises SystemExit with one line if it fails
    or its replay does not end with the recorded scores)."""
    args = ["ruby", str(SCRIPT), str(checkout), str(runs), *(str(EXPORTS / f"{n}.json") for n in RECORDS)]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[0]
        raise SystemExit(f"ruby_replay: the Ruby engine failed: {last}")
    out = json.loads(done.stdout)
    for name in RECORDS:
        recorded = json.loads((EXPORTS / f"{name}.json").read_text(encoding="utf-8"))["result"]
        got = out["records"][name]
        if got["exception"] or got["scores"] != {str(k): v for k, v in recorded.items()}:
            raise SystemExit(f"ruby_replay: the Ruby replay of {name} did not end with the recorded scores")
    return out


def compare(checkout: str, runs: int = 20) -> dict:
    """Both engines on both records, Rolling timed before and after Ruby (its best kept), in wall
    time and in CPU time (on a busy machine the CPU time is the fairer figure: a 60 ms Ruby replay
    is interrupted by other jobs more often than a 3 ms one)."""
    records = {name: bundled_record(name) for name in RECORDS}

    def rolling(name: str) -> tuple[float, float]:
        r = records[name]
        return replay_parsed_ms(r, runs), replay_parsed_ms(r, runs, clock=time.process_time)

    first = {name: rolling(name) for name in RECORDS}
    ruby = ruby_times(checkout, runs)
    out = {"ruby": ruby["ruby"], "python": sys.version.split()[0], "runs": runs, "records": {}}
    for name, r in records.items():
        again = rolling(name)
        wall, cpu = min(first[name][0], again[0]), min(first[name][1], again[1])
        rb = ruby["records"][name]
        out["records"][name] = {
            "ruby_ms": rb["ms"],
            "ruby_cpu_ms": rb["cpu_ms"],
            "rolling_replay_ms": round(wall, 3),
            "rolling_replay_cpu_ms": round(cpu, 3),
            "rolling_preparsed_ms": round(replay_ms(r, runs), 3),
            "times_faster": round(rb["ms"] / wall, 1),
            "times_faster_cpu": round(rb["cpu_ms"] / cpu, 1),
            "actions": {"rolling": len(r.actions), "export": rb["actions"]},
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=os.environ.get("ROLLING_18XX_CHECKOUT"), help="a clone of tobymao/18xx")
    ap.add_argument("--runs", type=int, default=20, help="replays per engine and record (the fastest counts)")
    a = ap.parse_args()
    if a.runs < 1:
        raise SystemExit("ruby_replay: --runs must be 1 or more")
    why = missing(a.checkout)
    if why:
        print(f"ruby_replay: skipped: {why}")
        return
    print(json.dumps(compare(a.checkout, a.runs), indent=1))


if __name__ == "__main__":
    main()
