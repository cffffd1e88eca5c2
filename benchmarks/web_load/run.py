"""The web load benchmark of issue 30: web processes and workers on one PostgreSQL, bots-only games
watched over WebSockets, scripted people (locust), optionally kill -9 of a random process now and
then; the figures, then the invariants checked by SQL.

    python benchmarks/web_load/run.py --db postgresql+psycopg://rolling@127.0.0.1:55434/rolling \\
        --games 1000 --people 50 --duration 120 [--kill-every 20]

What it does, in order:

1. starts the processes: ``scripts/cluster.sh`` (``--web`` ``rolling serve --no-worker`` processes and
   ``--workers`` ``rolling worker`` processes), or, where this checkout has no ``rolling worker``,
   ``--web`` plain ``rolling serve`` processes (they run the bots themselves);
2. creates ``--games`` bots-only games (heuristic bots, ``--bot-pace`` seconds a move) on the first
   web process and watches each over a WebSocket on the second (``/ws/games/{id}``);
3. runs ``--people`` scripted people for ``--duration`` seconds (``locustfile.py``: a person plays a
   seat against bots at their own pace, each request to the next web process in turn); meanwhile,
   with ``--kill-every K``, every K seconds one process drawn at random is killed with SIGKILL and
   started again (same command line) a second later; the queue's depth (``procrastinate_jobs`` by
   status) and the number of stored actions are sampled every second;
4. waits (at most ``--drain`` seconds) for every bots game to end;
5. reports actions/s, a person's action request (p50/p95/p99, from locust), commit-to-page lag (the
   action's commit time, ``actions.created``, against the arrival of the WebSocket message that
   first shows it, both on this machine's clock), the queue's depth over time;
6. checks by SQL, over the games of this run: every acknowledged action (a 200 to a person) is
   stored as the action numbered as acknowledged; action numbers run 1..n without a gap; every record
   replays (:func:`rolling.core.record.replay`); every bots game is over; no page was shown a
   version the database does not hold. Exit status 1 when one is broken, 2 for a bad command line.

The figures and the checks also go to ``--out``/report.json; the processes' logs to ``--out``.
The targets of issue 30 (a person's action p95 < 100 ms, commit-to-page lag p95 < 500 ms) are
reported, not enforced: the machine's load decides them as much as the code.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import quantiles
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CLUSTER = ROOT / "scripts" / "cluster.sh"
#: the first bytes of a game document carry these (``id, game, title, version, played, over``)
_VERSION = re.compile(rb'"version":(\d+),"played":(\d+),"over":(true|false)')


def fail(message: str) -> None:
    """A bad command line or set-up: one line on stderr, exit status 2."""
    print(f"run.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def free_port() -> int:
    """A TCP port free now on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], p: int) -> float | None:
    """The ``p``-th percentile (1..99) of ``values``, or None when there are fewer than two."""
    if len(values) < 2:
        return values[0] if values else None
    return quantiles(values, n=100, method="inclusive")[p - 1]


# -- the processes -------------------------------------------------------------------------------------
@dataclass
class Proc:
    """One process of the set-up: its role (``web`` or ``worker``), command line, environment,
    port (web) and the running process's id."""

    role: str
    argv: list[str]
    env: dict[str, str]
    cwd: str
    pid: int
    port: int | None = None
    popen: subprocess.Popen | None = None
    restarts: int = 0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["ROLLING_RATE_LIMITS"] = "off"  # the people all come from this one address
    return env


def has_worker() -> bool:
    """Whether this checkout has ``rolling worker``."""
    r = subprocess.run([sys.executable, "-m", "rolling.cli.main", "worker", "--help"], env=_env(),
                       capture_output=True, text=True, timeout=60)
    return r.returncode == 0


#: how the processes are started: ``cluster`` (scripts/cluster.sh), ``direct`` (the same
#: ``rolling serve --no-worker`` and ``rolling worker`` processes, started here), ``serve`` (plain
#: ``rolling serve`` processes, which play the bots themselves: a checkout without ``rolling worker``)
MODES = ("cluster", "direct", "serve")


def pick_mode(asked: str) -> str:
    """The mode for ``--mode`` (``auto``: cluster.sh where it and ``rolling worker`` exist)."""
    if asked != "auto":
        return asked
    if not has_worker():
        return "serve"
    return "cluster" if CLUSTER.exists() else "direct"


class Cluster:
    """The web processes and workers (:data:`MODES`), each of which :meth:`kill9` kills and
    :meth:`restart` starts again with the same command line and environment."""

    def __init__(self, db: str, web: int, workers: int, bot_pace: float, logs: Path, mode: str):
        self.db, self.web, self.workers, self.bot_pace = db, web, workers, bot_pace
        self.logs = logs
        self.mode = mode
        self.procs: list[Proc] = []
        self.dir: Path | None = None  # cluster.sh's folder (its pids, the processes' logs)
        self.events: list[dict[str, Any]] = []

    def start(self) -> None:
        env = _env()
        if self.mode == "cluster":
            # ``cluster.sh start`` starts the processes in the background and prints "web PID PORT" /
            # "worker PID" once every web process answers; the processes outlive the script
            env["ROLLING"] = f"{sys.executable} -m rolling.cli.main"  # this checkout's rolling
            self.dir = self.logs / "cluster"
            ports = ",".join(str(free_port()) for _ in range(self.web))
            cmd = ["bash", str(CLUSTER), "start", "--db", self.db, "--ports", ports, "--workers", str(self.workers),
                   "--bot-pace", str(self.bot_pace), "--dir", str(self.dir)]
            r = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=180)
            if r.returncode != 0:
                fail(f"scripts/cluster.sh start failed ({r.returncode}): {r.stderr.strip()[-500:]}")
            self._adopt(r.stdout)
        else:
            rolling = [sys.executable, "-m", "rolling.cli.main"]
            for k in range(self.web):
                port = free_port()
                argv = [*rolling, "serve", "--port", str(port), "--db", self.db, "--bot-pace", str(self.bot_pace)]
                if self.mode == "direct":
                    argv.append("--no-worker")
                p = Proc("web", argv, env, str(ROOT), 0, port)
                self._spawn(p, f"web{k}")
                self.procs.append(p)
            for k in range(self.workers if self.mode == "direct" else 0):
                p = Proc("worker", [*rolling, "worker", "--db", self.db, "--bot-pace", str(self.bot_pace)], env,
                         str(ROOT), 0)
                self._spawn(p, f"worker{k}")
                self.procs.append(p)
        self.wait_ready()

    def _adopt(self, listing: str) -> None:
        """Take the processes of cluster.sh's listing (``web PID PORT``, ``worker PID``): their
        command line, environment and folder, to start one again after :meth:`kill9`."""
        import psutil

        for line in listing.splitlines():
            parts = line.split()
            if len(parts) < 2 or parts[0] not in ("web", "worker"):
                continue
            try:
                proc = psutil.Process(int(parts[1]))
                p = Proc(parts[0], proc.cmdline(), proc.environ(), proc.cwd(), proc.pid,
                         int(parts[2]) if parts[0] == "web" else None)
            except (psutil.Error, ValueError, IndexError):
                fail(f"scripts/cluster.sh listed {line!r}, which is not a running process")
            self.procs.append(p)
        if len(self.webs()) != self.web or len(self.procs) - self.web != self.workers:
            fail(f"scripts/cluster.sh started {listing!r}, not {self.web} web processes and {self.workers} workers")

    def _spawn(self, p: Proc, name: str) -> None:
        log = (self.logs / f"{name}.log").open("ab")
        p.popen = subprocess.Popen(p.argv, env=p.env, cwd=p.cwd, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        p.pid = p.popen.pid

    def webs(self) -> list[Proc]:
        return [p for p in self.procs if p.role == "web"]

    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p.port}" for p in self.webs()]

    def wait_ready(self, timeout: float = 90) -> None:
        """Wait until every web process answers ``/healthz``."""
        import httpx

        deadline = time.time() + timeout
        for url in self.urls():
            while True:
                try:
                    if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.time() > deadline:
                    fail(f"{url} did not answer within {timeout:.0f} s (logs in {self.logs})")
                time.sleep(0.2)

    def kill9(self, p: Proc) -> None:
        """SIGKILL ``p`` (an event of the report)."""
        try:
            os.kill(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if p.popen is not None:
            p.popen.wait(10)
        else:
            _reap(p.pid)
        self.events.append({"t": time.time(), "killed": p.role, "pid": p.pid, "port": p.port})

    def restart(self, p: Proc) -> None:
        """Start ``p`` again with its command line (a supervisor's job in production)."""
        p.restarts += 1
        self._spawn(p, f"{p.role}{self.procs.index(p)}-restart{p.restarts}")
        self.events[-1]["restarted_pid"] = p.pid

    def cpu(self) -> dict[str, float]:
        """CPU seconds (user + system) per role of the processes running now (a process killed by
        :meth:`kill9` took its count with it)."""
        import psutil

        out: dict[str, float] = {}
        for p in self.procs:
            try:
                t = psutil.Process(p.pid).cpu_times()
            except psutil.Error:
                continue
            out[p.role] = round(out.get(p.role, 0.0) + t.user + t.system, 1)
        return out

    def stop(self) -> None:
        """SIGTERM everything started (SIGKILL after 15 s): ``cluster.sh stop`` for the processes
        it started, then those started again here."""
        if self.dir is not None:
            subprocess.run(["bash", str(CLUSTER), "stop", "--dir", str(self.dir)], cwd=ROOT, timeout=60,
                           capture_output=True)
        pids = [p.pid for p in self.procs]
        for pid in pids:
            with _quiet():
                os.kill(pid, signal.SIGTERM)
        deadline = time.time() + 15
        for p in self.procs:
            if p.popen is not None:
                try:
                    p.popen.wait(max(0.1, deadline - time.time()))
                except subprocess.TimeoutExpired:
                    p.popen.kill()
                    p.popen.wait()
            else:
                _reap(p.pid, max(0.1, deadline - time.time()))


class _quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], ProcessLookupError | PermissionError)


def _reap(pid: int, timeout: float = 10) -> None:
    """Wait for a process that is not our child to be gone (SIGKILL once ``timeout`` passed)."""
    import psutil

    try:
        proc = psutil.Process(pid)
        deadline = time.time() + timeout
        # (a process that is not our child may stay a zombie until its parent reaps it: gone all the same)
        while proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
            if time.time() > deadline:
                raise psutil.TimeoutExpired(timeout, pid)
            time.sleep(0.05)
    except psutil.TimeoutExpired:
        with _quiet():
            os.kill(pid, signal.SIGKILL)
    except psutil.NoSuchProcess:
        pass


# -- the database --------------------------------------------------------------------------------------
class Db:
    """The benchmark's SQL (through SQLAlchemy, from threads)."""

    def __init__(self, url: str):
        from sqlalchemy import create_engine

        self.engine = create_engine(url, pool_size=4)

    def rows(self, sql: str, **params: Any) -> list[tuple]:
        from sqlalchemy import text

        with self.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql), params)]

    def has_queue(self) -> bool:
        return self.rows("SELECT to_regclass('procrastinate_jobs') IS NOT NULL")[0][0]

    def reset(self) -> None:
        """Drop everything in the database's public schema (``--reset``: a benchmark's own database)."""
        from sqlalchemy import text

        with self.engine.begin() as conn:
            conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))


# -- the run -------------------------------------------------------------------------------------------
@dataclass
class Watch:
    """What the WebSocket watchers saw: per game, the arrivals ``(played, time)`` of messages that
    showed a newer version than the connection had shown (the first message of a connection is the
    state then, not a change, and is left out), and the highest version shown."""

    arrivals: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    shown: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    over: set[str] = field(default_factory=set)


async def watch(gid: str, urls: list[str], first: int, seen: Watch, stop: asyncio.Event) -> None:
    """Watch game ``gid`` over a WebSocket on ``urls[first]`` (the next process when that one fails)
    until the game is over or ``stop`` is set."""
    import websockets

    k = first
    arrivals = seen.arrivals.setdefault(gid, [])
    while not stop.is_set():
        url = urls[k % len(urls)].replace("http://", "ws://") + f"/ws/games/{gid}"
        try:
            async with websockets.connect(url, max_size=None, open_timeout=20, ping_interval=None) as ws:
                last = None
                while not stop.is_set():
                    try:
                        msg = await asyncio.wait_for(ws.recv(decode=False), 1.0)
                    except TimeoutError:
                        continue
                    t = time.time()
                    m = _VERSION.search(msg, 0, 4096)
                    if m is None:
                        continue
                    version, played, over = int(m[1]), int(m[2]), m[3] == b"true"
                    if last is not None and version > last:
                        arrivals.append((played, t))
                    last = version if last is None else max(last, version)
                    seen.shown[gid] = max(seen.shown.get(gid, 0), version)
                    if over:
                        seen.over.add(gid)
                        return
        except (OSError, TimeoutError, websockets.WebSocketException):
            seen.reconnects += 1
            k += 1
            await asyncio.sleep(0.5)


async def create_games(urls: list[str], n: int, game: str, players: int, seed: int) -> list[str]:
    """Create ``n`` bots-only games on ``urls[0]`` (eight requests at a time); their ids."""
    import httpx

    ids: list[str] = []
    sem = asyncio.Semaphore(8)
    async with httpx.AsyncClient(base_url=urls[0], timeout=60) as client:
        async def one(i: int) -> None:
            async with sem:
                r = await client.post("/api/games", json={"game": game, "config": {"players": players},
                                                         "seats": ["heuristic"] * players, "seed": seed + i})
                r.raise_for_status()
                ids.append(r.json()["id"])
        await asyncio.gather(*(one(i) for i in range(n)))
    return ids


async def sample(db: Db, queue: bool, samples: list[dict], stop: asyncio.Event) -> None:
    """Every second: the stored actions and the queue's jobs by status."""
    while not stop.is_set():
        t = time.time()
        try:
            row = await asyncio.to_thread(_sample_once, db, queue)
            samples.append({"t": t, **row})
        except Exception as e:  # (the database is busy: a sample missed is no failure)
            samples.append({"t": t, "error": str(e).splitlines()[0]})
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except TimeoutError:
            pass


def _sample_once(db: Db, queue: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"actions": db.rows("SELECT count(*) FROM actions")[0][0]}
    if queue:
        out["queue"] = {s: c for s, c in db.rows("SELECT status::text, count(*) FROM procrastinate_jobs GROUP BY status")}
    return out


async def killer(cluster: Cluster, every: float, rng: random.Random, stop: asyncio.Event) -> None:
    """Every ``every`` seconds: kill -9 a process drawn at random, start it again a second later."""
    while True:
        try:
            await asyncio.wait_for(stop.wait(), every)
            return
        except TimeoutError:
            pass
        p = rng.choice(cluster.procs)
        await asyncio.to_thread(cluster.kill9, p)
        await asyncio.sleep(1.0)
        await asyncio.to_thread(cluster.restart, p)


def run_locust(args: argparse.Namespace, urls: list[str], out: Path, acks: Path) -> subprocess.Popen:
    """locust, headless, in its own process: ``--people`` people for ``--duration`` seconds."""
    env = _env()
    env.update({"WEBLOAD_HOSTS": ",".join(urls), "WEBLOAD_ACKS": str(acks), "WEBLOAD_THINK": str(args.think),
                "WEBLOAD_GAME": args.game, "WEBLOAD_PLAYERS": str(args.players)})
    locust = shutil.which("locust", path=str(Path(sys.executable).parent)) or shutil.which("locust")
    if locust is None:
        fail("locust is not installed: pip install 'rolling[bench]'")
    cmd = [locust, "-f", str(HERE / "locustfile.py"), "--headless", "-u", str(args.people),
           "-r", str(max(1, args.people // 5)), "-t", f"{args.duration}s", "--host", urls[0],
           "--csv", str(out / "locust"), "--only-summary", "--stop-timeout", "5"]
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=(out / "locust.log").open("ab"), stderr=subprocess.STDOUT)


def wait_cpu(proc: subprocess.Popen, timeout: float) -> float | None:
    """Wait for ``proc`` to end (SIGKILL after ``timeout`` s); its CPU seconds (user + system)."""
    import threading

    result: list = []
    t = threading.Thread(target=lambda: result.append(os.wait4(proc.pid, 0)), daemon=True)
    t.start()
    t.join(timeout)
    if not result:
        proc.kill()
        t.join()
    _, status, usage = result[0]
    proc.returncode = os.waitstatus_to_exitcode(status)
    return round(usage.ru_utime + usage.ru_stime, 1)


def locust_figures(out: Path) -> dict[str, Any]:
    """The ``act`` row of locust's statistics: requests, failures, p50/p95/p99 (ms), requests/s."""
    import csv

    path = out / "locust_stats.csv"
    if not path.exists():
        return {}
    figures: dict[str, Any] = {}
    with path.open() as f:
        for row in csv.DictReader(f):
            if row["Name"] in ("act", "look", "create"):
                figures[row["Name"]] = {"requests": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                                        "p50_ms": float(row["50%"]), "p95_ms": float(row["95%"]),
                                        "p99_ms": float(row["99%"]), "per_s": round(float(row["Requests/s"]), 2)}
    return figures


async def main_async(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="web-load-"))
    out.mkdir(parents=True, exist_ok=True)
    db = Db(args.db)
    if args.reset:
        db.reset()
    mode = pick_mode(args.mode)
    cluster = Cluster(args.db, args.web, args.workers, args.bot_pace, out, mode)
    rng = random.Random(args.seed)
    acks = out / "acks.jsonl"
    acks.write_text("")
    report: dict[str, Any] = {"command": " ".join(sys.argv), "mode": mode,
                              "load_before": os.getloadavg()}
    stop_load, stop_watch = asyncio.Event(), asyncio.Event()
    seen = Watch()
    samples: list[dict] = []
    people: subprocess.Popen | None = None
    try:
        t0 = time.time()
        await asyncio.to_thread(cluster.start)
        report["start_s"] = round(time.time() - t0, 1)
        urls = cluster.urls()
        queue = await asyncio.to_thread(db.has_queue)
        t0 = time.time()
        ids = await create_games(urls, args.games, args.game, args.players, args.seed)
        report["create_s"] = round(time.time() - t0, 2)
        watchers = [asyncio.ensure_future(watch(g, urls, 1, seen, stop_watch)) for g in ids]
        sampler = asyncio.ensure_future(sample(db, queue, samples, stop_watch))
        start = time.time()
        stored0 = (await asyncio.to_thread(db.rows, "SELECT count(*) FROM actions"))[0][0]
        people = run_locust(args, urls, out, acks) if args.people > 0 else None
        kills = (asyncio.ensure_future(killer(cluster, args.kill_every, rng, stop_load))
                 if args.kill_every > 0 else None)
        await asyncio.sleep(args.duration)
        stop_load.set()
        if kills is not None:
            await kills
        if people is not None:
            report["cpu_s"] = {"locust": await asyncio.to_thread(wait_cpu, people, 60)}
        load_end = time.time()
        stored1 = (await asyncio.to_thread(db.rows, "SELECT count(*) FROM actions"))[0][0]
        # the drain: every bots game to its end (no more people, no more kills)
        drain_deadline = time.time() + args.drain
        left = len(ids)
        while time.time() < drain_deadline:
            left = (await asyncio.to_thread(db.rows, "SELECT count(*) FROM games WHERE id = ANY(:ids) AND NOT over",
                                            ids=ids))[0][0]
            if left == 0:
                break
            await asyncio.sleep(1.0)
        # the pages hear the last moves, then stop
        deadline = time.time() + 10
        while len(seen.over) < len(ids) - left and time.time() < deadline:
            await asyncio.sleep(0.2)
        end = time.time()
        stored2 = (await asyncio.to_thread(db.rows, "SELECT count(*) FROM actions"))[0][0]
        stop_watch.set()
        await asyncio.gather(*watchers, sampler, return_exceptions=True)
        report.setdefault("cpu_s", {}).update(cluster.cpu())
        report["cpu_s"]["this runner (watchers)"] = round(time.process_time(), 1)
    finally:
        stop_load.set()
        stop_watch.set()
        if people is not None and people.returncode is None and people.poll() is None:
            people.kill()  # (interrupted: Ctrl-C, or a set-up that failed)
            people.wait()
        await asyncio.to_thread(cluster.stop)
    report["load_after"] = os.getloadavg()
    report.update({
        "games": len(ids), "people": args.people, "duration_s": args.duration, "kill_every_s": args.kill_every,
        "load_s": round(load_end - start, 1), "drain_s": round(end - load_end, 1),
        "actions_load": stored1 - stored0, "actions_per_s_load": round((stored1 - stored0) / (load_end - start), 1),
        "actions_total": stored2 - stored0, "actions_per_s_total": round((stored2 - stored0) / (end - start), 1),
        "people_requests": locust_figures(out), "kills": cluster.events, "ws_reconnects": seen.reconnects,
    })
    report["lag_ms"] = await asyncio.to_thread(lag_figures, db, seen)
    report["queue"] = queue_figures(samples)
    report["checks"] = await asyncio.to_thread(check, db, ids, acks, seen)
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    print_report(report, out)
    return 0 if all(c["ok"] for c in report["checks"].values()) else 1


def lag_figures(db: Db, seen: Watch) -> dict[str, Any]:
    """Commit-to-page lag: for each message that showed action ``n`` first on its connection, its
    arrival less ``actions.created`` of action ``n`` (ms)."""
    lags: list[float] = []
    for gid, arrivals in seen.arrivals.items():
        if not arrivals:
            continue
        created = dict(db.rows("SELECT n, created FROM actions WHERE game_id = :g", g=gid))
        lags.extend((t - created[n]) * 1000 for n, t in arrivals if n in created)
    lags.sort()
    return {"messages": len(lags), "p50": _r(pct(lags, 50)), "p95": _r(pct(lags, 95)), "p99": _r(pct(lags, 99)),
            "max": _r(lags[-1] if lags else None)}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def queue_figures(samples: list[dict]) -> dict[str, Any]:
    """The queue's depth over the run: the largest number of jobs per status, and a sample every
    10 s (``[seconds from the start, {status: jobs}]``)."""
    rows = [s for s in samples if "queue" in s]
    if not rows:
        return {"note": "no procrastinate_jobs table: bots ran in the web processes"}
    t0 = rows[0]["t"]
    peak: dict[str, int] = {}
    for s in rows:
        for k, v in s["queue"].items():
            peak[k] = max(peak.get(k, 0), v)
    series, nxt = [], t0
    for s in rows:
        if s["t"] >= nxt:
            series.append([round(s["t"] - t0), s["queue"]])
            nxt += 10
    return {"peak": peak, "every_10_s": series}


def check(db: Db, ids: list[str], acks: Path, seen: Watch) -> dict[str, dict[str, Any]]:
    """The invariants, by SQL over the games of this run (see the module's docstring)."""
    from rolling.core.record import GameRecord, RecordError, replay
    from rolling.games import get_game

    out: dict[str, dict[str, Any]] = {}
    acked = [json.loads(line) for line in acks.read_text().splitlines() if line.strip()]
    games = set(ids) | {a["game"] for a in acked}
    gl = sorted(games)
    kinds = dict(db.rows("SELECT id, game FROM games WHERE id = ANY(:ids)", ids=gl))
    bad = []
    for a in acked:
        got = next(iter(db.rows("SELECT seat, action FROM actions WHERE game_id = :g AND n = :n",
                                g=a["game"], n=a["n"])), None)
        if got is None:
            bad.append(f"{a['game']} action {a['n']}: acknowledged, not stored")
            continue
        spec = get_game(kinds[a["game"]])
        sent = dict(a["action"])
        if "seat" in got[1] and "seat" not in sent:
            sent["seat"] = a["seat"]
        if got[0] != a["seat"] or spec.action_from_json(sent).to_json() != spec.action_from_json(got[1]).to_json():
            bad.append(f"{a['game']} action {a['n']}: stored {got} differs from the acknowledged {a['action']}")
    out["acknowledged_stored"] = {"ok": not bad, "acknowledged": len(acked), "broken": bad[:10]}

    gaps = db.rows("SELECT g.id, count(a.n), coalesce(min(a.n), 1), coalesce(max(a.n), 0), g.version FROM games g "
                   "LEFT JOIN actions a ON a.game_id = g.id WHERE g.id = ANY(:ids) GROUP BY g.id, g.version", ids=gl)
    bad = [f"{g}: {c} actions numbered {lo}..{hi}" for g, c, lo, hi, _ in gaps if c and (lo != 1 or hi != c)]
    bad += [f"{g}: version {v} below its {c} actions" for g, c, _, _, v in gaps if v < c]
    bad += [f"{g}: not stored" for g in sorted(games - {r[0] for r in gaps})]
    out["no_gaps"] = {"ok": not bad, "games": len(gaps), "broken": bad[:10]}

    heads = db.rows("SELECT id, game, config, seed FROM games WHERE id = ANY(:ids)", ids=gl)
    bad = []
    for g, game, config, seed in heads:  # (one game at a time: a thousand records need not fit at once)
        actions = [r[0] for r in db.rows("SELECT action FROM actions WHERE game_id = :g ORDER BY n", g=g)]
        rec = GameRecord(game, config, seed, actions)
        try:
            replay(rec)
        except RecordError as e:
            bad.append(f"{g}: {e}")
    out["records_replay"] = {"ok": not bad, "games": len(heads), "broken": bad[:10]}

    running = [r[0] for r in db.rows("SELECT id FROM games WHERE id = ANY(:ids) AND NOT over", ids=sorted(ids))]
    out["bots_games_over"] = {"ok": not running, "games": len(ids), "running": len(running), "broken": running[:10]}

    versions = dict(db.rows("SELECT id, version FROM games WHERE id = ANY(:ids)", ids=gl))
    bad = [f"{g}: a page showed version {v}, the database holds {versions.get(g)}"
           for g, v in seen.shown.items() if v > versions.get(g, -1)]
    out["pages_show_stored"] = {"ok": not bad, "games": len(seen.shown), "broken": bad[:10]}
    return out


def print_report(r: dict[str, Any], out: Path) -> None:
    people = r["people_requests"].get("act", {})
    lag = r["lag_ms"]
    kills = f", kill -9 every {r['kill_every_s']} s" if r["kill_every_s"] else ""
    print(f"web load ({r['mode']}): {r['games']} bots games, {r['people']} people, {r['load_s']} s of load{kills}; "
          f"load average {r['load_before'][0]:.2f} before, {r['load_after'][0]:.2f} after")
    print(f"  actions/s: {r['actions_per_s_load']} under load ({r['actions_load']} actions), "
          f"{r['actions_per_s_total']} over the whole run, with {r['drain_s']} s of drain")
    if people:
        print(f"  a person's action: {people['requests']} requests ({people['failures']} failed), "
              f"p50 {people['p50_ms']:.0f} ms, p95 {people['p95_ms']:.0f} ms, p99 {people['p99_ms']:.0f} ms "
              f"(target p95 < 100 ms)")
    print(f"  commit-to-page lag: {lag['messages']} messages, p50 {lag['p50']} ms, p95 {lag['p95']} ms, "
          f"p99 {lag['p99']} ms, max {lag['max']} ms (target p95 < 500 ms); {r['ws_reconnects']} reconnects")
    cpu = r.get("cpu_s", {})
    per = {k: round(1000 * v / r["actions_total"], 1) for k, v in cpu.items() if v and r["actions_total"]}
    print(f"  CPU seconds: {', '.join(f'{k} {v}' for k, v in cpu.items())} "
          f"(ms per stored action: {', '.join(f'{k} {v}' for k, v in per.items())})")
    q = r["queue"]
    print(f"  queue: {q.get('note') or 'peak ' + json.dumps(q['peak'])}")
    if r["kills"]:
        print(f"  kill -9: {len(r['kills'])} ({', '.join(k['killed'] for k in r['kills'])})")
    for name, c in r["checks"].items():
        counts = ", ".join(f"{k} {v}" for k, v in c.items() if k not in ("ok", "broken"))
        print(f"  check {name}: {'ok' if c['ok'] else 'BROKEN'} ({counts})"
              + ("" if c["ok"] else f": {'; '.join(map(str, c['broken'][:3]))}"))
    print(f"  report: {out / 'report.json'}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", required=True, help="postgresql+psycopg://USER@HOST:PORT/DB")
    p.add_argument("--games", type=int, default=1000, help="bots-only games (default 1000)")
    p.add_argument("--people", type=int, default=50, help="scripted people (default 50)")
    p.add_argument("--duration", type=int, default=120, help="seconds of load (default 120)")
    p.add_argument("--kill-every", type=float, default=0, help="kill -9 a random process every K seconds")
    p.add_argument("--drain", type=float, default=600, help="seconds to wait for the bots games to end (default 600)")
    p.add_argument("--web", type=int, default=2, help="web processes (default 2)")
    p.add_argument("--workers", type=int, default=2, help="rolling worker processes (default 2; cluster.sh only)")
    p.add_argument("--bot-pace", type=float, default=0.05, help="seconds a bot waits before its move (default 0.05)")
    p.add_argument("--think", type=float, default=2.0, help="a person's mean thinking time, seconds (default 2)")
    p.add_argument("--game", default="stars", choices=["stars", "freight"], help="the game (default stars)")
    p.add_argument("--players", type=int, default=3, help="players per game (default 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the games and of the kills (default 1)")
    p.add_argument("--mode", default="auto", choices=["auto", *MODES],
                   help="cluster: scripts/cluster.sh; direct: the same rolling serve --no-worker and rolling "
                        "worker processes started by this script; serve: plain rolling serve processes (they "
                        "play the bots); auto: cluster where scripts/cluster.sh and rolling worker exist, "
                        "else direct, else serve")
    p.add_argument("--reset", action="store_true", help="empty the database first (its public schema: all of it)")
    p.add_argument("--out", help="folder of the report and the logs (default: a new temporary folder)")
    args = p.parse_args(argv)
    if not args.db.startswith("postgresql"):
        fail("--db must name a PostgreSQL database (postgresql+psycopg://...): several processes share only PostgreSQL")
    for name in ("games", "web", "players"):
        if getattr(args, name) < 1:
            fail(f"--{name} must be 1 or more")
    if args.people < 0 or args.duration < 1 or args.kill_every < 0 or args.workers < 0:
        fail("--people, --kill-every and --workers must be 0 or more, --duration 1 or more")
    return args


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT / "src"))
    args = parse(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
