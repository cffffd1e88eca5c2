"""The bots' reasons in the game document: stored with each bot's action, placed after that
action's lines of the log, the same for every viewer, kept across a restart, gone with an undo;
while the game goes on only their public part, the bots' plans once it is over (issue 28 item 7)."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from rolling.bots import make_bot
from rolling.core.record import GameRecord, new_state
from rolling.games import get_game

from .conftest import act, doc_of, make_game, pick, tok


def app_client(db_url):
    from rolling.web.app import create_app

    return TestClient(create_app(db_url, bot_pace=0, start_workers=False))


def history(client, gid):
    return client.get(f"/api/games/{gid}/history").json()["actions"]


#: words of a bot's plan: its limits, valuations and search statistics (issue 28 item 7)
PLAN = ("up to $", "worth $", "visits", "iterations", "gains $", "lose $", "standing pat (", "keeping $")


def expected_reasons(game, config, seed, seats, actions, public=True):
    """action n -> (seat, reason): the seats' bots, seeded as the server seeds them, asked again
    before each of their actions of the record (``public``: the public part)."""
    spec = get_game(game)
    state = new_state(GameRecord(game, config, seed, []))
    bots = {k: make_bot(game, kind, seed=seed * 101 + k) for k, kind in enumerate(seats) if kind not in ("human",)}
    out = {}
    for n, a in enumerate(actions, start=1):
        if a["by"] == "bot":
            bot = bots[a["seat"]]
            chosen = bot.choose(state, a["seat"])
            assert chosen.to_json() == a["action"]
            if bot.last_reason and (bot.last_reason.public or not public):
                out[n] = (a["seat"], bot.last_reason.public if public else str(bot.last_reason))
        state.apply(spec.action_from_json(a["action"]))
    return out


def check_placement(doc, hist):
    """Each reason comes right after the lines of its action (the history's text of that action)."""
    log = doc["log"]
    for r in doc["reasons"]:
        assert 0 <= r["line"] <= len(log)
        text = hist[r["n"] - 1]["text"]
        assert hist[r["n"] - 1]["by"] == "bot" and hist[r["n"] - 1]["reason"] == r["text"]
        if text:
            # the move's lines before the reason; a heading of a phase the move began after it (issue 29)
            before, after = " ".join(log[:r["line"]]), " ".join(log[r["line"]:])
            cuts = [len(text)] + [k for k in range(len(text)) if text[k] == " "]
            assert any(before.endswith(text[:k]) and after.startswith(text[k:].lstrip()) for k in cuts), (r, text)
    assert [r["line"] for r in doc["reasons"]] == sorted(r["line"] for r in doc["reasons"])


def test_a_bots_reason_is_in_the_document_for_everyone_and_survives_a_restart(db_url):
    with app_client(db_url) as client:
        g = make_game(client, ["human", "heuristic", "heuristic"], seed=5)
        gid = g["id"]
        rng = random.Random(3)
        for _ in range(12):
            d = doc_of(client, gid, tok(g, 0))
            if d["over"]:
                break
            assert act(client, g, 0, d, action=pick(d, 0, rng)).status_code == 200
        mine = doc_of(client, gid, tok(g, 0))
        spectator = doc_of(client, gid)
        hist = history(client, gid)
    reasons = mine["reasons"]
    assert len(reasons) >= 5
    # random choices end this game within the dozen: the whole reasons, the heuristic's limits included
    assert mine["over"] and any(r["text"].startswith("bids up to $") for r in reasons)
    want = expected_reasons("stars", {"players": 3, "names": [s["name"] for s in mine["seats"]]}, 5,
                            ["human", "heuristic", "heuristic"], hist, public=False)
    assert {r["n"]: (r["seat"], r["text"]) for r in reasons} == want
    # to everyone: the spectator reads the same reasons (the lines before them may differ in number
    # only where secret events are hidden; Stars shows the same log to the spectator here)
    assert [(r["n"], r["text"]) for r in spectator["reasons"]] == [(r["n"], r["text"]) for r in reasons]
    check_placement(mine, hist)
    check_placement(spectator, hist)
    # a new server on the same database: the same reasons in the same places
    with app_client(db_url) as client:
        again = doc_of(client, gid, tok(g, 0))
        assert again["reasons"] == reasons and again["log"] == mine["log"]
        # the history's document at an action holds the reasons up to it
        n = reasons[len(reasons) // 2]["n"]
        at = client.get(f"/api/games/{gid}/history/{n}").json()
        assert at["reasons"] == [r for r in spectator["reasons"] if r["n"] <= n]


def test_undo_cannot_take_the_bots_moves_nor_their_reasons_back(db_url):
    """The bots' answers show what they privately want: a person's undo never takes them back (the
    undo-can-probe hole, tests/core/test_undo_probe.py), so their reasons stay too."""
    with app_client(db_url) as client:
        g = make_game(client, ["human", "heuristic", "heuristic"], seed=11)
        gid, t0 = g["id"], tok(g, 0)
        before = doc_of(client, gid, t0)
        # a raise keeps the auction going (leaving would end it and draw a card)
        bid = next(x for x in before["decisions"]["0"] if x["type"] == "bid")
        after = act(client, g, 0, before, action={"type": "bid", **bid["args"], bid["field"]: bid["lo"]}).json()
        assert after["played"] > before["played"] + 1  # the bots answered, with their reasons
        assert any(r["n"] > before["played"] for r in after["reasons"])
        r = client.post(f"/api/games/{gid}/undo", json={"version": after["version"], "seat": 0},
                        headers={"X-Seat-Tokens": t0})
        assert r.status_code == 403 and r.json()["message"].startswith("undo would go back past a move of ")
        assert doc_of(client, gid, t0)["reasons"] == after["reasons"]
    with app_client(db_url) as client:
        assert doc_of(client, gid, t0)["reasons"] == after["reasons"]


@pytest.mark.parametrize("game,seats", [("freight", ["human", "heuristic", "bot:random"]), ("market", ["bot:heuristic"])])
def test_freight_and_market_documents_carry_reasons(client, game, seats):
    r = client.post("/api/games", json={"game": game, "seats": seats, "seed": 3})
    assert r.status_code == 201, r.text
    g = r.json()
    if seats[0] == "human":
        d = doc_of(client, g["id"], tok(g, 0))
        for _ in range(20):  # the drafts carry no reasons: until the heuristic's first turn
            if d["reasons"]:
                break
            d = act(client, g, 0, d).json()
    d = doc_of(client, g["id"])
    hist = history(client, g["id"])
    assert d["reasons"], "the heuristic gave reasons"
    assert all(r["seat"] == (0 if game == "market" else 1) for r in d["reasons"])  # the random bot gives none
    check_placement(d, hist)


@pytest.mark.parametrize("variants", [[], ["secret-money"]])
def test_the_bots_plans_show_only_once_the_game_is_over(client, variants):
    """Issue 28 item 7, one rule for every variant (the secret-money one included): while the game
    runs, players and spectators read what a bot did and a public reason, never its limits or
    valuations (document, WebSocket document, history, history position); once it is over, all."""
    g = make_game(client, ["human", "heuristic", "heuristic"], seed=5, config={"variants": variants})
    gid, t0 = g["id"], tok(g, 0)
    rng = random.Random(3)
    seen = []
    for _ in range(400):
        d = doc_of(client, gid, t0)
        if d["over"]:
            break
        spectator = doc_of(client, gid)
        assert [r["text"] for r in spectator["reasons"]] == [r["text"] for r in d["reasons"]]
        seen += [r["text"] for r in d["reasons"]]
        seen += [a["reason"] for a in history(client, gid) if a["reason"]]
        seen += [r["text"] for r in client.get(f"/api/games/{gid}/history/{d['played']}").json()["reasons"]]
        with client.websocket_connect(f"/ws/games/{gid}?t={t0}") as ws:
            seen += [r["text"] for r in ws.receive_json()["reasons"]]
        assert act(client, g, 0, d, action=pick(d, 0, rng)).status_code == 200
    assert d["over"] and len(seen) > 20
    assert not [text for text in seen if any(w in text for w in PLAN)]
    hist = history(client, gid)
    over = doc_of(client, gid)
    assert any("bids up to $" in r["text"] for r in over["reasons"])
    assert {r["n"]: (r["seat"], r["text"]) for r in over["reasons"]} == expected_reasons(
        "stars", {"players": 3, "variants": variants, "names": [s["name"] for s in over["seats"]]}, 5,
        ["human", "heuristic", "heuristic"], hist, public=False)
    check_placement(over, hist)
    n = over["reasons"][0]["n"]
    assert client.get(f"/api/games/{gid}/history/{n}").json()["reasons"] == [over["reasons"][0]]


def test_an_existing_database_gets_the_reasons_table_on_the_next_start(db_url):
    """A database made before the reasons (migration 0001 only) is upgraded at start: its games
    play on, with reasons from then on."""
    from alembic import command
    from alembic.config import Config as AlembicConfig
    from sqlalchemy import inspect

    from rolling.web.db import MIGRATIONS, make_engine

    engine = make_engine(db_url)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    assert "bot_reasons" not in inspect(engine).get_table_names()
    engine.dispose()
    with app_client(db_url) as client:
        g = make_game(client, ["human", "heuristic", "heuristic"], seed=5)
        assert doc_of(client, g["id"], tok(g, 0))["reasons"]


def test_the_search_bots_statistics_show_in_the_log_once_the_game_is_over(client):
    """Issue 16: the web log gives the search bot's reason as its top alternatives with their
    visits and values, under its move; issue 28 item 7: only once the game is over (while it runs,
    that the search chose)."""
    g = make_game(client, ["search:60", "human"], seed=5)
    d = doc_of(client, g["id"], tok(g, 1))
    searched = [r for r in d["reasons"] if r["seat"] == 0]
    assert searched, d["reasons"]
    assert searched[0]["text"] == "the move its search rated best"
    check_placement(d, history(client, g["id"]))
    done = make_game(client, ["search:20", "heuristic"], seed=5)
    over = doc_of(client, done["id"])
    text = next(r["text"] for r in over["reasons"] if r["seat"] == 0 and r["text"].startswith("search"))
    assert over["over"] and text.startswith("search (20 iterations, ") and " visits " in text and "%" in text
    check_placement(over, history(client, done["id"]))
