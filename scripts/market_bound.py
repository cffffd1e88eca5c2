"""An upper bound on the best possible mean final cash in Rolling Market: information relaxation
with a penalty (Brown, Smith & Sun 2010, "Information relaxations and duality in stochastic
dynamic programs", Operations Research 58(4)).

The clairvoyant of ``scripts/market_clairvoyant.py`` knows the whole game's dice; its mean (about
$200) bounds every real player's from above, but loosely: most of it is the worth of foresight.
Here the clairvoyant pays for using the future. For each roll ``j`` of the dice, given the
position ``y`` just before it and the dice ``d`` it shows, the penalty is

    z_j = h(y, d) - E[h(y, D)]        (D: the roll's dice, drawn as the game draws them)

where ``h`` values the position after the roll: its overflow cash plus, for each company, the
value of its (value, shares) from a dynamic program over that company alone (dollars priced at
``kappa``, fitted on games of the policy; :func:`dp_values`, :func:`penalty_tables`; see
docs/market-policy.md). Whatever ``h`` is, ``E[z_j | what a
real player knows before roll j] = 0``: a real player's trades fix ``y`` before the dice fall,
and the dice do not depend on them. So for every real (non-anticipating) policy ``pi``,
``E[cash_pi] = E[cash_pi - sum_j z_j] <= E[max over all trade sequences of (cash - sum_j z_j)]``:
the mean of the penalised clairvoyant's best is an upper bound, valid for any ``h``; a good ``h``
(close to the true value of a position) makes it tight, ``h = 0`` gives back the clairvoyant.

The inner problem (one game, dice known) is solved as a linear program that *relaxes* it, so the
bound stays an upper bound whatever the solver's path: both ``cash`` and ``z`` are sums over the
four companies of terms that depend on that company's own (value, shares) path alone, so each
company's path is a path in its own small graph (a node per turn and (value, shares), an arc per
trade of that company in that turn: buy ``n``, sell ``n`` or none, followed by the rolls to the
next turn, with their overflow cash and penalties); the companies are coupled only by the cash
(after each turn's trades it is never negative: selling first is never worse) and by the trades
allowed per turn (one buy and one sell, of different companies; in the last two turns a buy and a
sell or two sells). A flow of one unit through each company's graph, those couplings as linear
constraints, the arcs' flows between 0 and 1: its optimum is at least the best integer plan's.
(SciPy's HiGHS solves it, in about a second a game.)

Usage (``pip install -e '.[train]'`` for SciPy)::

    nice python scripts/market_bound.py --games 1000 --out runs/market-bound.json

Prints and writes the bound's mean over the games of ``rolling simulate market --seed 0`` (the
first ``--games``), its 95% interval, the same bound without penalty (the clairvoyant, relaxed;
``--no-clairvoyant`` skips it) and the shipped policy's mean on the same games. The penalty is
fitted on other games (``--fit-seed``): one that knew the estimate's dice would void the bound.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from rolling.bots.market_policy import MarketPolicyBot, shipped_params, worth_tables
from rolling.games.market import rules as R
from rolling.games.market.state import MarketState
from rolling.sim.market import game_seeds

sys.path.insert(0, str(Path(__file__).resolve().parent))
from market_clairvoyant import dice_schedule  # noqa: E402

N = R.N_COMPANIES
V = R.MAX_VALUE + 1
S = R.MAX_SHARES + 1
#: FLUCT[v][s][die] = (value, shares, overflow cash) after one fluctuation die (split and sale included)
FLUCT = [[[(0, 0, 0)] * 7 for _ in range(S)] for _ in range(V)]
for _v in range(1, V):
    for _s in range(S):
        for _d in range(1, 7):
            _v2, _s2, _split = R.fluctuate(_v, _d, _s)
            _got = 0
            if _split:
                _s2, _, _got = R.overflow_sale(_v2, _s2)
            FLUCT[_v][_s][_d] = (_v2, _s2, _got)


def p_closed(turns_left: int) -> float:
    """Chance that a roll made with the tracker at ``turns_left`` closes the market: the volatility
    die shows 1 or 6, except in the last two turns, where it is not rolled."""
    return 0.0 if turns_left <= R.FINAL_TURNS else len(R.CLOSED_FACES) / 6


def transition(g: np.ndarray) -> np.ndarray:
    """``(P g)[v][s]``: the mean over one fluctuation die of ``g`` at the position reached, for a
    company at value ``v`` with ``s`` shares (``g``: (7, 13))."""
    out = np.zeros((V, S))
    for v in range(1, V):
        for s in range(S):
            out[v, s] = sum(g[FLUCT[v][s][d][0], FLUCT[v][s][d][1]] for d in range(1, 7)) / 6
    return out


def _overflow_mean() -> np.ndarray:
    out = np.zeros((V, S))
    for v in range(1, V):
        for s in range(S):
            out[v, s] = sum(FLUCT[v][s][d][2] for d in range(1, 7)) / 6
    return out


OVERFLOW_MEAN = _overflow_mean()


def penalty_tables(g: np.ndarray, kappa: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The penalty ``(g, p, kappa)`` that :func:`inner_bound` takes, from a company's value
    ``g[t][v][s]`` (12, 7, 13: dollars that a company at value ``v`` with ``s`` shares adds to a
    position where a buy/sell turn with ``t`` turns left is about to be played) and the worth
    ``kappa[t]`` (13,) of a dollar there (all 1 when not given).

    ``p[t][v][s]`` (13, 7, 13) is the company's value just before a roll made with the tracker at
    ``t``: the roll's overflow cash, then ``p[t]`` again if the market closes (chance 1/3 before
    the last two turns) or ``g[t-1]`` if it opens, in expectation::

        p[t] = kappa[t-1] * E[overflow] + pc(t) * P p[t] + (1 - pc(t)) * P g[t-1]

    solved exactly (a linear system over one company's 78 positions; ``P``: one fluctuation die).
    A roll's ``h`` is then the overflow cash (each dollar worth ``kappa[t-1]``: no trade comes
    before the next turn, whether the market closes or opens) plus ``p[t]`` (closed) or ``g[t-1]``
    (open) at the position reached, and ``E[h] = p[t]`` at the position before it.
    """
    if kappa is None:
        kappa = np.ones(R.BUY_SELL_TURNS + 1)
    p = np.zeros((R.BUY_SELL_TURNS + 1, V, S))
    n = V * S
    # the one-die transition as a matrix over the (v, s) positions
    m = np.zeros((n, n))
    for v in range(1, V):
        for s in range(S):
            for d in range(1, 7):
                v2, s2, _ = FLUCT[v][s][d]
                m[v * S + s, v2 * S + s2] += 1 / 6
    for t in range(1, R.BUY_SELL_TURNS + 1):
        pc = p_closed(t)
        rhs = kappa[t - 1] * OVERFLOW_MEAN.ravel() + (1 - pc) * (m @ g[t - 1].ravel())
        p[t] = np.linalg.solve(np.eye(n) - pc * m, rhs).reshape(V, S)
    return g, p, kappa


def fit_values(seeds: list[int], bot, prior: np.ndarray, ridge: float = 20.0) -> tuple[np.ndarray, np.ndarray]:
    """The bot's value of a position at the start of a buy/sell turn with ``t`` turns left,
    approximated as ``kappa[t] * cash + b[t] + sum over companies of g[t][v][s]``: the
    approximation the penalty is built on.

    Fitted backwards over ``bot``'s games (fitted value iteration on the bot's own play, the
    temporal-difference target): for ``t = 0`` by least squares on the final cash, for each later
    ``t`` on the fitted value of the position the game reached at the start of the next turn;
    one roll's noise per target instead of a whole game's. Ridge ``ridge`` pulls ``g`` toward
    ``prior`` for positions the bot seldom reaches. The seeds must not be those the bound is
    estimated on (the penalty may not know the dice).

    Returns:
        ``(g, kappa)``, shapes (12, 7, 13) and (13,) (``kappa[12] = 1``): a dollar at the start of
        a turn with ``t`` turns left is worth ``kappa[t]`` final dollars.
    """
    n_feat = 2 + (V - 1) * S
    per_game: list[tuple[list[np.ndarray], int]] = []
    for seed in seeds:
        s = MarketState(seed)
        starts: list[np.ndarray] = []
        turn = None
        while not s.over:
            if s.turns_left != turn:
                turn = s.turns_left
                row = np.zeros(n_feat)
                row[0], row[1] = 1.0, s.cash
                for v, n in zip(s.values, s.shares, strict=True):
                    row[2 + (v - 1) * S + n] += 1
                starts.append(row)  # starts[k]: the turn with 11 - k turns left
            s.apply(bot.choose(s, 0))
        per_game.append((starts, s.cash))
    g = np.zeros((R.BUY_SELL_TURNS, V, S))
    kappa = np.ones(R.BUY_SELL_TURNS + 1)
    weights: dict[int, np.ndarray] = {}
    for t in range(R.BUY_SELL_TURNS):
        k = R.BUY_SELL_TURNS - 1 - t
        x = np.array([starts[k] for starts, _ in per_game])
        if t == 0:
            y = np.array([float(final) for _, final in per_game])
        else:
            x_next = np.array([starts[k + 1] for starts, _ in per_game])
            y = x_next @ weights[t - 1]
        w0 = np.concatenate([[0.0, 1.0], prior[t, 1:, :].ravel()])
        lam = np.full(n_feat, ridge)
        lam[:2] = 1e-9
        w = np.linalg.solve(x.T @ x + np.diag(lam), x.T @ y + lam * w0)
        weights[t] = w
        kappa[t] = w[1]
        g[t, 1:, :] = w[2:].reshape(V - 1, S)
    # every game starts its first turn with $10, so there the worth of a dollar cannot be told from
    # the constant: take the next turn's (the penalty never uses it; the DP values barely do)
    kappa[R.BUY_SELL_TURNS - 1] = kappa[R.BUY_SELL_TURNS - 2]
    return g, kappa


def dp_values(kappa: np.ndarray, fee: float = 0.0) -> np.ndarray:
    """``g[t][v][s]`` of one company traded alone, optimally, with each dollar at the start of a
    turn with ``t`` turns left worth ``kappa[t]`` final dollars: a backward dynamic program over
    the 78 (value, shares) positions (the turn's volatility 2..5 equally likely before the last
    two turns, 3 in them; then the rolls to the next turn, as in :func:`penalty_tables`). The
    companies' trades are not limited to one buy and one sell a turn here, and the dollars are
    priced, not counted: a relaxation, exact and noiseless for every position, which makes a
    consistent penalty (see docs/market-policy.md). ``fee``: dollars charged per trade, standing
    for the one-buy-one-sell limit this relaxation drops (3 gave the tightest bound on 20 games of
    run seed 999, against 0, 1 and 6)."""
    n = V * S
    m = np.zeros((n, n))
    for v in range(1, V):
        for s in range(S):
            for d in range(1, 7):
                v2, s2, _ = FLUCT[v][s][d]
                m[v * S + s, v2 * S + s2] += 1 / 6
    g = np.zeros((R.BUY_SELL_TURNS, V, S))
    for t in range(R.BUY_SELL_TURNS):
        if t == 0:
            after = np.zeros((V, S))  # holdings are worth nothing once the last turn is done
        else:
            pc = p_closed(t)
            rhs = kappa[t - 1] * OVERFLOW_MEAN.ravel() + (1 - pc) * (m @ g[t - 1].ravel())
            after = np.linalg.solve(np.eye(n) - pc * m, rhs).reshape(V, S)
        vols = (R.FINAL_VOLATILITY,) if t < R.FINAL_TURNS else (2, 3, 4, 5)
        for v in range(1, V):
            for s in range(S):
                total = 0.0
                for vol in vols:
                    best = after[v, s]
                    for s2 in range(S):
                        if s2 > s:
                            cost, v2 = R.buy_cost(v, s2 - s, vol)
                            val = after[v2, s2] - kappa[t] * cost - fee
                        elif s2 < s:
                            got, v2 = R.sell_proceeds(v, s - s2, vol)
                            val = after[v2, s2] + kappa[t] * got - fee
                        else:
                            continue
                        best = max(best, val)
                    total += best
                g[t, v, s] = total / len(vols)
    return g


def game_rolls(seed: int) -> list[tuple[list[tuple[tuple[int, ...], bool, int]], int]]:
    """Game ``seed``'s dice by buy/sell turn: ``[(rolls, volatility)]`` x 12, each roll
    ``(four dice, closed, tracker at the roll)``; turn ``k``'s rolls lead up to it."""
    out = []
    for k, (rolls, vol) in enumerate(dice_schedule(seed)):
        tracker = R.BUY_SELL_TURNS - k
        out.append(([(d, i < len(rolls) - 1, tracker) for i, d in enumerate(rolls)], vol))
    return out


def inner_bound(state: MarketState, future: list, penalty: tuple[np.ndarray, np.ndarray] | None) -> float:
    """The relaxed penalised clairvoyant's best final cash from ``state`` (at the start of a turn,
    no trade made yet) when the rolls to come are ``future``: the entries of :func:`game_rolls` for
    this turn and the turns after it (this turn's rolls, already made, are not used).

    Args:
        penalty: ``(g, p)`` of :func:`penalty_tables`; None for no penalty (the clairvoyant).

    Returns:
        the linear program's optimum, dollars: at least the best final cash minus penalties of
        any trade sequence.

    Raises:
        ValueError: ``state`` is over or a trade was made this turn; ``future`` has the wrong length.
    """
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    if state.over or state.bought >= 0 or state.n_sold:
        raise ValueError("the bound starts from the beginning of a buy/sell turn")
    turns = state.turns_left + 1  # buy/sell turns still to play, this one included
    if len(future) != turns:
        raise ValueError(f"{turns} turns to play, {len(future)} given")
    g, p, kappa = penalty if penalty is not None else (None, None, None)
    # arcs: (company, turn index, from node, to node or -1, flow $, overflow $ after, penalty $, kind)
    costs: list[float] = []
    flow_cash: list[float] = []
    over_cash: list[float] = []
    kinds: list[int] = []  # 0 none, 1 buy, 2 sell
    arc_turn: list[int] = []
    eq_rows: list[int] = []
    eq_cols: list[int] = []
    eq_vals: list[float] = []
    eq_rhs: list[float] = []
    for c in range(N):
        nodes = {(state.values[c], state.shares[c]): len(eq_rhs)}
        eq_rhs.append(1.0)  # one unit leaves the start
        for k in range(turns):
            vol = future[k][1]
            nxt: dict[tuple[int, int], int] = {}
            rolls = future[k + 1][0] if k + 1 < turns else []
            for (v, s), row in nodes.items():
                for s2 in range(S):
                    if s2 > s:
                        cost, v2 = R.buy_cost(v, s2 - s, vol)
                        flow, kind = -cost, 1
                    elif s2 < s:
                        flow, v2 = R.sell_proceeds(v, s - s2, vol)
                        kind = 2
                    else:
                        flow, v2, kind = 0, v, 0
                    got_total = 0
                    pen = 0.0
                    vv, ss = v2, s2
                    for dice, closed, tracker in rolls:
                        v3, s3, got = FLUCT[vv][ss][dice[c]]
                        if g is not None:
                            after = p[tracker, v3, s3] if closed else g[tracker - 1, v3, s3]
                            pen += kappa[tracker - 1] * got + after - p[tracker, vv, ss]
                        got_total += got
                        vv, ss = v3, s3
                    col = len(costs)
                    costs.append(-(flow + got_total - pen))
                    flow_cash.append(flow)
                    over_cash.append(got_total)
                    kinds.append(kind)
                    arc_turn.append(k)
                    eq_rows.append(row)
                    eq_cols.append(col)
                    eq_vals.append(1.0)  # out of its node
                    if k + 1 < turns:
                        key = (vv, ss)
                        if key not in nxt:
                            nxt[key] = len(eq_rhs)
                            eq_rhs.append(0.0)
                        eq_rows.append(nxt[key])
                        eq_cols.append(col)
                        eq_vals.append(-1.0)  # into the next node
            nodes = nxt
    n_arcs = len(costs)
    kinds_a = np.array(kinds)
    turn_a = np.array(arc_turn)
    flow_a = np.array(flow_cash, dtype=float)
    over_a = np.array(over_cash, dtype=float)
    ub_rows: list[np.ndarray] = []
    ub_rhs: list[float] = []
    for k in range(turns):
        # cash after turn k's trades: the start's cash, every trade up to k, the overflow before k
        coef = np.where(turn_a <= k, flow_a, 0.0) + np.where(turn_a < k, over_a, 0.0)
        ub_rows.append(-coef)
        ub_rhs.append(float(state.cash))
        buys = ((turn_a == k) & (kinds_a == 1)).astype(float)
        sells = ((turn_a == k) & (kinds_a == 2)).astype(float)
        if state.turns_left - k < R.FINAL_TURNS:  # the last two turns: a buy and a sell, or two sells
            ub_rows += [buys, buys + sells]
            ub_rhs += [1.0, 2.0]
        else:
            ub_rows += [buys, sells]
            ub_rhs += [1.0, 1.0]
    a_eq = coo_matrix((eq_vals, (eq_rows, eq_cols)), shape=(len(eq_rhs), n_arcs)).tocsr()
    a_ub = np.vstack(ub_rows)
    res = linprog(np.array(costs), A_ub=a_ub, b_ub=np.array(ub_rhs), A_eq=a_eq, b_eq=np.array(eq_rhs),
                  bounds=(0, 1), method="highs")
    if res.status != 0:
        raise RuntimeError(f"the linear program failed: {res.message}")
    return float(state.cash - res.fun)


def game_bound(seed: int, penalty: tuple[np.ndarray, np.ndarray] | None) -> float:
    """:func:`inner_bound` from the first buy/sell turn of game ``seed`` (its own dice)."""
    return inner_bound(MarketState(seed), game_rolls(seed), penalty)


def policy_cash(seed: int, bot: MarketPolicyBot) -> int:
    """The final cash of ``bot`` on game ``seed``."""
    s = MarketState(seed)
    while not s.over:
        s.apply(bot.choose(s, 0))
    return s.cash


def interval(xs: list[float]) -> tuple[float, float, float]:
    """(mean, lower, upper) of the normal 95% interval of the mean."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, m - half, m + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="the first GAMES games of the run")
    ap.add_argument("--seed", type=int, default=0, help="run seed (rolling simulate market --seed)")
    ap.add_argument("--fit-games", type=int, default=5000, help="games of the policy the values are fitted on")
    ap.add_argument("--fit-seed", type=int, default=4242, help="their run seed (not the estimate's)")
    ap.add_argument("--values", choices=("fit", "dp"), default="dp",
                    help="the penalty's company values: the dynamic program's (dp) or the fitted ones")
    ap.add_argument("--fee", type=float, default=3.0, help="with --values dp: dollars charged per trade")
    ap.add_argument("--no-clairvoyant", action="store_true", help="skip the bound without penalty")
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    a = ap.parse_args()
    if a.games < 2:
        raise SystemExit("market_bound: --games must be 2 or more")
    bot = MarketPolicyBot()
    t0 = time.time()
    g, kappa = fit_values(game_seeds(a.fit_seed, a.fit_games), bot, worth_tables(shipped_params()))
    if a.values == "dp":
        g = dp_values(kappa, a.fee)
    penalty = penalty_tables(g, kappa)
    print(f"values fitted on {a.fit_games} games of run seed {a.fit_seed}, {time.time() - t0:.0f} s",
          file=sys.stderr, flush=True)
    rows = []
    t0 = time.time()
    for i, seed in enumerate(game_seeds(a.seed, a.games)):
        row = {"seed": seed, "bound": game_bound(seed, penalty), "policy": policy_cash(seed, bot)}
        if not a.no_clairvoyant:
            row["clairvoyant"] = game_bound(seed, None)
        rows.append(row)
        if (i + 1) % 25 == 0:
            print(f"{i + 1} games, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    out = {"games": a.games, "run_seed": a.seed, "fit_games": a.fit_games, "fit_seed": a.fit_seed,
           "values": a.values, "fee": a.fee, "kappa": np.round(kappa, 4).tolist(), "wall_s": round(time.time() - t0, 1)}
    for key in ("bound", "policy", "clairvoyant"):
        if key in rows[0]:
            m, lo, hi = interval([r[key] for r in rows])
            out[key] = {"mean": round(m, 2), "ci95": [round(lo, 2), round(hi, 2)]}
    m, lo, hi = interval([r["bound"] - r["policy"] for r in rows])
    out["bound_minus_policy"] = {"mean": round(m, 2), "ci95": [round(lo, 2), round(hi, 2)]}
    print(json.dumps(out, indent=1))
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps({**out, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
