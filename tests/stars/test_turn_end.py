"""Phases 7 (End card), 8 (Issue share) and 9 (IPO), and Form Corporation with the book's examples."""

import pytest

from rolling.core.errors import IllegalAction
from rolling.games.stars import DeclineIpo, FormCorporation, Issue
from rolling.games.stars import data as D
from rolling.games.stars.procedures import ipo_payment, ipo_shares

from .conftest import blank, corp, give, goto, offer_up


def test_end_card_flips_when_no_unowned_companies_then_game_ends():
    """Phase 7: no unowned companies left -> flip the game end card; if it was already flipped the game ends."""
    s = blank(3)
    s.deck = []
    s.offering = []
    assert goto(s, 7) and s.end_flipped and not s.over
    goto(s, 7)
    assert s.over


def test_end_card_not_flipped_while_companies_are_offered():
    s = blank(3)
    s.deck = []
    s.offering = []
    offer_up(s, "BME")
    goto(s, 7)
    assert not s.end_flipped and not s.over


def test_75_card_in_phase_7_ends_the_game():
    """Phase 7: if the $75 share price card is owned by a corporation, the game ends."""
    s = blank(3)
    corp(s, "PR", ["MHE"], 75, holders={0: 1})
    goto(s, 7)
    assert s.over


def test_issue_share_lowers_price_and_pays_new_price():
    """Issue One Share: like selling; the bank pays the new share price to the corporation."""
    s = blank(3)
    c = corp(s, "PR", ["MHE"], 13, cash=0, holders={0: 1})
    goto(s, 8)
    s.apply(Issue(0, "PR", True))
    assert s.corp_issued[c] == 3 and s.share_price(c) == 12 and s.corp_cash[c] == 12


def test_stock_masters_issues_without_price_change():
    """Issue One Share: Stock Masters keeps its share price and receives it."""
    s = blank(3)
    c = corp(s, "SM", ["MHE"], 13, cash=0, holders={0: 1})
    goto(s, 8)
    s.apply(Issue(0, "SM", True))
    assert s.share_price(c) == 13 and s.corp_cash[c] == 13


def test_receivership_always_issues_even_into_bankruptcy():
    """Phase 8: corporations in receivership issue a share if they have any left."""
    s = blank(3)
    c = corp(s, "PR", ["MHE"], 5, cash=0, holders={})
    goto(s, 8)
    assert not s.corp_active[c]


def test_no_issue_without_unissued_shares():
    s = blank(3)
    corp(s, "VM", ["MHE"], 12, issued=4, holders={0: 2})
    assert goto(s, 8), "nothing to decide"


@pytest.mark.parametrize(
    "face,price,shares,pay,treasury",
    [(8, 11, 1, 3, 14), (12, 12, 1, 0, 12), (12, 11, 2, 10, 32), (60, 30, 2, 0, 60)],
)
def test_form_corporation_examples(face, price, shares, pay, treasury):
    """Form Corporation examples: MHE at $11 ($3, corporation $14); BY at $12 (2 shares, $12);
    BY at $11 (4 shares, player pays $10, $32); CDG at $30 (4 shares, $60)."""
    assert ipo_shares(face, price) == shares
    assert ipo_payment(face, price) == pay
    assert pay + shares * price == treasury


def test_ipo_in_descending_face_value_order_with_book_example():
    """Phase 9 example: MS (Amy) first, then WT and BPM (Brian), KME (Amy), BSE (Crystal)."""
    s = blank(3, cash=[30, 30, 30])
    give(s, "MS", 0)
    give(s, "KME", 0)
    give(s, "WT", 1)
    give(s, "BPM", 1)
    give(s, "BSE", 2)
    goto(s, 9)
    seen = []
    while s.phase == 9:
        seat = s.to_act[0]
        code = D.CODES[s.ipo_cursor]
        seen.append((code, seat))
        s.apply(DeclineIpo(seat, code))
    assert seen == [("MS", 0), ("WT", 1), ("BPM", 1), ("KME", 0), ("BSE", 2)]


def test_form_corporation_in_phase_9():
    """Form Corporation: MHE at $11 with Prussian Railway: the player pays $3, the corporation has $14,
    one share each to the player (president) and the bank."""
    s = blank(3, cash=[30, 30, 30])
    give(s, "MHE", 0)
    goto(s, 9)
    with pytest.raises(IllegalAction, match="IPO box"):
        s.apply(FormCorporation(0, "MHE", "PR", 16))
    s.apply(FormCorporation(0, "MHE", "PR", 11))
    c = D.CORP_INDEX["PR"]
    assert s.cash[0] == 27 and s.corp_cash[c] == 14 and s.president[c] == 0
    assert s.corp_issued[c] == 2 and s.bank_shares(c) == 1


def test_no_ipo_without_money_or_free_price_card():
    """Form Corporation: impossible without enough money or a free share price card of its colour."""
    s = blank(3, cash=[2, 30, 30])
    give(s, "MHE", 0)
    for sym, p in zip(["DA", "SI", "VM", "SM"], [10, 11, 12, 13], strict=True):
        corp(s, sym, ["BME"] if sym == "DA" else [], p, holders={1: 1})
    assert goto(s, 9), "only $14 is free and MHE's owner cannot pay $6"


def test_final_ranking_values_and_tie_break_by_player_order():
    """Game End and Scoring: cash + face value of private companies + share price of each share;
    ties broken by player order (lower number wins)."""
    s = blank(3, cash=[10, 20, 5])
    s.order = [2, 0, 1]
    give(s, "MHE", 0)  # $8
    corp(s, "PR", ["BME"], 12, issued=2, holders={2: 1})  # $12
    scores = {r["seat"]: r["score"] for r in s.standings()}
    assert scores == {0: 18, 1: 20, 2: 17}
    s.cash = [12, 20, 8]  # seat 0: 20, seat 1: 20, seat 2: 20 -> player order 2, 0, 1
    assert [r["seat"] for r in s.standings()] == [2, 0, 1]
