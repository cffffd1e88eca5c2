"""Issue 29, "what you type is what is sent": an action chosen on an older version of the game in
the any-order phases (Rolling Stock Stars phase 3, Acquisition) is taken when nothing its seat's
decision depends on changed and it is still legal, and refused otherwise, saying what changed
(rolling.web.stale). Races constructed through the API: four human seats replay seeded random
bots' moves up to a position of phase 3 where the race can happen."""

from __future__ import annotations

from rolling.bots import make_bot
from rolling.games.stars import Config, Done, Offer, new_game
from rolling.games.stars import data as D
from rolling.web.stale import basis, what_changed

from .conftest import doc_of, make_game, tok


def _position(condition, players=4, seeds=range(1, 200)):
    """(seed, actions, state): the first position of seeded random bots' games where
    ``condition(state)`` holds."""
    for seed in seeds:
        s = new_game(Config(players=players), seed)
        bots = [make_bot("stars", "random", seed=seed * 101 + k) for k in range(players)]
        actions = []
        while not s.is_over and len(actions) < 2000:
            if condition(s):
                return seed, actions, s
            seat = s.to_act[0]
            a = bots[seat].choose(s, seat)
            s.apply(a)
            actions.append(a.to_json())
    raise AssertionError("no seed reaches the position")


def _replay(client, seed, actions, players=4):
    """A game of ``players`` human seats with ``actions`` taken through the API; (created, tokens)."""
    g = make_game(client, ["human"] * players, seed=seed)
    tokens = [tok(g, k) for k in range(players)]
    headers = {"X-Seat-Tokens": ",".join(tokens)}
    version = 0
    for a in actions:
        r = client.post(f"/api/games/{g['id']}/actions", json={"version": version, "seat": a["seat"], "action": a},
                        headers=headers)
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    return g, tokens


def _send(client, g, tokens, seat, version, action, basis_=None):
    body = {"version": version, "seat": seat, "action": action}
    if basis_ is not None:
        body["basis"] = basis_
    return client.post(f"/api/games/{g['id']}/actions", json=body, headers={"X-Seat-Tokens": ",".join(tokens)})


def _offer_to_a_player(s):
    """(buyer's seat, seller's seat, offer move) in phase 3 with both seats to act, or None."""
    if s.phase != 3 or s.announcement is not None or len(s.to_act) < 3:
        return None
    for b in s.to_act:
        for m in s.legal_moves(b):
            if m.kind is Offer:
                seller = s.company_owner[D.INDEX[m.args["company"]]]
                if seller in s.to_act and seller != b and seller < s.n:
                    return b, seller, m
    return None


def test_a_stale_action_is_taken_when_nothing_of_its_seat_changed_issue29(client):
    """Issue 29: another seat declaring done in phase 3 changes nothing this seat decides on: its
    action, sent with the version before, is taken."""
    def done_by(s):
        return [k for k in s.to_act if any(m.kind is Done for m in s.legal_moves(k))]

    seed, actions, s = _position(lambda s: s.phase == 3 and s.announcement is None and len(done_by(s)) >= 3)
    g, tokens = _replay(client, seed, actions)
    d = doc_of(client, g["id"], *tokens)
    a, b = done_by(s)[:2]
    assert str(a) in d["basis"] and str(b) in d["basis"]
    done_b = next(x["action"] for x in d["decisions"][str(b)] if x["type"] == "done")
    assert _send(client, g, tokens, b, d["version"], done_b).status_code == 200
    done_a = next(x["action"] for x in d["decisions"][str(a)] if x["type"] == "done")
    # without the basis the old strict rule holds
    r = _send(client, g, tokens, a, d["version"], done_a)
    assert r.status_code == 409 and r.json()["message"] == "the game changed, look again"
    r = _send(client, g, tokens, a, d["version"], done_a, d["basis"][str(a)])
    assert r.status_code == 200, r.text
    assert r.json()["version"] == d["version"] + 2


def test_a_stale_action_is_refused_saying_an_offer_to_you_changed_issue29(client):
    """Issue 29: a proposal made to the seat since its page was drawn changes its decision: the
    stale action is refused with what changed, and nothing is taken."""
    seed, actions, s = _position(lambda s: _offer_to_a_player(s) is not None)
    buyer, seller, m = _offer_to_a_player(s)
    g, tokens = _replay(client, seed, actions)
    d = doc_of(client, g["id"], *tokens)
    offer = {"type": "offer", **m.args, "price": m.lo}
    assert _send(client, g, tokens, buyer, d["version"], offer).status_code == 200
    done = next(x["action"] for x in d["decisions"][str(seller)] if x["type"] == "done")
    r = _send(client, g, tokens, seller, d["version"], done, d["basis"][str(seller)])
    assert r.status_code == 409
    assert r.json() == {"error": "StaleVersion", "message": "the game changed: an offer to you or of yours changed"}
    assert doc_of(client, g["id"])["version"] == d["version"] + 1


def test_a_stale_action_in_a_turn_based_phase_is_refused_issue29(client):
    """Issue 29: in phase 1 (one seat at a time) there is no basis; an old version is refused."""
    g = make_game(client, ["human", "human"], seed=3)
    tokens = [tok(g, 0), tok(g, 1)]
    d = doc_of(client, g["id"], *tokens)
    assert d["basis"] == {}
    seat = d["to_act"][0]
    action = next(x["action"] for x in d["decisions"][str(seat)] if x["action"])
    assert _send(client, g, tokens, seat, d["version"], action).status_code == 200
    d2 = doc_of(client, g["id"], *tokens)
    seat2 = d2["to_act"][0]
    action2 = next(x["action"] for x in d2["decisions"][str(seat2)] if x["action"])
    r = _send(client, g, tokens, seat2, d["version"], action2, {"phase": "x"})
    assert r.status_code == 409 and r.json()["message"] == "the game changed, look again"


def test_what_changed_names_the_parts_and_the_companies_the_action_names_issue29():
    """Issue 29: the refusal says what changed: cash, companies, offers, the phase, or the owner
    of a company the action names; a page's garbage counts as a change."""
    _, _, s = _position(lambda s: s.phase == 3 and s.announcement is None)
    seat = s.to_act[0]
    now = basis("stars", s, seat)
    assert what_changed(now, now, {"type": "done"}) is None
    assert what_changed(dict(now, cash="0"), now, {"type": "done"}) == "the game changed: your cash changed"
    assert what_changed(dict(now, cash="0", phase="0"), now, {"type": "done"}) == "the game changed: the phase ended"
    code = next(iter(now["companies"]))
    moved = dict(now, companies=dict(now["companies"], **{code: "0"}))
    assert what_changed(moved, now, {"type": "done"}) is None  # a company the action does not name
    assert what_changed(moved, now, {"type": "offer", "company": code}) == f"the game changed: {code} changed hands"
    assert what_changed("junk", now, {"type": "done"}) == "the game changed, look again"
    assert what_changed(now, None, {"type": "done"}) == "the game changed, look again"
    # a seat's basis does not depend on another seat's cash (secret money stays its own)
    other = next(k for k in range(s.n) if k != seat)
    s.cash[other] += 7
    assert basis("stars", s, seat) == now
