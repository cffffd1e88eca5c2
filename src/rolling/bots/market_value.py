"""``bot:value`` for Rolling Market: the turn's plans, valued by learned value networks.

The policy bots before it (:mod:`.market`, :mod:`.market_policy`) score a turn's plans with a
worth per company, so the companies never interact and a dollar is always worth a dollar. This
bot scores the *post-decision position* (cash, the four companies' values and shares, the turns
left after this one) as its expected final cash: ``bot:policy``'s plan score plus a small
multilayer perceptron per number of turns left (:class:`ValueModel`; the shipped model averages
two such sets). The networks see all companies together (sorted, so the four companies are
interchangeable as in the rules), the cash, and the turns left. They were fitted by fitted value
iteration on sampled rolls and two rounds of policy iteration (``scripts/train_market_value.py``,
docs/market-policy.md).

It lists every end of the turn reachable from the current state (Phase Two: buying/selling): no
trade, a sell of any count, a buy of any affordable count, a sell then a buy of another company,
and in the last two turns two sells of different companies; selling first is never worse than
buying first (the sale's cash can pay the buy, and the two companies' values do not interact), so
buy-then-sell orders are not listed separately. It keeps standing pat and the few ends
``bot:policy``'s tables rank highest (:func:`candidates`), values them, and plays the best one's
first action. After the last turn holdings are worth nothing, so there the value is the cash.

Inference is numpy only; the networks ship as ``rolling/bots/data/market_value.npz``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rolling.core.action import Action
from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, buy, sell
from rolling.games.market.state import MarketState

from .data import open_shipped
from .market import WORTH, plan_reason

WEIGHTS_FILE = "market_value.npz"
#: number of inputs of :func:`features`
N_FEATURES = 44

_WORTH = np.array(WORTH, dtype=np.float64)  # (7, 13)
_V = np.arange(R.MAX_VALUE + 1)
# _SELL_CASH[vol][value][n], _SELL_AFTER[...]: R.sell_proceeds as arrays; the same for buys
_SELL_CASH = np.array([[[R.sell_proceeds(v, n, vol)[0] if v and vol else 0 for n in range(13)] for v in range(7)] for vol in range(7)])
_SELL_AFTER = np.array([[[R.sell_proceeds(v, n, vol)[1] if v and vol else v for n in range(13)] for v in range(7)] for vol in range(7)])
_BUY_CASH = np.array([[[R.buy_cost(v, n, vol)[0] if v and vol else 0 for n in range(13)] for v in range(7)] for vol in range(7)])
_BUY_AFTER = np.array([[[R.buy_cost(v, n, vol)[1] if v and vol else v for n in range(13)] for v in range(7)] for vol in range(7)])


def turn_ends(state: MarketState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every end of the current turn reachable from ``state`` (see the module's docstring).

    Args:
        state: a state waiting for a trade (not over).

    Returns:
        ``(first, cash, values, shares)``: ``first`` int array (N, 2) with the plan's first action
        as ``(kind, code)`` (kind 0 done, 1 sell, 2 buy; code ``company * 16 + shares``),
        ``cash`` int (N,), ``values`` and ``shares`` int (N, 4) after the plan. Row 0 is standing
        pat (``done``).
    """
    vol = state.volatility
    v0 = np.array(state.values, dtype=np.int64)
    s0 = np.array(state.shares, dtype=np.int64)
    cash0 = state.cash
    firsts = [np.zeros((1, 2), dtype=np.int64)]
    cashes = [np.array([cash0], dtype=np.int64)]
    vals = [v0[None, :]]
    shs = [s0[None, :]]
    can_buy = state.can_buy()

    def add(kind, code, cash, vv, ss):
        firsts.append(np.stack([np.full(len(cash), kind), code], axis=1))
        cashes.append(cash)
        vals.append(vv)
        shs.append(ss)

    def buys(c_sold, cash, vv, ss, first_kind, first_code):
        # every affordable buy of every company other than those sold, after a sell (or none)
        for c2 in range(R.N_COMPANIES):
            if c2 == c_sold or state.sold >> c2 & 1:
                continue
            room = R.MAX_SHARES - s0[c2]
            if room <= 0:
                continue
            n = np.arange(1, room + 1)
            cost = _BUY_CASH[vol, v0[c2], n]  # (n,)
            ok = cost[None, :] <= cash[:, None]  # (rows, n)
            ri, ni = np.nonzero(ok)
            if not len(ri):
                continue
            nv, ns = vv[ri].copy(), ss[ri].copy()
            nv[:, c2] = _BUY_AFTER[vol, v0[c2], n[ni]]
            ns[:, c2] = s0[c2] + n[ni]
            code = first_code[ri] if first_kind == 1 else c2 * 16 + n[ni]
            add(first_kind, code, cash[ri] - cost[ni], nv, ns)

    sells = []  # (company, counts, cash, values, shares)
    for c in range(R.N_COMPANIES):
        m = state.max_sell(c)
        if not m:
            continue
        n = np.arange(1, m + 1)
        vv = np.repeat(v0[None, :], m, axis=0)
        ss = np.repeat(s0[None, :], m, axis=0)
        vv[:, c] = _SELL_AFTER[vol, v0[c], n]
        ss[:, c] = s0[c] - n
        cash = cash0 + _SELL_CASH[vol, v0[c], n]
        sells.append((c, n, cash, vv, ss))
        code = c * 16 + n
        add(1, code, cash, vv, ss)
        if can_buy:
            buys(c, cash, vv, ss, 1, code)
    if state.sells_allowed() - state.n_sold >= 2:
        # two sells instead of a buy and a sell (the last two turns): of different companies
        for i, (c, n, cash, vv, ss) in enumerate(sells):
            for c2, n2, _, _, _ in sells[i + 1:]:
                a = np.repeat(np.arange(len(n)), len(n2))
                b = np.tile(np.arange(len(n2)), len(n))
                nv, ns = vv[a].copy(), ss[a].copy()
                nv[:, c2] = _SELL_AFTER[vol, v0[c2], n2[b]]
                ns[:, c2] = s0[c2] - n2[b]
                add(1, c * 16 + n[a], cash[a] + _SELL_CASH[vol, v0[c2], n2[b]], nv, ns)
    if can_buy:
        buys(-1, np.array([cash0]), v0[None, :], s0[None, :], 2, None)
    return np.concatenate(firsts), np.concatenate(cashes), np.concatenate(vals), np.concatenate(shs)


def plan_scores(turns_left: int, tables: np.ndarray, cash: np.ndarray, values: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """``bot:policy``'s score of turn ends (see :func:`rolling.bots.market.best_plan`), dollars (N,).

    ``cash + sum(tables[turns_left][value][shares])``; in the penultimate turn only the two best
    holdings count, in the last turn none.
    """
    if turns_left == 0:
        return cash.astype(np.float64)
    w = tables[turns_left][values, shares]  # (N, 4)
    if turns_left == 1:
        w = np.sort(w, axis=1)[:, 2:]
    return cash + w.sum(axis=1)


def candidates(state: MarketState, tables: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Standing pat and the ``k`` ends of the turn that ``bot:policy``'s worth ``tables``
    ((12, 7, 13) dollars, :func:`rolling.bots.market_policy.worth_tables`) score highest: the
    :func:`turn_ends` rows the value network chooses among (pat first, then in listing order).

    Keeping to the plans the policy already rates well keeps the network's choice to positions
    like those it was fitted on, where its errors are small.
    """
    first, cash, values, shares = turn_ends(state)
    if len(cash) > k + 1:
        score = plan_scores(state.turns_left, tables, cash, values, shares)
        keep = np.argsort(-score[1:], kind="stable")[:k] + 1
        keep = np.concatenate([[0], np.sort(keep)])
        return first[keep], cash[keep], values[keep], shares[keep]
    return first, cash, values, shares


def features(turns_left: int, cash: np.ndarray, values: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """The network's inputs for post-decision positions with ``turns_left`` turns after this one.

    Args:
        turns_left: buy/sell turns left after the current one, 1..11.
        cash: dollars, shape (N,).
        values: share values 1..6, shape (N, 4).
        shares: share counts 0..12, shape (N, 4).

    Returns:
        float64 (N, :data:`N_FEATURES`): turns left (scaled and one-hot 1..11), cash (/100 and
        its square root), the heuristic's worth of the holdings and their value at market
        (/100), shares held and companies at each value 1..6, the number of companies held, and
        each company's (value, shares) sorted by market value (so the companies are
        interchangeable).
    """
    n = len(cash)
    out = np.zeros((n, N_FEATURES))
    out[:, 0] = turns_left / 11
    out[:, turns_left] = 1.0  # columns 1..11
    c = cash / 100.0
    out[:, 12] = c
    out[:, 13] = np.sqrt(c)
    out[:, 14] = _WORTH[values, shares].sum(axis=1) / 100
    mv = values * shares
    out[:, 15] = mv.sum(axis=1) / 100
    held = shares > 0
    out[:, 16] = held.sum(axis=1) / 4
    for v in range(1, 7):
        at = values == v
        out[:, 16 + v] = (shares * at).sum(axis=1) / 12
        out[:, 22 + v] = at.sum(axis=1) / 4
        out[:, 28 + v] = (at & (shares < R.MAX_SHARES)).sum(axis=1) / 4 * c
    order = np.argsort(-(mv * 16 + values), axis=1, kind="stable")
    sv = np.take_along_axis(values, order, axis=1)
    ss = np.take_along_axis(shares, order, axis=1)
    out[:, 35:39] = sv / 6
    out[:, 39:43] = ss / 12
    out[:, 43] = (cash[:, None] >= values).sum(axis=1) / 4  # companies one can afford a share of
    return out


class ValueNet:
    """A multilayer perceptron (ReLU hidden layers) on standardised :func:`features`; numpy only.

    Args:
        weights: ``mu``, ``sd`` (input standardisation, (F,)), ``W0, b0, W1, b1, ...`` layers;
            the output is the expected final cash / 100.
    """

    def __init__(self, weights: dict[str, np.ndarray]):
        self.mu = np.asarray(weights["mu"], dtype=np.float64)
        self.sd = np.asarray(weights["sd"], dtype=np.float64)
        self.layers = []
        i = 0
        while f"W{i}" in weights:
            self.layers.append((np.asarray(weights[f"W{i}"], dtype=np.float64), np.asarray(weights[f"b{i}"], dtype=np.float64)))
            i += 1
        if not self.layers or self.layers[0][0].shape[0] != N_FEATURES or self.layers[-1][0].shape[1] != 1:
            raise ValueError(f"a market value network takes {N_FEATURES} inputs to 1 output")

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """Expected final cash in dollars of each row of ``features`` (N, F) -> (N,)."""
        h = (x - self.mu) / self.sd
        for W, b in self.layers[:-1]:
            h = np.maximum(h @ W + b, 0.0)
        W, b = self.layers[-1]
        return (h @ W + b)[:, 0] * 100.0


class ValueModel:
    """One :class:`ValueNet` per number of turns left after the current one (1..11), or the mean
    of several such sets (an ensemble: the networks' errors partly cancel, so the choice among
    close ends is less often decided by one network's error).

    Args:
        weights: the arrays of every network, keyed ``t{turns_left}_{name}`` (``name`` as in
            :class:`ValueNet`), or ``m{j}_t{turns_left}_{name}`` for member ``j`` of an
            ensemble; ``k`` and ``residual`` (see the attributes) are shared.
        turns: the turns left it must value (all, 1..11, unless training builds it turn by turn).

    Raises:
        ValueError: a network for one of ``turns`` is missing or malformed.
    """

    def __init__(self, weights: dict[str, np.ndarray], turns: range = range(1, R.BUY_SELL_TURNS)):
        #: how many of ``bot:policy``'s best-scored ends the networks choose among (0: all ends)
        self.k = int(weights["k"]) if "k" in weights else 0
        #: whether the networks learn the value minus ``bot:policy``'s plan score (:func:`plan_scores`)
        self.residual = bool(weights["residual"]) if "residual" in weights else False
        self.tables = None
        if self.k or self.residual:
            from .market_policy import shipped_params, worth_tables

            self.tables = worth_tables(shipped_params())
        members = sorted({k.split("_", 1)[0] for k in weights if k.startswith("m") and "_" in k})
        prefixes = [m + "_" for m in members] or [""]
        #: turns left -> the networks (one per ensemble member) whose mean is the value
        self.nets: dict[int, list[ValueNet]] = {}
        for t in turns:
            self.nets[t] = []
            for pre in prefixes:
                key = f"{pre}t{t}_"
                part = {k[len(key):]: v for k, v in weights.items() if k.startswith(key)}
                if not part:
                    raise ValueError(f"no value network for {t} turns left")
                self.nets[t].append(ValueNet(part))

    def value(self, turns_left: int, cash: np.ndarray, values: np.ndarray, shares: np.ndarray) -> np.ndarray:
        """Expected final cash (dollars, (N,)) of post-decision positions with ``turns_left`` turns
        after this one; the cash itself after the last turn (0), where holdings are worth nothing."""
        if turns_left == 0:
            return cash.astype(np.float64)
        x = features(turns_left, cash, values, shares)
        nets = self.nets[turns_left]
        v = nets[0](x)
        for net in nets[1:]:
            v += net(x)
        v /= len(nets)
        if self.residual:
            v += plan_scores(turns_left, self.tables, cash, values, shares)
        return v


@lru_cache(maxsize=1)
def shipped_model() -> ValueModel:
    """The value networks shipped with the package, read once.

    Raises:
        FileNotFoundError: the package was installed without its data file.
    """
    with open_shipped(WEIGHTS_FILE) as f:
        with np.load(f) as data:
            return ValueModel({k: data[k] for k in data.files})


def decode(kind: int, code: int) -> Action:
    """The action of a :func:`turn_ends` ``first`` row."""
    if kind == 0:
        return DONE
    c, n = divmod(int(code), 16)
    return sell(c, n) if kind == 1 else buy(c, n)


def choose_end(state: MarketState, net: ValueModel) -> tuple[tuple[np.ndarray, ...], np.ndarray, int]:
    """The ends the networks choose among, their values, and the index of the one played.

    Returns:
        ``((first, cash, values, shares), value of each end in dollars, index)``: the ends as
        :func:`turn_ends` (or :func:`candidates` when the model keeps to ``bot:policy``'s best),
        row 0 standing pat. A trade must beat standing pat by a cent, so float noise never trades;
        ties go to the end listed first.
    """
    ends = candidates(state, net.tables, net.k) if net.k else turn_ends(state)
    v = net.value(state.turns_left, *ends[1:])
    i = int(np.argmax(v))
    if v[i] <= v[0] + 0.01:
        i = 0
    return ends, v, i


def best_end(state: MarketState, net: ValueModel) -> tuple[Action, float, float]:
    """``(first action of the best end of the turn, its value, standing pat's value)``, dollars."""
    (first, *_), v, i = choose_end(state, net)
    return decode(*first[i]), float(v[i]), float(v[0])


class MarketValueBot:
    """Plays the end of the turn with the highest learned value (deterministic).

    Args:
        seed: accepted like every bot's; the bot draws no random numbers.
        net: networks to play with instead of the shipped ones (training and tests).
    """

    name = "value"
    last_reason: str | None = None

    def __init__(self, seed: int = 0, net: ValueModel | None = None):
        self.net = shipped_model() if net is None else net

    def choose(self, state: MarketState, seat: int) -> Action:
        """Return the first action of the best end of this turn."""
        action, best, pat = best_end(state, self.net)
        # (standing pat is the end played when no trade beats it: then ``best`` is ``pat``)
        self.last_reason = plan_reason(best, action, pat, worth="expected final cash")
        return action
