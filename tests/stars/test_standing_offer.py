"""Compat option ``18xx-fi-standing-offer``: on 18xx.games an announced purchase from the foreign
investor does not pause phase 3 (issue 10, A.3; docs/18xx-compatibility.md). The canonical rules
("Any Corporation with a higher Share Price and enough Money available may then immediately
intervene") stay the default: see test_acquisition.py."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolling.core.errors import IllegalAction
from rolling.games.stars import Config, Done, Offer, Respond
from rolling.games.stars.config import FI_STANDING_OFFER
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR

from .conftest import blank, corp, give, goto, idx
from .test_properties import play


def table(pr_cash=30, da_cash=30, da_president=2):
    """P0 presides PR ($11), P1 SI ($13), P2 (or ``da_president``) DA ($20); WT (max $14) is the
    foreign investor's; P0 owns BME, P2 owns BSE."""
    s = blank(3, cash=[10, 10, 10])
    s.config = Config(players=3, compat=(FI_STANDING_OFFER,), names=s.config.names)
    pr = corp(s, "PR", ["MHE"], 11, cash=pr_cash, holders={0: 1})
    si = corp(s, "SI", ["KME"], 13, cash=30, holders={1: 1})
    da = corp(s, "DA", ["AKE"], 20, cash=da_cash, holders={da_president: 1})
    give(s, "WT", FOREIGN_INVESTOR)
    give(s, "BME", 0)
    give(s, "BSE", 2)
    goto(s, 3)
    return s, pr, si, da


def test_announcement_stands_while_the_marketplace_goes_on_and_a_late_answer_counts():
    """A late answer after another deal: the president asked may answer after other transactions."""
    s, pr, si, da = table()
    s.apply(Offer(0, "PR", "WT", 14))
    assert s.standing == ((pr, idx("WT"), (da, si)),)
    assert s.to_act == (0, 1, 2)  # nobody is paused
    s.apply(Offer(1, "SI", "BME", 2))  # another proposal meanwhile
    s.apply(Respond(0, "SI", "BME", True))
    assert s.company_owner[idx("BME")] == CORP_BASE + si
    s.apply(Respond(2, "DA", "WT", False, "PR"))
    assert s.standing == ((pr, idx("WT"), (si,)),)
    s.apply(Respond(1, "SI", "WT", True, "PR"))
    assert s.company_owner[idx("WT")] == CORP_BASE + si
    assert s.corp_cash[si] == 30 - 2 - 14 and s.corp_cash[pr] == 30
    assert s.standing == ()


def test_nobody_pre_empting_means_the_announcer_buys():
    s, pr, si, da = table()
    s.apply(Offer(0, "PR", "WT", 14))
    s.apply(Respond(2, "DA", "WT", False))
    s.apply(Respond(1, "SI", "WT", False))
    assert s.company_owner[idx("WT")] == CORP_BASE + pr and s.corp_cash[pr] == 16


def test_announcement_lapses_at_the_end_of_the_phase():
    """Everyone passes before the question is answered: nothing is bought."""
    s, pr, si, da = table()
    s.apply(Offer(0, "PR", "WT", 14))
    for seat in (0, 1, 2):
        s.apply(Done(seat))
    assert s.phase != 3
    assert s.company_owner[idx("WT")] in (FOREIGN_INVESTOR, -3)  # the foreign investor may close it in phase 4
    assert s.corp_cash[pr] != 16 and s.standing == ()


def test_responder_that_can_no_longer_pay_is_dropped():
    """After a transaction a corporation that cannot pay any more is not asked."""
    s, pr, si, da = table(da_cash=15)
    s.apply(Offer(0, "PR", "WT", 14))
    assert s.standing == ((pr, idx("WT"), (da, si)),)
    s.apply(Offer(2, "DA", "BSE", 2))  # DA buys P2's own BSE: $13 left, less than $14
    assert s.standing == ((pr, idx("WT"), (si,)),)
    s.apply(Respond(1, "SI", "WT", False))
    assert s.company_owner[idx("WT")] == CORP_BASE + pr


def test_all_responders_dropped_means_the_announcer_buys_at_once():
    """When no corporation that may pre-empt can pay any more, the announcer buys at once."""
    s, pr, si, da = table(da_cash=15)
    s.corp_cash[si] = 15
    s.apply(Offer(0, "PR", "WT", 14))
    s.apply(Offer(2, "DA", "BSE", 2))  # DA: $13 left
    assert s.standing == ((pr, idx("WT"), (si,)),)
    s.apply(Offer(1, "SI", "BME", 2))
    s.apply(Respond(0, "SI", "BME", True))  # SI: $13 left: nobody can pre-empt any more
    assert s.company_owner[idx("WT")] == CORP_BASE + pr and s.standing == ()
    assert s.corp_cash[pr] == 30 - 14


def test_announcers_own_other_corporation_is_never_asked():
    """The announcer's president is never asked on behalf of another of their corporations."""
    s, pr, si, da = table(da_president=0)
    s.apply(Offer(0, "PR", "WT", 14))
    assert s.standing == ((pr, idx("WT"), (si,)),)
    s.apply(Respond(1, "SI", "WT", False))
    assert s.company_owner[idx("WT")] == CORP_BASE + pr


def test_announcer_with_nobody_to_ask_buys_at_once():
    s, pr, si, da = table()
    s.apply(Offer(2, "DA", "WT", 14))
    assert s.company_owner[idx("WT")] == CORP_BASE + da and s.standing == ()


def test_announcement_lapses_when_the_company_goes_elsewhere_or_the_announcer_cannot_pay():
    s, pr, si, da = table()
    s.apply(Offer(0, "PR", "WT", 14))
    s.apply(Offer(1, "SI", "WT", 14))  # a second announcement of the same company
    assert len(s.standing) == 2
    s.apply(Respond(2, "DA", "WT", True, "SI"))  # DA pre-empts SI's announcement
    assert s.company_owner[idx("WT")] == CORP_BASE + da and s.standing == ()

    s, pr, si, da = table(pr_cash=15)
    s.apply(Offer(0, "PR", "WT", 14))
    s.apply(Offer(0, "PR", "BME", 2))  # PR: $13 left, no longer enough
    assert s.standing == () and s.company_owner[idx("WT")] == FOREIGN_INVESTOR


def test_only_the_corporation_asked_answers():
    s, pr, si, da = table()
    s.apply(Offer(0, "PR", "WT", 14))
    before = s.digest()
    with pytest.raises(IllegalAction, match="not asked"):
        s.apply(Respond(1, "SI", "WT", True))  # SI is asked only after DA
    with pytest.raises(IllegalAction, match="already has an open proposal"):
        s.apply(Offer(0, "PR", "WT", 14))
    assert s.digest() == before


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_random_games_with_standing_offers_keep_invariants_and_end(seed, players):
    """The invariants of test_properties hold with the option on, and every game ends."""
    s, _ = play(seed, players, compat=(FI_STANDING_OFFER,))
    assert s.is_over and s.standing == ()
