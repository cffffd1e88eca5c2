"""Phase 1: Investment, and the Auction, Buy One Share and Sell One Share procedures."""

import dataclasses

import pytest

from rolling.bots.stars_heuristic import StarsHeuristicBot
from rolling.core.errors import IllegalAction
from rolling.games.stars import Bid, BuyShare, Config, LeaveAuction, Pass, SellShare, StartAuction, new_game
from rolling.games.stars import data as D
from rolling.games.stars.state import GONE

from .conftest import blank, corp, idx, offer_up, stack_deck


def auction_example():
    """The rule book's three-player auction example (turn 2): Amy 1 ($20), Brian 2 ($12), Crystal 3 ($9);
    offering MHE, WT (drawn this turn), MS; Brian is up."""
    s = blank(3, cash=[20, 12, 9])
    s.names = ("Amy", "Brian", "Crystal")
    offer_up(s, "MHE", "WT", "MS", unavailable=["WT"])
    stack_deck(s, "BD", "HE")
    s.current = 1
    return s


def test_auction_example_from_the_rule_book():
    """Auction example: Brian bids $9 on the MHE, Crystal cannot raise and leaves, Amy raises to $11,
    Brian leaves; Amy pays $11; the BD is drawn, unavailable; then everybody must pass and the phase ends."""
    s = auction_example()
    assert s.to_act == (1,)
    moves = {m.kind: m for m in s.legal_moves(1) if m.kind is StartAuction}
    assert moves[StartAuction].args["company"] == "MHE", "WT is unavailable and MS costs more than $12"
    s.apply(StartAuction(1, "MHE", 9))
    assert s.to_act == (0,), "Crystal ($9) cannot raise $9 and leaves automatically"
    s.apply(Bid(0, 11))
    assert s.to_act == (1,)
    s.apply(LeaveAuction(1))
    assert s.company_owner[idx("MHE")] == 0
    assert s.cash[0] == 9
    assert idx("BD") in s.offering
    # no one can afford the MS and the others are unavailable: all pass, phase 1 ends, phase 2 reorders
    assert s.phase >= 3
    assert s.order == [1, 0, 2], "wrap-up example: Brian 1, Amy 2, Crystal 3"


def test_auction_next_action_goes_to_player_after_the_starter():
    """Auction: the next regular action is taken by the player after the one who started the auction."""
    s = blank(4, cash=[30, 30, 30, 30])
    offer_up(s, "BME", "BSE", "KME")
    s.current = 1
    s.apply(StartAuction(1, "BME", 1))
    s.apply(Bid(2, 2))
    s.apply(LeaveAuction(3))
    s.apply(LeaveAuction(0))
    s.apply(LeaveAuction(1))
    assert s.company_owner[idx("BME")] == 2
    assert s.to_act == (2,)


def test_auction_minimum_bid_is_face_value():
    """Auction: bid at least the face value."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "KME")
    with pytest.raises(IllegalAction, match="face value"):
        s.apply(StartAuction(0, "KME", 4))


def test_auction_raise_by_at_least_one_and_not_above_own_money():
    """Auction: raise by at least $1; a bid may not exceed the money the bidder owns."""
    s = blank(3, cash=[30, 10, 30])
    offer_up(s, "KME")
    s.apply(StartAuction(0, "KME", 5))
    with pytest.raises(IllegalAction, match="at least"):
        s.apply(Bid(1, 5))
    with pytest.raises(IllegalAction, match="money"):
        s.apply(Bid(1, 11))
    s.apply(Bid(1, 10))


def test_leaving_an_auction_is_final():
    """Auction: players that have left are skipped for the rest of that auction."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "KME")
    s.apply(StartAuction(0, "KME", 5))
    s.apply(LeaveAuction(1))
    s.apply(Bid(2, 6))
    assert s.to_act == (0,)
    s.apply(Bid(0, 7))
    assert s.to_act == (2,), "Player 1 left and is skipped"


def test_newly_drawn_company_unavailable_for_the_rest_of_the_phase():
    """Auction: the newly drawn company is unavailable for later auctions during the same phase."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME", "BSE")
    stack_deck(s, "KME")
    s.apply(StartAuction(0, "BME", 1))
    s.apply(LeaveAuction(1))
    s.apply(LeaveAuction(2))
    assert idx("KME") in s.offering
    with pytest.raises(IllegalAction, match="not available"):
        s.apply(StartAuction(1, "KME", 5))


def test_pass_turns_card_and_phase_ends_when_all_have_passed():
    """Phase 1: after a pass the card is vertical, after a non-pass action horizontal; the phase
    ends as soon as all cards are vertical."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME", "BSE", "KME")
    s.apply(Pass(0))
    s.apply(Pass(1))
    s.apply(StartAuction(2, "BME", 1))
    s.apply(LeaveAuction(0))
    s.apply(LeaveAuction(1))
    assert s.phase == 1 and s.passed == 0b011, "the auction starter's card is horizontal again"
    s.apply(Pass(0))
    s.apply(Pass(1))
    assert s.phase == 1
    s.apply(Pass(2))
    assert s.phase != 1


def test_acting_out_of_turn_is_refused_and_changes_nothing():
    """Phase 1: players act in player order; an illegal action leaves the game unchanged."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    before = s.digest()
    with pytest.raises(IllegalAction, match="turn"):
        s.apply(Pass(2))
    assert s.digest() == before


def test_buy_one_share_pays_next_higher_available_price():
    """Buy One Share: the corporation takes the next higher available card (occupied ones skipped)
    and the player pays the new share price."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    corp(s, "PR", ["MHE"], 11, issued=2, holders={1: 1})
    corp(s, "SI", ["KME"], 12, issued=2, holders={2: 1})
    s.apply(BuyShare(0, "PR"))
    assert s.share_price(D.CORP_INDEX["PR"]) == 13
    assert s.cash[0] == 17


def test_sell_one_share_gets_next_lower_available_price():
    """Sell One Share: next lower available card, occupied ones skipped; the bank pays the new price."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    corp(s, "PR", ["MHE"], 12, issued=3, holders={0: 2})
    corp(s, "SI", ["KME"], 11, issued=2, holders={1: 1})
    s.apply(SellShare(0, "PR"))
    assert s.share_price(D.CORP_INDEX["PR"]) == 10
    assert s.cash[0] == 40


def test_buy_from_receivership_takes_presidents_share_and_ends_receivership():
    """Receivership, phase 1: the buyer must take the President's Share and becomes president."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "PR", ["MHE"], 11, issued=2, holders={})
    assert s.in_receivership(c)
    s.apply(BuyShare(0, "PR"))
    assert s.president[c] == 0 and not s.in_receivership(c)


def test_selling_last_player_share_puts_corporation_into_receivership():
    """Sell One Share: if the sold share was the last owned by any player, receivership."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "PR", ["MHE"], 11, issued=2, holders={0: 1})
    s.apply(SellShare(0, "PR"))
    assert s.in_receivership(c)


def test_selling_to_zero_goes_bankrupt():
    """Sell One Share: a new share price of $0 means the corporation Goes Bankrupt."""
    s = blank(3, cash=[30, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "PR", ["MHE"], 5, issued=2, holders={0: 1, 1: 1})
    s.apply(SellShare(0, "PR"))
    assert not s.corp_active[c] and s.company_owner[idx("MHE")] < 0
    assert s.shares_of(c, 1) == 0 and s.card_owner[0] == -1


def test_buying_at_75_ends_the_game_after_payment():
    """Buy One Share: if the new share price is $75, the game ends immediately after payment."""
    s = blank(3, cash=[100, 30, 30])
    offer_up(s, "BME")
    c = corp(s, "PR", ["MHE"], 68, issued=3, holders={1: 2})
    s.apply(BuyShare(0, "PR"))
    assert s.over and s.cash[0] == 25 and s.share_price(c) == 75


def test_cannot_buy_without_the_money_or_a_bank_share():
    """Buy One Share: the player must pay the new price; only bank shares can be bought."""
    s = blank(3, cash=[5, 30, 30])
    offer_up(s, "BME")
    corp(s, "PR", ["MHE"], 11, issued=2, holders={1: 1})
    corp(s, "SI", ["KME"], 12, issued=2, holders={1: 2})
    with pytest.raises(IllegalAction, match="cost"):
        s.apply(BuyShare(0, "PR"))
    s.cash[0] = 30
    with pytest.raises(IllegalAction, match="bank owns no share"):
        s.apply(BuyShare(0, "SI"))


def no_company_left_in_the_deck(edition: str):
    """Three players, the deck empty of companies (only the game end card), KME available in the
    offering, player 0 to act with $30."""
    s = blank(3, cash=[30, 30, 30])
    s.config = dataclasses.replace(s.config, edition=edition)
    s.company_owner[idx("SBB")] = s.company_owner[idx("NS")] = GONE
    s.deck, s.offering = [], []
    offer_up(s, "KME")
    return s


def test_v22_auction_with_an_empty_deck_skips_the_draw():
    """Issue 28 item 1. v2.2's Player's Guide (002, 1.6.1): "If you cannot draw a company after an
    auction, just skip that step. The offering will contain one fewer company whenever that
    happens." With no company card left in the deck an auction is offered and runs, and nothing is
    drawn."""
    s = no_company_left_in_the_deck("v2.2")
    assert [m.args["company"] for m in s.legal_moves(0) if m.kind is StartAuction] == ["KME"]
    s.apply(StartAuction(0, "KME", 5))
    s.apply(LeaveAuction(1))
    s.apply(LeaveAuction(2))
    assert s.company_owner[idx("KME")] == 0 and s.cash[0] == 25
    assert s.deck == [] and s.offering == []


def test_v22_player_with_only_an_auction_left_is_not_passed_automatically():
    """Issue 28 item 1: with the deck empty, a v2.2 player whose only action besides pass is an
    auction is asked (the automatic pass skips only a player with no choice)."""
    s = no_company_left_in_the_deck("v2.2")
    s.passed = 0
    s.current = 2
    s.apply(Pass(2))
    assert s.phase == 1 and s.to_act == (0,)


def test_stars_auction_with_an_empty_deck_draws_nothing():
    """Rolling Stock Stars (001), Auction: "If the Deck contains at least one company card, draw and
    reveal the top card": with no company card left the auction still runs and nothing is drawn."""
    s = no_company_left_in_the_deck("stars")
    assert [m.args["company"] for m in s.legal_moves(0) if m.kind is StartAuction] == ["KME"]
    s.apply(StartAuction(0, "KME", 5))
    s.apply(LeaveAuction(1))
    s.apply(LeaveAuction(2))
    assert s.company_owner[idx("KME")] == 0 and s.cash[0] == 25
    assert s.deck == [] and s.offering == []


def test_v22_games_reach_an_auction_with_an_empty_deck():
    """Issue 28 item 1: in 3-player v2.2 games between heuristic bots, some phase-1 states with no
    company card left in the deck offer an auction (002, 1.6.1); such an auction, started there at
    face value, runs to its end drawing nothing, and the offering holds one company fewer."""
    found = 0
    for seed in range(10):
        s = new_game(Config(players=3, edition="v2.2"), seed)
        bots = [StarsHeuristicBot(seat) for seat in range(3)]
        while not s.is_over:
            seat = s.to_act[0]
            auctions = [m for m in s.legal_moves(seat) if m.kind is StartAuction] if s.phase == 1 else []
            if auctions and not s.deck:
                found += 1
                m = auctions[0]
                offering = len(s.offering)
                s.apply(m.action(m.lo))
                while s.auction is not None:
                    s.apply(bots[s.to_act[0]].choose(s, s.to_act[0]))
                assert s.deck == [] and s.company_owner[D.company_index(m.args["company"])] in range(3)
                assert len(s.offering) == offering - 1
                continue
            s.apply(bots[seat].choose(s, seat))
    assert found >= 3
