"""Issue 28 item 6: undo cannot reveal hidden information.

Every engine counts its reveals (a card drawn from a face-down deck, dice rolled, cargo drawn from
the bag: ``state.reveals``, ``state.last_reveal``) and every front end follows one rule
(:class:`rolling.core.reveal.UndoFloor`): an undo never goes back past a reveal, nor past the end of
the game. The terminal and the web app refuse such an undo and say what was revealed, never what
is still hidden.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from rolling.core.record import GameRecord, load_record
from rolling.core.reveal import UndoFloor, describe
from rolling.games import get_game
from rolling.games.freight import Config as FreightConfig
from rolling.games.freight.actions import EndTurn
from rolling.games.market.actions import DONE, buy
from rolling.games.stars import data as D
from rolling.games.stars.config import Config as StarsConfig
from rolling.games.stars.engine import new_game as new_stars
from rolling.ui.session import PlaySession


def rolling(args, stdin="", cwd=None):
    p = subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], input=stdin, capture_output=True,
                       text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in p.stdout + p.stderr
    return p


# -- the engines count their reveals ---------------------------------------------------------------

def stars_until_draw(variants=()):
    """A 3-player Stars game played by the first legal action until a company is drawn after an
    auction: (state before the action, the action, the state after it)."""
    s = new_stars(StarsConfig(players=3, variants=variants), 7)
    while True:
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        # start auctions and leave them: someone wins, and the deck's top card is drawn
        a = next((x for x in legal if x.type_name in ("start_auction", "leave_auction")), legal[0])
        before = s.clone()
        s.apply(a)
        if len(s.deck) < len(before.deck):
            return before, a, s


def test_a_stars_draw_is_a_reveal_naming_the_card_drawn():
    before, _, after = stars_until_draw()
    drawn = after.offering[-1]
    assert after.reveals == before.reveals + 1 and after.last_reveal == ("card", D.CODES[drawn])
    assert describe(after.last_reveal) == f"a card drawn ({D.CODES[drawn]})"
    # history, not position: a clone keeps the count, the digest ignores it
    twin = after.clone()
    assert twin.reveals == after.reveals and twin.last_reveal == after.last_reveal
    twin.reveals += 5
    assert twin.digest() == after.digest()


def test_with_open_companies_a_stars_draw_reveals_nothing():
    """The open-companies variant shows the deck's order to everyone: drawing is no reveal."""
    before, _, after = stars_until_draw(("open-companies",))
    assert len(after.deck) < len(before.deck) and after.reveals == before.reveals == 0


def test_freight_rolls_draws_and_cargo_are_reveals():
    g = get_game("freight")
    s = g.new_game(FreightConfig("west-coast", 3), 5)
    n = s.reveals
    assert n > 0 and s.last_reveal is not None  # the set-up dealt cards, drew cargo, rolled dice
    while s.stage == "draft":
        s.apply(s.legal_actions(s.to_act[0])[0])
    assert s.reveals > n
    seat = s.to_act[0]
    n = s.reveals
    s.apply(EndTurn(seat))
    assert s.reveals > n and s.last_reveal == ("dice", "")


def test_market_rolls_are_reveals():
    s = get_game("market").new_game(None, 8)
    n = s.reveals
    s.apply(buy(0, 1))
    assert s.reveals == n
    s.apply(DONE)
    assert s.reveals > n and s.last_reveal == ("dice", "")


def test_the_undo_floor_refuses_past_a_reveal_and_after_the_game():
    before, a, after = stars_until_draw()
    floor = UndoFloor(before)
    floor.after(1, after, a.seat)
    assert floor.refusal(1, after, (a.seat,)) is None
    assert floor.refusal(0, after, (a.seat,)) == f"undo would go back past a card drawn ({D.CODES[after.offering[-1]]})"
    after.over = True
    assert floor.refusal(1, after, (a.seat,)) == "the game is over"


# -- the terminal ----------------------------------------------------------------------------------

def test_terminal_undo_never_goes_back_past_a_card_drawn(tmp_path):
    """The issue's scenario (seed 7): a person wins an auction, the next company is drawn; undo is
    refused and says that a card was drawn, never which card is next (an undo with nothing learned
    since still works: tests/core/test_undo_probe.py)."""
    p = rolling(["play", "stars", "--seed", "7", "--seats", "heuristic,human,heuristic,heuristic",
                 "--save", "g.json"], "bid MHE 30\nundo\nquit\n", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "Player 2 wins MHE for $30." in out and "BME is drawn into the offering" in out
    refused = out[out.index("Not undone: "):].splitlines()[0]
    assert refused.startswith("Not undone: undo would go back past a card drawn (")
    named = refused.split("(")[1].split(")")[0]
    assert f"{named} is drawn into the offering" in out  # only a card already shown is named
    rec = load_record(tmp_path / "g.json")
    assert {"type": "start_auction", "seat": 1, "company": "MHE", "bid": 30} in rec.actions


def session_of(game, config, seats, seed):
    return PlaySession(GameRecord(game, config, seed, [], {"seats": seats}), seats, None)


def test_hotseat_undo_never_goes_back_past_a_card_drawn():
    """Two people at one keyboard: a decision after which a card was drawn cannot be taken back,
    by either of them."""
    s = session_of("stars", StarsConfig(players=2).to_json(), ["human", "human"], 7)
    while s.state.reveals == 0:
        seat = s.next_seat()
        legal = s.state.legal_actions(seat)
        a = next((x for x in legal if x.type_name in ("start_auction", "leave_auction")), legal[0])
        assert s.undo_refusal(seat) in (None, "there is no decision of yours to take back")
        s.apply(a, decided_by=seat)
    for seat in (0, 1):
        assert not s.can_undo(seat) and not s.undo(seat)
        assert s.undo_refusal(seat) == f"undo would go back past {describe(s.state.last_reveal)}"


def test_freight_undo_stays_in_the_turn_the_dice_end():
    s = session_of("freight", FreightConfig("west-coast", 2).to_json(), ["human", "human"], 5)
    while s.state.stage == "draft":
        seat = s.next_seat()
        s.apply(s.state.legal_actions(seat)[0], decided_by=seat)
        assert not s.can_undo(seat)  # each pick drew a card or rolled a die
    seat = s.next_seat()
    s.apply(EndTurn(seat), decided_by=seat)
    assert s.undo_refusal(seat) == "undo would go back past a roll of the dice"


def test_market_undo_takes_back_a_trade_but_not_the_roll():
    s = session_of("market", {}, ["human"], 8)
    s.apply(buy(0, 1), decided_by=0)
    assert s.undo(0) and s.record.actions == []
    s.apply(DONE, decided_by=0)
    assert s.undo_refusal(0) == "undo would go back past a roll of the dice" and not s.undo(0)


def test_market_terminal_says_why_undo_is_refused(tmp_path):
    p = rolling(["play", "market", "--seed", "8"], "done\nundo\nbuy A 1\ny\nundo\nquit\n", cwd=tmp_path)
    assert "Not undone: undo would go back past a roll of the dice." in p.stdout
    assert "Undone. Back to Player 1's previous decision." in p.stdout


# -- the web app -----------------------------------------------------------------------------------

@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from rolling.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_pace=0, start_workers=False)) as c:
        yield c


def web_undo(client, g, seat=0):
    d = client.get(f"/api/games/{g['id']}", headers={"X-Seat-Tokens": g["seats"][seat]["token"]}).json()
    return d, client.post(f"/api/games/{g['id']}/undo", json={"version": d["version"], "seat": seat},
                          headers={"X-Seat-Tokens": g["seats"][seat]["token"]})


def web_act(client, g, action, seat=0):
    d = client.get(f"/api/games/{g['id']}", headers={"X-Seat-Tokens": g["seats"][seat]["token"]}).json()
    r = client.post(f"/api/games/{g['id']}/actions", json={"version": d["version"], "seat": seat, "action": action},
                    headers={"X-Seat-Tokens": g["seats"][seat]["token"]})
    assert r.status_code == 200, r.text
    return r.json()


def test_web_undo_refused_past_the_market_dice_and_after_the_game(client):
    g = client.post("/api/games", json={"game": "market", "seats": ["human"], "seed": 8}).json()
    web_act(client, g, buy(0, 1).to_json())
    d, r = web_undo(client, g)
    assert d["undo"] == {"0": True} and r.status_code == 200, r.text
    doc = web_act(client, g, DONE.to_json())
    assert doc["undo"] == {"0": False}
    _, r = web_undo(client, g)
    assert r.status_code == 403 and r.json()["error"] == "UndoRefused"
    assert r.json()["message"] == "undo would go back past a roll of the dice"
    while not doc["over"]:
        doc = web_act(client, g, DONE.to_json())
    _, r = web_undo(client, g)
    assert r.status_code == 403 and r.json()["message"] == "the game is over"


def test_web_undo_refused_past_a_card_drawn(client):
    """The Stars seed-7 game of the terminal test, through the API."""
    g = client.post("/api/games", json={"game": "stars", "config": {"players": 4}, "seed": 7,
                                        "seats": ["heuristic", "human", "heuristic", "heuristic"]}).json()
    doc = web_act(client, g, {"type": "start_auction", "seat": 1, "company": "MHE", "bid": 30}, seat=1)
    assert "Player 2 wins MHE for $30." in doc["log"] and doc["undo"] == {"1": False}
    _, r = web_undo(client, g, seat=1)
    assert r.status_code == 403 and r.json()["message"].startswith("undo would go back past a card drawn (")


def test_web_undo_refused_past_the_freight_dice(client):
    g = client.post("/api/games", json={"game": "freight", "seats": ["human", "human"], "seed": 5}).json()
    tokens = ",".join(s["token"] for s in g["seats"])
    g = dict(g, seats=[dict(s, token=tokens) for s in g["seats"]])  # hotseat: both seats held
    while True:
        d = client.get(f"/api/games/{g['id']}", headers={"X-Seat-Tokens": tokens}).json()
        seat = d["to_act"][0]
        if d["view"]["stage"] != "draft":
            break
        web_act(client, g, d["decisions"][str(seat)][0]["action"], seat=seat)
    doc = web_act(client, g, {"type": "end_turn", "seat": seat}, seat=seat)
    assert doc["undo"] == {"0": False, "1": False}
    _, r = web_undo(client, g, seat=seat)
    assert r.status_code == 403 and r.json()["message"] == "undo would go back past a roll of the dice"
