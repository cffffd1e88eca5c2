"""The server killed with SIGKILL in the middle of games and started again: no action is lost, the
games go on, and a game of bots resumes by itself."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import rolling

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url: str, port: int, pace: float, log: Path) -> subprocess.Popen:
    """``rolling serve`` in a subprocess; it finds this checkout's rolling (PYTHONPATH from
    ``rolling.__file__``, which also holds under an editable install)."""
    env = dict(os.environ)
    src = str(Path(rolling.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "rolling.cli.main", "serve", "--port", str(port), "--db", db_url,
           "--bot-pace", str(pace)]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {log.read_text()}")


def kill9(proc: subprocess.Popen) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)


def test_kill_9_loses_nothing_and_games_go_on(db_url, tmp_path):
    log = tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db_url, port, 0.0, log)
    try:
        c = httpx.Client(base_url=base, timeout=10)
        g = c.post("/api/games", json={"game": "stars", "config": {"players": 3}, "seats": ["human", "human", "heuristic"],
                                       "seed": 17}).json()
        tokens = ",".join(s["token"] for s in g["seats"] if s["token"])
        h = {"X-Seat-Tokens": tokens}
        bots = c.post("/api/games", json={"game": "stars", "config": {"players": 3}, "seats": ["heuristic"] * 3,
                                          "seed": 5}).json()
        rng = random.Random(3)
        acked = 0
        for _ in range(25):
            d = c.get(f"/api/games/{g['id']}", headers=h).json()
            seat = next(k for k in d["to_act"] if str(k) in d["decisions"])
            x = rng.choice(d["decisions"][str(seat)])
            action = x["action"] or {"type": x["type"], **x["args"], x["field"]: rng.randint(x["lo"], x["hi"])}
            r = c.post(f"/api/games/{g['id']}/actions", json={"version": d["version"], "seat": seat, "action": action},
                       headers=h)
            assert r.status_code == 200, r.text
            acked = r.json()["version"]
        history = c.get(f"/api/games/{g['id']}/history").json()["actions"]
        assert len(history) == acked
        kill9(proc)

        # a game of bots under a visible pace: killed in the middle, it goes on after the restart
        proc = start_server(db_url, port, 0.01, log)
        c = httpx.Client(base_url=base, timeout=10)
        paced = c.post("/api/games", json={"game": "stars", "config": {"players": 2}, "seats": ["heuristic", "heuristic"],
                                           "seed": 8}).json()
        t = time.time()
        while c.get(f"/api/games/{paced['id']}").json()["version"] < 5 and time.time() - t < 20:
            time.sleep(0.05)
        before = c.get(f"/api/games/{paced['id']}").json()
        assert not before["over"]
        kill9(proc)

        proc = start_server(db_url, port, 0.0, log)
        c = httpx.Client(base_url=base, timeout=10)
        again = c.get(f"/api/games/{g['id']}/history").json()["actions"]
        assert again == history  # every acknowledged action, in order, with the same texts
        d = c.get(f"/api/games/{g['id']}", headers=h).json()
        assert d["version"] == acked and not d["over"]
        seat = next(k for k in d["to_act"] if str(k) in d["decisions"])
        r = c.post(f"/api/games/{g['id']}/actions", json={"version": d["version"], "seat": seat,
                                                           "action": d["decisions"][str(seat)][0]["action"]
                                                           or {"type": d["decisions"][str(seat)][0]["type"],
                                                               **d["decisions"][str(seat)][0]["args"],
                                                               d["decisions"][str(seat)][0]["field"]:
                                                               d["decisions"][str(seat)][0]["lo"]}},
                   headers=h)
        assert r.status_code == 200 and r.json()["version"] > acked
        assert c.get(f"/api/games/{bots['id']}").json()["over"]
        t = time.time()
        while not c.get(f"/api/games/{paced['id']}").json()["over"] and time.time() - t < 30:
            time.sleep(0.1)
        after = c.get(f"/api/games/{paced['id']}").json()
        assert after["over"] and after["version"] > before["version"]
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
