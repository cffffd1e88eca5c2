"""Phase 4: Closing (any order)."""

import pytest

from rolling.core.errors import IllegalAction
from rolling.games.stars import Close, Done
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR, GONE

from .conftest import blank, corp, give, goto, idx, stack_deck


def test_player_who_could_not_pay_must_close_negative_companies_first():
    """Phase 4: a player with a negative phase 5 income they cannot pay must close enough companies."""
    s = blank(3, cash=[1, 10, 10])
    give(s, "BME", 0)
    give(s, "KME", 0)
    stack_deck(s, "HH")  # red companies cost $4: BME -3, KME -2
    goto(s, 4)
    with pytest.raises(IllegalAction, match="must close"):
        s.apply(Done(0))
    s.apply(Close(0, "BME"))
    with pytest.raises(IllegalAction, match="must close"):
        s.apply(Done(0))
    s.apply(Close(0, "KME"))
    assert 0 not in s.to_act


def test_foreign_investor_closes_companies_whose_cost_exceeds_income():
    """Phase 4: the foreign investor closes companies with negative income ($0 is fine)."""
    s = blank(3)
    give(s, "BME", FOREIGN_INVESTOR)  # 1 - 2 < 0
    give(s, "KME", FOREIGN_INVESTOR)  # 2 - 2 = 0
    stack_deck(s, "SZD")
    goto(s, 4)
    assert s.company_owner[idx("BME")] == GONE and s.company_owner[idx("KME")] == FOREIGN_INVESTOR


def test_receivership_closes_red_at_4_orange_at_7_keeps_highest():
    """Phase 4: receivership closes red companies at cost >= $4 and orange at >= $7, keeping the
    company with the highest face value."""
    s = blank(3)
    c = corp(s, "PR", ["BME", "MHE", "WT"], 12, holders={})
    stack_deck(s, "HH")  # $4 on red and orange
    goto(s, 4)
    assert s.companies_of(CORP_BASE + c) == [idx("WT")]
    s2 = blank(3)
    c2 = corp(s2, "PR", ["BME", "WT", "BY"], 12, holders={})
    s2.deck = []  # $7 on red, orange, yellow
    goto(s2, 4)
    assert s2.companies_of(CORP_BASE + c2) == [idx("BY")]


def test_junkyard_scrappers_bonus_and_corporation_keeps_one_company():
    """Phase 4: Junkyard Scrappers receives twice the printed income of each company it closes; a
    corporation keeps at least one company."""
    s = blank(3)
    c = corp(s, "JS", ["KME", "WT"], 12, cash=0, holders={0: 1})
    give(s, "BME", 0)  # keeps player 0 in the phase after the corporation is down to one company
    goto(s, 4)
    s.apply(Close(0, "WT"))
    assert s.corp_cash[c] == 6
    with pytest.raises(IllegalAction, match="keep at least one"):
        s.apply(Close(0, "KME"))


def test_one_seat_answers_agree_with_the_whole_table():
    """issue 34 (replay speed): apply and step ask about one seat or one company at a time; in
    every phase 4 position of random games (receivers, the investor and Junkyard Scrappers
    included) they give what the full computations give: the bit of active_seats, the phase's end,
    membership in closable, and must_close from the whole phase 5 income."""
    from rolling.core.rng import Rng
    from rolling.games.stars import Config, closing, new_game
    from rolling.games.stars import data as D
    from rolling.games.stars import procedures as P

    seen = 0
    for seed in range(12):
        rng = Rng(seed)
        s = new_game(Config(players=3 + seed % 4), seed)
        while not s.over:
            if s.phase == 4:
                seen += 1
                mask = closing.active_seats(s)
                assert closing.step(s) == (mask & ~s.done == 0)
                for p in range(s.n):
                    assert closing._has_something(s, p) == bool(mask >> p & 1)
                    assert closing.must_close(s, p) == (s.cash[p] + P.income_of(s, p) < 0)
                    may = closing.closable(s, p)
                    assert [i for i in range(D.N_COMPANIES) if closing._may_close(s, p, i)] == may
            seat = rng.choice(s.to_act)
            m = rng.choice(s.legal_moves(seat))
            s.apply(m.action(rng.randint(m.lo, m.hi) if m.field else None))
    assert seen > 50
