"""Phase 6: Dividends, Pay Dividends and Adjust Share Price."""

import pytest

from rolling.core.errors import IllegalAction
from rolling.games.stars import Dividend
from rolling.games.stars import data as D
from rolling.games.stars.procedures import adjust_share_price, max_dividend, target_card

from .conftest import blank, corp, goto


@pytest.mark.parametrize("cash_left,price", [(21, 27), (19, 24), (9, 22)])
def test_dividend_example(cash_left, price):
    """Dividend example: 3 shares at $22 need 7 stars; DSB+MS+BPM+BSE = 7 stars plus 2 for $21
    -> 9 stars, double up to $27; with $19: 8 stars -> $24; under $10: 7 stars, unchanged."""
    s = blank(3)
    c = corp(s, "S", ["DSB", "MS", "BPM", "BSE"], 22, cash=cash_left, issued=3, holders={0: 2})
    adjust_share_price(s, c)
    assert s.share_price(c) == price


def test_double_up_leapfrogs_from_the_target():
    """Adjust Share Price: find the target first, then the next available card beyond it (the
    location of the $24 card does not matter for a double up from $22)."""
    s = blank(3)
    c = corp(s, "S", ["DSB", "MS", "BPM", "BSE"], 22, cash=21, issued=3, holders={0: 2})
    corp(s, "PR", ["BME"], 27, holders={1: 1})
    corp(s, "SI", ["KME"], 24, holders={1: 1})
    assert D.PRICES[target_card(s, c)] == 30


def test_down_moves_skip_occupied_cards_and_zero_is_bankruptcy():
    """Adjust Share Price: dropping to the $0 card means Go Bankrupt."""
    s = blank(3)
    c = corp(s, "PR", ["BME"], 6, cash=0, issued=4, holders={0: 2})
    corp(s, "SI", ["KME"], 5, holders={1: 1})
    adjust_share_price(s, c)
    assert not s.corp_active[c]


def test_no_higher_card_means_no_card_and_75():
    """Adjust Share Price: with no higher card available take none; the share price is $75."""
    s = blank(3)
    corp(s, "PR", ["BME"], 75, holders={1: 1})
    c = corp(s, "S", ["HH", "HA", "HR", "FRA"], 68, cash=200, issued=2, holders={0: 1})
    adjust_share_price(s, c)
    assert s.corp_card[c] == -1 and s.share_price(c) == 75


def test_max_dividend_card_and_money():
    """Pay Dividends: at most the card's maximum, and no more than the money allows (3 shares, $8: $2)."""
    s = blank(3)
    c = corp(s, "PR", ["BME"], 22, cash=8, issued=3, holders={0: 2})
    assert max_dividend(s, c) == 2
    s.corp_cash[c] = 100
    assert max_dividend(s, c) == 22 // 3


def test_dividends_in_share_price_order_and_receivership_pays_zero():
    """Phase 6: corporations in share price order; receivership pays $0 without asking."""
    s = blank(3, cash=[0, 0, 0])
    hi = corp(s, "PR", ["BME"], 20, cash=30, issued=2, holders={0: 1})
    lo = corp(s, "SI", ["KME"], 12, cash=30, issued=2, holders={1: 1})
    rec = corp(s, "DA", ["AKE"], 16, cash=30, issued=2, holders={})
    goto(s, 6)
    assert s.to_act == (0,)
    assert s.corp_cash[rec] == 30 and s.processed == 0, "the higher corporation decides first"
    with pytest.raises(IllegalAction, match="turn"):
        s.apply(Dividend(1, "SI", 1))
    s.apply(Dividend(0, "PR", 2))
    assert s.cash[0] == 2 and s.corp_cash[hi] == 26
    assert s.to_act == (1,), "receivership DA paid $0 automatically"
    with pytest.raises(IllegalAction, match="between"):
        s.apply(Dividend(1, "SI", 5))
    s.apply(Dividend(1, "SI", 4))
    assert s.phase != 6 and s.corp_cash[lo] == 22
