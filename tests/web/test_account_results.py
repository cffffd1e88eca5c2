"""An account's games played and won per game and edition (issue 31, "My games") are read from the
results stored when each game ends (table ``game_results``, migration 0007), not replayed on every
``GET /api/me``; a game finished before the results were kept gets them once."""

from __future__ import annotations

from sqlalchemy import delete, select

from rolling.web.models import GameResult

from .conftest import doc_of, pick
from .test_accounts import app, open_game, people  # noqa: F401  (the fixtures: an app, two logged-in clients)


def _finish(alice, gid):
    for _ in range(3000):
        doc = doc_of(alice, gid)
        if doc["over"]:
            return doc
        r = alice.post(f"/api/games/{gid}/actions", json={"version": doc["version"], "seat": 0, "action": pick(doc, 0)})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_results_are_stored_at_the_end_and_me_replays_nothing(app, people, monkeypatch):  # noqa: F811
    """issue 31 (follow-up): the last action's transaction stores each seat's rank, win and score;
    ``GET /api/me`` counts from them without loading a game; a finished game without results (from
    before migration 0007) is replayed once, its results stored, and not again."""
    alice, bob, anon = people
    gid = open_game(alice, seats=("open", "bot:random"))["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    doc = _finish(alice, gid)
    engine, service = app.state.engine, app.state.service
    with engine.connect() as conn:
        stored = {r.seat: r for r in conn.execute(select(GameResult.__table__).where(GameResult.game_id == gid))}
    assert {r["seat"]: (r["rank"], r["win"], r["score"]) for r in doc["standings"]} == \
        {k: (r.rank, r.win, r.score) for k, r in stored.items()}
    won = int(stored[0].win)
    want = [{"game": "stars", "edition": "stars", "played": 1, "won": won}]

    replays = []
    read = service._read
    monkeypatch.setattr(service, "_read", lambda g: replays.append(g) or read(g))
    service.cache.clear()  # (a fresh process: no game in memory)
    assert alice.get("/api/me").json()["stats"] == want
    assert replays == []  # read from game_results, no game replayed

    with engine.begin() as conn:  # as a game finished before migration 0007
        conn.execute(delete(GameResult.__table__))
    assert alice.get("/api/me").json()["stats"] == want
    assert replays == [gid]  # replayed once...
    with engine.connect() as conn:
        assert len(conn.execute(select(GameResult.__table__)).all()) == 2  # ...its results stored
    assert alice.get("/api/me").json()["stats"] == want
    assert replays == [gid]  # and not again
