"""Rolling Market through the JSON API: creating a game as the lobby does, the trades with the
engine's previews, the hint (token, determinism, the registry's strongest bot) and the charts."""

from __future__ import annotations

from rolling.bots import STRONGEST, make_bot
from rolling.core.record import replay
from rolling.games.market import previews
from rolling.games.market import rules as R
from rolling.games.market.actions import action_from_json
from rolling.sim import market_scores

from .conftest import doc_of, tok


def create(client, seats=("human",), seed=3, **body):
    r = client.post("/api/games", json={"game": "market", "seats": list(seats), "seed": seed, **body})
    assert r.status_code == 201, r.text
    return r.json()


def state_of(client, gid):
    """The game's state rebuilt here from its record (the server's: the download waits for the
    game's end, since the record carries the seed, issue 29)."""
    return replay(client.app.state.service.get(gid).record())


def hint(client, created, seat=0, tokens=None):
    tokens = tokens if tokens is not None else [tok(created, 0)]
    return client.get(f"/api/games/{created['id']}/hint", params={"seat": seat},
                      headers={"X-Seat-Tokens": ",".join(tokens)} if tokens else {})


def post_action(client, created, action):
    d = doc_of(client, created["id"], tok(created, 0))
    r = client.post(f"/api/games/{created['id']}/actions", json={"version": d["version"], "seat": 0, "action": action},
                    headers={"X-Seat-Tokens": tok(created, 0)})
    assert r.status_code == 200, r.text
    return r.json()


def test_the_lobby_offers_one_seat_and_no_options(client):
    m = client.get("/api/games/options").json()["games"]["market"]
    assert m["players"] == [1, 1] and m["editions"] == [] and m["variants"] == [] and "time_limits" not in m
    assert {"heuristic", "random"} <= set(m["bots"])
    created = create(client)
    assert [s["kind"] for s in created["seats"]] == ["human"]
    bot = create(client, seats=["bot:random"])
    assert client.get(f"/api/games/{bot['id']}").json()["over"]
    # options a solitaire does not have are refused, and nothing is created
    before = len(client.get("/api/games").json()["games"])
    r = client.post("/api/games", json={"game": "market", "seats": ["human"], "config": {"edition": "stars"}})
    assert r.status_code == 400 and "no options" in r.json()["message"]
    r = client.post("/api/games", json={"game": "market", "seats": ["human", "bot"]})
    assert r.status_code == 400
    assert len(client.get("/api/games").json()["games"]) == before


def test_every_trade_comes_with_the_engines_preview(client):
    created = create(client)
    d = doc_of(client, created["id"], tok(created, 0))
    state = state_of(client, created["id"])
    decisions = d["decisions"]["0"]
    assert [x["action"] for x in decisions] == [a.to_json() for a in state.legal_actions(0)]
    for x in decisions:
        a = action_from_json(x["action"])
        if x["type"] == "done":
            assert x["preview"] == {"ends_game": False, "lost": {}} and x["label"] == "done: roll the dice"
            continue
        t = previews.trade(state, a)
        assert x["preview"] == {"buy": t.buy, "company": R.COMPANIES[t.company], "shares": t.shares, "amount": t.amount,
                                "value_before": t.value_before, "value_after": t.value_after,
                                "cash_before": t.cash_before, "cash_after": t.cash_after,
                                "held_before": t.held_before, "held_after": t.held_after}
        assert x["label"] == f"{x['type']} {t.shares} {R.COMPANIES[t.company]} for ${t.amount}"


def test_the_hint_needs_the_seats_token_and_changes_nothing(client):
    created = create(client)
    other = create(client, seed=4)
    assert hint(client, created, tokens=[]).status_code == 403
    assert hint(client, created, tokens=[tok(other, 0)]).status_code == 403
    assert hint(client, created, seat=1).status_code == 422
    before = doc_of(client, created["id"], tok(created, 0))
    first = hint(client, created)
    assert first.status_code == 200, first.text
    assert doc_of(client, created["id"], tok(created, 0))["version"] == before["version"]
    h = first.json()
    assert set(h) == {"bot", "action", "label", "reason", "preview"}
    assert h["bot"] == STRONGEST["market"]
    assert h["action"] in [x["action"] for x in before["decisions"]["0"]]
    assert h["reason"]
    # the strongest bot's own choice, with the preview of the decision it names
    state = state_of(client, created["id"])
    bot = make_bot("market", "bot", seed=0)
    assert bot.choose(state, 0).to_json() == h["action"]
    assert h["preview"] == next(x["preview"] for x in before["decisions"]["0"] if x["action"] == h["action"])


def test_the_hint_is_the_same_for_the_same_position(client):
    a = create(client, seed=9)
    b = create(client, seed=9)
    for _ in range(6):
        ha, hb = hint(client, a).json(), hint(client, b).json()
        assert ha == hb == hint(client, a).json()
        post_action(client, a, ha["action"])
        post_action(client, b, hb["action"])


def test_the_hint_follows_the_registrys_strongest_bot(client, monkeypatch):
    created = create(client, seed=5)
    monkeypatch.setitem(STRONGEST, "market", "random")
    h = hint(client, created).json()
    assert h["bot"] == "random"
    assert hint(client, created).json() == h  # a random bot too, seeded by the position
    assert h["action"] in [x["action"] for x in doc_of(client, created["id"], tok(created, 0))["decisions"]["0"]]


def test_no_hint_where_the_bot_would_see_too_much_or_nothing_is_left(client):
    stars = client.post("/api/games", json={"game": "stars", "config": {"players": 2}, "seats": ["human", "bot"],
                                            "seed": 1}).json()
    r = client.get(f"/api/games/{stars['id']}/hint", params={"seat": 0}, headers={"X-Seat-Tokens": tok(stars, 0)})
    assert r.status_code == 400 and "no hints" in r.json()["message"]
    created = create(client, seed=2)
    while not doc_of(client, created["id"], tok(created, 0))["over"]:
        post_action(client, created, hint(client, created).json()["action"])
    r = hint(client, created)
    assert r.status_code == 409 and r.json()["error"] == "GameClosed"


def test_charts_of_a_finished_game(client):
    created = create(client, seats=["bot"], seed=3)
    c = client.get(f"/api/games/{created['id']}/charts").json()
    state = state_of(client, created["id"])
    assert c["x"] == [f"turn {k}" for k in range(1, 13)] + ["end"]
    assert list(c["value"]) == ["A", "B", "C", "D"]
    assert all(len(v) == 13 for v in c["value"].values())
    assert [v[-1] for v in c["value"].values()] == state.values
    worth = next(iter(c["net_worth"].values()))
    assert len(worth) == 13 and worth[-1] == state.cash and worth[0] == 10
    rolls = c["rolls"]
    assert len(rolls) == state.rolls and sum(r["closed"] for r in rolls) == state.closed
    assert [r["turn"] for r in rolls if not r["closed"]] == list(range(1, 13))
    for r in rolls:
        assert len(r["dice"]) == 4 and all(1 <= x <= 6 for x in r["dice"])
        for c_, (b, a, die) in enumerate(zip(r["before"], r["after"], r["dice"], strict=True)):
            if R.COMPANIES[c_] not in r["splits"]:
                assert a == R.fluctuate(b, die, 0)[0]
    assert rolls[-1]["dice"] + [rolls[-1]["volatility_die"]] == list(state.dice)
    assert rolls[-1]["volatility_die"] == 0  # the last turns: fixed at 3, not rolled
    for earlier, later in zip(rolls, rolls[1:], strict=False):
        assert earlier["roll"] + 1 == later["roll"]
    f = c["final"]
    assert f["score"] == state.cash and f["games"] == 10_000
    data = market_scores.load()
    assert f["standing"] == {bot: market_scores.standing(state.cash, d) for bot, d in data["bots"].items()}
    assert f["bots"] == data["bots"]


def test_charts_mid_turn_end_now(client):
    created = create(client, seed=3)
    c = client.get(f"/api/games/{created['id']}/charts").json()
    assert c["x"] == ["turn 1"] and c["final"] is None
    assert [r["closed"] for r in c["rolls"]] == [True, True, False]
    d = post_action(client, created, {"type": "buy", "company": 0, "shares": 2})
    c = client.get(f"/api/games/{created['id']}/charts").json()
    assert c["x"] == ["turn 1", "now"]
    v = d["view"]
    assert next(iter(c["net_worth"].values()))[-1] == v["cash"] + sum(x * n for x, n in zip(v["values"], v["shares"], strict=True))
