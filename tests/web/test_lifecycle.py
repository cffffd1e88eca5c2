"""Issue 29, "every request has a bound", game lifecycle: the creator (the creator's token given at
creation, stored hashed) stops or deletes a game, a seat's holder hands it to a bot, an idle game
ends after the server's setting; each visible in the game's log."""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient
from sqlalchemy import select

from rolling.web.app import create_app
from rolling.web.models import ActionRow, Game
from rolling.web.settings import Settings
from rolling.web.tokens import hash_token

from .conftest import act, doc_of, make_game, tok


def creator(g):
    return {"X-Creator-Token": g["creator_token"]}


def test_the_creator_token_is_given_once_and_stored_hashed(client):
    g = make_game(client, ["human", "bot"])
    assert len(g["creator_token"]) >= 32 and g["creator_token"] not in (tok(g, 0),)
    with client.app.state.engine.connect() as conn:
        stored = conn.execute(select(Game.creator_hash).where(Game.id == g["id"])).scalar_one()
    assert stored == hash_token(g["creator_token"])


def test_the_creator_stops_a_game_and_its_log_says_so(client):
    g = make_game(client, ["human", "human"], config={"variants": ["secret-money"]})
    gid = g["id"]
    assert client.post(f"/api/games/{gid}/stop").status_code == 403
    r = client.post(f"/api/games/{gid}/stop", headers={"X-Creator-Token": tok(g, 0)})  # a seat's token is not the creator's
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/stop", headers=creator(g))
    assert r.status_code == 200, r.text
    d = doc_of(client, gid, tok(g, 0))
    assert d["closed"]["by"] == "creator" and d["log"][-1] == "— the game was stopped by its creator"
    r = act(client, g, d["to_act"][0] if d["to_act"] else 0, tokens=[tok(g, 0), tok(g, 1)])
    assert r.status_code == 409 and "stopped by its creator" in r.json()["message"]
    assert client.post(f"/api/games/{gid}/stop", headers=creator(g)).status_code == 409
    listed = {x["id"]: x for x in client.get("/api/games").json()["games"]}[gid]
    assert listed["over"] and listed["closed"]["by"] == "creator"
    # hidden information stays hidden: the rules' end did not come
    assert all(p["cash"] is None for p in doc_of(client, gid)["view"]["players"])


def test_the_creator_deletes_a_game(client):
    g = make_game(client, ["human", "bot"])
    gid = g["id"]
    act(client, g, 0)
    assert client.delete(f"/api/games/{gid}", headers={"X-Seat-Tokens": tok(g, 0)}).status_code == 403
    assert client.delete(f"/api/games/{gid}", headers=creator(g)).status_code == 204
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert gid not in {x["id"] for x in client.get("/api/games").json()["games"]}
    with client.app.state.engine.connect() as conn:
        assert conn.execute(select(ActionRow).where(ActionRow.game_id == gid)).first() is None


def test_a_seat_is_handed_to_a_bot_which_plays_on(client):
    g = make_game(client, ["human", "human", "bot"], seed=11)
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "bot:heuristic"}, headers={"X-Seat-Tokens": tok(g, 0)})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "search:99s"}, headers={"X-Seat-Tokens": tok(g, 1)})
    assert r.status_code == 400 and "at most 5 s" in r.json()["message"]
    r = client.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "bot:heuristic"}, headers={"X-Seat-Tokens": tok(g, 1)})
    assert r.status_code == 200, r.text
    d = doc_of(client, gid, tok(g, 0))
    assert d["seats"][1]["kind"] == "heuristic"
    assert "— Player 2 handed their seat to the bot heuristic" in d["log"]
    assert doc_of(client, gid, tok(g, 1))["you"] == []  # the old token no longer holds it
    # the game goes on with the bot in seat 1
    for _ in range(300):
        hist = client.get(f"/api/games/{gid}/history").json()["actions"]
        if any(a["seat"] == 1 and a["by"] == "bot" for a in hist):
            break
        d = doc_of(client, gid, tok(g, 0))
        assert act(client, g, 0, doc=d).status_code == 200
    assert any(a["seat"] == 1 and a["by"] == "bot" for a in hist)


def test_an_idle_game_ends_after_the_setting_and_its_log_says_so(db_url):
    app = create_app(db_url, bot_pace=0, start_workers=False, settings=Settings(idle_end_seconds=3600.0))
    with TestClient(app) as c:
        g = make_game(c, ["human", "human"])
        busy = make_game(c, ["human", "human"], seed=8)
        service = app.state.service
        live = service.get(busy["id"])
        now = live.last_time + 3599
        assert asyncio.run(service.end_idle_games(now=now)) == []
        service.get(g["id"]).created -= 7200  # nobody has acted in two hours
        import sqlalchemy as sa

        with app.state.engine.begin() as conn:
            conn.execute(sa.update(Game).where(Game.id == g["id"]).values(updated=Game.updated - 7200))
        assert asyncio.run(service.end_idle_games(now=now)) == [g["id"]]
        d = doc_of(c, g["id"])
        assert d["closed"]["by"] == "idle" and d["log"][-1] == "— the game ended after 1 hour without a move"
        assert doc_of(c, busy["id"])["closed"] is None


def test_the_server_timer_ends_idle_games(db_url):
    # the background sweep of a running server (start_workers), with a short setting
    import time

    app = create_app(db_url, bot_pace=0, settings=Settings(idle_end_seconds=0.5))
    with TestClient(app) as c:
        g = make_game(c, ["human", "human"])
        deadline = time.time() + 10
        while doc_of(c, g["id"])["closed"] is None and time.time() < deadline:
            time.sleep(0.1)
        assert doc_of(c, g["id"])["closed"]["by"] == "idle"


def test_a_live_page_of_a_seat_handed_to_a_bot_no_longer_sees_as_that_seat(client):
    g = make_game(client, ["human", "human"], seed=6, config={"variants": ["secret-money"]})
    gid = g["id"]
    with client.websocket_connect(f"/ws/games/{gid}?t={tok(g, 1)}") as ws:
        assert ws.receive_json()["you"] == [1]
        r = client.post(f"/api/games/{gid}/seats/1/bot", json={"bot": "heuristic"}, headers={"X-Seat-Tokens": tok(g, 1)})
        assert r.status_code == 200
        d = ws.receive_json()
        assert d["you"] == [] and all(p["cash"] is None for p in d["view"]["players"])


def test_a_database_from_before_the_creator_token_is_upgraded_and_its_games_have_no_creator(db_url):
    """Migration 0003 adds ``games.creator_hash`` to an existing database on the next start; a game
    made before it plays on, and nobody may stop it."""
    from alembic import command
    from alembic.config import Config as AlembicConfig
    from sqlalchemy import inspect

    from rolling.web.db import MIGRATIONS, make_engine

    engine = make_engine(db_url)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.exec_driver_sql("INSERT INTO games (id, game, title, config, seed, created, time_limits, meta, watch_only, "
                             "version, over, to_act, updated) VALUES ('old', 'stars', 'old', '{\"players\": 2}', 1, 0, "
                             "'{}', '{}', false, 0, false, '[0, 1]', 0)")
        conn.exec_driver_sql("INSERT INTO seats (game_id, seat, name, kind, token_hash) VALUES "
                             "('old', 0, 'A', 'heuristic', NULL), ('old', 1, 'B', 'heuristic', NULL)")
    assert "creator_hash" not in {c["name"] for c in inspect(engine).get_columns("games")}
    engine.dispose()
    app = create_app(db_url, bot_pace=0, start_workers=False, settings=Settings(rate_limits=False))
    with TestClient(app) as c:
        assert c.get("/api/games/old").status_code == 200
        assert c.post("/api/games/old/stop", headers={"X-Creator-Token": "anything"}).status_code == 403
        g = make_game(c, ["human", "bot"])
        assert c.post(f"/api/games/{g['id']}/stop", headers=creator(g)).status_code == 200
