"""Issue 31's acceptance, automated: a fresh ``rolling serve`` (its own process, its embedded
worker) started with ``ROLLING_NOTIFY_ALLOW_PRIVATE=1``; two accounts; a game with seats
``open,open,bot:heuristic``; both join; when it becomes the second player's turn, the ``json://``
webhook set in that player's notification settings receives a message within 20 s. On PostgreSQL
also with the notifications sent by a ``rolling worker`` beside ``rolling serve --no-worker``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import pick
from .test_accounts import Hook


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str], env: dict[str, str], log_path: Path) -> tuple[subprocess.Popen, Any]:
    log = open(log_path, "w")  # noqa: SIM115 - closed by _stop
    return subprocess.Popen([sys.executable, "-m", "rolling", *args], env=env, stdout=log, stderr=subprocess.STDOUT), log


def _stop(proc: subprocess.Popen, log: Any) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(params=["serve", "serve --no-worker + rolling worker"])
def serve(request, tmp_path):
    """A fresh ``rolling serve`` (SQLite: its own process plays and notifies); with a PostgreSQL
    ``ROLLING_TEST_DB`` also ``rolling serve --no-worker`` beside a ``rolling worker``, whose periodic
    job sends the notifications."""
    import rolling

    from .conftest import TEST_DB, fresh_db_url

    split = request.param != "serve"
    if split and not TEST_DB:
        pytest.skip("rolling worker runs on PostgreSQL only (set ROLLING_TEST_DB)")
    db = fresh_db_url(tmp_path) if split else f"sqlite:///{tmp_path / 'fresh.db'}"
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(rolling.__file__).resolve().parents[1]) + os.pathsep + env.get("PYTHONPATH", "")
    env["ROLLING_NOTIFY_ALLOW_PRIVATE"] = "1"
    for k in ("ROLLING_PUBLIC_URL", "ROLLING_NOTIFY_DELAY", "ROLLING_NOTIFY_EVERY", "ROLLING_SMTP_HOST"):
        env.pop(k, None)  # the server's defaults
    procs = [_start(["serve", "--port", str(port), "--db", db, *(["--no-worker"] if split else [])], env,
                    tmp_path / "serve.log")]
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if procs[0][0].poll() is not None or time.time() > deadline:
            _stop(*procs[0])
            pytest.fail("rolling serve did not start:\n" + (tmp_path / "serve.log").read_text())
        time.sleep(0.2)
    if split:
        procs.append(_start(["worker", "--db", db], env, tmp_path / "worker.log"))
    yield base
    for proc, log in reversed(procs):
        _stop(proc, log)


def test_acceptance_webhook_within_20_seconds_of_the_second_players_turn(serve):
    hook = Hook()
    try:
        people = {}
        for name in ("alice", "bob"):
            c = httpx.Client(base_url=serve, timeout=10)
            assert c.post("/api/accounts", json={"name": name, "email": f"{name}@example.org", "password": "correct horse"}).status_code == 201
            assert c.post("/api/session", json={"name": name, "password": "correct horse"}).status_code == 200
            url = hook.url.replace("/hook", f"/{name}")
            assert c.put("/api/me/notifications", json={"urls": [url]}).status_code == 200
            people[name] = c
        alice, bob = people["alice"], people["bob"]
        r = alice.post("/api/games", json={"game": "stars", "config": {"players": 3}, "seats": "open,open,bot:heuristic".split(","),
                                           "seed": 21})
        assert r.status_code == 201
        gid = r.json()["id"]
        assert alice.post(f"/api/games/{gid}/join", json={"seat": 0}).status_code == 200
        assert bob.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 200
        # the game goes on (the bot at the server's pace, alice passing when it is hers) until bob's turn
        deadline = time.time() + 60
        while True:
            doc = alice.get(f"/api/games/{gid}").json()
            assert not doc["over"] and time.time() < deadline
            if 1 in doc["to_act"]:
                turn_came = time.time()
                break
            if 0 in doc["to_act"] and doc["decisions"].get("0"):
                alice.post(f"/api/games/{gid}/actions", json={"version": doc["version"], "seat": 0, "action": pick(doc, 0)})
            time.sleep(0.1)
        while time.time() < turn_came + 20 and not any(m["path"] == "/bob" for m in hook.got):
            time.sleep(0.1)
        got = [m for m in hook.got if m["path"] == "/bob"]
        assert got, "no message reached bob's webhook within 20 s"
        print(f"bob's webhook heard of his turn {got[0]['at'] - turn_came:.2f} s after it came")
        assert got[0]["at"] - turn_came < 20
        assert got[0]["title"] == "Your turn: Rolling Stock Stars, 3 players"
        assert f"/g/{gid}" in got[0]["message"] and got[0]["message"].startswith("Your turn in")
    finally:
        hook.close()
