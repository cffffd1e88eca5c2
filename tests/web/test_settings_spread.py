"""A game's settings changed on one process reach the others (issue 31, "a per-game settings page
(time limits, bot pace)"; issue 30, "PostgreSQL is the only truth"): a settings change keeps the
game's version (it changes no decision), so every process reads the time limits, as the bot pace,
from the stored game when it catches up (told by the NOTIFY of the change), and a worker compares
them before it plays what is due.

The two-process test runs where ``ROLLING_TEST_DB`` names a PostgreSQL database (``.ci/run``)."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from rolling.web.db import open_database
from rolling.web.seating import Seating
from rolling.web.service import GameService

from .conftest import TEST_DB
from .test_processes import two  # noqa: F401  (two rolling serve processes on PostgreSQL)

needs_pg = pytest.mark.skipif(not TEST_DB or not TEST_DB.startswith("postgresql") or sys.platform == "win32",
                              reason="several processes share a game only on PostgreSQL (set ROLLING_TEST_DB)")


def test_a_worker_reads_the_time_limits_set_elsewhere_before_playing(db_url):
    """issue 31 (settings propagate): service A changes the time limits; service B, which holds the
    game and heard nothing (no notification here), catches up in its job before it plays, though the
    game's version did not move."""
    from rolling.web import tasks

    a = GameService(open_database(db_url), bot_pace=0, start_workers=False)
    b = GameService(open_database(db_url), bot_pace=0, start_workers=False)

    async def run():
        live_a, _ = await a.create("stars", {"players": 3}, ["human"] * 3, seed=41, creator_token="c" * 32)
        live_b = await b.load(live_a.id)
        assert live_b.time_limits == {}
        await Seating(a).set_settings(live_a.id, ["c" * 32], None, time_limits={"3": 90, "4": 45}, bot_pace=2.0)
        assert live_a.version == live_b.version and live_b.time_limits == {}  # the version stays
        assert await tasks.play_due(None, b, live_a.id) == 0  # (nothing is due: people to act)
        assert live_b.time_limits == {"3": 90, "4": 45} and live_b.meta["bot_pace"] == 2.0

    asyncio.run(run())


@needs_pg
def test_time_limits_set_on_a_reach_b_without_a_reload(two):  # noqa: F811
    """issue 31 (settings propagate): a game's time limits changed on process A are seen on process
    B, which holds the game, within a few seconds, like its bot pace: B catches up on the NOTIFY."""
    a, b = two
    g = a.post("/api/games", json={"game": "stars", "config": {"players": 3}, "seats": ["human"] * 3,
                                   "seed": 42}).json()
    gid, creator = g["id"], {"X-Creator-Token": g["creator_token"]}
    assert b.get(f"/api/games/{gid}/settings").json()["time_limits"] == {}  # B holds the game now
    r = a.put(f"/api/games/{gid}/settings", json={"time_limits": {"3": 90}, "bot_pace": 1.5}, headers=creator)
    assert r.status_code == 200, r.text
    deadline = time.time() + 5
    while True:
        seen = b.get(f"/api/games/{gid}/settings").json()
        if seen["time_limits"] == {"3": 90} and seen["bot_pace"] == 1.5 or time.time() > deadline:
            break
        time.sleep(0.05)
    assert seen["time_limits"] == {"3": 90} and seen["bot_pace"] == 1.5, seen
