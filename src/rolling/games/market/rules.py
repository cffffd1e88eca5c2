"""Rolling Market's rules as pure procedures over small integers.

Each function mirrors one passage of the rule text (a copy is in ``docs/market-rules.txt``) and names it
in its docstring. Nothing here touches a state object: the state (:mod:`.state`) calls these and
then changes itself, so every procedure can check first and change afterwards.

Units: share values are whole dollars 1..6, share counts 0..12, cash in dollars.
"""

from __future__ import annotations

#: companies, in the order of their fluctuation dice
COMPANIES = ("A", "B", "C", "D")
N_COMPANIES = 4
#: "All companies' shares are initially valued at three."
START_VALUE = 3
#: "The player starts with $10."
START_CASH = 10
#: "The player should initialize whatever she is using to track turns at 12."
BUY_SELL_TURNS = 12
#: "can have up to twelve units of stock in each"
MAX_SHARES = 12
MIN_VALUE = 1
MAX_VALUE = 6
#: "If the die shows a 1 or a 6, this turn is a closed-market turn."
CLOSED_FACES = (1, 6)
#: "Once the player is down to two turns, she sets the volatility die at 3"
FINAL_TURNS = 2
FINAL_VOLATILITY = 3
#: "a transaction fee equal to two shares' value"
OVERFLOW_FEE_SHARES = 2

#: rule sections, as named in IllegalAction and in docs/market.md
R_START = "Starting"
R_FLUCTUATION = "Phase One: Market Fluctuation"
R_SPLIT = "Phase One: Market Fluctuation (split)"
R_VOLATILITY = "Phase One: Market Fluctuation (volatility die)"
R_TRACKING = "Phase Two: Turn Tracking"
R_BUY_SELL = "Phase Two: buying/selling"
R_FINAL = "Phase Two: the last two turns"
R_END = "Introduction: 12 buy/sell turns"


def fluctuate(value: int, die: int, shares: int) -> tuple[int, int, bool]:
    """Apply one fluctuation die to one company (Phase One: Market Fluctuation).

    Args:
        value: the company's share value before the roll, 1..6.
        die: the company's fluctuation die, 1..6.
        shares: the player's shares of this company, 0..12.

    Returns:
        ``(new_value, new_shares, split)``. ``new_shares`` is the doubled count *before* any
        overflow sale (up to 24); :func:`overflow_sale` settles the excess.

    - die higher: value rises by 2 from 1 or 2, else by 1, at most 6;
    - die lower: value falls by 2 from 5 or 6, else by 1, at least 1;
    - die equal on 1, 3 or 5, or with no shares held: nothing;
    - die equal on 2, 4 or 6 with shares held: a split, value halved and shares doubled.
    """
    if die > value:
        return min(MAX_VALUE, value + (2 if value <= 2 else 1)), shares, False
    if die < value:
        return max(MIN_VALUE, value - (2 if value >= 5 else 1)), shares, False
    if value % 2 == 1 or shares == 0:
        return value, shares, False
    return value // 2, shares * 2, True


def overflow_sale(value: int, shares: int) -> tuple[int, int, int]:
    """Sell the shares a split pushed above 12 (Phase One: Market Fluctuation, split).

    "If this causes the player's investment in this company to exceed 12 shares, the excess
    shares are immediately sold (at the new value), minus a transaction fee equal to two
    shares' value." The sale is not a sell action: the volatility does not lower the value, and
    the value does not change.

    Args:
        value: the company's value after the split, 1..3.
        shares: the share count after doubling, 0..24.

    Returns:
        ``(kept_shares, excess, cash_change)``; ``cash_change`` is ``(excess - 2) * value``,
        never negative. A split doubles a count of at most 12, so the excess is always even and,
        when there is one, at least 2: the fee never exceeds the sale. The floor at zero only
        matters for the unreachable single excess share, and is the reading in docs/market.md
        (a fee is taken out of the sale; a sale never costs money).
    """
    if shares <= MAX_SHARES:
        return shares, 0, 0
    excess = shares - MAX_SHARES
    return MAX_SHARES, excess, max(0, (excess - OVERFLOW_FEE_SHARES) * value)


def is_closed(volatility_die: int) -> bool:
    """A volatility die of 1 or 6 closes the market this turn (Phase One, the volatility die)."""
    return volatility_die in CLOSED_FACES


def _trade_table(sign: int) -> tuple:
    # table[vol][value][n] = (cash, value after); 7*7*13 entries, built once, so a trade is a lookup
    table = []
    for vol in range(7):
        by_value = []
        for value in range(7):
            row = [(0, value)]
            cash, v, done = 0, value, 0
            for _n in range(1, MAX_SHARES + 1):
                if vol == 0 or value == 0:
                    row.append((0, value))
                    continue
                cash += v
                done += 1
                if done == vol:
                    done = 0
                    v = min(MAX_VALUE, v + 1) if sign > 0 else max(MIN_VALUE, v - 1)
                row.append((cash, v))
            by_value.append(tuple(row))
        table.append(tuple(by_value))
    return tuple(table)


_BUY = _trade_table(+1)
_SELL = _trade_table(-1)


def buy_cost(value: int, n: int, volatility: int) -> tuple[int, int]:
    """Cost of buying ``n`` shares one after another (Phase Two: buying/selling).

    Each share costs the current value; after every ``volatility`` shares bought the value rises
    by 1, at most 6.

    Args:
        value: share value before the purchase, 1..6.
        n: shares to buy, 0..12.
        volatility: the turn's volatility, 2..5 (3 in the last two turns).

    Returns:
        ``(cost in dollars, value after the purchase)``.
    """
    return _BUY[volatility][value][n]


def sell_proceeds(value: int, n: int, volatility: int) -> tuple[int, int]:
    """What selling ``n`` shares one after another brings (Phase Two: buying/selling).

    Each share brings the current value; after every ``volatility`` shares sold the value falls
    by 1, at least 1. The rules' example: ``sell_proceeds(5, 7, 2) == (26, 2)``.

    Returns:
        ``(proceeds in dollars, value after the sale)``.
    """
    return _SELL[volatility][value][n]
