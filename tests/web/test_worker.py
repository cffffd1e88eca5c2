"""The task queue's parts that need no PostgreSQL (issue 30, "Automation leaves the web process"):
what is due (``games.due_at``, kept with every change), the seed of a bot's decision, and the
command lines that refuse a queue on SQLite in one line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from rolling.web import automation as A
from rolling.web.db import open_database
from rolling.web.models import Game
from rolling.web.service import GameService

from .conftest import pick

ROOT = Path(__file__).resolve().parents[2]


def _due_at(svc: GameService, gid: str) -> float | None:
    with svc.engine.connect() as conn:
        return conn.execute(select(Game.due_at).where(Game.id == gid)).scalar_one()


def test_due_at_is_stored_with_every_change(db_url):
    """issue 30: each change stores when the game's next automated action is due (the sweeper's
    clue): a bot to move after the pace, nothing when people are to act or the game is over."""
    svc = GameService(open_database(db_url), bot_pace=5.0, start_workers=False)

    async def scenario():
        live, tokens = await svc.create("stars", {"players": 2}, ["human", "heuristic"], seed=3)
        tokens = list(tokens.values())
        assert _due_at(svc, live.id) is not None  # (a worker's first job stores exactly when)
        for _ in range(30):
            d = svc.document(live, svc.held(live, tokens))
            if "0" not in d["decisions"]:
                break
            await svc.act(live.id, tokens, 0, d["version"], pick(d, 0))
            due = _due_at(svc, live.id)
            if 1 in live.state.to_act:  # the bot's turn: due a pace after the action
                assert due == live.last_time + 5.0
                break
            assert due is None
        else:
            raise AssertionError("the bot never came to act")

    asyncio.run(scenario())


def test_a_stopped_game_is_due_no_more(db_url):
    svc = GameService(open_database(db_url), bot_pace=5.0, start_workers=False)

    async def scenario():
        live, _ = await svc.create("stars", {"players": 2}, ["heuristic", "heuristic"], seed=4, creator_token="c" * 32)
        assert _due_at(svc, live.id) is not None
        await svc.stop_game(live.id, ["c" * 32])
        assert _due_at(svc, live.id) is None
        assert A.due_at(live, 5.0) is None

    asyncio.run(scenario())


def test_a_bots_decision_is_seeded_by_the_game_the_seat_and_the_action():
    """issue 30: a bot's move does not depend on which process makes it: its random numbers start
    from (game seed, seat, action number) at every decision."""
    seeds = {A.decision_seed(7, seat, n) for seat in range(3) for n in range(1, 50)}
    assert len(seeds) == 3 * 49 and all(0 <= s < 2**31 for s in seeds)
    assert A.decision_seed(7, 1, 12) == A.decision_seed(7, 1, 12) != A.decision_seed(8, 1, 12)


def test_random_bots_play_the_same_game_whichever_process_moves_them(tmp_path):
    """Two services play the same random-bots game, one of them forgetting the game (a restart, or
    another worker) every few moves: the same record."""
    records = []
    for restart in (False, True):
        url = f"sqlite:///{tmp_path / f'r{restart}.db'}"
        engine = open_database(url)
        svc = GameService(engine, bot_pace=1000.0, start_workers=False)

        async def scenario(svc=svc, engine=engine, restart=restart):
            live, _ = await svc.create("stars", {"players": 3}, ["bot:random"] * 3, seed=11)
            for k in range(120):
                if live.state.is_over:
                    break
                if restart and k % 7 == 0:
                    svc = GameService(engine, bot_pace=1000.0, start_workers=False)
                    live = svc.get(live.id)
                assert svc._step(live, timers=False)
            return list(live.actions)

        records.append(asyncio.run(scenario()))
    assert records[0] == records[1] and len(records[0]) >= 60


def _rolling(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src")
    return subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=60)


def test_worker_and_no_worker_need_postgresql(tmp_path):
    """issue 30: `rolling worker` and `rolling serve --no-worker` say in one line that they need
    PostgreSQL (on SQLite `rolling serve` plays the bots itself)."""
    db = f"sqlite:///{tmp_path / 'x.db'}"
    for args in (("worker", "--db", db), ("serve", "--no-worker", "--db", db, "--port", "18999")):
        r = _rolling(*args)
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "PostgreSQL" in lines[0] and "Traceback" not in r.stderr, r.stderr
    r = _rolling("worker", "--db", "postgresql+psycopg://x@127.0.0.1:1/x", "--processes", "0")
    assert r.returncode == 2 and r.stderr.strip() == "rolling: --processes must be 1 or more, not 0"
