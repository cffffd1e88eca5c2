"""Web processes and workers on one PostgreSQL database, started by ``scripts/cluster.sh`` (issue 30,
"Automation leaves the web process", its tests and acceptance): two ``rolling serve --no-worker``
processes A and B and ``rolling worker`` processes. Races between A and B change nothing stored
twice; a bots-only game made on A is played by the worker alone and seen on B; two workers play
one game with no gap and no action twice; a worker or a web process killed (kill -9) loses no
acknowledged action, and the game finishes once a worker runs again.

PostgreSQL only (``ROLLING_TEST_DB``, as ``.ci/run`` sets); heuristic and small search bots,
small games, a bot pace of 0 or near it, so the module takes seconds once the processes run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from rolling.core.record import GameRecord, replay

from . import test_processes as P
from .conftest import TEST_DB, fresh_db_url, pick
from .test_kill import free_port

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="a shell script and subprocesses"),
    pytest.mark.skipif(not TEST_DB or not TEST_DB.startswith("postgresql"),
                       reason="web processes and workers share a database only on PostgreSQL (set ROLLING_TEST_DB)"),
]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "cluster.sh"


class Cluster:
    """The processes of one ``scripts/cluster.sh start`` (its folder ``dir``), their clients."""

    def __init__(self, db_url: str, folder: Path):
        self.db_url, self.dir = db_url, folder
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = str(ROOT / "src")
        self.env["ROLLING"] = f"{sys.executable} -m rolling.cli.main"
        self.webs: list[tuple[int, int]] = []
        self.workers: list[int] = []
        self.clients: list[httpx.Client] = []

    def _run(self, *args: str) -> str:
        r = subprocess.run(["bash", str(SCRIPT), *args, "--dir", str(self.dir)], env=self.env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout

    def start(self, workers: int, pace: float = 0.0) -> Cluster:
        ports = f"{free_port()},{free_port()}"
        out = self._run("start", "--db", self.db_url, "--ports", ports, "--workers", str(workers),
                        "--bot-pace", str(pace))
        for line in out.splitlines():
            kind, pid, *port = line.split()
            if kind == "web":
                self.webs.append((int(pid), int(port[0])))
            else:
                self.workers.append(int(pid))
        assert len(self.webs) == 2 and len(self.workers) == workers, out
        self.clients = [httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) for _, port in self.webs]
        return self

    @property
    def a(self) -> httpx.Client:
        return self.clients[0]

    @property
    def b(self) -> httpx.Client:
        return self.clients[1]

    def add_worker(self) -> int:
        pid = int(self._run("add-worker").split()[1])
        self.workers.append(pid)
        return pid

    def kill(self, pid: int) -> None:
        os.kill(pid, signal.SIGKILL)
        for _ in range(100):  # (reaped by init: gone once kill -0 fails)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)

    def stop(self) -> None:
        for c in self.clients:
            c.close()
        self._run("stop")
        for log in sorted(self.dir.glob("*.log")):
            text = log.read_text()
            assert "Traceback" not in text, f"{log.name}:\n{text[-3000:]}"


@pytest.fixture(scope="class")
def cluster(tmp_path_factory):
    """Two ``rolling serve --no-worker`` processes and one ``rolling worker`` (pace 0), started once
    for the races of :class:`TestTwoWebProcessesAndAWorker` on a fresh database (stopped before the
    tests that start their own, which empty the database first)."""
    folder = tmp_path_factory.mktemp("cluster")
    c = Cluster(fresh_db_url(folder), folder).start(workers=1)
    yield c
    c.stop()


@pytest.fixture
def make_cluster(db_url, tmp_path):
    """Start a cluster of one's own (it is stopped, and its logs checked, after the test)."""
    made: list[Cluster] = []

    def make(workers: int, pace: float = 0.0) -> Cluster:
        made.append(Cluster(db_url, tmp_path).start(workers, pace))
        return made[-1]

    yield make
    for c in made:
        c.stop()


def _bots_game(c: httpx.Client, seats: list[str], seed: int) -> str:
    r = c.post("/api/games", json={"game": "stars", "config": {"players": len(seats)}, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _until_over(c: httpx.Client, gid: str, seconds: float) -> dict:
    deadline = time.time() + seconds
    while True:
        d = c.get(f"/api/games/{gid}").json()
        if d["over"] or time.time() > deadline:
            return d
        time.sleep(0.1)


def _whole(cl: Cluster, gid: str) -> int:
    """The game as both web processes and a third reader see it: actions 1..n, none twice, the
    same everywhere; the record replays to its end. The number of actions."""
    n = P._intact(cl.a, cl.b, gid, cl.db_url)
    rec = GameRecord.from_json(cl.b.get(f"/api/games/{gid}/record").json())
    assert len(rec.actions) == n and replay(rec).is_over
    return n


# -- the races of two web processes (issue 30 tests), on web processes without a worker ---------------


class TestTwoWebProcessesAndAWorker:
    """The races of two web processes (issue 30 tests), and a worker for the bots."""

    def test_undo_on_a_while_b_acts_gives_one_409(self, cluster):
        P.test_undo_on_a_while_b_acts_one_wins_record_intact((cluster.a, cluster.b), cluster.db_url)


    def test_the_same_action_on_a_and_b_is_taken_once(self, cluster):
        P.test_same_action_on_a_and_b_at_once_is_taken_once((cluster.a, cluster.b), cluster.db_url)


    def test_a_page_on_b_hears_a_within_a_second(self, cluster):
        P.test_page_on_b_hears_an_action_taken_on_a_within_a_second((cluster.a, cluster.b))


    def test_a_bots_game_made_on_a_is_played_by_the_worker_and_seen_finished_on_b(self, cluster):
        """issue 30 acceptance: the web processes play no bot (--no-worker); the worker plays them all."""
        gid = _bots_game(cluster.a, ["heuristic", "heuristic"], seed=41)
        d = _until_over(cluster.b, gid, 60)
        assert d["over"], f"not finished: {d['played']} actions"
        assert _whole(cluster, gid) == d["played"]
        hist = cluster.b.get(f"/api/games/{gid}/history").json()["actions"]
        assert {a["by"] for a in hist} == {"bot"}


    def test_a_person_and_a_bot_across_a_b_and_the_worker(self, cluster):
        """A person acts on A and on B by turns; the worker answers for the bot each time, and each web
        process shows the bot's move (heard through PostgreSQL's notifications)."""
        g = cluster.a.post("/api/games", json={"game": "stars", "config": {"players": 2},
                                              "seats": ["human", "heuristic"], "seed": 42}).json()
        gid, h = g["id"], {"X-Seat-Tokens": g["seats"][0]["token"]}
        taken = 0
        for k in range(40):
            c = cluster.clients[k % 2]
            d = c.get(f"/api/games/{gid}", headers=h).json()
            deadline = time.time() + 10
            while "0" not in d["decisions"] and not d["over"] and time.time() < deadline:
                time.sleep(0.05)  # the bot's turn: the worker's move, heard here
                d = c.get(f"/api/games/{gid}", headers=h).json()
            if d["over"] or taken == 12:
                break
            assert "0" in d["decisions"], d["to_act"]
            r = c.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": 0, "action": pick(d, 0),
                                                          "basis": d["basis"].get("0")}, headers=h)
            # (409: the bot moved meanwhile and changed what the person decided on; look again)
            assert r.status_code in (200, 409), r.text
            taken += r.status_code == 200
        assert taken == 12 or d["over"]
        P._intact(cluster.a, cluster.b, gid, cluster.db_url)


# -- workers come and go ------------------------------------------------------------------------------


def test_no_worker_no_move_then_two_workers_finish_the_game_whole(make_cluster):
    """issue 30: a bots-only game does not move while no worker runs; two workers then play it to its
    end with no gap and no action played twice, though its job was lost (the sweeper: games.due_at)."""
    from sqlalchemy import create_engine, text

    cl = make_cluster(workers=0)
    gid = _bots_game(cl.a, ["heuristic", "heuristic", "heuristic"], seed=43)
    time.sleep(2.0)
    assert cl.b.get(f"/api/games/{gid}").json()["played"] == 0
    engine = create_engine(cl.db_url)
    try:  # the job A deferred is lost (as if A died before deferring it): the sweeper finds the game
        with engine.begin() as conn:
            assert conn.execute(text("DELETE FROM procrastinate_jobs WHERE task_name = 'rolling.advance'")).rowcount == 1
            assert conn.execute(text("SELECT due_at FROM games")).scalar_one() <= time.time()
    finally:
        engine.dispose()
    cl.add_worker()
    cl.add_worker()
    d = _until_over(cl.b, gid, 90)
    assert d["over"], f"not finished: {d['played']} actions"
    _whole(cl, gid)


def test_a_worker_killed_mid_thought_loses_nothing_and_a_new_worker_finishes(make_cluster):
    """issue 30: kill -9 of a worker while its search bot thinks; every stored action stays, nothing
    moves without a worker, and the game finishes once a new worker starts (the killed worker's job
    is handed back)."""
    cl = make_cluster(workers=1)
    gid = _bots_game(cl.a, ["search:0.05s", "heuristic"], seed=44)
    deadline = time.time() + 60
    while cl.a.get(f"/api/games/{gid}").json()["played"] < 15 and time.time() < deadline:
        time.sleep(0.05)
    before = cl.a.get(f"/api/games/{gid}/history").json()["actions"]
    cl.kill(cl.workers[0])
    time.sleep(0.5)
    stopped = cl.a.get(f"/api/games/{gid}/history").json()["actions"]
    assert [a["action"] for a in stopped[:len(before)]] == [a["action"] for a in before]
    time.sleep(1.0)
    assert len(cl.b.get(f"/api/games/{gid}/history").json()["actions"]) == len(stopped)  # no worker: no move
    cl.add_worker()
    d = _until_over(cl.b, gid, 120)
    assert d["over"], f"not finished: {d['played']} actions"
    after = cl.b.get(f"/api/games/{gid}/history").json()["actions"]
    assert [a["action"] for a in after[:len(stopped)]] == [a["action"] for a in stopped]
    _whole(cl, gid)


def test_a_web_process_killed_mid_request_loses_no_acknowledged_action(make_cluster):
    """issue 30: kill -9 of web process A while a person's actions stream into it: every action A
    acknowledged is stored; the game goes on on B, and finishes (the seat handed to a bot there,
    the worker plays on)."""
    cl = make_cluster(workers=1)
    g = cl.a.post("/api/games", json={"game": "stars", "config": {"players": 2},
                                     "seats": ["human", "heuristic"], "seed": 45}).json()
    gid, h = g["id"], {"X-Seat-Tokens": g["seats"][0]["token"]}
    acknowledged: list[tuple[int, dict]] = []  # (its number in the record, the action)
    stop = threading.Event()

    def person() -> None:
        with httpx.Client(base_url=str(cl.a.base_url), timeout=10) as c:
            while not stop.is_set():
                try:
                    d = c.get(f"/api/games/{gid}", headers=h).json()
                    if "0" not in d["decisions"]:
                        time.sleep(0.01)
                        continue
                    action = pick(d, 0)
                    r = c.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": 0,
                                                                  "action": action}, headers=h)
                except httpx.HTTPError:
                    return  # A is gone
                if r.status_code == 200:  # (no bot moves in A: its answer's last action is this one)
                    acknowledged.append((r.json()["played"], action))

    t = threading.Thread(target=person)
    t.start()
    deadline = time.time() + 60
    while len(acknowledged) < 8 and time.time() < deadline:
        time.sleep(0.02)
    cl.kill(cl.webs[0][0])
    stop.set()
    t.join(30)
    assert len(acknowledged) >= 8
    hist = cl.b.get(f"/api/games/{gid}/history", headers=h).json()["actions"]
    for n, action in acknowledged:
        assert hist[n - 1]["action"] == action and hist[n - 1]["by"] == "human", (n, action)
    # the person leaves the game to a bot on B; the worker finishes it
    r = cl.b.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"}, headers=h)
    assert r.status_code == 200, r.text
    d = _until_over(cl.b, gid, 90)
    assert d["over"], f"not finished: {d['played']} actions"
    rec = GameRecord.from_json(cl.b.get(f"/api/games/{gid}/record").json())
    assert replay(rec).is_over
    assert all(rec.actions[n - 1] == action for n, action in acknowledged)
