"""Benchmark of ``rolling serve`` (not a test): N concurrent games played through the HTTP API
against one server process, each seat a script choosing random legal actions from the decisions
the API lists, as a person's page would. Reports actions/s and the 50th and 95th percentile
latency of an action request (``POST /api/games/{id}/actions``, the full game document answered).

Usage::

    python benchmarks/serve_bench.py --games 100 --players 4 --seconds 30 [--think 1] [--db URL | --url URL]

``--warmup`` seconds pass before anything is measured (the games being created).
``--think``: mean seconds each script waits between seeing the game and acting (drawn uniformly
from 0 to twice that; default 1 s, so 100 four-player games send about 100 actions a second,
far more than people playing; 0: a closed loop, as fast as the server answers, which measures
throughput: latency is then the queue). The client runs on the same machine as the server. The
server runs with a bot pace of 0 and, unless ``--db`` says otherwise, a fresh SQLite file in a
temporary folder; ``--url`` measures a server already running instead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

import rolling


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int) -> subprocess.Popen:
    env = dict(os.environ)
    src = str(Path(rolling.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # every script plays from this one address: the per-address limits raised (still counted, so
    # their cost is measured), the per-token ones as a server has them
    env.setdefault("ROLLING_RATE_CREATE", "100000/minute")
    env.setdefault("ROLLING_RATE_ACT_ADDRESS", "100000/second")
    proc = subprocess.Popen([sys.executable, "-m", "rolling.cli.main", "serve", "--port", str(port), "--db", db,
                             "--bot-pace", "0"], env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def choose(doc: dict, rng: random.Random) -> tuple[int, dict]:
    seat = next(k for k in doc["to_act"] if str(k) in doc["decisions"])
    d = rng.choice(doc["decisions"][str(seat)])
    action = d["action"] or {"type": d["type"], **d["args"], d["field"]: rng.randint(d["lo"], d["hi"])}
    return seat, action


async def play(base: str, k: int, args, stop: float, latencies: list[float], counts: dict) -> None:
    # one client (one keep-alive connection) per game, as each player's browser has its own
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        await play_games(c, k, args, stop, latencies, counts)


async def play_games(c: httpx.AsyncClient, k: int, args, stop: float, latencies: list[float], counts: dict) -> None:
    rng = random.Random(k)
    while time.time() < stop:
        r = await c.post("/api/games", json={"game": "stars", "config": {"players": args.players},
                                             "seats": ["human"] * args.players, "seed": rng.randrange(2**31)})
        g = r.json()
        headers = {"X-Seat-Tokens": ",".join(s["token"] for s in g["seats"])}
        doc = (await c.get(f"/api/games/{g['id']}", headers=headers)).json()
        while not doc["over"] and time.time() < stop:
            if args.think:
                await asyncio.sleep(rng.uniform(0, 2 * args.think))
            seat, action = choose(doc, rng)
            t = time.perf_counter()
            r = await c.post(f"/api/games/{g['id']}/actions", json={"version": doc["version"], "seat": seat,
                                                                     "action": action}, headers=headers)
            if time.time() < counts["measure_from"]:
                doc = r.json() if r.status_code == 200 else doc
                continue
            latencies.append(time.perf_counter() - t)
            timing = r.headers.get("server-timing", "")
            if "dur=" in timing:
                counts.setdefault("server", []).append(float(timing.split("dur=")[1]) / 1000)
            if r.status_code != 200:
                counts["errors"] += 1
                doc = (await c.get(f"/api/games/{g['id']}", headers=headers)).json()
                continue
            doc = r.json()
            counts["actions"] += 1
        if doc["over"]:
            counts["games"] += 1


async def run(args, base: str) -> dict:
    latencies: list[float] = []
    counts: dict = {"actions": 0, "errors": 0, "games": 0, "measure_from": time.time() + args.warmup}
    start = time.time()
    stop = start + args.seconds
    await asyncio.gather(*[play(base, k, args, stop, latencies, counts) for k in range(args.games)])
    if True:
        elapsed = time.time() - max(start, counts.pop("measure_from"))
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    server = counts.pop("server", []) or [0.0, 0.0]
    qs = statistics.quantiles(server, n=100) if len(server) > 1 else [0.0] * 99
    return {"games": args.games, "players": args.players, "think_s": args.think, "seconds": round(elapsed, 1),
            "actions": counts["actions"], "errors": counts["errors"], "finished_games": counts["games"],
            "actions_per_s": round(counts["actions"] / elapsed, 1),
            "p50_ms": round(q[49] * 1000, 1), "p95_ms": round(q[94] * 1000, 1),
            "server_p50_ms": round(qs[49] * 1000, 1), "server_p95_ms": round(qs[94] * 1000, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="concurrent games")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a script waits before acting (0: a closed loop)")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (games being created)")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--url", default=None, help="a server already running (started with --bot-pace 0), "
                                                "instead of starting one")
    args = ap.parse_args()
    if args.url:
        res = asyncio.run(run(args, args.url.rstrip("/")))
    else:
        res = serve_and_run(args)
    for k, v in res.items():
        print(f"{k:>15}: {v}")


def serve_and_run(args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        port = free_port()
        proc = start_server(db, port)
        try:
            res = asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.terminate()
            proc.wait(10)
    return res


if __name__ == "__main__":
    main()
