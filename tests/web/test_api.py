"""The JSON API: creating, acting, versions, tokens, malformed and illegal actions, undo, bots,
history, records, import, chat, programs and the live WebSocket."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from rolling.core.record import GameRecord, replay

from .conftest import act, doc_of, make_game, pick, tok

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "18xx"


def test_options_list_games_and_bots(client):
    opts = client.get("/api/games/options").json()["games"]["stars"]
    assert opts["players"] == [2, 6] and "heuristic" in opts["bots"] and "secret-money" in opts["variants"]


def test_create_gives_a_token_per_human_seat_only(client):
    g = make_game(client, ["human", "heuristic", "bot:random", "human"])
    kinds = [s["kind"] for s in g["seats"]]
    assert kinds == ["human", "heuristic", "random", "human"]
    assert g["seats"][0]["token"] and g["seats"][3]["token"] and g["seats"][0]["token"] != g["seats"][3]["token"]
    assert g["seats"][1]["token"] is None and g["seats"][2]["url"] is None
    assert g["seats"][0]["url"] == f"/g/{g['id']}?t={g['seats'][0]['token']}"
    assert g["spectator_url"] == f"/g/{g['id']}"
    listed = client.get("/api/games").json()["games"]
    assert listed[0]["id"] == g["id"] and "token" not in json.dumps(listed)


@pytest.mark.parametrize("body,word", [
    ({"game": "chess"}, "unknown game"),
    ({"game": "stars", "seats": ["human", "wizard"]}, "unknown seat"),
    ({"game": "stars", "config": {"players": 9}, "seats": ["human"] * 9}, "2 to 6"),
    ({"game": "stars", "config": {"players": 3}, "seats": ["human", "bot"]}, "seat"),
    ({"game": "stars", "seats": ["human", "bot"], "time_limits": {"1": 60}}, "time limit"),
])
def test_bad_creations_are_400_with_a_message(client, body, word):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "BadRequest" and word in r.json()["message"]


def test_act_advances_the_version_and_bots_answer(client):
    g = make_game(client, ["human", "heuristic", "heuristic"])
    d = doc_of(client, g["id"], tok(g, 0))
    assert d["you"] == [0] and d["view_seat"] == 0
    if 0 not in d["to_act"]:  # the bots played first: the game waits for the person
        pytest.skip("seat 0 does not act first with this seed")
    r = act(client, g, 0, d)
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] > d["version"]
    # the bots acted within the request (pace 0) until it was the person's turn again, or the end
    assert after["over"] or 0 in after["to_act"]
    hist = client.get(f"/api/games/{g['id']}/history").json()
    assert hist["version"] == after["version"] and hist["played"] == after["played"]
    assert [a["n"] for a in hist["actions"]] == list(range(1, after["played"] + 1))
    assert hist["actions"][d["played"]]["by"] == "human" and all(a["by"] == "bot" for a in hist["actions"][d["played"] + 1:])
    assert all(a["text"] for a in hist["actions"])


def two_humans(client, **extra):
    g = make_game(client, ["human", "human", "heuristic"], **extra)
    d = doc_of(client, g["id"], tok(g, 0), tok(g, 1))
    return g, d


def test_stale_version_changes_nothing(client):
    g, d = two_humans(client)
    seat = d["to_act"][0]
    assert act(client, g, seat, d).status_code == 200
    before = doc_of(client, g["id"], tok(g, 0), tok(g, 1))
    seat = before["to_act"][0]
    stale = dict(before, version=d["version"])  # a legal action now, sent with the old version
    r = act(client, g, seat, stale, tokens=[tok(g, 0), tok(g, 1)])
    assert r.status_code == 409
    assert r.json() == {"error": "StaleVersion", "message": "the game changed, look again"}
    assert doc_of(client, g["id"])["version"] == before["version"]


def test_an_action_chosen_before_an_undo_is_stale_after_it(client):
    # the version never repeats: after an undo and the same move again, the game has as many
    # actions as before, but a page still showing the old game is told to look again
    g, d = two_humans(client)
    both = [tok(g, 0), tok(g, 1)]
    seat = d["to_act"][0]
    move = pick(d, seat)
    first = act(client, g, seat, d, move, tokens=both).json()
    back = client.post(f"/api/games/{g['id']}/undo", json={"version": first["version"], "seat": seat},
                       headers={"X-Seat-Tokens": ",".join(both)}).json()
    assert back["played"] == d["played"] and back["version"] > first["version"]
    again = act(client, g, seat, back, move, tokens=both).json()
    assert again["version"] > back["version"]
    seat2 = again["to_act"][0]
    r = act(client, g, seat2, first, pick(again, seat2), tokens=both)
    assert r.status_code == 409 and r.json()["error"] == "StaleVersion"
    assert doc_of(client, g["id"], *both)["version"] == again["version"]


def test_two_actions_at_once_one_wins(db_url):
    from rolling.web.app import create_app

    app = create_app(db_url, bot_pace=0, start_workers=False)

    async def race():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            r = await c.post("/api/games", json={"game": "stars", "config": {"players": 2}, "seats": ["human", "human"],
                                                 "seed": 3})
            g = r.json()
            tokens = ",".join(s["token"] for s in g["seats"])
            d = (await c.get(f"/api/games/{g['id']}", headers={"X-Seat-Tokens": tokens})).json()
            seat = d["to_act"][0]
            choices = [x for x in d["decisions"][str(seat)] if x["action"] is not None][:2]
            if len(choices) < 2:
                choices = [d["decisions"][str(seat)][0]] * 2
            bodies = []
            for x in choices:
                action = x["action"] or {"type": x["type"], **x["args"], x["field"]: x["lo"]}
                bodies.append({"version": d["version"], "seat": seat, "action": action})
            rs = await asyncio.gather(*[c.post(f"/api/games/{g['id']}/actions", json=b,
                                               headers={"X-Seat-Tokens": tokens}) for b in bodies])
            after = (await c.get(f"/api/games/{g['id']}")).json()
            return sorted(r.status_code for r in rs), after["version"], d["version"]

    codes, version, before = asyncio.run(race())
    assert codes == [200, 409]
    assert version == before + 1


def test_illegal_action_names_the_rule_and_changes_nothing(client):
    g, d = two_humans(client)
    seat = d["to_act"][0]
    r = act(client, g, seat, d, action={"type": "dividend", "seat": seat, "corporation": "PR", "amount": 3})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "IllegalAction" and body["rule"] and body["message"]
    assert doc_of(client, g["id"])["version"] == d["version"]


def test_wrong_token_is_forbidden_and_changes_nothing(client):
    g, d = two_humans(client)
    seat = d["to_act"][0]
    other = 1 - seat
    action = pick(d, seat)
    for tokens in (["forged-token"], [tok(g, other)], []):
        r = client.post(f"/api/games/{g['id']}/actions", json={"version": d["version"], "seat": seat, "action": action},
                        headers={"X-Seat-Tokens": ",".join(tokens)})
        assert r.status_code == 403 and r.json()["error"] == "Forbidden", r.text
    # the right token for one seat, an action naming another seat inside
    forged = dict(action, seat=other)
    r = act(client, g, seat, d, action=forged)
    assert r.status_code == 403
    # query token works like the header; a spectator sees no decisions
    assert client.get(f"/api/games/{g['id']}?t={tok(g, seat)}").json()["you"] == [seat]
    assert doc_of(client, g["id"])["decisions"] == {}
    assert doc_of(client, g["id"])["version"] == d["version"]


@pytest.mark.parametrize("action", [
    {"type": "teleport", "seat": 0},
    {"type": "bid", "seat": 0},
    {"type": "bid", "seat": 0, "amount": "lots"},
    {"type": "pass", "seat": 0, "extra": 1},
    {"nothing": True},
])
def test_malformed_action_is_422(client, action):
    g, d = two_humans(client)
    seat = d["to_act"][0]
    action = {k: (seat if k == "seat" else v) for k, v in action.items()}
    r = act(client, g, seat, d, action=action)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "MalformedAction" and r.json()["message"]
    assert doc_of(client, g["id"])["version"] == d["version"]


def test_malformed_requests_are_json_4xx(client):
    g, d = two_humans(client)
    url = f"/api/games/{g['id']}/actions"
    for body in ({"seat": 0}, {"version": "x", "seat": 0, "action": {}}, [], {"version": 0, "seat": 0, "action": 5}):
        r = client.post(url, json=body)
        assert r.status_code == 422 and r.json()["error"] == "MalformedAction", r.text
    r = client.post(url, content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    r = client.post(url, json={"version": 0, "seat": 99, "action": {"type": "pass"}}, headers={"X-Seat-Tokens": tok(g, 0)})
    assert r.status_code == 422
    assert client.get("/api/games/nope").json()["error"] == "NotFound"
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/api/nothing-here").json()["error"] == "NotFound"


def play_until(client, g, seats, cond, rng, limit=400):
    """Play random legal actions for the held seats until ``cond(doc)``."""
    tokens = [tok(g, k) for k in seats]
    for _ in range(limit):
        d = doc_of(client, g["id"], *tokens)
        if cond(d) or d["over"]:
            return d
        seat = next(k for k in d["to_act"] if k in seats)
        r = act(client, g, seat, d, action=pick(d, seat, rng), tokens=tokens)
        assert r.status_code == 200, r.text
    raise AssertionError("condition never met")


def test_undo_never_takes_back_the_bots_answers(client):
    """The undo-can-probe hole (tests/core/test_undo_probe.py): a bot's answer to a person's bid
    shows what the bot privately wanted, so the person's undo may not take it back: 403, and the
    game is as it was."""
    g = make_game(client, ["human", "heuristic", "heuristic"], seed=11)
    t0 = tok(g, 0)
    d = play_until(client, g, [0], lambda d: 0 in d["to_act"], random.Random(1))
    # a raise keeps the auction going (leaving would end it and draw a card)
    bid = next(x for x in d["decisions"]["0"] if x["type"] == "bid")
    r = act(client, g, 0, d, action={"type": "bid", **bid["args"], bid["field"]: bid["lo"]})
    assert r.status_code == 200
    after = r.json()
    assert after["played"] > d["played"] + 1  # the bots answered
    assert after["undo"] == {"0": False} and after["undo_refused"].startswith("undo would go back past a move of ")
    r = client.post(f"/api/games/{g['id']}/undo", json={"version": after["version"], "seat": 0},
                    headers={"X-Seat-Tokens": t0})
    assert r.status_code == 403 and r.json()["error"] == "UndoRefused"
    assert r.json()["message"] == after["undo_refused"]
    assert doc_of(client, g["id"], t0) == after


def test_undo_refused_after_another_human_acted_but_hotseat_may(client):
    g, d = two_humans(client, seed=5)
    rng = random.Random(2)
    # play until each person has decided once and the last decision was the other person's
    both = [tok(g, 0), tok(g, 1)]

    def both_decided(d):
        acts = client.get(f"/api/games/{g['id']}/history").json()["actions"]
        return {a["seat"] for a in acts if a["by"] == "human"} == {0, 1}

    d = play_until(client, g, [0, 1], both_decided, rng)
    hist = client.get(f"/api/games/{g['id']}/history").json()["actions"]
    humans = [a for a in hist if a["by"] == "human"]
    assert len(humans) >= 2
    last = humans[-1]["seat"]
    other = 1 - last
    d = doc_of(client, g["id"], *both)
    r = client.post(f"/api/games/{g['id']}/undo", json={"version": d["version"], "seat": other},
                    headers={"X-Seat-Tokens": tok(g, other)})
    assert r.status_code == 403 and r.json()["error"] == "UndoRefused"
    assert doc_of(client, g["id"], tok(g, other))["undo"] == {str(other): False}
    # the other seat's token cannot undo for the last seat either
    r = client.post(f"/api/games/{g['id']}/undo", json={"version": d["version"], "seat": last},
                    headers={"X-Seat-Tokens": tok(g, other)})
    assert r.status_code == 403 and r.json()["error"] == "Forbidden"
    # hotseat: holding both seats, any decision at the table
    assert d["undo"] == {"0": True, "1": True}
    r = client.post(f"/api/games/{g['id']}/undo", json={"version": d["version"], "seat": other},
                    headers={"X-Seat-Tokens": ",".join(both)})
    assert r.status_code == 200, r.text
    assert r.json()["played"] == humans[-1]["n"] - 1
    # stale undo
    r = client.post(f"/api/games/{g['id']}/undo", json={"version": d["version"], "seat": other},
                    headers={"X-Seat-Tokens": ",".join(both)})
    assert r.status_code == 409


def test_bots_only_game_runs_to_the_end_and_the_record_replays(client, tmp_path, capsys):
    g = make_game(client, ["heuristic", "bot:random", "heuristic", "random"], seed=21)
    d = doc_of(client, g["id"])
    assert d["over"] and d["standings"] and d["to_act"] == []
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = GameRecord.from_json(r.json())
    assert len(rec.actions) == d["played"] == d["version"] and rec.meta["seats"] == ["heuristic", "random", "heuristic", "random"]
    state = replay(rec)
    assert state.is_over and state.standings() == d["standings"]
    path = tmp_path / "record.json"
    path.write_text(r.text)
    from rolling.cli.main import main

    main(["replay", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out  # the command line replays what the server recorded
    charts = client.get(f"/api/games/{g['id']}/charts").json()
    assert len(charts["x"]) >= 2 and all(len(v) == len(charts["x"]) for v in charts["net_worth"].values())
    assert charts["share_price"] and all(len(v) == len(charts["x"]) for v in charts["share_price"].values())
    # history at a point: the table as it was, no decisions
    mid = client.get(f"/api/games/{g['id']}/history/10").json()
    assert mid["at"] == 10 and mid["decisions"] == {} and mid["over"] is False
    assert client.get(f"/api/games/{g['id']}/history/{d['played'] + 1}").status_code == 404
    assert client.get(f"/api/games/{g['id']}/history/0").json()["at"] == 0


def test_a_finished_game_refuses_actions(client):
    g = make_game(client, ["human", "heuristic"], seed=4)
    d = play_until(client, g, [0], lambda d: False, random.Random(4), limit=2000)
    assert d["over"]
    r = client.post(f"/api/games/{g['id']}/actions", json={"version": d["version"], "seat": 0, "action": {"type": "pass"}},
                    headers={"X-Seat-Tokens": tok(g, 0)})
    assert r.status_code == 409 and r.json()["error"] == "GameClosed"


def test_spectator_sees_no_secret_cash(client):
    g = make_game(client, ["human", "human", "heuristic"], config={"variants": ["secret-money"]})
    spectator = doc_of(client, g["id"])
    assert all(p["cash"] is None for p in spectator["view"]["players"])
    mine = doc_of(client, g["id"], tok(g, 0))
    cash = {p["seat"]: p["cash"] for p in mine["view"]["players"]}
    assert cash[0] is not None and cash[1] is None and cash[2] is None
    ws = client.get(f"/api/games/{g['id']}/history/0").json()
    assert all(p["cash"] is None for p in ws["view"]["players"])


def test_import_an_18xx_export_to_watch(client):
    data = json.loads((FIXTURES / "rss_1001.json").read_text())
    r = client.post("/api/import", json=data)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    d = doc_of(client, gid)
    assert d["watch_only"] and d["version"] > 0 and d["meta"]["source"] == "18xx.games"
    assert client.get(f"/api/games/{gid}/history/3").status_code == 200
    r = client.post("/api/import", files={"file": ("x.json", (FIXTURES / "rss_1002.json").read_bytes(), "application/json")})
    assert r.status_code == 201, r.text
    for bad in (b"[]", b"{\"title\": \"Chess\"}", b"nope"):
        r = client.post("/api/import", content=bad, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == "BadRequest", r.text
    r = client.post(f"/api/games/{gid}/undo", json={"version": d["version"], "seat": 0})
    assert r.status_code == 403


def test_chat_is_kept_with_the_game(client):
    g, d = two_humans(client)
    r = client.post(f"/api/games/{g['id']}/chat", json={"seat": 0, "text": "  good   luck "}, headers={"X-Seat-Tokens": tok(g, 0)})
    assert r.status_code == 200 and r.json()["chat"][-1]["text"] == "good luck"
    assert doc_of(client, g["id"])["chat"][0]["name"] == "Player 1"
    r = client.post(f"/api/games/{g['id']}/chat", json={"seat": 1, "text": "hi"}, headers={"X-Seat-Tokens": tok(g, 0)})
    assert r.status_code == 403
    assert client.post(f"/api/games/{g['id']}/chat", json={"seat": 0, "text": "  "},
                       headers={"X-Seat-Tokens": tok(g, 0)}).status_code == 422


def test_program_pass_investment_passes_until_something_changes(client):
    g = make_game(client, ["human", "human"], seed=9)
    both = [tok(g, 0), tok(g, 1)]
    d = doc_of(client, g["id"], *both)
    assert d["view"]["phase"] == 1
    first = d["to_act"][0]
    other = 1 - first
    r = client.post(f"/api/games/{g['id']}/programs", json={"seat": other, "kind": "pass_investment"},
                    headers={"X-Seat-Tokens": tok(g, other)})
    assert r.status_code == 200, r.text
    assert r.json()["programs"] == [{"seat": other, "kind": "pass_investment", "limit": None}]
    # the first player passes: the program passes for the other at once
    r = act(client, g, first, d, action={"type": "pass", "seat": first})
    assert r.status_code == 200
    hist = client.get(f"/api/games/{g['id']}/history").json()["actions"]
    assert hist[-1]["by"] in ("program",) or doc_of(client, g["id"])["view"]["phase"] != 1
    # a program that cannot be set now
    r = client.post(f"/api/games/{g['id']}/programs", json={"seat": first, "kind": "auction_limit", "limit": 20},
                    headers={"X-Seat-Tokens": tok(g, first)})
    assert r.status_code == 400
    r = client.post(f"/api/games/{g['id']}/programs", json={"seat": first, "kind": "wish"},
                    headers={"X-Seat-Tokens": tok(g, first)})
    assert r.status_code == 400
    r = client.delete(f"/api/games/{g['id']}/programs/{other}/pass_investment", headers={"X-Seat-Tokens": tok(g, other)})
    assert r.status_code == 200 and r.json()["programs"] == []


def test_program_cancelled_when_something_changes(client):
    g = make_game(client, ["human", "human", "human"], seed=9)
    tokens = [tok(g, k) for k in range(3)]
    d = doc_of(client, g["id"], *tokens)
    first = d["to_act"][0]
    watcher = next(k for k in range(3) if k != first)
    r = client.post(f"/api/games/{g['id']}/programs", json={"seat": watcher, "kind": "pass_investment"},
                    headers={"X-Seat-Tokens": tok(g, watcher)})
    assert r.status_code == 200
    # the first player starts an auction: holdings are about to change; the program is gone once they do
    start = next(x for x in d["decisions"][str(first)] if x["type"] == "start_auction")
    action = {"type": "start_auction", **start["args"], start["field"]: start["lo"]}
    assert act(client, g, first, d, action=action).status_code == 200
    assert doc_of(client, g["id"], tok(g, watcher))["programs"] == []


def test_program_auction_limit_bids_to_the_limit_then_leaves(client):
    g = make_game(client, ["human", "human"], seed=9)
    both = [tok(g, 0), tok(g, 1)]
    d = doc_of(client, g["id"], *both)
    first = d["to_act"][0]
    other = 1 - first
    start = next(x for x in d["decisions"][str(first)] if x["type"] == "start_auction" and x["hi"] - x["lo"] >= 3)
    opening = start["lo"]
    d = act(client, g, first, d, action={"type": "start_auction", **start["args"], start["field"]: opening},
            tokens=both).json()
    assert d["to_act"] == [other]
    limit = opening + 2
    r = client.post(f"/api/games/{g['id']}/programs", json={"seat": other, "kind": "auction_limit", "limit": limit},
                    headers={"X-Seat-Tokens": tok(g, other)})
    assert r.status_code == 200, r.text
    # the program raised by the least amount at once; the first player raises past the limit
    last = client.get(f"/api/games/{g['id']}/history").json()["actions"][-1]
    assert last["by"] == "program" and last["action"] == {"type": "bid", "seat": other, "amount": opening + 1}
    d = doc_of(client, g["id"], *both)
    raise_ = next(x for x in d["decisions"][str(first)] if x["type"] == "bid")
    assert raise_["lo"] <= limit + 1 <= raise_["hi"]
    act(client, g, first, d, action={"type": "bid", "seat": first, "amount": limit + 1}, tokens=both)
    hist = client.get(f"/api/games/{g['id']}/history").json()["actions"]
    assert hist[-1]["by"] == "program" and hist[-1]["action"]["type"] == "leave_auction"
    # the auction it was for is over: the program is gone
    assert doc_of(client, g["id"], tok(g, other))["programs"] == []


def test_program_pass_closing_unless_a_company_loses_money():
    # Stars 002, phase 4: the program declares done for you only while none of your companies (or
    # of your corporations) earns less than its cost of ownership; the table's net income says so
    from rolling.bots import make_bot
    from rolling.games.stars import Config, new_game
    from rolling.web import programs as P

    seen = {"done": 0, "decide": 0}
    for seed in range(6):
        s = new_game(Config(players=3), seed)
        bots = [make_bot("stars", "heuristic", seed=seed * 10 + k) for k in range(3)]
        while not s.is_over:
            seat = s.to_act[0]
            if s.phase == 4:
                view = s.view(seat)
                mine = [c for p in view["players"] if p["seat"] == seat for c in p["companies"]]
                mine += [c for k in view["corporations"] if k["president"] == seat for c in k["companies"]]
                losing = any(c["net_income"] < 0 for c in mine)
                a = P.action("pass_closing_unless_loss", None, s, seat)
                kept = P.check("pass_closing_unless_loss", {}, s, seat)
                if losing:
                    assert a is None and kept is None
                    seen["decide"] += 1
                else:
                    assert a is not None and a.to_json()["type"] == "done" and kept == {}
                    seen["done"] += 1
            s.apply(bots[seat].choose(s, seat))
    assert seen["done"] and seen["decide"]


def test_websocket_sends_each_seat_its_view_on_every_change(client):
    g = make_game(client, ["human", "human"], seed=9, config={"variants": ["secret-money"]})
    with client.websocket_connect(f"/ws/games/{g['id']}?t={tok(g, 0)}") as ws0, \
            client.websocket_connect(f"/ws/games/{g['id']}") as spectator:
        first0 = ws0.receive_json()
        firsts = spectator.receive_json()
        assert first0["you"] == [0] and firsts["you"] == []
        assert all(p["cash"] is None for p in firsts["view"]["players"])
        seat = first0["to_act"][0]
        d = doc_of(client, g["id"], tok(g, seat))
        assert act(client, g, seat, d).status_code == 200
        t = time.time()
        nxt = ws0.receive_json()
        assert nxt["version"] == d["version"] + 1 and time.time() - t < 1
        assert spectator.receive_json()["version"] == d["version"] + 1


def test_paced_bots_act_in_the_background(db_url):
    from rolling.web.app import create_app

    app = create_app(db_url, bot_pace=0.02, start_workers=True)
    with TestClient(app) as c:
        g = make_game(c, ["heuristic", "heuristic"], seed=2)
        deadline = time.time() + 60
        while time.time() < deadline and not doc_of(c, g["id"])["over"]:
            time.sleep(0.1)
        assert doc_of(c, g["id"])["over"]


def test_time_limit_ends_an_any_order_phase(db_url):
    from rolling.web.app import create_app

    app = create_app(db_url, bot_pace=0, start_workers=True)
    with TestClient(app) as c:
        g = make_game(c, ["human", "human"], seed=9, time_limits={"3": 1, "4": 1})
        both = [tok(g, 0), tok(g, 1)]
        rng = random.Random(5)
        d = play_until(c, g, [0, 1], lambda d: d["view"]["phase"] in (3, 4), rng, limit=300)
        assert d["time_limit"] and d["time_limit"]["phase"] in (3, 4)
        phase, played = d["view"]["phase"], d["played"]
        deadline = time.time() + 10
        while time.time() < deadline:
            now = doc_of(c, g["id"], *both)
            if now["view"]["phase"] != phase or now["over"]:
                break
            time.sleep(0.2)
        assert now["view"]["phase"] != phase or now["over"]
        hist = c.get(f"/api/games/{g['id']}/history").json()["actions"]
        assert any(a["by"] == "timer" for a in hist[played:])


def test_idle_games_leave_memory_and_come_back_the_same(db_url):
    # "the state is rebuilt by replay when needed and cached": the cache is bounded
    from rolling.web.db import open_database
    from rolling.web.service import GameService

    svc = GameService(open_database(db_url), bot_pace=0, start_workers=False, max_cached=2)

    async def scenario():
        made = [await svc.create("stars", {"players": 3}, ["human", "heuristic", "heuristic"], seed=k) for k in range(4)]
        assert len(svc.cache) == 2 and made[0][0].id not in svc.cache
        first, tokens = made[0]
        held = svc.held(first, tokens.values())
        before = svc.document(first, held)
        again = svc.get(first.id)  # replayed from the database
        assert again is not first and svc.document(again, held) == before
        assert len(svc.cache) == 2

    asyncio.run(scenario())


@pytest.mark.parametrize("game,seats", [("freight", ["human", "heuristic", "bot:random"]), ("market", ["human"])])
def test_freight_and_market_are_played_through_the_same_api(client, game, seats):
    r = client.post("/api/games", json={"game": game, "seats": seats, "seed": 3})
    assert r.status_code == 201, r.text
    g = r.json()
    rng = random.Random(4)
    for _ in range(40):
        d = doc_of(client, g["id"], tok(g, 0))
        if d["over"]:
            break
        assert d["to_act"] == [0] and d["decisions"]["0"], d["to_act"]  # the bots moved at once
        r = act(client, g, 0, d, action=pick(d, 0, rng))
        assert r.status_code == 200, r.text
        assert r.json()["played"] > d["played"]
    # the server's record: the download waits for the game's end (it carries the seed, issue 29)
    rec = client.app.state.service.get(g["id"]).record()
    assert rec.game == game and replay(rec).view(0) == doc_of(client, g["id"], tok(g, 0))["view"]


def test_a_bots_only_freight_game_runs_to_the_end(client):
    r = client.post("/api/games", json={"game": "freight", "seats": ["heuristic", "bot:random"], "seed": 5})
    assert r.status_code == 201, r.text
    d = doc_of(client, r.json()["id"])
    assert d["over"] and d["standings"]


def test_a_thinking_bot_does_not_stop_the_server(db_url):
    """A bot works out its move in a worker thread (the search bot thinks for half a second where
    people play), so the server's event loop keeps answering meanwhile; the move and its reason are
    then committed as usual."""
    import threading

    from rolling.bots import make_bot
    from rolling.bots.reasons import public_reason
    from rolling.web.db import open_database
    from rolling.web.service import GameService

    svc = GameService(open_database(db_url), bot_pace=0.001, start_workers=True)
    release = threading.Event()
    threads: list[threading.Thread] = []

    class SlowBot:
        name = "slow"
        last_reason = None

        def choose(self, state, seat):
            threads.append(threading.current_thread())
            assert release.wait(20), "the event loop never ran while the bot was thinking"
            self.last_reason = public_reason("took its time")  # a plain str would wait for the game's end
            return make_bot("stars", "heuristic").choose(state, seat)

    async def scenario():
        live, _ = await svc.create("stars", {"players": 2}, ["human", "human"], seed=1)
        seat = live.state.to_act[0]
        live.bots[seat] = SlowBot()
        before = live.version
        svc._kick(live)
        for _ in range(2000):  # the loop runs while the bot thinks
            if threads:
                break
            await asyncio.sleep(0.005)
        assert threads and threads[0] is not threading.main_thread()
        assert live.version == before  # nothing committed while it thinks
        release.set()
        for _ in range(2000):
            if live.version > before:
                break
            await asyncio.sleep(0.005)
        assert live.version == before + 1
        assert svc.document(live, ())["reasons"][-1]["text"] == "took its time"
        svc.closed = True
        live.task.cancel()

    asyncio.run(scenario())
