"""Phase 3: Acquisition (any order)."""

import pytest

from rolling.core.errors import IllegalAction
from rolling.games.stars import Done, Offer, Respond
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR

from .conftest import blank, corp, give, goto, idx


def market():
    s = blank(3, cash=[10, 10, 10])
    pr = corp(s, "PR", ["MHE"], 14, cash=30, holders={0: 1})
    si = corp(s, "SI", ["KME", "AKE"], 12, cash=20, holders={1: 1})
    give(s, "WT", 1)
    give(s, "BME", 0)
    goto(s, 3)
    return s, pr, si


def test_only_presidents_act_and_phase_ends_when_all_are_done():
    """Phase 3: presidents act in any order; the phase ends when everyone has declared done."""
    s, pr, si = market()
    assert s.to_act == (0, 1)
    assert s.legal_moves(2) == []
    s.apply(Done(0))
    assert s.to_act == (1,)
    s.apply(Done(1))
    assert s.phase != 3


def test_buy_from_another_player_needs_acceptance_within_the_price_span():
    """Phase 3: a transaction only takes place if both agree on a price within the price span."""
    s, pr, si = market()
    with pytest.raises(IllegalAction, match="span"):
        s.apply(Offer(0, "PR", "WT", 15))
    s.apply(Offer(0, "PR", "WT", 14))
    assert 1 in s.to_act and s.company_owner[idx("WT")] == 1
    s.apply(Respond(1, "PR", "WT", True))
    assert s.company_owner[idx("WT")] == CORP_BASE + pr
    assert s.cash[1] == 24 and s.corp_cash[pr] == 16


def test_rejected_offer_changes_nothing():
    s, pr, si = market()
    s.apply(Offer(0, "PR", "WT", 10))
    s.apply(Respond(1, "PR", "WT", False))
    assert s.company_owner[idx("WT")] == 1 and s.corp_cash[pr] == 30


def test_deal_controlled_by_one_player_executes_at_once():
    """Phase 3: you may agree with yourself (as president) to sell your own company."""
    s, pr, si = market()
    s.apply(Offer(0, "PR", "BME", 2))
    assert s.company_owner[idx("BME")] == CORP_BASE + pr and s.cash[0] == 12


def test_money_and_companies_in_flight_cannot_be_used_again():
    """Phase 3: transferred company and money are turned vertical until the end of the phase."""
    s, pr, si = market()
    give(s, "BY", 0)
    s.apply(Offer(1, "SI", "WT", 14))  # SI buys its president's WT: $20 -> $6
    s.apply(Offer(0, "PR", "KME", 7))
    s.apply(Respond(1, "PR", "KME", True))  # SI receives $7, in flight: $13 held, $6 usable
    assert s.corp_cash[si] == 13
    with pytest.raises(IllegalAction, match="not yet used"):
        s.apply(Offer(1, "SI", "BY", 10))
    with pytest.raises(IllegalAction, match="in flight"):
        s.apply(Offer(1, "SI", "KME", 7))
    s.apply(Offer(1, "SI", "BY", 6))
    assert s.company_owner[idx("BY")] == 0, "waits for player 0's answer"


def test_corporation_keeps_at_least_one_company_in_flight_counts():
    """Phase 3: each corporation must own at least one company at any time (an in-flight one counts)."""
    s, pr, si = market()
    with pytest.raises(IllegalAction, match="keep at least one"):
        s.apply(Offer(1, "SI", "MHE", 8))
    s.apply(Offer(0, "PR", "BME", 1))  # PR now owns MHE and BME (in flight)
    s.apply(Offer(1, "SI", "MHE", 8))
    s.apply(Respond(0, "SI", "MHE", True))
    assert s.company_owner[idx("MHE")] == CORP_BASE + si


def test_foreign_investor_sells_only_at_maximum_and_overseas_pays_face_value():
    """Phase 3: the foreign investor sells only at the maximum price; Overseas Trading pays face value."""
    s = blank(3, cash=[10, 10, 10])
    pr = corp(s, "PR", ["MHE"], 14, cash=30, holders={0: 1})
    os_ = corp(s, "OS", ["BME"], 10, cash=30, holders={1: 1})
    give(s, "WT", FOREIGN_INVESTOR)
    give(s, "BY", FOREIGN_INVESTOR)
    goto(s, 3)
    with pytest.raises(IllegalAction, match="maximum price"):
        s.apply(Offer(0, "PR", "WT", 11))
    s.apply(Offer(1, "OS", "BY", 12))
    assert s.company_owner[idx("BY")] == CORP_BASE + os_ and s.corp_cash[os_] == 18
    s.apply(Offer(0, "PR", "WT", 14))
    assert s.to_act == (1,), "Overseas Trading ranks above every share price and may pre-empt"
    s.apply(Respond(1, "OS", "WT", False))
    assert s.company_owner[idx("WT")] == CORP_BASE + pr and s.fi_cash == 4 + 12 + 14


def test_preemption_highest_share_price_first():
    """Phase 3: any corporation with a higher share price and enough money may pre-empt, highest
    first; without an intervention the announcer must buy."""
    s = blank(3, cash=[10, 10, 10])
    low = corp(s, "PR", ["MHE"], 11, cash=30, holders={0: 1})
    mid = corp(s, "SI", ["KME"], 13, cash=30, holders={1: 1})
    high = corp(s, "DA", ["AKE"], 20, cash=30, holders={2: 1})
    corp(s, "VM", ["BPM"], 30, cash=5, holders={2: 2})  # higher but too poor
    give(s, "WT", FOREIGN_INVESTOR)
    goto(s, 3)
    s.apply(Offer(0, "PR", "WT", 14))
    assert s.to_act == (2,)
    with pytest.raises(IllegalAction, match="pre-empt"):
        s.apply(Done(1))
    s.apply(Respond(2, "DA", "WT", False))
    assert s.to_act == (1,)
    s.apply(Respond(1, "SI", "WT", True))
    assert s.company_owner[idx("WT")] == CORP_BASE + mid
    assert s.corp_cash[low] == 30 and s.corp_cash[high] == 30


def test_receivership_buys_from_foreign_investor_at_start_most_expensive_first():
    """Phase 3: corporations in receivership buy the most expensive company they can afford from the
    foreign investor at the start of the phase, others may intervene, repeated while they can."""
    s = blank(3, cash=[10, 10, 10])
    rec = corp(s, "JS", ["MHE"], 14, cash=30, holders={})
    give(s, "WT", FOREIGN_INVESTOR)  # max 14
    give(s, "BY", FOREIGN_INVESTOR)  # max 16
    give(s, "BSE", FOREIGN_INVESTOR)  # max 3
    goto(s, 3)
    owned = s.companies_of(CORP_BASE + rec)
    assert idx("BY") in owned and idx("WT") in owned and idx("BSE") not in owned
    assert s.corp_cash[rec] == 0


def test_receivership_never_sells():
    """Phase 3: corporations in receivership never sell companies."""
    s = blank(3, cash=[10, 10, 10])
    corp(s, "PR", ["MHE"], 14, cash=30, holders={0: 1})
    corp(s, "JS", ["KME", "AKE"], 11, cash=0, holders={})
    goto(s, 3)
    with pytest.raises(IllegalAction, match="receivership"):
        s.apply(Offer(0, "PR", "KME", 5))


def test_transaction_makes_everyone_act_again():
    """Phase 3 (any order): the phase ends when everyone has declared done since the last transaction."""
    s, pr, si = market()
    s.apply(Done(1))
    s.apply(Offer(0, "PR", "BME", 2))
    assert 1 in s.to_act


def test_overseas_trading_in_receivership_buys_first_from_the_foreign_investor():
    """Phase 3 (canonical rules): "During the whole phase, the Overseas Trading Corporation is
    considered to have the highest Share Price", so among corporations in receivership it buys from
    the foreign investor first (receivership: "follow the usual rules of intervention and priorities
    (including the special ability of the Overseas Trading corporation)"). Issue 10, A.1."""
    s = blank(3, cash=[10, 10, 10])
    os_ = corp(s, "OS", ["BY"], 11, cash=20, holders={})
    si = corp(s, "S", ["BD", "WT"], 24, cash=58, holders={})
    give(s, "PR", FOREIGN_INVESTOR)  # face $19, maximum $25
    assert s.in_receivership(os_) and s.in_receivership(si)
    goto(s, 3)
    assert s.company_owner[idx("PR")] == CORP_BASE + os_
    assert s.corp_cash[os_] == 1
    assert s.corp_cash[si] == 58
