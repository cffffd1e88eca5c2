"""The web load benchmark of issue 30 (``benchmarks/web_load/run.py``) at a tiny scale, so that it
cannot rot: its processes start, the bots games are watched to their end, the people act, a process
is killed with SIGKILL and started again, the figures are reported and every invariant holds.

Runs where ``ROLLING_TEST_DB`` names a PostgreSQL database (``.ci/run`` does) and locust is
installed (the ``bench`` extra); about 30 s (35 s on a 2-core machine at load average 10).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import TEST_DB

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="subprocess servers, SIGKILL"),
    pytest.mark.skipif(not TEST_DB or not TEST_DB.startswith("postgresql"),
                       reason="several processes share a game only on PostgreSQL (set ROLLING_TEST_DB)"),
]


def _run(db_url: str, out: Path, *extra: str) -> subprocess.CompletedProcess:
    if importlib.util.find_spec("locust") is None:  # (not imported here: locust patches the standard library)
        pytest.skip("the web load benchmark needs locust (the bench extra)")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, str(ROOT / "benchmarks" / "web_load" / "run.py"), "--db", db_url, "--out", str(out),
           "--games", "2", "--players", "2", "--people", "2", "--duration", "6", "--think", "0.2",
           "--bot-pace", "0.01", "--drain", "60", "--workers", "1", *extra]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180)


def test_tiny_web_load_with_a_kill_reports_figures_and_keeps_every_invariant(db_url, tmp_path):
    """issue 30 "Load": bots games watched on the other web process, people acting, kill -9 of a
    random process every 2 s (started again), then every acknowledged action stored, no gap,
    every record replays, every bots game over; exit status 0."""
    r = _run(db_url, tmp_path, "--kill-every", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert all(c["ok"] for c in report["checks"].values())
    assert report["checks"]["bots_games_over"]["games"] == 2
    assert report["checks"]["records_replay"]["games"] >= 2
    assert len(report["kills"]) >= 1 and all("restarted_pid" in k for k in report["kills"])
    assert report["people_requests"]["act"]["requests"] > 0
    assert report["checks"]["acknowledged_stored"]["acknowledged"] > 0
    assert report["lag_ms"]["messages"] > 0 and report["lag_ms"]["p95"] is not None
    assert report["actions_total"] >= 2 * 100  # two whole games of two bots
    assert "commit-to-page lag" in r.stdout and "check records_replay: ok" in r.stdout


def test_a_broken_invariant_is_a_failing_exit_status(db_url, tmp_path):
    """The checks can fail: a bots game that cannot end in the time left (no drain) is reported and
    the exit status is 1."""
    r = _run(db_url, tmp_path, "--drain", "0", "--duration", "1", "--people", "0", "--bot-pace", "1",
             "--mode", "serve", "--web", "1")
    assert r.returncode == 1, r.stdout + r.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert not report["checks"]["bots_games_over"]["ok"]
    assert "check bots_games_over: BROKEN" in r.stdout


def _runner():
    spec = importlib.util.spec_from_file_location("web_load_run", ROOT / "benchmarks" / "web_load" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_the_checks_find_a_lost_action_a_gap_and_a_page_ahead_of_the_database(client, db_url, tmp_path):
    """The SQL checks of the benchmark are not blind: an acknowledged action deleted from the
    database is reported lost and leaves a gap; a page that showed a version the database does not
    hold is reported; the untouched game passes every check."""
    from sqlalchemy import create_engine, text

    from .conftest import make_game, pick

    run = _runner()
    g = make_game(client, ["human", "human", "human"], seed=5)
    h = {"X-Seat-Tokens": ",".join(s["token"] for s in g["seats"])}
    acks = tmp_path / "acks.jsonl"
    with acks.open("w") as f:
        for _ in range(5):
            d = client.get(f"/api/games/{g['id']}", headers=h).json()
            seat = d["to_act"][0]
            action = pick(d, seat)
            r = client.post(f"/api/games/{g['id']}/actions", json={"version": d["version"], "seat": seat,
                                                                   "action": action}, headers=h)
            assert r.status_code == 200, r.text
            f.write(json.dumps({"game": g["id"], "n": r.json()["played"], "seat": seat, "action": action}) + "\n")
    db = run.Db(db_url)
    seen = run.Watch(shown={g["id"]: 5})
    try:
        checks = run.check(db, [], acks, seen)
        assert all(c["ok"] for c in checks.values()), checks
        assert checks["acknowledged_stored"]["acknowledged"] == 5
        engine = create_engine(db_url)
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM actions WHERE game_id = :g AND n = 3"), {"g": g["id"]})
        engine.dispose()
        seen.shown[g["id"]] = 6
        checks = run.check(db, [], acks, seen)
    finally:
        db.engine.dispose()
    assert checks["acknowledged_stored"]["broken"] == [f"{g['id']} action 3: acknowledged, not stored"]
    assert checks["no_gaps"]["broken"] == [f"{g['id']}: 4 actions numbered 1..5"]
    assert not checks["pages_show_stored"]["ok"]
