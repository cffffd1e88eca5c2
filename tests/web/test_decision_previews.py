"""Issue 29, previews on the web: every answer to an offer shows the company's face value and the
income the sale takes from the seller and adds to the buyer (the terminal's numbers, issue 28 item
10); selling the last share a player holds says it puts the corporation into receivership."""

from __future__ import annotations

from rolling.bots import make_bot
from rolling.games.stars import Config, Respond, SellShare, new_game, previews
from rolling.games.stars import data as D
from rolling.games.stars.state import MAXP
from rolling.ui.stars_input import sale_incomes
from rolling.web.decisions import decisions


def _position(condition, players=4, seeds=range(1, 300)):
    for seed in seeds:
        s = new_game(Config(players=players), seed)
        bots = [make_bot("stars", "random", seed=seed * 101 + k) for k in range(players)]
        for _ in range(3000):
            if s.is_over:
                break
            if condition(s):
                return s
            seat = s.to_act[0]
            s.apply(bots[seat].choose(s, seat))
    raise AssertionError("no seed reaches the position")


def test_every_answer_to_an_offer_shows_face_value_and_both_incomes_issue29():
    s = _position(lambda s: s.phase == 3 and s.announcement is None
                  and any(m.kind is Respond for p in s.to_act for m in s.legal_moves(p)))
    seat = next(p for p in s.to_act if any(m.kind is Respond for m in s.legal_moves(p)))
    answers = [d for d in decisions("stars", s, seat) if d["type"] == "respond"]
    assert answers and all(d["preview"] for d in answers)
    for d in answers:
        c, i = D.CORP_INDEX[d["args"]["corporation"]], D.INDEX[d["args"]["company"]]
        p = d["preview"]
        price = next(pr for pc, pi, pr, _ in s.pending if pc == c and pi == i)
        assert (p["face"], p["price"]) == (D.FACE[i], price)
        # the same numbers as the terminal's answer line
        assert f"{p['seller']} {p['seller_gain']:+d}/turn, {s.corp_code(c)} {p['buyer_gain']:+d}/turn" in sale_incomes(s, c, i)


def test_a_pre_emption_shows_face_value_and_the_income_gained_issue29():
    s = _position(lambda s: s.phase == 3 and s.announcement is not None and any(
        m.kind is Respond and m.args["accept"] for p in s.to_act for m in s.legal_moves(p)))
    seat = next(p for p in s.to_act if any(m.kind is Respond for m in s.legal_moves(p)))
    d = next(d for d in decisions("stars", s, seat) if d["type"] == "respond" and d["args"]["accept"])
    c, i = D.CORP_INDEX[d["args"]["corporation"]], D.INDEX[d["args"]["company"]]
    assert d["preview"]["face"] == D.FACE[i]
    assert d["preview"]["buyer_gain"] == previews.purchase(s, c, i).gain


def _held_by_players(s, c):
    return sum(s.held[c * MAXP: c * MAXP + s.n])


def test_selling_the_last_players_share_warns_of_receivership_issue29():
    def last_share(s):
        return s.phase == 1 and s.auction is None and any(
            m.kind is SellShare and _held_by_players(s, D.CORP_INDEX[m.args["corporation"]]) == 1
            and previews.sell_share(s, D.CORP_INDEX[m.args["corporation"]]).card != 0
            for m in s.legal_moves(s.to_act[0]))
    s = _position(last_share)
    seat = s.to_act[0]
    d = next(d for d in decisions("stars", s, seat) if d["type"] == "sell_share"
             and _held_by_players(s, D.CORP_INDEX[d["args"]["corporation"]]) == 1 and not d["preview"]["bankrupt"])
    assert d["preview"]["receivership"] is True
    # the engine agrees: the sale leaves the corporation without a president
    c = D.CORP_INDEX[d["args"]["corporation"]]
    s.apply(SellShare(seat, d["args"]["corporation"]))
    assert s.president[c] == -1 and _held_by_players(s, c) == 0 and s.corp_active[c]


def test_a_sale_that_leaves_shares_with_players_is_no_receivership_issue29():
    s = _position(lambda s: s.phase == 1 and s.auction is None and any(
        m.kind is SellShare and _held_by_players(s, D.CORP_INDEX[m.args["corporation"]]) > 1
        for m in s.legal_moves(s.to_act[0])))
    seat = s.to_act[0]
    d = next(d for d in decisions("stars", s, seat) if d["type"] == "sell_share"
             and _held_by_players(s, D.CORP_INDEX[d["args"]["corporation"]]) > 1)
    assert d["preview"]["receivership"] is False
