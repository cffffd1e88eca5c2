"""Previews (rolling.games.market.previews): what a trade costs or brings and how the value moves,
with the rule text's numbers, and always the numbers the engine then produces."""

from __future__ import annotations

import pytest

from rolling.core.rng import Rng
from rolling.games.market import Buy, Sell, buy, new_game, sell
from rolling.games.market.previews import Trade, trade


def table(values, shares, cash, volatility):
    """A buy/sell turn laid out by hand."""
    s = new_game(None, 0)
    s.values, s.shares, s.cash, s.volatility = list(values), list(shares), cash, volatility
    return s


def test_selling_seven_at_5_with_volatility_2_brings_26():
    """Phase Two: buying/selling, the text's example: seven shares valued at 5, volatility 2: sell 2
    at $5, 2 at $4, 2 at $3 and the last at $2: $26, and the value ends at 2."""
    s = table([5, 3, 3, 3], [7, 0, 0, 0], 3, 2)
    assert trade(s, sell(0, 7)) == Trade(buy=False, company=0, shares=7, amount=26, value_before=5, value_after=2,
                                         cash_before=3, cash_after=29, held_before=7, held_after=0)


def test_buying_raises_the_value_after_every_volatility_shares_up_to_6():
    """Phase Two: buying/selling: once the player buys <volatility> shares the value rises by one,
    at most 6: four shares at 2 with volatility 3 cost 2+2+2+3 = $9 and leave the value at 3; at 6
    it stays 6."""
    s = table([2, 6, 3, 3], [0, 0, 0, 0], 40, 3)
    t = trade(s, buy(0, 4))
    assert (t.amount, t.value_after, t.cash_after, t.held_after) == (9, 3, 31, 4)
    assert trade(s, buy(1, 4)).value_after == 6 and trade(s, buy(1, 4)).amount == 24


def test_selling_never_takes_the_value_below_1():
    """Phase Two: buying/selling: the value falls down to one, no lower."""
    s = table([2, 3, 3, 3], [12, 0, 0, 0], 0, 2)
    t = trade(s, sell(0, 12))
    assert t.value_after == 1 and t.amount == 2 + 2 + 1 * 10


def test_trade_refuses_what_is_not_a_trade():
    with pytest.raises(TypeError):
        trade(new_game(None, 0), object())


@pytest.mark.parametrize("seed", range(10))
def test_previews_are_what_the_engine_then_does(seed):
    """Every legal trade's preview equals the state after the engine makes it."""
    s = new_game(None, seed)
    rng = Rng(seed)
    while not s.over:
        moves = s.legal_actions()
        for a in moves:
            if not isinstance(a, Buy | Sell):
                continue
            t = trade(s, a)
            after = s.clone()
            after.apply(a)
            c = a.company
            assert (after.cash, after.values[c], after.shares[c]) == (t.cash_after, t.value_after, t.held_after)
            assert abs(after.cash - s.cash) == t.amount
        s.apply(moves[rng.below(len(moves))])
