"""Bots for Rolling Market: ``random`` and ``heuristic``.

Rolling Market is solitaire: the one seat is seat 0. Bots keep their own
:class:`~rolling.core.rng.Rng`, never the game's, so a game's dice do not depend on which bot
plays it.
"""

from __future__ import annotations

from rolling.bots.reasons import Reason
from rolling.core.action import Action
from rolling.core.rng import Rng
from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, buy, sell
from rolling.games.market.state import MarketState


class MarketRandomBot:
    """Picks uniformly among all legal actions (each buy/sell count, and done, equally likely)."""

    name = "random"
    last_reason: str | None = None

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state: MarketState, seat: int) -> Action:
        """Return a uniformly random legal action. Raises IndexError if the game is over."""
        return self.rng.choice(state.legal_actions(seat))


def _worth_table() -> tuple[tuple[float, ...], ...]:
    """``W[v][s]``: expected dollars that ``s`` shares valued ``v`` are worth after one more roll.

    The roll is averaged over its six faces (fluctuation, split and overflow sale included), then
    the shares are priced as if sold in one action at volatility 3, as the last two turns do.
    Selling at volatility 3 charges the price impact of a large holding; the overflow sale's fee
    makes holdings above 6 shares at values 2, 4 and 6 worth less, which steers the bot away
    from split overflows.
    """
    table = []
    for v in range(R.MAX_VALUE + 1):
        row = []
        for s in range(R.MAX_SHARES + 1):
            if v == 0:
                row.append(0.0)
                continue
            total = 0.0
            for die in range(1, 7):
                v2, s2, split = R.fluctuate(v, die, s)
                got = 0
                if split:
                    s2, _, got = R.overflow_sale(v2, s2)
                total += got + R.sell_proceeds(v2, s2, R.FINAL_VOLATILITY)[0]
            row.append(total / 6)
        table.append(tuple(row))
    return tuple(table)


WORTH = _worth_table()


class MarketHeuristicBot:
    """A sensible player: greedy on the expected worth of the holdings after the next roll.

    For each way to finish the turn's trades (nothing, one sell, one buy, a sell then a buy, or
    in the last two turns two sells) it scores ``cash + sum(WORTH[value][shares])`` and plays
    the first action of the best plan. The worth of a holding (see :func:`_worth_table`) rises
    when the value is likely to rise, so the bot buys low-valued companies and sells high ones;
    it counts the overflow fee, so it avoids split overflows. In the penultimate turn only the two
    best holdings count (the last turn can sell only two companies) and in the last turn holdings
    count nothing, so it sells out over the last two turns. ``last_reason`` compares the plan it
    follows with standing pat.
    """

    name = "heuristic"
    last_reason: str | None = None

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state: MarketState, seat: int) -> Action:
        """Return the first action of the best plan for the rest of this turn."""
        best_value, best_action, pat = best_plan(state, WORTH)
        self.last_reason = plan_reason(best_value, best_action, pat)
        return best_action


def plan_reason(best_value: float, best_action: Action, pat: float,
                worth: str = "cash and expected holdings") -> Reason:
    """A one-line reason comparing the plan followed with standing pat (dollars, one decimal; both
    measured as ``worth`` says); publicly without the dollars (its valuation)."""
    if best_action is DONE:
        return Reason(f"done: no trade beats standing pat ({worth} ${best_value:.1f})",
                      "done: no trade beats standing pat")
    said = f"{'buys' if best_action.type_name == 'buy' else 'sells'} {best_action.shares} {R.COMPANIES[best_action.company]}"
    return Reason(f"{said}: {worth} ${best_value:.1f} after this turn's plan, ${pat:.1f} standing pat",
                  f"{said}: this turn's plan beats standing pat")


def best_plan(state: MarketState, W) -> tuple[float, Action, float]:
    """The best way to finish this turn's trades when holdings are worth ``W[value][shares]`` dollars.

    Plans: nothing, one sell, one buy, a sell then a buy, or in the last two turns two sells; each
    is scored ``cash + sum(W[value][shares])`` over the holdings it leaves (in the penultimate turn
    only the two best holdings count, in the last turn none). Used by the heuristic bot with
    :data:`WORTH` and by the policy bot with its learned table.

    Args:
        state: a state waiting for a trade (not over).
        W: indexable as ``W[value][shares]`` for values 0..6 and shares 0..12, in dollars.

    Returns:
        ``(value of the best plan, its first action, value of standing pat)``.
    """
    values, shares, vol = state.values, state.shares, state.volatility
    last = state.turns_left == 0
    penult = state.turns_left == 1

    def worth(vs, ss) -> float:
        if last:
            return 0.0
        ws = [W[vs[c]][ss[c]] for c in range(R.N_COMPANIES) if ss[c]]
        if penult and len(ws) > 2:
            ws.sort(reverse=True)
            ws = ws[:2]
        return sum(ws)

    def best_sell(c: int):
        # the count of c to sell that maximises proceeds plus the worth of what is kept
        s, v = shares[c], values[c]
        best = None
        for n in range(1, state.max_sell(c) + 1):
            got, after = R.sell_proceeds(v, n, vol)
            g = got + (0.0 if last else W[after][s - n])
            if best is None or g > best[0]:
                best = (g, n, got, after)
        return best

    def best_buy(c: int, cash: int):
        s, v = shares[c], values[c]
        best = None
        for n in range(1, R.MAX_SHARES - s + 1):
            cost, after = R.buy_cost(v, n, vol)
            if cost > cash:
                break
            g = W[after][s + n] - cost
            if best is None or g > best[0]:
                best = (g, n, cost, after)
        return best

    base_cash = state.cash
    plans: list[tuple[float, Action]] = [(base_cash + worth(values, shares), DONE)]
    # sell candidates per company: the count best on its own and, near the end (where a
    # partial sale can leave too many companies for the last turn's two sells), all shares
    sells: list[tuple[int, int, int, int]] = []
    for c in range(R.N_COMPANIES):
        m = state.max_sell(c)
        if not m:
            continue
        _, n, got, after = best_sell(c)
        sells.append((c, n, got, after))
        if penult and n != m:
            got, after = R.sell_proceeds(values[c], m, vol)
            sells.append((c, m, got, after))
    can_buy = state.can_buy()
    two_sells = state.sells_allowed() - state.n_sold >= 2 and state.bought < 0
    for c, n, got, after in sells:
        vs, ss = values[:], shares[:]
        vs[c], ss[c] = after, ss[c] - n
        cash = base_cash + got
        plans.append((cash + worth(vs, ss), sell(c, n)))
        if can_buy:
            for c2 in range(R.N_COMPANIES):
                if c2 == c or state.sold >> c2 & 1:
                    continue
                b = best_buy(c2, cash)
                if b:
                    vs2, ss2 = vs[:], ss[:]
                    vs2[c2], ss2[c2] = b[3], ss[c2] + b[1]
                    plans.append((cash - b[2] + worth(vs2, ss2), sell(c, n)))
        if two_sells:
            for c2, n2, got2, after2 in sells:
                if c2 == c:
                    continue
                vs2, ss2 = vs[:], ss[:]
                vs2[c2], ss2[c2] = after2, ss[c2] - n2
                plans.append((cash + got2 + worth(vs2, ss2), sell(c, n)))
    if can_buy:
        for c in range(R.N_COMPANIES):
            if state.sold >> c & 1:
                continue
            b = best_buy(c, base_cash)
            if b:
                vs, ss = values[:], shares[:]
                vs[c], ss[c] = b[3], ss[c] + b[1]
                plans.append((base_cash - b[2] + worth(vs, ss), buy(c, b[1])))
    best_value, best_action = plans[0]
    for value, action in plans[1:]:
        # a trade must gain a little over standing pat, so float noise never trades
        if value > best_value + 1e-9:
            best_value, best_action = value, action
    return best_value, best_action, plans[0][0]
