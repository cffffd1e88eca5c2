"""Rolling Freight through the JSON API: the board data per map, the lobby's options, the
decisions with the engine's previews, actions with the engine's or an explicit payment, and the
chart of the stock over the turns."""

from __future__ import annotations

import pytest

from rolling.games.freight import Config, load_map, new_game, previews
from rolling.games.freight.actions import freight_action_from_json
from rolling.web.freight import board_data, decisions

from .conftest import doc_of, tok


def make_freight(client, seats, map_name="west-coast", seed=7):
    r = client.post("/api/games", json={"game": "freight", "config": {"map": map_name, "players": len(seats)},
                                        "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("map_name", ["west-coast", "southern"])
def test_board_data_is_the_map(client, map_name):
    r = client.get(f"/data/freight/{map_name}.json")
    assert r.status_code == 200
    d = r.json()
    m = load_map(map_name)
    assert d["title"] == m.title and d["players"] == [m.min_players, m.max_players]
    assert [c["name"] for c in d["cities"]] == [c.name for c in m.cities]
    assert [(x["id"], x["a"], x["b"], x["colour"], x["length"], x["label"]) for x in d["links"]] == \
        [(ln.id, ln.a, ln.b, ln.colour, ln.length, ln.label) for ln in m.links]
    x0, y0, x1, y1 = d["bounds"]
    assert all(x0 <= c["x"] <= x1 and y0 <= c["y"] <= y1 for c in d["cities"])
    # north is up: Seattle above San Diego, Louisville above Miami
    by = {c["name"]: c for c in d["cities"]}
    north, south = ("Seattle", "San Diego") if map_name == "west-coast" else ("Louisville", "Miami")
    assert by[north]["y"] < by[south]["y"]
    # parallel links get distinct lanes
    pairs: dict = {}
    for x in d["links"]:
        pairs.setdefault(frozenset((x["a"], x["b"])), []).append(x["lane"])
    assert all(len(set(v)) == len(v) for v in pairs.values())
    assert board_data(map_name) is board_data(map_name)  # built once per map


def test_unknown_map_is_404(client):
    r = client.get("/data/freight/atlantis.json")
    assert r.status_code == 404 and "atlantis" in r.json()["message"]


def test_lobby_offers_each_map_with_its_player_counts(client):
    f = client.get("/api/games/options").json()["games"]["freight"]
    assert f["maps"]["west-coast"]["players"] == [2, 4]
    assert f["maps"]["southern"]["players"] == [3, 5]
    r = client.post("/api/games", json={"game": "freight", "config": {"map": "southern", "players": 2},
                                        "seats": ["human", "heuristic"]})
    assert r.status_code == 400 and "3-5 players" in r.json()["message"]


def test_seat_names_name_the_players_in_the_log(client):
    g = make_freight(client, ["human", "heuristic", "heuristic"])
    d = doc_of(client, g["id"], tok(g, 0))
    names = [x["name"] for x in g["seats"]]
    assert names[1] != "Player 2"
    assert any(names[1] in line for line in d["log"])  # the bot in seat 2 is named as the lobby names it
    assert not any("Player 2" in line for line in d["log"])


def _play(state, moves):
    from rolling.bots import make_bot

    bot = make_bot("freight", "heuristic", seed=1)
    for _ in range(moves):
        state.apply(bot.choose(state, state.to_act[0]))
    return state


def test_decisions_are_the_legal_moves_with_the_engines_previews():
    s = _play(new_game(Config("southern", 3), 5), 40)
    seat = s.to_act[0]
    ds = decisions(s, seat)
    assert [d["action"] for d in ds] == [a.to_json() for a in s.legal_actions(seat)]
    kinds = {d["type"] for d in ds}
    assert "end_turn" in kinds
    for d in ds:
        a = freight_action_from_json(d["action"])
        p = d["preview"]
        if d["type"] == "route":
            r = previews.route(s, a)
            assert p["dice"] == r.dice and p["earns"] == r.earns(seat) and len(p["links"]) == r.links
            assert p["cities"][0] == a.origin and p["cities"][-1] == a.dest and len(p["cities"]) == r.links + 1
        elif d["type"] == "build":
            b = previews.build(s, a)
            assert (p["filled"], p["score"], p["cubes"]) == (b.filled, b.score, b.cubes)
        elif d["type"] == "take_contract":
            c = previews.contract(s, a)
            assert p["dice"] == c.dice and [t.get("die") for t in p["pay"]] == [v for k, v in c.pay if k == "d"]
        elif d["type"] == "end_turn":
            assert tuple(p["markers"].values()) == previews.stockpile(s, a)
        assert d["label"] and d["group"] in ("draft", "contract", "build", "route", "station", "improvement", "end")


def test_a_whole_game_through_the_decisions_with_an_explicit_payment(client):
    g = make_freight(client, ["human", "heuristic"], seed=3)
    gid, t = g["id"], tok(g, 0)
    h = {"X-Seat-Tokens": t}
    paid_by_hand = 0
    for _ in range(600):
        d = doc_of(client, gid, t)
        if d["over"]:
            break
        ds = d["decisions"]["0"]
        pick = next((x for x in ds if x["type"] == "take_contract" and x["preview"]["pay"]), None)
        if pick and len(d["view"]["players"][0]["contracts"]) < 2:
            # the player names the dice the preview shows (dice from 0, markers by colour)
            action = dict(pick["action"], pay=" ".join(str(p["die"]) if "die" in p else p["marker"] for p in pick["preview"]["pay"]))
            paid_by_hand += 1
        else:
            action = next((x for x in ds if x["type"] in ("route", "build")), ds[-1])["action"]
        r = client.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": 0, "action": action}, headers=h)
        assert r.status_code == 200, r.text
    assert d["over"] and d["standings"] and paid_by_hand
    c = client.get(f"/api/games/{gid}/charts").json()
    assert c["x"][0] == "turn 0" and c["x"][-1] == "end"
    assert set(c["net_worth"]) == {s["name"] for s in g["seats"]}
    final = {r["seat"]: r["score"] for r in d["standings"]}
    assert [v[-1] for v in c["net_worth"].values()] == [final[0], final[1]]
    assert len(c["phase"]) == len(c["x"]) and c["phase"][0] == "A" and c["phase"][-1] == "C"


def test_a_payment_that_does_not_pay_is_refused_and_changes_nothing(client):
    g = make_freight(client, ["human", "human"], seed=4)
    gid = g["id"]
    h = {"X-Seat-Tokens": f"{tok(g, 0)},{tok(g, 1)}"}
    for _ in range(200):
        d = client.get(f"/api/games/{gid}", headers=h).json()
        seat = d["to_act"][0]
        take = next((x for x in d["decisions"][str(seat)] if x["type"] == "take_contract"), None)
        if take:
            break
        action = d["decisions"][str(seat)][0]["action"]
        assert client.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": seat, "action": action},
                           headers=h).status_code == 200
    assert take
    r = client.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": seat,
                                                        "action": dict(take["action"], pay="99")}, headers=h)
    assert r.status_code == 400 and r.json()["rule"]
    assert client.get(f"/api/games/{gid}", headers=h).json()["version"] == d["version"]


def test_history_documents_show_the_board_as_it_was(client):
    g = make_freight(client, ["heuristic", "heuristic"], seed=9)
    d0 = client.get(f"/api/games/{g['id']}/history/0").json()
    assert d0["view"]["stage"] == "draft" and all(ln["owner"] == -1 for ln in d0["view"]["links"])
    end = client.get(f"/api/games/{g['id']}").json()
    assert end["over"] and any(ln["owner"] >= 0 for ln in end["view"]["links"])
    assert end["view"]["phases_ended"] == 3


def test_what_is_left_of_the_phase():
    """The view counts the contracts above the End of Phase card: set A less the four dealt at the
    start; one fewer with each card drawn onto the track."""
    s = new_game(Config("west-coast", 3), 2)
    set_a = sum(1 for ln in s.map.links if ln.set == "A")
    v = s.view()
    assert v["phase_contracts_left"] == set_a - 4 and v["phases_ended"] == 0
    s = _play(s, 30)
    drawn = sum(1 for ln in s.map.links if ln.set == "A") - s.view()["phase_contracts_left"]
    assert drawn > 4 or s.view()["phase"] != "A"


def test_people_and_bots_in_any_seats_on_the_southern_map(client):
    g = make_freight(client, ["heuristic", "human", "bot:random", "human"],
                     map_name="southern", seed=12)
    gid = g["id"]
    h = {"X-Seat-Tokens": f"{tok(g, 1)},{tok(g, 3)}"}
    acted = set()
    for _ in range(1500):
        d = client.get(f"/api/games/{gid}", headers=h).json()
        if d["over"]:
            break
        seat = d["to_act"][0]
        assert seat in (1, 3) and list(d["decisions"]) == [str(seat)]
        ds = d["decisions"][str(seat)]
        action = next((x for x in ds if x["type"] in ("route", "build", "draft_contract")), ds[-1])["action"]
        r = client.post(f"/api/games/{gid}/actions", json={"version": d["version"], "seat": seat, "action": action}, headers=h)
        assert r.status_code == 200, r.text
        acted.add(seat)
    assert d["over"] and acted == {1, 3} and len(d["standings"]) == 4


def test_each_way_to_pay_is_a_decision_with_what_it_keeps():
    """issue 28 item 5, web: a contract, route, station or improvement comes once per listed way
    to pay, ``pay_rank`` 0 the engine's (``pay=""``) and then 1, 2...; each preview says what the
    payment spends and what it keeps, and the two make up the seat's unspent dice and markers."""
    from collections import Counter

    s = _play(new_game(Config("southern", 3), 5), 40)
    seen = 0
    for _ in range(30):
        seat = s.to_act[0]
        p = s.players[seat]
        for d in decisions(s, seat):
            if "pay_rank" not in d:
                continue
            assert (d["pay_rank"] == 0) == (d["action"].get("pay", "") == "")
            pv = d["preview"]
            if pv and pv.get("pay") is not None:
                dice = sorted([t["die"] for t in pv["pay"] if "die" in t] + [t["die"] for t in pv["keeps"] if "die" in t])
                assert dice == [i for i in range(len(p.dice)) if not p.spent[i]]
                markers = Counter(t["marker"] for t in pv["pay"] if "marker" in t)
                for t in pv["keeps"]:
                    if "marker" in t:
                        markers[t["marker"]] += t["n"]
                assert [markers[c] for c in ("blue", "gray", "red", "yellow")] == p.markers
                seen += d["pay_rank"] > 0
        s = _play(s, 1)
        if s.is_over:
            break
    assert seen > 0


def test_a_new_web_game_pays_by_the_order_of_what_is_kept(client):
    """Issue 28 item 5: a game created in the lobby stores ``"payment": "kept"`` (a stored config
    without it is a game from before the payment order, replayed with the old chooser)."""
    g = make_freight(client, ["human", "heuristic", "heuristic"])
    assert client.app.state.service.get(g["id"]).config["payment"] == "kept"
