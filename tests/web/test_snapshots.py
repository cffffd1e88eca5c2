"""Snapshots of a game in memory (issue 30, "Rooms a newcomer can find": the game cache keeps a copy
of the state every K actions): an undo and a past position replay from the latest snapshot, not
from the start, and give exactly what a whole replay gives."""

from __future__ import annotations

import asyncio

from rolling.web import cache, commands
from rolling.web.db import open_database
from rolling.web.service import GameService

from .conftest import pick


def test_undo_and_past_positions_replay_from_a_snapshot_and_match_a_whole_replay(db_url, monkeypatch):
    monkeypatch.setattr(cache, "SNAPSHOT_EVERY", 4)
    monkeypatch.setattr(commands, "SNAPSHOT_EVERY", 4)
    svc = GameService(open_database(db_url), bot_pace=0, start_workers=False)
    whole_replays = []
    real_rebuild = GameService._rebuild

    def counted(self, live):
        whole_replays.append(len(live.actions))
        return real_rebuild(self, live)

    async def scenario():
        live, tokens = await svc.create("stars", {"players": 3}, ["human"] * 3, seed=21)
        tokens = list(tokens.values())
        held = svc.held(live, tokens)
        undone = 0
        for _ in range(40):
            d = svc.document(live, held)
            if d["over"]:
                break
            seat = int(next(iter(d["decisions"])))
            await svc.act(live.id, tokens, seat, d["version"], pick(d, seat))
            d = svc.document(live, held)
            if live.played >= 9 and d["undo"].get(str(seat)) and undone < 3:
                monkeypatch.setattr(GameService, "_rebuild", counted)
                await svc.undo(live.id, tokens, seat, d["version"])
                monkeypatch.setattr(GameService, "_rebuild", real_rebuild)
                undone += 1
        assert undone == 3 and live.played >= 20
        assert whole_replays == []  # each undo replayed from a snapshot
        assert set(live.snapshots) == set(range(4, live.played + 1, 4))
        # a process that replays the whole record holds the same game
        cold = GameService(svc.engine, bot_pace=0, start_workers=False).get(live.id)
        assert cold.state.digest() == live.state.digest()
        assert cold.floor.floor == live.floor.floor and cold.log_marks == live.log_marks
        assert cold.floor.moved == live.floor.moved  # who moved when: the same from a whole replay
        assert svc.document(cold, held) == svc.document(live, held)
        for n in (0, 3, 4, 9, live.played):
            assert svc.document_at(live, n, held) == svc.document_at(cold, n, held)
            past = svc._replayed(live, n)
            whole = cold.__class__(**{**{k: getattr(past, k) for k in ("id", "game", "title", "config", "seed",
                                                                         "created", "seats", "time_limits", "meta",
                                                                         "watch_only")},
                                      "actions": list(past.actions)})
            real_rebuild(svc, whole)
            assert past.state.digest() == whole.state.digest() and past.log_marks == whole.log_marks

    asyncio.run(scenario())
