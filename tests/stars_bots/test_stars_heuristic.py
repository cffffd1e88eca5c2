"""The heuristic bot's judgement in small hand-made situations (the rule book's terms in the names)."""

from __future__ import annotations

from rolling.bots import make_bot
from rolling.games.stars import Config, acquisition, closing, dividends, new_game
from rolling.games.stars import data as D
from rolling.games.stars import procedures as P
from rolling.games.stars.actions import (
    Bid,
    Close,
    Deal,
    Dividend,
    Done,
    LeaveAuction,
    Offer,
    Respond,
    RespondDeal,
    StartAuction,
    Transaction,
)
from rolling.games.stars.state import CORP_BASE, GONE, IN_OFFERING


def table(players: int = 3, empty_deck: bool = False):
    """A fresh game with player order 0, 1, 2..., an empty offering; optionally no deck left."""
    s = new_game(Config(players=players), 3)
    s.order = list(range(players))
    s.current = 0
    for i in s.offering:
        s.company_owner[i] = GONE
    s.offering = []
    s.unavailable = 0
    if empty_deck:
        for i in s.deck:
            s.company_owner[i] = GONE
        s.deck = []
    return s


def give(s, code: str, owner: int) -> int:
    i = D.INDEX[code]
    if i in s.deck:
        s.deck.remove(i)
    if i in s.offering:
        s.offering.remove(i)
    s.company_owner[i] = owner
    return i


def form(s, seat: int, code: str, corp: str, price: int) -> int:
    i = give(s, code, seat)
    c = D.CORP_INDEX[corp]
    P.form_corporation(s, seat, i, c, D.CARD_OF_PRICE[price])
    return c


def test_sells_its_own_company_to_its_corporation_at_the_top_of_the_span():
    s = table()
    form(s, 0, "SX", "DA", 14)  # 2 shares each, the corporation holds 4 * 14 - 16 = $40
    give(s, "MS", 0)
    s.phase = 3
    acquisition.enter(s)
    a = make_bot("stars", "heuristic").choose(s, 0)
    assert a == Offer(0, "DA", "MS", D.SPAN_HI[D.INDEX["MS"]])


def test_rejects_a_low_offer_for_a_profitable_company():
    s = table()
    form(s, 1, "SX", "DA", 14)
    give(s, "DR", 0)
    s.phase = 3
    acquisition.enter(s)
    s.apply(Offer(1, "DA", "DR", D.SPAN_LO[D.INDEX["DR"]]))
    assert 0 in s.to_act
    a = make_bot("stars", "heuristic").choose(s, 0)
    assert a == Respond(0, "DA", "DR", False)


def test_closes_a_money_losing_company_and_keeps_a_profitable_one():
    s = table(empty_deck=True)  # the game end card: red, orange and yellow pay $7 each
    give(s, "BME", 0)
    give(s, "HH", 0)
    s.phase = 4
    closing.enter(s)
    bot = make_bot("stars", "heuristic")
    assert bot.choose(s, 0) == Close(0, "BME")
    s.apply(Close(0, "BME"))
    assert bot.choose(s, 0) == Done(0)


def test_bids_up_to_the_value_of_a_company_and_no_further():
    s = table()
    for code in ("DR", "BME"):
        i = give(s, code, IN_OFFERING)
        s.offering.append(i)
    bot = make_bot("stars", "heuristic")
    s.apply(StartAuction(0, "DR", 29))
    assert bot.choose(s, 1) == Bid(1, 30)  # worth far more than its face value this early
    s.apply(LeaveAuction(1))
    s.apply(LeaveAuction(2))
    s2 = table()
    i = give(s2, "BME", IN_OFFERING)
    s2.offering.append(i)
    s2.apply(StartAuction(0, "BME", 20))  # $20 for a $1 company earning $1
    assert bot.choose(s2, 1) == LeaveAuction(1)


def test_pays_the_most_it_can_in_the_last_dividend_phase():
    s = table(empty_deck=True)
    c = form(s, 0, "DR", "DA", 27)  # 2 shares each, the corporation holds 4 * 27 - 29 = $79
    s.end_flipped = True
    s.phase = 6
    dividends.enter(s)
    a = make_bot("stars", "heuristic").choose(s, 0)
    assert a == Dividend(0, "DA", P.max_dividend(s, c))


def swap_table():
    """Variant deals (002, 3.1): Alice (seat 0) presides Doppler AG with the WT and the OL, the
    heuristic bot (seat 1) Vintage Machinery with the MS and the BY; both have $30."""
    s = table()
    s.config = Config(players=3, variants=("deals",))
    da = form(s, 0, "WT", "DA", 11)
    give(s, "OL", CORP_BASE + da)
    vm = form(s, 1, "MS", "VM", 14)
    give(s, "BY", CORP_BASE + vm)
    s.corp_cash[da] = s.corp_cash[vm] = 30
    s.phase = 3
    acquisition.enter(s)
    return s


def test_accepts_a_deal_good_for_it_and_rejects_a_bad_one():
    """Variant deals: the bot sums what each purchase of the deal brings it, in order. Its
    corporation buying the OL (a synergy partner of its MS) cheaply and selling the BY dearly is
    good; selling the BY cheaply and buying the WT (no synergy with the MS) dearly is not."""
    good = (Transaction("VM", "OL", 8), Transaction("DA", "BY", 16))
    bad = (Transaction("DA", "BY", 6), Transaction("VM", "WT", 14))
    for bundle, accept in ((good, True), (bad, False)):
        s = swap_table()
        s.apply(Deal(0, bundle))
        assert 1 in s.to_act
        assert make_bot("stars", "heuristic").choose(s, 1) == RespondDeal(1, bundle, accept)
