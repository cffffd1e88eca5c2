"""Several ``rolling serve`` processes on one PostgreSQL database (issue 30: "PostgreSQL is the only
truth", "live pages across processes"): every change is guarded by the stored version, so of two
writers one commits and the other gets 409; the record stays whole; a page on one process hears an
action taken on the other. And one SQLite file is never served by two processes.

The PostgreSQL tests run where ``ROLLING_TEST_DB`` names a PostgreSQL database (``.ci/run`` does).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from rolling.core.record import GameRecord, replay

from .conftest import TEST_DB, pick
from .test_kill import free_port, start_server

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="subprocess servers")
needs_pg = pytest.mark.skipif(not TEST_DB or not TEST_DB.startswith("postgresql"),
                              reason="several processes share a game only on PostgreSQL (set ROLLING_TEST_DB)")


def test_two_serves_on_one_sqlite_file_are_refused(tmp_path):
    """issue 30: `rolling serve` refuses to share an SQLite database with another process."""
    db = f"sqlite:///{tmp_path / 'one.db'}"
    first = start_server(db, free_port(), 0.0, tmp_path / "a.log")
    try:
        import os

        env = dict(os.environ)
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src")
        r = subprocess.run([sys.executable, "-m", "rolling.cli.main", "serve", "--port", str(free_port()), "--db", db],
                           env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode != 0
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "already served by another rolling serve" in lines[0], r.stderr
        assert "Traceback" not in r.stderr
        assert first.poll() is None  # the first goes on serving
    finally:
        first.terminate()
        first.wait(10)
    # once the first has stopped, the file may be served again
    again = start_server(db, free_port(), 0.0, tmp_path / "b.log")
    again.terminate()
    again.wait(10)


@pytest.fixture
def two(db_url, tmp_path):
    """Two ``rolling serve`` processes, A and B, on the one PostgreSQL database; their clients."""
    procs, clients = [], []
    try:
        for name in "ab":
            port = free_port()
            procs.append(start_server(db_url, port, 0.02, tmp_path / f"{name}.log"))
            clients.append(httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30))
        yield clients
    finally:
        for c in clients:
            c.close()
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
    for name in "ab":
        text = (tmp_path / f"{name}.log").read_text()
        assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


def _at_once(*calls):
    """Run the calls in threads released together; their results in order."""
    out: list = [None] * len(calls)
    gate = threading.Barrier(len(calls))

    def run(k):
        gate.wait()
        out[k] = calls[k]()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _hotseat(c: httpx.Client, players: int = 3, seed: int = 11):
    g = c.post("/api/games", json={"game": "stars", "config": {"players": players}, "seats": ["human"] * players,
                                   "seed": seed}).json()
    return g["id"], {"X-Seat-Tokens": ",".join(s["token"] for s in g["seats"])}


def _intact(a: httpx.Client, b: httpx.Client, gid: str, db_url: str) -> int:
    """Both processes show the stored record (once caught up); a third process loads it (it
    replays: the corruption of issue 30 was "does not replay at action 1"); its actions are numbered
    1..n without a gap."""
    from rolling.web.db import make_engine
    from rolling.web.service import GameService

    engine = make_engine(db_url)
    try:
        third = GameService(engine, start_workers=False).get(gid)  # replays, or raises WebError
    finally:
        engine.dispose()
    deadline = time.time() + 5
    while True:
        ha = a.get(f"/api/games/{gid}/history").json()
        hb = b.get(f"/api/games/{gid}/history").json()
        if ha["version"] == hb["version"] == third.version or time.time() > deadline:
            break
        time.sleep(0.02)
    assert ha["version"] == hb["version"] == third.version
    assert [x["n"] for x in ha["actions"]] == list(range(1, len(ha["actions"]) + 1))
    assert [x["action"] for x in ha["actions"]] == [x["action"] for x in hb["actions"]] == third.actions
    return len(ha["actions"])


def _wait_version(c: httpx.Client, gid: str, h: dict, version: int, seconds: float = 5.0) -> dict:
    deadline = time.time() + seconds
    while True:
        d = c.get(f"/api/games/{gid}", headers=h).json()
        if d["version"] >= version or time.time() > deadline:
            return d
        time.sleep(0.02)


@needs_pg
def test_undo_on_a_while_b_acts_one_wins_record_intact(two, db_url):
    """issue 30 tests: undo on A while B acts → one 409 and an intact record."""
    a, b = two
    gid, h = _hotseat(a)
    races = 0
    for _ in range(40):
        d = a.get(f"/api/games/{gid}", headers=h).json()
        seat = d["to_act"][0]
        r = a.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": seat, "action": pick(d, seat)},
                   headers=h)
        assert r.status_code == 200, r.text
        d = r.json()
        if d["over"] or not d["undo"].get(str(seat)) or not d["decisions"]:
            continue
        _wait_version(b, gid, h, d["version"])
        nxt = next(int(k) for k in d["decisions"])
        undo, act = _at_once(
            lambda d=d, seat=seat: a.post(f"/api/games/{gid}/undo", json={"version": d["version"], "seat": seat}, headers=h),
            lambda d=d, nxt=nxt: b.post(f"/api/games/{gid}/actions",
                                        json={"version": d["version"], "seat": nxt, "action": pick(d, nxt)}, headers=h))
        assert sorted([undo.status_code, act.status_code]) == [200, 409], (undo.text, act.text)
        races += 1
        _intact(a, b, gid, db_url)
        if races >= 8:
            break
    assert races >= 4
    n = _intact(a, b, gid, db_url)
    assert a.get(f"/api/games/{gid}", headers=h).json()["version"] >= n


@needs_pg
def test_same_action_on_a_and_b_at_once_is_taken_once(two, db_url):
    """issue 30 tests: the same action sent to A and B at once → exactly one accepted."""
    a, b = two
    gid, h = _hotseat(a, seed=12)
    for _ in range(12):
        d = a.get(f"/api/games/{gid}", headers=h).json()
        _wait_version(b, gid, h, d["version"])
        if d["over"]:
            break
        seat = int(next(iter(d["decisions"])))
        body = {"version": d["version"], "seat": seat, "action": pick(d, seat)}
        ra, rb = _at_once(lambda body=body: a.post(f"/api/games/{gid}/actions", json=body, headers=h),
                          lambda body=body: b.post(f"/api/games/{gid}/actions", json=body, headers=h))
        assert sorted([ra.status_code, rb.status_code]) == [200, 409], (ra.text, rb.text)
        loser = ra if ra.status_code == 409 else rb
        assert loser.json()["error"] == "StaleVersion"
    n = _intact(a, b, gid, db_url)
    assert n == 12


@needs_pg
def test_page_on_b_hears_an_action_taken_on_a_within_a_second(two):
    """issue 30 tests: a page (WebSocket) on B hears an action taken on A within 1 s."""
    import websockets

    a, b = two
    gid, h = _hotseat(a, seed=13)
    ws_url = str(b.base_url).replace("http://", "ws://") + f"/ws/games/{gid}?t={h['X-Seat-Tokens']}"

    async def watch():
        lags = []
        async with websockets.connect(ws_url) as ws:
            d = json.loads(await ws.recv())
            for _ in range(5):
                seat = int(next(iter(d["decisions"])))
                body = {"version": d["version"], "seat": seat, "action": pick(d, seat)}
                sent = time.perf_counter()
                r = await asyncio.to_thread(a.post, f"/api/games/{gid}/actions", json=body, headers=h)
                assert r.status_code == 200, r.text
                want = r.json()["version"]
                while d["version"] < want:
                    d = json.loads(await asyncio.wait_for(ws.recv(), 5))
                lags.append(time.perf_counter() - sent)
        return lags

    lags = asyncio.run(watch())
    assert max(lags) < 1.0, lags


@needs_pg
def test_bots_only_game_served_by_two_processes_finishes_whole(two, db_url):
    """issue 30 (this part's note): both processes move the bots of a game they hold; the loser of
    each race does nothing, so the game finishes with no gap and no action played twice."""
    a, b = two
    g = a.post("/api/games", json={"game": "stars", "config": {"players": 2}, "seats": ["heuristic"] * 2,
                                   "seed": 21}).json()
    gid = g["id"]
    b.get(f"/api/games/{gid}")  # B holds it too: from now on B's bots race A's
    deadline = time.time() + 120
    while time.time() < deadline:
        da, db = a.get(f"/api/games/{gid}").json(), b.get(f"/api/games/{gid}").json()
        if da["over"] and db["over"] and da["version"] == db["version"]:
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"not finished: A at {da['played']}, B at {db['played']}")
    n = _intact(a, b, gid, db_url)
    assert n == da["played"] == db["played"]
    # the record (downloadable once over) replays to the end
    rec = GameRecord.from_json(a.get(f"/api/games/{gid}/record").json())
    assert replay(rec).is_over


@needs_pg
def test_a_lost_listen_connection_is_opened_again_and_the_games_rechecked(two, db_url):
    """issue 30 item 3: the LISTEN connection reconnects after a failure, then re-checks the versions
    of its cached games (the notifications sent meanwhile are lost)."""
    from sqlalchemy import create_engine, text

    a, b = two
    gid, h = _hotseat(a, seed=14)
    b.get(f"/api/games/{gid}", headers=h)  # B holds the game
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            killed = conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                       "WHERE query = 'LISTEN rolling_games'")).all()
        assert len(killed) == 2  # one LISTEN connection per web process
        d = a.get(f"/api/games/{gid}", headers=h).json()
        seat = int(next(iter(d["decisions"])))
        r = a.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": seat, "action": pick(d, seat)},
                   headers=h)
        assert r.status_code == 200, r.text
        assert _wait_version(b, gid, h, r.json()["version"], seconds=10)["version"] == r.json()["version"]
        deadline = time.time() + 10
        while True:  # and both listen again
            with engine.begin() as conn:
                listening = conn.execute(text("SELECT count(*) FROM pg_stat_activity "
                                              "WHERE query = 'LISTEN rolling_games'")).scalar_one()
            if listening == 2 or time.time() > deadline:
                break
            time.sleep(0.1)
        assert listening == 2
    finally:
        engine.dispose()
