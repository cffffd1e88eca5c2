"""Database calls leave the event loop (issue 30, "Zero set-up stays the default": "Database calls
leave the event loop"): a commit that takes its time does not stop the server answering, and the
pages read meanwhile show the game as stored, not the action being committed."""

from __future__ import annotations

import asyncio
import threading
import time

from rolling.web import store
from rolling.web.db import open_database
from rolling.web.service import GameService

from .conftest import pick


def test_a_slow_commit_leaves_the_loop_free_and_the_pages_as_stored(db_url, monkeypatch):
    svc = GameService(open_database(db_url), bot_pace=0, start_workers=False)
    real_claim = store.claim
    in_commit = threading.Event()

    def slow_claim(*args, **kwargs):
        in_commit.set()
        time.sleep(0.5)  # a database under load
        return real_claim(*args, **kwargs)

    async def scenario():
        live, tokens = await svc.create("stars", {"players": 3}, ["human"] * 3, seed=5)
        other, _ = await svc.create("stars", {"players": 3}, ["human"] * 3, seed=6)
        held = svc.held(live, tokens.values())
        d = svc.document(live, held)
        seat = int(next(iter(d["decisions"])))
        monkeypatch.setattr(store, "claim", slow_claim)
        acting = asyncio.create_task(svc.act(live.id, list(tokens.values()), seat, d["version"], pick(d, seat)))
        ticks = 0
        while not acting.done():
            await asyncio.sleep(0.01)
            ticks += 1
            if in_commit.is_set() and not acting.done():
                # mid-commit: the page reads the stored game; another game answers at once
                assert svc.document(live, held)["version"] == d["version"]
                assert (await svc.load(other.id)) is other
        await acting
        assert ticks >= 20, ticks  # the loop ran all through the half-second commit
        assert svc.document(live, held)["version"] == d["version"] + 1

    asyncio.run(scenario())
