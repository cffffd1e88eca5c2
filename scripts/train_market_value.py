"""Train ``bot:value`` for Rolling Market: fitted value iteration over post-decision positions.

Usage (numpy only; from a checkout with ``PYTHONPATH=src``, or with ``rolling`` installed)::

    nice python scripts/train_market_value.py --games 20000 --rolls 8 --out runs/market-value

1. **Positions.** Play ``--games`` games (the seeds of run seed ``--seed``, never the evaluation
   run's seed 0) with the behaviour policy — ``bot:policy``, or ``bot:value`` with ``--start``'s
   networks — and record every *post-decision position*: the cash, values and shares after a
   turn's trades, with the turns left after that turn (1..11). In half of the games one turn,
   drawn at random, ends at a random reachable end instead, so positions the policy avoids are
   seen too.
2. **Backward induction.** After the last turn a position is worth its cash. For ``t`` = 1, 2, ...,
   11: each recorded position with ``t`` turns left gets the target ``mean over --rolls sampled
   rolls (closed markets included) of max over the next turn's ends of V[t-1](end)`` — the
   Bellman equation of the post-decision value, with the expectation over the dice sampled and the
   maximum over every end of the next turn taken exactly — and a network ``V[t]``
   (:class:`rolling.bots.market_value.ValueNet`) is fitted to those targets by least squares
   (Adam, minibatches). Sampling one roll instead of the whole rest of the game keeps the
   targets' noise low.
3. **Evaluation.** ``bot:value`` with the new networks and ``bot:policy`` play the same
   ``--eval-games`` games of run seed ``--eval-seed`` (paired).

4. **Ensemble.** ``--merge OUT.npz A.npz B.npz ...`` writes the networks of several runs as one
   model whose value is their mean (:class:`rolling.bots.market_value.ValueModel`), e.g. two
   rounds of policy iteration (the second run with ``--targets behaviour --start`` the first's).

Writes ``OUT/value.npz`` (all networks; copy it to ``src/rolling/bots/data/market_value.npz`` to
ship it) and ``OUT/log.json`` (per ``t``: positions, fit error, seconds; the evaluation).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from rolling.bots.market_policy import MarketPolicyBot
from rolling.bots.market_value import (
    N_FEATURES,
    MarketValueBot,
    ValueModel,
    ValueNet,
    candidates,
    choose_end,
    features,
    plan_scores,
    turn_ends,
)
from rolling.core.rng import Rng
from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, buy, sell
from rolling.games.market.state import MarketState
from rolling.sim.market import game_seeds


def _bot(weights):
    return MarketPolicyBot() if weights is None else MarketValueBot(net=ValueModel(weights))


def play_and_record(args) -> list:
    """Play games; return post-decision positions as (turns_left, cash, v0..v3, s0..s3) rows."""
    weights, seeds, explore_seed, k = args
    bot = _bot(weights)
    tables = ValueModel({"k": np.array(k)}, range(0)).tables
    rng = Rng(explore_seed)
    rows = []
    for seed in seeds:
        state = MarketState(seed)
        explore_turn = rng.randint(0, 11) if rng.randint(0, 1) else -1
        turn = 0
        while not state.over:
            if turn == explore_turn and state.bought < 0 and state.n_sold == 0:
                _, _, vals, shs = candidates(state, tables, k) if k else turn_ends(state)
                i = rng.randint(0, len(vals) - 1)
                s0 = state.shares[:]
                for c in range(R.N_COMPANIES):
                    if shs[i, c] < s0[c]:
                        state.apply(sell(c, int(s0[c] - shs[i, c])))
                for c in range(R.N_COMPANIES):
                    if shs[i, c] > s0[c]:
                        state.apply(buy(c, int(shs[i, c] - s0[c])))
                action = DONE
            else:
                action = bot.choose(state, 0)
            if action is DONE:
                if state.turns_left > 0:
                    rows.append((state.turns_left, state.cash, *state.values, *state.shares))
                turn += 1
            state.apply(action)
    return rows


def bellman_targets(args) -> np.ndarray:
    """Targets for positions with ``t`` turns left: the mean over ``rolls`` sampled rolls of the
    best next-turn end's value under the networks of ``t - 1`` (cash when ``t - 1`` is 0)."""
    weights, t, pos, rolls, seed, mode, behaviour = args
    model = ValueModel(weights, range(1, t))
    if mode == "behaviour":
        behaviour_net = ValueModel(behaviour)
    if mode == "policy":
        from rolling.bots.market_policy import shipped_params, worth_tables

        tables = worth_tables(shipped_params())
    rng = Rng(seed)
    ends, counts = [], []
    for row in pos:
        for _ in range(rolls):
            st = MarketState.__new__(MarketState)
            st.values, st.shares = [int(x) for x in row[2:6]], [int(x) for x in row[6:10]]
            st.cash, st.turns_left = int(row[1]), int(row[0])
            st.volatility, st.bought, st.sold, st.n_sold, st.over = 0, -1, 0, 0, False
            st.rolls = st.closed = st.overflow_cash = 0
            st.log = None
            st.rng = Rng(rng.next64())
            st.roll()
            if mode == "policy":
                # the end bot:policy's worth tables score highest: evaluate that policy
                _, cash, vals, shs = turn_ends(st)
                i = int(np.argmax(plan_scores(st.turns_left, tables, cash, vals, shs)))
                cash, vals, shs = cash[i:i + 1], vals[i:i + 1], shs[i:i + 1]
            elif mode == "behaviour":
                # the end --start's bot:value plays: evaluate that policy
                (_, cash, vals, shs), _, i = choose_end(st, behaviour_net)
                cash, vals, shs = cash[i:i + 1], vals[i:i + 1], shs[i:i + 1]
            elif model.k:
                _, cash, vals, shs = candidates(st, model.tables, model.k)
            else:
                _, cash, vals, shs = turn_ends(st)
            ends.append((cash, vals, shs))
            counts.append(len(cash))
    cash = np.concatenate([e[0] for e in ends]).astype(np.float64)
    if t == 1:
        v = cash
    else:
        vals = np.concatenate([e[1] for e in ends])
        shs = np.concatenate([e[2] for e in ends])
        v = np.concatenate([model.value(t - 1, cash[i:i + 200000], vals[i:i + 200000], shs[i:i + 200000])
                            for i in range(0, len(cash), 200000)])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    best = np.maximum.reduceat(v, starts)
    return best.reshape(len(pos), rolls).mean(axis=1)


def fit(X, y, hidden, epochs, seed, lr=2e-3, batch=256):
    """Fit an MLP to ``y`` (dollars / 100) by least squares with Adam; returns ``(weights, rmse $)``
    (the error on a held-out 5%)."""
    rng = np.random.default_rng(seed)
    mu, sd = X.mean(axis=0), X.std(axis=0) + 1e-6
    Xs = (X - mu) / sd
    sizes = [X.shape[1], *hidden, 1]
    params = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        params += [rng.normal(0, np.sqrt(2.0 / a), (a, b)), np.zeros(b)]
    params[-2] *= 0.1
    params[-1][:] = y.mean()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    hold = rng.random(len(y)) < 0.05
    tr, va = np.nonzero(~hold)[0], np.nonzero(hold)[0]
    for ep in range(epochs):
        rng.shuffle(tr)
        rate = lr * (0.3 ** (ep / max(1, epochs - 1)))
        for k in range(0, len(tr), batch):
            idx = tr[k:k + batch]
            hs = [Xs[idx]]
            for li in range(0, len(params) - 2, 2):
                hs.append(np.maximum(hs[-1] @ params[li] + params[li + 1], 0.0))
            out = (hs[-1] @ params[-2] + params[-1])[:, 0]
            g = ((out - y[idx]) / len(idx))[:, None]
            grads = [None] * len(params)
            for li in range(len(params) - 2, -1, -2):
                grads[li] = hs[li // 2].T @ g
                grads[li + 1] = g.sum(axis=0)
                if li:
                    g = (g @ params[li].T) * (hs[li // 2] > 0)
            step += 1
            for i, p in enumerate(params):
                m[i] = 0.9 * m[i] + 0.1 * grads[i]
                v[i] = 0.999 * v[i] + 0.001 * grads[i] ** 2
                p -= rate * (m[i] / (1 - 0.9 ** step)) / (np.sqrt(v[i] / (1 - 0.999 ** step)) + 1e-8)
    weights = {"mu": mu, "sd": sd}
    for i in range(0, len(params), 2):
        weights[f"W{i // 2}"], weights[f"b{i // 2}"] = params[i], params[i + 1]
    pred = ValueNet(weights)(X[va]) / 100
    return weights, float(np.sqrt(np.mean((pred - y[va]) ** 2)) * 100)


def scores(args) -> list[int]:
    """Final cash of each game of ``seeds`` played by the bot of ``weights`` (None: bot:policy)."""
    weights, seeds = args
    bot = _bot(weights)
    out = []
    for seed in seeds:
        state = MarketState(seed)
        while not state.over:
            state.apply(bot.choose(state, 0))
        out.append(state.cash)
    return out


def merge(out: Path, paths: list[Path]) -> None:
    """Write the networks of ``paths`` as the members ``m0_``, ``m1_``, ... of one ensemble."""
    merged: dict[str, np.ndarray] = {}
    for j, path in enumerate(paths):
        with np.load(path) as d:
            for key in d.files:
                if key in ("k", "residual"):
                    if key in merged and int(merged[key]) != int(d[key]):
                        raise SystemExit(f"error: {path} has {key}={int(d[key])}, the others {int(merged[key])}")
                    merged[key] = d[key]
                else:
                    merged[f"m{j}_{key}"] = d[key]
    ValueModel(merged)  # refuses a member lacking some turns left
    np.savez(out, **merged)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--merge", type=Path, nargs="+", default=None, metavar="PATH",
                    help="OUT.npz A.npz B.npz ...: write the runs' networks as one ensemble, and stop")
    ap.add_argument("--games", type=int, default=20000, help="games played to record positions")
    ap.add_argument("--per-turn", type=int, default=30000, help="positions used per turns-left value (at most)")
    ap.add_argument("--rolls", type=int, default=8, help="sampled rolls per position in a target")
    ap.add_argument("--seed", type=int, default=5000, help="run seed of the games played; all other seeds derive from it")
    ap.add_argument("--k", type=int, default=6, help="choose among bot:policy's k best-scored ends (0: all)")
    ap.add_argument("--targets", choices=["max", "policy", "behaviour"], default="policy",
                    help="next turn's end in a target: the best under the networks being fitted, bot:policy's, "
                         "or the one --start's bot:value plays")
    ap.add_argument("--residual", action="store_true", help="fit the value minus bot:policy's plan score")
    ap.add_argument("--hidden", type=int, nargs="+", default=[64, 64])
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--eval-seed", type=int, default=777)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--start", type=Path, default=None, help="networks whose bot plays the games (default bot:policy)")
    ap.add_argument("--out", type=Path, default=Path("runs/market-value"))
    args = ap.parse_args()
    if args.merge:
        merge(args.merge[0], args.merge[1:])
        return
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.time()
    log: dict = {"args": {k: str(v) for k, v in vars(args).items()}, "turns": []}
    behaviour = None
    if args.start:
        with np.load(args.start) as d:
            behaviour = {k: d[k] for k in d.files}
    seeds = game_seeds(args.seed, args.games)
    W = args.workers
    with Pool(W) as pool:
        chunks = [(behaviour, seeds[i::W], args.seed * 1000 + i, args.k) for i in range(W)]
        pos = np.array([r for rows in pool.map(play_and_record, chunks) for r in rows], dtype=np.int64)
        log["positions"] = int(len(pos))
        log["play_s"] = round(time.time() - start, 1)
        print(json.dumps({"positions": len(pos), "s": log["play_s"]}), flush=True)
        weights: dict[str, np.ndarray] = {"k": np.array(args.k), "residual": np.array(int(args.residual))}
        weights_tables = ValueModel(weights, range(0)).tables
        pick = np.random.default_rng(args.seed)
        for t in range(1, R.BUY_SELL_TURNS):
            at = pos[pos[:, 0] == t]
            if len(at) > args.per_turn:
                at = at[pick.choice(len(at), args.per_turn, replace=False)]
            t0 = time.time()
            parts = pool.map(bellman_targets, [(weights, t, at[i::W], args.rolls, args.seed * 100 + t * 10 + i, args.targets, behaviour) for i in range(W)])
            y = np.zeros(len(at))
            for i in range(W):
                y[i::W] = parts[i]
            X = features(t, at[:, 1].astype(np.float64), at[:, 2:6], at[:, 6:10])
            assert X.shape[1] == N_FEATURES
            base = plan_scores(t, weights_tables, at[:, 1].astype(np.float64), at[:, 2:6], at[:, 6:10]) if args.residual else 0.0
            net, rmse = fit(X, (y - base) / 100, args.hidden, args.epochs, seed=args.seed + t)
            weights.update({f"t{t}_{k}": v for k, v in net.items()})
            row = {"t": t, "positions": int(len(at)), "target_mean": float(y.mean()), "fit_rmse": rmse,
                   "s": round(time.time() - t0, 1)}
            log["turns"].append(row)
            print(json.dumps(row), flush=True)
        if len(weights) and all(f"t{t}_W0" in weights for t in range(1, R.BUY_SELL_TURNS)):
            np.savez(args.out / "value.npz", **weights)
        eval_seeds = game_seeds(args.eval_seed, args.eval_games)
        base = np.concatenate(pool.map(scores, [(None, eval_seeds[i::W]) for i in range(W)]))
        ev = np.concatenate(pool.map(scores, [(weights, eval_seeds[i::W]) for i in range(W)]))
        diff = ev - base  # the chunks interleave the same way for both bots: the games pair up
        log["eval"] = {"games": args.eval_games, "seed": args.eval_seed, "value_mean": float(ev.mean()),
                       "policy_mean": float(base.mean()), "gain": float(diff.mean()),
                       "gain_ci95": float(1.96 * diff.std(ddof=1) / np.sqrt(len(diff)))}
        log["wall_s"] = round(time.time() - start, 1)
        print(json.dumps(log["eval"]), flush=True)
        (args.out / "log.json").write_text(json.dumps(log, indent=1))


if __name__ == "__main__":
    main()
