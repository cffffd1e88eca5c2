"""Change of Presidency and receivership."""

from rolling.games.stars import SellShare

from .conftest import blank, corp, offer_up


def test_change_of_presidency_example():
    """Example: order Crystal 1, Amy 2, Brian 3; Stars, Inc. has 3 shares: Amy president, Crystal and
    Brian one each; Amy sells: Brian, closer after Amy in player order, becomes president."""
    crystal, amy, brian = 0, 1, 2
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "SI", ["MHE"], 14, issued=3, holders={amy: 1, crystal: 1, brian: 1}, president=amy)
    s.current = 1
    s.apply(SellShare(amy, "SI"))
    assert s.president[c] == brian
    assert s.shares_of(c, amy) == 0 and s.shares_of(c, brian) == 1 and s.bank_shares(c) == 1


def test_buying_more_shares_than_the_president_takes_the_presidency():
    """Change of Presidency: a player owning more shares than the president becomes president."""
    from rolling.games.stars import BuyShare

    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "SI", ["MHE"], 11, issued=4, holders={1: 1, 0: 1}, president=1)
    s.apply(BuyShare(0, "SI"))
    assert s.president[c] == 0


def test_president_share_only_sold_as_last_share():
    """Sell One Share: the President's Share only if it is the player's last share."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "SI", ["MHE"], 14, issued=4, holders={0: 2, 1: 1})
    s.apply(SellShare(0, "SI"))
    assert s.president[c] == 0, "a plain share was sold; tie 1-1 keeps the president"


def test_a_non_president_selling_does_not_hand_over_on_a_tie():
    """Sell One Share / Change of Presidency: only a player owning *more* shares than the president
    takes over; when someone else sells, the president is checked as is."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    s.order = [2, 1, 0]
    s.current = 0
    c = corp(s, "DA", ["MHE"], 14, issued=5, holders={0: 2, 1: 2, 2: 1}, president=0)
    s.apply(SellShare(2, "DA"))
    assert s.president[c] == 0
