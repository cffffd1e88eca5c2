"""Two game services on one database, as two processes would be (issue 30: "PostgreSQL is the only
truth", catch-up): a write on a stale cache changes nothing and gets 409; the process behind reads
only the new rows (or replays after an undo made elsewhere) and ends with the stored game."""

from __future__ import annotations

import asyncio

import pytest

from rolling.web.db import open_database
from rolling.web.service import GameService, StaleVersion

from .conftest import pick


def _services(db_url):
    return (GameService(open_database(db_url), bot_pace=0, start_workers=False),
            GameService(open_database(db_url), bot_pace=0, start_workers=False))


def _doc(svc, live, tokens):
    return svc.document(live, svc.held(live, tokens))


def _same(a_live, b_live):
    assert a_live.version == b_live.version
    assert a_live.actions == b_live.actions
    assert a_live.state.to_act == b_live.state.to_act
    assert a_live.state.view(None) == b_live.state.view(None)


def test_a_write_on_a_stale_cache_is_refused_then_caught_up(db_url):
    """issue 30 item 1 and 2: the guarded update finds the version moved on; nothing changes; the
    process reads the new action rows and applies them (no replay)."""
    a, b = _services(db_url)

    async def run():
        live_a, tokens = await a.create("stars", {"players": 3}, ["human"] * 3, seed=31)
        tokens = list(tokens.values())
        live_b = b.get(live_a.id)
        for _ in range(3):  # A moves on; B does not hear of it (no notifications here)
            d = _doc(a, live_a, tokens)
            seat = int(next(iter(d["decisions"])))
            await a.act(live_a.id, tokens, seat, d["version"], pick(d, seat))
        assert live_b.version < live_a.version
        # B acts on the version it shows: the database says no, nothing is stored
        d = _doc(b, live_b, tokens)
        seat = int(next(iter(d["decisions"])))
        rebuilt = live_b.rev
        with pytest.raises(StaleVersion):
            await b.act(live_b.id, tokens, seat, d["version"], pick(d, seat))
        _same(live_a, live_b)  # caught up
        assert live_b.rev == rebuilt + 1  # by applying the new rows, not by a replay (which bumps rev too)
        # a page that saw the game on A sends its action to B, which is behind: B catches up first
        d = _doc(a, live_a, tokens)
        seat = int(next(iter(d["decisions"])))
        await a.act(live_a.id, tokens, seat, d["version"], pick(d, seat))
        d = _doc(a, live_a, tokens)
        seat = int(next(iter(d["decisions"])))
        assert live_b.version < d["version"]
        await b.act(live_b.id, tokens, seat, d["version"], pick(d, seat))
        assert live_b.version == live_a.version + 1
        a._catch_up(live_a)
        _same(live_a, live_b)

    asyncio.run(run())


def test_undo_elsewhere_takes_back_the_cached_actions(db_url):
    """issue 30 item 2: an undo on another process took back actions held here: replay; the
    record stays whole, and a third service loads the same game."""
    a, b = _services(db_url)

    async def run():
        live_a, tokens = await a.create("stars", {"players": 3}, ["human"] * 3, seed=32)
        tokens = list(tokens.values())
        live_b = b.get(live_a.id)
        undone = 0
        for _ in range(30):
            d = _doc(a, live_a, tokens)
            seat = int(next(iter(d["decisions"])))
            await a.act(live_a.id, tokens, seat, d["version"], pick(d, seat))
            b._catch_up(live_b)
            d = _doc(b, live_b, tokens)
            if d["undo"].get(str(seat)):
                await b.undo(live_b.id, tokens, seat, d["version"])
                undone += 1
                # A holds the action B took back: its next write is refused and it replays
                d = _doc(a, live_a, tokens)
                nxt = int(next(iter(d["decisions"])))
                with pytest.raises(StaleVersion):
                    await a.act(live_a.id, tokens, nxt, d["version"], pick(d, nxt))
                _same(live_a, live_b)
                if undone >= 3:
                    break
        assert undone >= 3
        third = GameService(open_database(db_url), start_workers=False).get(live_a.id)
        _same(live_a, third)

    asyncio.run(run())
