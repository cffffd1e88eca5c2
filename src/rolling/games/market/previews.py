"""What a trade would do, in numbers, before it is made (Rolling Market): for every screen and for
bots that explain their moves.

Computed by the rules' own procedures (:func:`.rules.buy_cost`, :func:`.rules.sell_proceeds`) on
the state as it is, without changing it. Amounts are whole $, values $ per share (1..6), holdings
shares (0..12).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Buy, Sell


@dataclass(frozen=True, slots=True)
class Trade:
    """What one buy or sell action does (Phase Two: buying/selling).

    Attributes:
        buy: a buy (else a sell).
        company: the company, 0..3 (A..D).
        shares: shares traded.
        amount: $ paid (buy) or received (sell).
        value_before, value_after: the company's share value before and after the trade.
        cash_before, cash_after: the player's cash ($) before and after.
        held_before, held_after: the player's shares of the company before and after.
    """

    buy: bool
    company: int
    shares: int
    amount: int
    value_before: int
    value_after: int
    cash_before: int
    cash_after: int
    held_before: int
    held_after: int


def trade(state, action: Buy | Sell) -> Trade:
    """Phase Two: buying/selling: what ``action`` costs or brings and how it moves the value. Each
    share trades at the current value; after every ``volatility`` shares bought the value rises by
    1 (at most 6), after every ``volatility`` shares sold it falls by 1 (at least 1). No check that
    the trade is allowed (:meth:`.state.MarketState.legal_actions` says which are).

    Raises:
        TypeError: ``action`` is neither a buy nor a sell.
    """
    if not isinstance(action, Buy | Sell):
        raise TypeError(f"{action!r} is not a trade")
    c, n = action.company, action.shares
    value, cash, held = state.values[c], state.cash, state.shares[c]
    if isinstance(action, Buy):
        cost, after = state.quote_buy(c, n)
        return Trade(True, c, n, cost, value, after, cash, cash - cost, held, held + n)
    got, after = state.quote_sell(c, n)
    return Trade(False, c, n, got, value, after, cash, cash + got, held, held - n)
