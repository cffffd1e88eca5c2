"""The "undo can probe" hole: an undo never goes back past what the undoing party learned since.

Besides reveals (cards, dice, cargo: tests/core/test_reveal_undo.py), a party learns from every
move of a seat it does not hold: a bot's answer shows its private valuation, another person's
decision what they chose, and with the Stars secret-money variant (002, 3.2) a step the engine
takes from a player's secret cash (a forced leave from an auction: the cash is below the bid) tells
the others about that cash. Undo, bid again and the secret is narrowed down; offer, see the bot's
answer, undo, offer another price and its valuation is probed. The one rule
(:class:`rolling.core.reveal.UndoFloor`) refuses such an undo at the terminal (one seat's undo)
and in the web app (the held seats' undo), leaves the game exactly as it was, names what was
learned as the public log tells it (never the cash), and still lets a player take back their own
actions before anyone else moved.
"""

from __future__ import annotations

import copy

import pytest

from rolling.bots import make_bot
from rolling.core.record import GameRecord
from rolling.core.reveal import UndoFloor, actor
from rolling.games.stars import data as D
from rolling.games.stars.actions import Offer, StartAuction
from rolling.games.stars.config import Config as StarsConfig
from rolling.ui.session import PlaySession

SECRET = ("secret-money",)


def session_of(seats, seed, variants=()):
    config = StarsConfig(players=len(seats), variants=variants).to_json()
    return PlaySession(GameRecord("stars", config, seed, [], {"seats": seats}), seats, None)


def probing_bid(s):
    """``(T, StartAuction)`` when the seat to act in phase 1 may start an auction with a bid equal
    to the cash of the next player in order ``T`` (forced out at once, if the cash is below or at
    the bid) while every other player may still bid, and a bid at face value keeps ``T`` in; else
    ``None``."""
    if s.phase != 1 or s.auction is not None or len(s.to_act) != 1:
        return None
    seat = s.to_act[0]
    t = s.order[(s.position(seat) + 1) % s.n]
    for a in s.legal_actions(seat):
        if isinstance(a, StartAuction):
            face, b = D.FACE[D.company_index(a.company)], s.cash[t]
            if face < b <= s.cash[seat] and all(s.cash[x] > b for x in s.order if x not in (seat, t)):
                return t, StartAuction(seat, a.company, b)
    return None


def hotseat_until_probe(variants=SECRET, seed=1):
    """Three people at one keyboard, each deciding as the heuristic bot would, until the seat to act
    could probe the next player's cash with a bid (:func:`probing_bid`)."""
    s = session_of(["human"] * 3, seed, variants)
    deciders = {k: make_bot("stars", "heuristic", seed=k) for k in range(3)}
    for _ in range(300):
        found = probing_bid(s.state)
        if found:
            return s, found
        seat = s.next_seat()
        s.apply(deciders[seat].choose(s.state, seat), decided_by=seat)
    raise AssertionError("no position to probe from")


def snapshot(s):
    return list(s.record.actions), s.state.digest(), {k: list(v) for k, v in s.decisions.items()}


# -- the engine counts a step forced by secret cash as that player's move ------------------------

def test_secret_money_002_3_2_a_forced_leave_is_a_move_of_the_player_forced_out():
    s, (t, bid) = hotseat_until_probe()
    before = s.state.reveals
    s.apply(bid, decided_by=bid.seat)
    assert not s.state.auction[5] >> t & 1  # out of the auction
    assert s.state.reveals == before + 1 and s.state.last_reveal == ("move", str(t))


def test_with_open_money_a_forced_leave_reveals_nothing():
    """Everyone sees everyone's cash: the forced leave was foreseeable, so it is no reveal."""
    s, (t, bid) = hotseat_until_probe(variants=())
    before = s.state.reveals
    s.apply(bid, decided_by=bid.seat)
    assert not s.state.auction[5] >> t & 1 and s.state.reveals == before
    assert s.undo(bid.seat)  # nothing learned: one's own bid may be taken back


def test_secret_money_002_3_2_the_new_player_order_is_a_reveal():
    """Phase 2 orders the players by their (secret) cash: one reveal more than with open money,
    from the same position (the variant changes what is seen, not the position)."""
    from rolling.games import get_game
    from rolling.games.stars import wrap_up
    from rolling.games.stars.engine import new_game

    s, _ = hotseat_until_probe()
    secret = s.state.clone()
    open_ = new_game(StarsConfig(players=3), 1)
    for a in s.record.actions:
        open_.apply(get_game("stars").action_from_json(a))
    assert (open_.cash, open_.order, open_.offering) == (secret.cash, secret.order, secret.offering)
    before = (secret.reveals, open_.reveals)
    wrap_up.enter(secret)
    wrap_up.enter(open_)
    assert secret.reveals - before[0] == open_.reveals - before[1] + 1


# -- the terminal (the session API) ----------------------------------------------------------------

def test_undo_probe_secret_money_002_3_2_terminal_refuses_after_a_forced_leave():
    """The hole: bid, see the next player forced out of the auction (their secret cash is at most
    the bid), undo, bid again. Refused, the refusal names the move as the log shows it (never the
    cash), and the game is exactly as it was."""
    s, (t, bid) = hotseat_until_probe()
    seat = bid.seat
    s.apply(bid, decided_by=seat)
    assert seat in s.state.to_act or s.state.to_act[0] not in (seat, t)  # another still to answer
    kept = snapshot(s)
    why = s.undo_refusal(seat)
    assert why == f"undo would go back past a move of {s.names[t]}"
    assert "$" not in why and str(s.state.cash[t]) not in why
    assert not s.undo(seat) and snapshot(s) == kept


def test_undo_probe_terminal_own_bid_before_anyone_moved_may_be_taken_back():
    """The same position, a bid at face value: the next player stays in and must decide; nothing
    was learned, so the bid may be taken back (and the game is back where it was)."""
    s, (t, bid) = hotseat_until_probe()
    kept = snapshot(s)
    low = StartAuction(bid.seat, bid.company, D.FACE[D.company_index(bid.company)])
    s.apply(low, decided_by=bid.seat)
    assert s.state.to_act == (t,)
    assert s.undo_refusal(bid.seat) is None and s.undo(bid.seat)
    assert snapshot(s) == kept


def test_undo_probe_hotseat_terminal_never_takes_back_another_persons_decision():
    """Several people at one keyboard: each sees the others' decisions, so an undo of one never
    takes back another's (the terminal used to ask and then do it)."""
    s, (t, bid) = hotseat_until_probe(variants=())
    seat = bid.seat
    s.apply(StartAuction(seat, bid.company, D.FACE[D.company_index(bid.company)]), decided_by=seat)
    answer = s.state.legal_actions(t)[0]
    s.apply(answer, decided_by=t)
    kept = snapshot(s)
    assert s.undo_refusal(seat) == f"undo would go back past a move of {s.names[t]}"
    assert not s.undo(seat) and snapshot(s) == kept
    assert s.undo(t)  # the one who answered may take the answer back: nobody moved since


def test_undo_probe_terminal_an_offer_answered_by_a_bot_cannot_be_taken_back():
    """The hole's second half: make an offer for another player's company in phase 3, see the bot
    accept or reject it, undo and offer another price. Refused, naming the bot's move."""
    s = session_of(["human", "heuristic", "heuristic"], 1)
    me = make_bot("stars", "heuristic", seed=0)
    offer = None
    for _ in range(3000):
        assert not s.state.is_over, "no offer to a bot's company came up"
        seat = s.next_seat()
        if seat != 0:
            s.apply(s.bots[seat].choose(s.state, seat))
            continue
        if offer is not None:
            break
        st = s.state
        offer = next((a for a in st.legal_actions(0) if isinstance(a, Offer) and st.phase == 3
                      and 0 < st.company_owner[D.company_index(a.company)] < st.n), None)
        s.apply(offer or me.choose(st, 0), decided_by=0)
    owner = s.record.actions.index(offer.to_json())
    answered = [a for a in s.record.actions[owner + 1:] if a["type"] == "respond"]
    assert answered, "the bot answered the offer"
    bot = answered[0]["seat"]
    kept = snapshot(s)
    assert s.undo_refusal(0) == f"undo would go back past a move of {s.names[bot]}"
    assert not s.undo(0) and snapshot(s) == kept


def test_undo_floor_snapshot_copies_are_independent():
    """The web app keeps a copy of the floor with every snapshot: later moves must not change it."""
    s, (t, bid) = hotseat_until_probe()
    floor = UndoFloor(s.state)
    twin = copy.copy(floor)
    before = s.state.clone()
    s.apply(bid, decided_by=bid.seat)
    floor.after(1, s.state, actor(bid, before))
    assert floor.moved == {bid.seat: 1, t: 1} and twin.moved == {}


# -- the web app (the API on SQLite) ---------------------------------------------------------------

@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from rolling.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_pace=0, start_workers=False)) as c:
        yield c


def doc(client, g, *seats):
    tokens = ",".join(g["seats"][k]["token"] for k in seats)
    return client.get(f"/api/games/{g['id']}", headers={"X-Seat-Tokens": tokens}).json()


def post(client, g, seat, what, body):
    d = doc(client, g, seat)
    return client.post(f"/api/games/{g['id']}/{what}", json={"version": d["version"], "seat": seat, **body},
                       headers={"X-Seat-Tokens": g["seats"][seat]["token"]})


def web_game_at_probe():
    """A secret-money game of three people (seed 1) and the actions that bring it to the position
    of :func:`hotseat_until_probe`, with the probing bid."""
    s, (t, bid) = hotseat_until_probe()
    return list(s.record.actions), t, bid


def test_undo_probe_secret_money_002_3_2_web_refuses_after_a_forced_leave(client):
    """Through the API: a bid at face value may be undone (nobody moved); the bid that forces the
    next player out may not (403, nothing changed), and the document says why beforehand."""
    prefix, t, bid = web_game_at_probe()
    g = client.post("/api/games", json={"game": "stars", "seed": 1, "seats": ["human"] * 3,
                                        "config": {"players": 3, "variants": list(SECRET)}}).json()
    for a in prefix:
        r = post(client, g, a["seat"], "actions", {"action": a})
        assert r.status_code == 200, r.text
    seat = bid.seat
    low = StartAuction(seat, bid.company, D.FACE[D.company_index(bid.company)]).to_json()
    assert post(client, g, seat, "actions", {"action": low}).json()["undo"] == {str(seat): True}
    r = post(client, g, seat, "undo", {})
    assert r.status_code == 200, r.text
    after = post(client, g, seat, "actions", {"action": bid.to_json()}).json()
    name = g["seats"][t]["name"]
    why = f"undo would go back past a move of {name}"
    assert after["undo"] == {str(seat): False} and after["undo_refused"] == why
    r = post(client, g, seat, "undo", {})
    assert r.status_code == 403 and r.json() == {**r.json(), "error": "UndoRefused", "message": why}
    assert doc(client, g, seat) == after  # nothing changed, not even the version


def test_undo_probe_web_a_persons_undo_never_takes_back_a_bots_answer(client):
    """A person bids, a bot answers (its private valuation shows): the person's undo is refused;
    holding every seat (a hotseat table) changes nothing for a bot's seat."""
    g = client.post("/api/games", json={"game": "stars", "seed": 11, "seats": ["human", "heuristic", "heuristic"],
                                        "config": {"players": 3}}).json()
    d = doc(client, g, 0)
    for _ in range(50):
        if "0" in d["decisions"] and any(x["type"] == "bid" for x in d["decisions"]["0"]):
            break
        r = post(client, g, 0, "actions", {"action": d["decisions"]["0"][0]["action"]})
        assert r.status_code == 200, r.text
        d = r.json()
    bid = next(x for x in d["decisions"]["0"] if x["type"] == "bid")
    played = d["played"]
    after = post(client, g, 0, "actions", {"action": {"type": "bid", **bid["args"], bid["field"]: bid["lo"]}}).json()
    hist = client.get(f"/api/games/{g['id']}/history").json()["actions"][played + 1:]
    bots = [a for a in hist if a["by"] == "bot"]
    assert bots, "a bot answered the bid"
    why = f"undo would go back past a move of {g['seats'][bots[0]['seat']]['name']}"
    assert after["undo"] == {"0": False} and after["undo_refused"] == why
    r = post(client, g, 0, "undo", {})
    assert r.status_code == 403 and r.json()["message"] == why
    assert doc(client, g, 0) == after
