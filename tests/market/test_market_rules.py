"""One or more tests per clause of the Rolling Market rules (docs/market-rules.txt).

Each test's docstring names the rule section it checks.
"""

from __future__ import annotations

import pytest
from market_helpers import ScriptedDice, scripted

from rolling.core.errors import IllegalAction
from rolling.games.market import MarketState, new_game
from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, buy, sell


def assert_illegal(state, action, rule_part):
    before = state.digest()
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert rule_part in e.value.rule
    assert state.digest() == before, "an illegal action must leave the state unchanged"
    return e.value


# --- Starting ----------------------------------------------------------------------------


def test_starting_position():
    """Starting: all companies valued 3, no shares, $10, the turn tracker at 12."""
    s = MarketState(7, roll=False)
    assert s.values == [3, 3, 3, 3]
    assert s.shares == [0, 0, 0, 0]
    assert s.cash == 10
    assert s.turns_left == 12
    assert not s.is_over and s.to_act == (0,)


def test_first_turn_begins_with_market_fluctuation():
    """Starting: the first turn plays market fluctuation, turn tracking, then buying/selling."""
    s = new_game(None, 1)
    assert s.rolls >= 1 and s.rolls == s.closed + 1
    assert s.turns_left == 11
    assert 2 <= s.volatility <= 5
    assert s.cash == 10 and s.shares == [0, 0, 0, 0]


# --- Phase One: fluctuation -----------------------------------------------------------


@pytest.mark.parametrize("value,die,expected", [
    (1, 2, 3), (1, 6, 3), (2, 3, 4), (2, 6, 4), (3, 4, 4), (4, 5, 5), (5, 6, 6),
])
def test_fluctuation_die_higher_raises_value(value, die, expected):
    """Phase One: a higher die raises the value by two from one or two, else by one."""
    assert R.fluctuate(value, die, 0) == (expected, 0, False)
    assert R.fluctuate(value, die, 5) == (expected, 5, False)


@pytest.mark.parametrize("value,die,expected", [
    (6, 1, 4), (6, 5, 4), (5, 4, 3), (5, 1, 3), (4, 3, 3), (3, 2, 2), (2, 1, 1),
])
def test_fluctuation_die_lower_lowers_value(value, die, expected):
    """Phase One: a lower die lowers the value by two from five or six, else by one."""
    assert R.fluctuate(value, die, 0) == (expected, 0, False)
    assert R.fluctuate(value, die, 3) == (expected, 3, False)


def test_fluctuation_stays_within_one_and_six():
    """Phase One: the value never rises above 6 nor falls below 1 (max 6, min 1)."""
    for v in range(1, 7):
        for d in range(1, 7):
            for s in range(13):
                nv, _, _ = R.fluctuate(v, d, s)
                assert 1 <= nv <= 6


@pytest.mark.parametrize("value", [1, 3, 5])
def test_equal_die_on_odd_value_does_nothing(value):
    """Phase One: a die equal to a value of 1, 3 or 5 does nothing, shares held or not."""
    assert R.fluctuate(value, value, 0) == (value, 0, False)
    assert R.fluctuate(value, value, 8) == (value, 8, False)


@pytest.mark.parametrize("value", [2, 4, 6])
def test_equal_die_without_shares_does_nothing(value):
    """Phase One: with no stock in the company, an equal die does nothing."""
    assert R.fluctuate(value, value, 0) == (value, 0, False)


@pytest.mark.parametrize("value,shares", [(2, 1), (4, 3), (6, 6), (6, 12)])
def test_split_halves_value_doubles_shares(value, shares):
    """Phase One (split): an equal die on 2, 4 or 6 with stock held halves the value and doubles the shares."""
    assert R.fluctuate(value, value, shares) == (value // 2, shares * 2, True)


def test_split_that_overflows_twelve_shares():
    """Phase One (split): 8 shares at 4 split to 16 at 2; the 4 excess are sold at $2 less a $4 fee: +$4."""
    s = scripted([4, 3, 3, 3, 2], values=(4, 3, 3, 3), shares=(8, 0, 0, 0), cash=10)
    assert s.values[0] == 2 and s.shares[0] == 12
    assert s.cash == 10 + 4 * 2 - 2 * 2
    assert s.overflow_cash == 4
    assert s.splits == 1


def test_overflow_sale_numbers():
    """Phase One (split): excess shares sold at the new value minus two shares' value."""
    assert R.overflow_sale(1, 14) == (12, 2, 0)   # 7 at 2 split: two excess, fee eats the sale
    assert R.overflow_sale(2, 16) == (12, 4, 4)
    assert R.overflow_sale(3, 24) == (12, 12, 30)  # 12 at 6 split: 12 excess at $3, fee $6
    assert R.overflow_sale(3, 12) == (12, 0, 0)    # exactly 12: nothing to sell
    assert R.overflow_sale(2, 6) == (6, 0, 0)


def test_overflow_excess_is_always_even_so_fee_never_exceeds_sale():
    """Phase One (split), docs/market.md: a split doubles at most 12 shares, so the excess is even and >= 2."""
    for value in (2, 4, 6):
        for shares in range(1, 13):
            nv, doubled, split = R.fluctuate(value, value, shares)
            assert split
            kept, excess, got = R.overflow_sale(nv, doubled)
            assert kept <= 12
            assert excess % 2 == 0
            assert excess == 0 or excess >= 2
            assert got == max(0, (excess - 2) * nv) and got >= 0


def test_overflow_reading_for_a_single_excess_share():
    """docs/market.md: a single excess share (unreachable by a split) would bring $0, never a loss."""
    assert R.overflow_sale(3, 13) == (12, 1, 0)


def test_overflow_sale_is_not_the_sell_action():
    """Phase One (split): the overflow sale does not count as the turn's sell action."""
    s = scripted([4, 3, 3, 3, 2], values=(4, 3, 3, 3), shares=(8, 4, 0, 0), cash=10)
    assert s.n_sold == 0 and s.sold == 0
    s.apply(sell(1, 4))  # the turn's sell action is still available
    assert s.shares[1] == 0


def test_overflow_sale_does_not_move_value():
    """Phase One (split), docs/market.md: the excess is sold at the new value, with no volatility step."""
    s = scripted([6, 3, 3, 3, 2], values=(6, 3, 3, 3), shares=(12, 0, 0, 0), cash=0)
    assert s.values[0] == 3 and s.shares[0] == 12 and s.cash == 30


def test_overflow_sale_happens_on_a_closed_turn():
    """Phase One (split): the overflow sale can occur on a closed-market turn."""
    # roll 1: A splits 8@4 -> 12@2 (+$4) and the volatility die 6 closes the market;
    # roll 2: nothing moves much, volatility 4 opens it
    s = scripted([4, 3, 3, 3, 6, 1, 3, 3, 3, 4], values=(4, 3, 3, 3), shares=(8, 0, 0, 0), cash=0)
    assert s.closed == 1 and s.rolls == 2
    assert s.cash == 4
    assert s.turns_left == 11


def test_each_company_has_its_own_die():
    """Phase One: each of the four fluctuation dice is compared with its own company's value."""
    s = scripted([6, 1, 3, 2, 4], values=(3, 3, 3, 3))
    assert s.values == [4, 2, 3, 2]
    assert s.dice == (6, 1, 3, 2, 4)
    assert s.before == (3, 3, 3, 3)


# --- Phase One: volatility die ----------------------------------------------------------


@pytest.mark.parametrize("closing", [1, 6])
def test_volatility_one_or_six_closes_market(closing):
    """Phase One (volatility die): 1 or 6 closes the market; the tracker does not move; a new turn starts."""
    s = scripted([3, 3, 3, 3, closing, 3, 3, 3, 3, 2])
    assert s.closed == 1 and s.rolls == 2
    assert s.turns_left == 11
    assert s.volatility == 2


@pytest.mark.parametrize("vdie", [2, 3, 4, 5])
def test_volatility_die_sets_volatility(vdie):
    """Phase One (volatility die) and Phase Two: Turn Tracking: an open turn decrements the tracker."""
    s = scripted([3, 3, 3, 3, vdie])
    assert s.volatility == vdie
    assert s.turns_left == 11
    assert s.closed == 0


def test_closed_turns_keep_rolling_until_open():
    """Phase One (volatility die): any number of closed turns may come in a row."""
    faces = []
    for _ in range(5):
        faces += [3, 3, 3, 3, 6]
    faces += [3, 3, 3, 3, 5]
    s = scripted(faces)
    assert s.closed == 5 and s.rolls == 6 and s.volatility == 5 and s.turns_left == 11


def test_is_closed():
    """Phase One (volatility die): exactly faces 1 and 6 close the market."""
    assert [R.is_closed(d) for d in range(1, 7)] == [True, False, False, False, False, True]


# --- Phase Two: buying and selling ----------------------------------------------------------


def test_rules_example_sell_seven_at_five_volatility_two_brings_26():
    """Phase Two: 7 shares at 5 with volatility 2, all sold, bring $26 (5+5+4+4+3+3+2); value ends at 2."""
    assert R.sell_proceeds(5, 7, 2) == (26, 2)
    s = scripted([5, 3, 3, 3, 2], values=(5, 3, 3, 3), shares=(7, 0, 0, 0), cash=0)
    assert s.values[0] == 5 and s.volatility == 2
    s.apply(sell(0, 7))
    assert s.cash == 26 and s.values[0] == 2 and s.shares[0] == 0


def test_sale_money_can_buy_another_company():
    """Phase Two: "she can now use this money to buy shares from a different company"."""
    s = scripted([5, 3, 3, 3, 2], values=(5, 3, 3, 3), shares=(7, 0, 0, 0), cash=0)
    s.apply(sell(0, 7))
    s.apply(buy(1, 5))  # 3+3+4+4+5 = 19 <= 26
    assert s.cash == 26 - 19 and s.shares[1] == 5 and s.values[1] == 5


def test_buying_raises_value_after_every_volatility_shares():
    """Phase Two: after every <volatility> shares bought the value rises by one."""
    assert R.buy_cost(1, 5, 2) == (1 + 1 + 2 + 2 + 3, 3)
    assert R.buy_cost(1, 6, 2) == (1 + 1 + 2 + 2 + 3 + 3, 4)
    assert R.buy_cost(3, 3, 3) == (9, 4)   # the third share raises the value after it
    assert R.buy_cost(3, 2, 3) == (6, 3)
    assert R.buy_cost(5, 12, 2) == (5 * 2 + 6 * 10, 6)  # max 6


def test_selling_lowers_value_to_at_least_one():
    """Phase Two: after every <volatility> shares sold the value falls by one, down to one."""
    assert R.sell_proceeds(2, 12, 2) == (2 * 2 + 1 * 10, 1)
    assert R.sell_proceeds(3, 4, 5) == (12, 3)


def test_buy_checks_cash():
    """Phase Two: the player buys only what she can afford."""
    s = scripted([3, 3, 3, 3, 2], cash=10)  # values 3: 3+3+4 = 10 for 3, 4 shares cost 14
    e = assert_illegal(s, buy(0, 4), R.R_BUY_SELL)
    assert "$14" in e.reason
    s.apply(buy(0, 3))
    assert s.cash == 0 and s.values[0] == 4


def test_at_most_twelve_shares_of_a_company():
    """Introduction: up to twelve units of stock in each company."""
    s = scripted([3, 3, 3, 3, 5], shares=(10, 0, 0, 0), cash=100)
    assert_illegal(s, buy(0, 3), "twelve")
    s.apply(buy(0, 2))
    assert s.shares[0] == 12


def test_only_one_company_bought_per_turn():
    """Phase Two: only one company's shares can be bought on a given turn (one buy action)."""
    s = scripted([3, 3, 3, 3, 5], cash=100)
    s.apply(buy(0, 2))
    assert_illegal(s, buy(1, 1), R.R_BUY_SELL)
    assert_illegal(s, buy(0, 1), R.R_BUY_SELL)


def test_only_one_company_sold_per_turn():
    """Phase Two: only one company's shares can be sold on a given turn (one sell action)."""
    s = scripted([3, 3, 3, 3, 5], shares=(4, 4, 0, 0))
    s.apply(sell(0, 1))
    assert_illegal(s, sell(1, 1), R.R_BUY_SELL)
    assert_illegal(s, sell(0, 1), R.R_BUY_SELL)


def test_cannot_buy_and_sell_the_same_company():
    """Phase Two: the bought and the sold company cannot be the same, in either order."""
    s = scripted([3, 3, 3, 3, 5], shares=(4, 0, 0, 0), cash=100)
    s.apply(sell(0, 1))
    assert_illegal(s, buy(0, 1), R.R_BUY_SELL)
    s2 = scripted([3, 3, 3, 3, 5], shares=(4, 0, 0, 0), cash=100)
    s2.apply(buy(0, 1))
    assert_illegal(s2, sell(0, 1), R.R_BUY_SELL)


def test_buy_and_sell_in_either_order():
    """Phase Two: the buy and the sell can be taken in either order."""
    a = scripted([3, 3, 3, 3, 4], shares=(0, 5, 0, 0), cash=10)
    a.apply(buy(0, 2))
    a.apply(sell(1, 5))
    b = scripted([3, 3, 3, 3, 4], shares=(0, 5, 0, 0), cash=10)
    b.apply(sell(1, 5))
    b.apply(buy(0, 2))
    assert (a.cash, a.shares, a.values) == (b.cash, b.shares, b.values)


def test_both_actions_are_optional():
    """Phase Two: both actions are optional: 'done' at once ends the turn."""
    s = scripted([3, 3, 3, 3, 4, 3, 3, 3, 3, 4])
    s.apply(DONE)
    assert s.turns_left == 10 and s.cash == 10


def test_cannot_sell_shares_not_held_or_zero_shares():
    """Phase Two: a sell is of shares held, one or more; a trade of zero shares is not an action."""
    s = scripted([3, 3, 3, 3, 4], shares=(2, 0, 0, 0))
    assert_illegal(s, sell(0, 3), R.R_BUY_SELL)
    assert_illegal(s, sell(1, 1), R.R_BUY_SELL)
    assert_illegal(s, sell(0, 0), R.R_BUY_SELL)
    assert_illegal(s, buy(1, 0), R.R_BUY_SELL)
    assert_illegal(s, buy(4, 1), R.R_BUY_SELL)


def test_trading_moves_the_value_that_fluctuates_next():
    """Phase Two then Phase One: the value left by trading is the one the next die is compared with."""
    s = scripted([1, 3, 3, 3, 2, 3, 3, 3, 3, 4], values=(1, 3, 3, 3), cash=10)
    s.apply(buy(0, 4))  # 1+1+2+2 = 6, value 1 -> 3
    assert s.values[0] == 3
    s.apply(DONE)  # die 3 equals value 3: nothing
    assert s.values[0] == 3 and s.shares[0] == 4


# --- Phase Two: the last two turns --------------------------------------------------------------


def test_last_two_turns_fixed_volatility_three_no_volatility_die():
    """Phase Two (last two turns): volatility set at 3, not rolled (four dice only), always open."""
    s = scripted([3, 3, 3, 3], turns_left=2)
    assert s.volatility == 3 and s.turns_left == 1 and s.final_turn
    assert s.dice[4] == 0
    assert s.rng.faces == []
    s.rng = ScriptedDice([3, 3, 3, 3])
    s.apply(DONE)
    assert s.turns_left == 0 and s.volatility == 3 and s.closed == 0


def test_turn_before_the_last_two_rolls_volatility():
    """Phase Two (last two turns): with three turns left the volatility die is still rolled."""
    s = scripted([3, 3, 3, 3, 6, 3, 3, 3, 3, 2], turns_left=3)
    assert s.closed == 1 and s.volatility == 2 and not s.final_turn and s.turns_left == 2


def test_last_two_turns_allow_two_sells_of_different_companies():
    """Phase Two (last two turns): two sell actions instead of a buy and a sell, of two companies."""
    s = scripted([3, 3, 3, 3], turns_left=2, shares=(3, 3, 3, 0), cash=0)
    s.apply(sell(0, 3))
    s.apply(sell(1, 3))
    assert s.cash == 9 + 9 and s.shares[:2] == [0, 0]
    assert_illegal(s, sell(2, 1), R.R_FINAL)
    assert_illegal(s, buy(3, 1), R.R_FINAL)


def test_last_two_turns_two_sells_must_differ():
    """Phase Two (last two turns): the two sells are of different companies."""
    s = scripted([3, 3, 3, 3], turns_left=2, shares=(6, 3, 0, 0), cash=0)
    s.apply(sell(0, 3))
    assert_illegal(s, sell(0, 3), R.R_FINAL)


def test_last_two_turns_buy_and_sell_still_allowed():
    """Phase Two (last two turns): a buy and a sell remain possible, but not a third action."""
    s = scripted([3, 3, 3, 3], turns_left=1, shares=(3, 3, 0, 0), cash=20)
    s.apply(buy(2, 2))
    s.apply(sell(0, 3))
    assert_illegal(s, sell(1, 3), R.R_FINAL)
    s2 = scripted([3, 3, 3, 3], turns_left=1, shares=(3, 3, 0, 0), cash=20)
    s2.apply(sell(0, 3))
    s2.apply(buy(2, 2))
    assert_illegal(s2, sell(1, 3), R.R_FINAL)


def test_normal_turn_forbids_two_sells():
    """Phase Two: outside the last two turns a second sell action is not allowed."""
    s = scripted([3, 3, 3, 3, 4], shares=(3, 3, 0, 0), turns_left=3)
    s.apply(sell(0, 3))
    assert_illegal(s, sell(1, 3), R.R_BUY_SELL)


# --- the end ------------------------------------------------------------------------------------


def test_exactly_twelve_buy_sell_turns_then_score_is_cash():
    """Introduction: 12 buy/sell turns; the score is the final cash; shares held are worth nothing."""
    s = new_game(None, 3)
    dones = 0
    s.apply(buy(0, 1)) if s.max_buy(0) else None
    while not s.is_over:
        s.apply(DONE)
        dones += 1
    assert dones == 12
    assert s.to_act == ()
    assert s.standings() == [{"seat": 0, "score": s.cash, "rank": 1, "win": True}]
    assert s.legal_actions(0) == []


def test_no_action_after_the_end():
    """Introduction: after the 12th buy/sell turn the game is over; nothing more may be done."""
    s = new_game(None, 4)
    while not s.is_over:
        s.apply(DONE)
    assert_illegal(s, DONE, R.R_END)
    assert_illegal(s, buy(0, 1), R.R_END)


def test_legal_actions_enumerate_exactly_what_apply_accepts():
    """Phase Two: every listed action applies; every other buy/sell of 1..12 shares is refused."""
    for seed in range(6):
        s = new_game(None, seed)
        s.cash = 40
        s.shares = [2, 0, 12, 5]
        legal = set(s.legal_actions(0))
        for c in range(4):
            for n in range(1, 13):
                for a in (buy(c, n), sell(c, n)):
                    t = s.clone()
                    if a in legal:
                        t.apply(a)
                    else:
                        with pytest.raises(IllegalAction):
                            t.apply(a)
        assert DONE in legal
