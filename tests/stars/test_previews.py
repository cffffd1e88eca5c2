"""Previews (rolling.games.stars.previews): what a purchase, a closing, a dividend, a share trade or
an IPO would do, with the rule book's numbers, and always the numbers the engine then produces."""

import pytest

from rolling.core.rng import Rng
from rolling.games.stars import (
    BuyShare,
    Close,
    Config,
    Dividend,
    FormCorporation,
    Issue,
    SellShare,
    new_game,
    previews,
)
from rolling.games.stars import data as D
from rolling.games.stars import procedures as P
from rolling.games.stars.state import CORP_BASE
from rolling.ui.stars_input import describe

from .conftest import blank, corp, give, goto, idx, stack_deck
from .test_events import random_action

SYN = ["DSB", "MS", "BPM", "BSE"]


def synergistic(companies=SYN, cash=21):
    """The rule book's Synergistic corporation (Turn 2, phase 5 and 6 examples)."""
    s = blank(3, cash=[30, 30, 30])
    c = corp(s, "S", companies, 22, cash=cash, issued=3, holders={0: 2})
    return s, c


# ------------------------------------------------------------------------- Collect Income, purchases


def test_income_is_collect_income_itemised():
    """Collect Income (Turn 2, phase 5 example): DSB, MS, BPM, BSE: base $11, synergies $5, four
    markers +$2: $18."""
    s, c = synergistic()
    assert previews.income(s, CORP_BASE + c) == previews.Income(printed=11, cost=0, synergy=5, bonus=2, total=18)


def test_purchase_adds_income_with_synergies_and_ability():
    """Phase 3 purchase, Glossary Synergy: Synergistic with DSB, MS, BPM earns $14 (10 + synergies
    2+1 + $1 for three markers); buying BSE adds its $1, the synergies BSE-MS and BSE-BPM ($1 each)
    and Synergistic's second $1 (four markers): +$4, the book's $18."""
    s, c = synergistic(["DSB", "MS", "BPM"])
    s.company_owner[idx("BSE")] = 1  # a player's private company, on offer to the corporation
    p = previews.purchase(s, c, idx("BSE"))
    assert p.before.total == 14 and p.after.total == 18 and p.gain == 4
    assert sorted(p.synergies) == sorted([(idx("BSE"), idx("MS"), 1), (idx("BSE"), idx("BPM"), 1)])
    assert (p.after.printed - p.before.printed, p.after.synergy - p.before.synergy,
            p.after.bonus - p.before.bonus) == (1, 2, 1)


def test_purchase_by_prussian_and_doppler():
    """Collect Income: Prussian Railway adds $1 per company it owns; Doppler AG doubles the printed
    income of its highest face value company, so buying a better one moves the double to it."""
    s = blank(3)
    pr = corp(s, "PR", ["BME"], 11, holders={0: 1})
    give(s, "KME", 1)
    assert previews.purchase(s, pr, idx("KME")).gain == D.INCOME[idx("KME")] + 1 + 1  # income, BME-KME, +$1
    da = corp(s, "DA", ["WT"], 20, holders={1: 1})
    give(s, "DSB", 2)
    p = previews.purchase(s, da, idx("DSB"))
    assert p.before.bonus == 3 and p.after.bonus == 5, "WT's $3 doubled, then DSB's $5"
    assert p.gain == 5 + 5 - 3


def test_no_synergy_for_a_player():
    """Glossary, Synergy: a bonus income for Corporations only."""
    s = blank(3)
    give(s, "MS", 0)
    change = previews.income_change(s, 0, add=[idx("DSB")])
    assert change.gain == D.INCOME[idx("DSB")] and change.synergies == ()


# ---------------------------------------------------------------------------------- phase 4 closing


def test_closing_the_red_companies_keeps_the_books_6():
    """Remaining turns, phase 5 example: with a blue top card (red and orange cost $4) Synergistic
    earns $18 - 3 x $4 = $6; closing the two red companies leaves DSB and MS: $5 + $3 + $2 synergy,
    no ability bonus, - $4 for the orange MS: again $6. It loses the red companies' 2 stars."""
    s, c = synergistic()
    stack_deck(s, "HH")
    effect = previews.closing(s, idx("BPM"), idx("BSE"))
    assert effect.owner == CORP_BASE + c
    assert effect.income.before.total == 6 and effect.income.after.total == 6 and effect.income.gain == 0
    assert effect.income.after == previews.Income(printed=8, cost=4, synergy=2, bonus=0, total=6)
    assert effect.stars == 2 and effect.scrap_bonus == 0
    assert len(effect.income.synergies) == 3, "MS-BPM, MS-BSE and BPM-BSE are broken, each once"


def test_closing_one_company_counts_lost_synergies_and_ability():
    """Phase 4 / Collect Income: closing BSE alone (blue top card) takes away its $1 and its $4 cost
    of ownership, its synergies with MS and BPM ($2) and one of Synergistic's $1 (three markers
    left): the income stays $6. The menu says so."""
    s, c = synergistic()
    stack_deck(s, "HH")
    change = previews.closing(s, idx("BSE")).income
    assert (change.before.printed - change.after.printed, change.before.cost - change.after.cost,
            change.before.synergy - change.after.synergy, change.before.bonus - change.after.bonus) == (1, 4, 2, 1)
    assert change.gain == 0
    goto(s, 4)
    move = next(m for m in s.legal_moves(0) if m.kind is Close and m.args["company"] == "BSE")
    assert describe(s, move) == "close BSE of Synergistic (income +0/turn)"


def test_closing_all_but_the_best_still_loses_2_at_the_game_end():
    """Remaining turns, phase 5 example: under the game end card Synergistic makes $10 in losses;
    "Even if it closed all but the best company (DSB), it would still make 2● in losses"."""
    s, c = synergistic()
    s.deck = []
    effect = previews.closing(s, idx("MS"), idx("BPM"), idx("BSE"))
    assert effect.income.before.total == -10 and effect.income.after.total == -2


def test_closing_for_prussian_doppler_vintage_and_junkyard():
    """Collect Income and phase 4: Prussian Railway loses its $1 for the company; Doppler AG's double
    moves to its next best company; Vintage Machinery's $10 reduction covers less; Junkyard
    Scrappers receives twice the printed income at once."""
    s = blank(3)
    s.deck = []  # game end card front: $7 on red, orange and yellow companies
    pr = corp(s, "PR", ["BME", "KME"], 11, holders={0: 1})
    assert previews.closing(s, idx("KME")).income.gain == -(D.INCOME[idx("KME")] - 7 + 1 + 1)  # income, cost, synergy, +$1
    da = corp(s, "DA", ["WT", "DSB"], 20, holders={1: 1})
    da_close = previews.closing(s, idx("DSB")).income
    assert da_close.before.bonus == 5 and da_close.after.bonus == 3, "the double moves from DSB to WT"
    vm = corp(s, "VM", ["BY", "BD", "HE", "AKE"], 16, holders={2: 1})
    vm_close = previews.closing(s, idx("BY")).income
    assert (vm_close.before.cost, vm_close.after.cost) == (28 - 10, 21 - 10)
    js = corp(s, "JS", ["PR", "OL"], 14, holders={2: 1})
    effect = previews.closing(s, idx("OL"))
    assert effect.scrap_bonus == 2 * D.INCOME[idx("OL")]
    assert pr != da != vm != js
    with pytest.raises(ValueError):
        previews.closing(s, idx("BY"), idx("PR"))


# ------------------------------------------------------------------------------ phase 6 dividends


@pytest.mark.parametrize("cash,per_share,price", [(30, 3, 27), (28, 3, 24), (16, 3, 22)])
def test_dividend_example(cash, per_share, price):
    """Turn 2, phase 6 example: 3 shares at $22 need 7 stars; after the dividend $21 is left: 7 + 2
    stars, double up to $27; with $2 less, 8 stars: $24; under $10: 7 stars, unchanged."""
    s, c = synergistic(cash=cash)
    d = previews.dividend(s, c, per_share)
    assert d.total == 9 and d.treasury == cash - 9 and d.required == 7 and d.price == price
    assert d.to_players == (6, 0, 0), "player 0 holds 2 of the 3 shares; the bank's share is paid to the bank"


def test_dividend_leapfrogs_an_occupied_card():
    """Adjust Share Price: if the $27 card is not available, the next higher available is taken."""
    s, c = synergistic(cash=30)
    corp(s, "PR", ["BME"], 27, holders={1: 1})
    assert previews.dividend(s, c, 3).price == 30


def test_stars_inc_counts_two_more_stars():
    """Adjust Share Price: Stars, Inc. adds two stars."""
    s, c = synergistic(cash=30)
    s2 = blank(3)
    si = corp(s2, "SI", SYN, 22, cash=30, issued=3, holders={0: 2})
    assert previews.dividend(s2, si, 3).stars == previews.dividend(s, c, 3).stars + 2


# ------------------------------------------------------------------------- share trades and IPO


def test_buy_share_pays_the_next_higher_available_price():
    """Buy One Share: skip share price cards in use; the buyer pays the new price; $75 ends the game."""
    s = blank(3, cash=[30, 30, 30])
    pr = corp(s, "PR", ["MHE"], 11, holders={1: 1})
    corp(s, "SI", ["KME"], 12, holders={2: 1})
    assert previews.buy_share(s, pr) == previews.ShareTrade(amount=13, card=D.CARD_OF_PRICE[13], price=13)
    s2 = blank(3)
    top = corp(s2, "PR", ["MHE"], 68, issued=3, holders={1: 2})
    assert previews.buy_share(s2, top).ends_game and previews.buy_share(s2, top).amount == 75


def test_sell_and_issue_share_bring_the_next_lower_available_price():
    """Sell One Share / Issue One Share: the next lower available card's price; $0 is bankruptcy;
    Stock Masters issues at its share price, which does not move."""
    s = blank(3)
    pr = corp(s, "PR", ["MHE"], 12, issued=3, holders={0: 2})
    corp(s, "SI", ["KME"], 11, holders={1: 1})
    assert previews.sell_share(s, pr).amount == 10 and previews.issue_share(s, pr).price == 10
    sm = corp(s, "SM", ["BME"], 20, holders={2: 1})
    assert previews.issue_share(s, sm) == previews.ShareTrade(amount=20, card=D.CARD_OF_PRICE[20], price=20)
    low = corp(s, "JS", ["AKE"], 6, holders={0: 1})
    corp(s, "VM", ["BD"], 5, holders={1: 1})
    assert previews.sell_share(s, low).bankrupt and previews.sell_share(s, low).amount == 0


@pytest.mark.parametrize("face,price,terms", [
    (8, 11, previews.Ipo(shares=1, pay=3, treasury=14, issued=2)),    # MHE example, Prussian Railway
    (12, 12, previews.Ipo(shares=1, pay=0, treasury=12, issued=2)),   # Example 1: BY at $12
    (12, 11, previews.Ipo(shares=2, pay=10, treasury=32, issued=4)),  # Example 2: BY at $11
    (60, 30, previews.Ipo(shares=2, pay=0, treasury=60, issued=4)),   # Example 3: CDG at $30
])
def test_ipo_terms_from_the_book(face, price, terms):
    """Form Corporation (Turn 1 and Turn 2, phase 9 examples): shares each to the player and the
    bank, what the player pays, the treasury and the issued shares."""
    assert previews.ipo(face, price) == terms


# ------------------------------------------------------------------- the numbers the engine gives


def _states(seed: int, players: int):
    """States along a random game (several of every phase)."""
    s = new_game(Config(players=players), seed)
    rng = Rng(seed)
    while not s.is_over:
        yield s
        s.apply(random_action(s, rng))


def _trade_preview(s, m, c):
    if m.kind is BuyShare:
        return previews.buy_share(s, c, bool(m.args.get("presidents_share")))
    if m.kind is SellShare:
        return previews.sell_share(s, c)
    return previews.issue_share(s, c)


@pytest.mark.parametrize("seed", range(4))
def test_previews_are_what_the_engine_then_does(seed):
    """Every preview of a legal move equals the engine's result: the share price after a dividend,
    the money of a share trade and the price it leaves, the income after closing or buying a company."""
    checked = set()
    for s in _states(seed, 3 + seed % 3):
        for seat in s.to_act:
            for m in s.legal_moves(seat):
                if m.kind is Dividend:
                    c = D.CORP_INDEX[m.args["corporation"]]
                    for amount in {m.lo, m.hi}:
                        t = s.clone()
                        t.apply(m.action(amount))
                        assert previews.dividend(s, c, amount).price == (t.share_price(c) if t.corp_active[c] else 0)
                        checked.add("dividend")
                elif m.kind in (BuyShare, SellShare) or (m.kind is Issue and m.args["issue"]):
                    c = D.CORP_INDEX[m.args["corporation"]]
                    trade = _trade_preview(s, m, c)
                    t = s.clone()
                    t.apply(m.action())
                    if m.kind is Issue:
                        assert t.corp_cash[c] - s.corp_cash[c] == (trade.amount if t.corp_active[c] else -s.corp_cash[c])
                    else:
                        assert abs(t.cash[seat] - s.cash[seat]) == trade.amount
                    assert (t.share_price(c) if t.corp_active[c] else 0) == trade.price
                    if m.kind is SellShare:
                        # issue 29: the sale that leaves the corporation without a president
                        assert trade.receivership == (t.corp_active[c] and s.president[c] >= 0 and t.president[c] < 0)
                    checked.add(m.kind.__name__)
                elif m.kind is Close:
                    effect = previews.closing(s, D.INDEX[m.args["company"]])
                    t = s.clone()
                    t.apply(m.action())
                    assert P.income_of(t, effect.owner) == effect.income.after.total
                    checked.add("close")
                elif m.kind is FormCorporation:
                    c, i = D.CORP_INDEX[m.args["corporation"]], D.INDEX[m.args["company"]]
                    terms = previews.ipo(D.FACE[i], m.args["price"])
                    t = s.clone()
                    t.apply(m.action())
                    assert (s.cash[seat] - t.cash[seat], t.corp_cash[c], t.corp_issued[c], t.shares_of(c, seat)) == (
                        terms.pay, terms.treasury, terms.issued, terms.shares)
                    checked.add("ipo")
                elif m.kind.__name__ == "Offer":
                    c, i = D.CORP_INDEX[m.args["corporation"]], D.INDEX[m.args["company"]]
                    t = s.clone()
                    t.company_owner[i] = CORP_BASE + c
                    assert P.income_of(t, CORP_BASE + c) == previews.purchase(s, c, i).after.total
                    checked.add("offer")
    assert checked == {"dividend", "BuyShare", "SellShare", "Issue", "close", "offer", "ipo"}
