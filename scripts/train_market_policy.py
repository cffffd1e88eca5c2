"""Train ``bot:policy`` for Rolling Market: CMA-ES on the weights of its worth tables.

Usage (training dependencies: ``pip install -e '.[train]'``)::

    nice python scripts/train_market_policy.py --generations 40 --games 1000 --out runs/market-policy

Every generation draws ``--games`` fresh game seeds (the SplitMix64 stream of run seed
``--seed + generation``, never the evaluation run's seed 0) and plays them with every candidate
weight vector of the population, the current mean, and the heuristic (weights 0), so all of a
generation's scores are paired on the same dice. The fitness is the mean final cash, the reward
of ``rolling/Market-v0`` (the games run on the engine that env wraps, which is several times faster
than stepping the env; the shipped policy is checked through the env in the tests).

Writes ``OUT/curve.json`` (one row per generation: games played so far, the mean weights' and the
heuristic's mean cash on that generation's seeds, the best candidate's, wall seconds) and
``OUT/params.npz`` (the mean weights, after every generation, so a run can be stopped any time).
Copy the final ``params.npz`` to ``src/rolling/bots/data/market_policy.npz`` to ship it.
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from rolling.bots.market_policy import PARAM_SHAPE, MarketPolicyBot
from rolling.games.market.state import MarketState
from rolling.sim.market import game_seeds


def mean_cash(params: np.ndarray, seeds: list[int]) -> float:
    """Mean final cash of the policy with ``params`` over games dealt with ``seeds``."""
    bot = MarketPolicyBot(params=params)
    total = 0
    for seed in seeds:
        state = MarketState(seed)
        while not state.over:
            state.apply(bot.choose(state, 0))
        total += state.cash
    return total / len(seeds)


def _job(args: tuple[np.ndarray, list[int]]) -> float:
    return mean_cash(*args)


def main() -> None:
    import cma

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--generations", type=int, default=40)
    ap.add_argument("--games", type=int, default=1000, help="games per candidate per generation")
    ap.add_argument("--sigma", type=float, default=0.3, help="CMA-ES initial step, dollars per share")
    ap.add_argument("--seed", type=int, default=1000, help="run seed of generation 0's games; CMA-ES's own seed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("runs/market-policy"))
    ap.add_argument("--resume", action="store_true", help="start from OUT/params.npz")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    n = int(np.prod(PARAM_SHAPE))
    x0 = np.zeros(n)
    if args.resume:
        x0 = np.load(args.out / "params.npz")["params"].ravel()
    es = cma.CMAEvolutionStrategy(x0, args.sigma, {"seed": args.seed + 1, "verbose": -9})
    curve: list[dict] = []
    start = time.time()
    games = 0
    with Pool(args.workers) as pool:
        for gen in range(args.generations):
            seeds = game_seeds(args.seed + gen, args.games)
            candidates = es.ask()
            jobs = [(np.asarray(c), seeds) for c in candidates] + [(es.mean.copy(), seeds), (np.zeros(n), seeds)]
            scores = pool.map(_job, jobs)
            es.tell(candidates, [-s for s in scores[:-2]])  # CMA-ES minimises
            games += args.games * len(candidates)
            row = {
                "generation": gen, "games": games, "mean_policy": scores[-2], "heuristic": scores[-1],
                "best_candidate": max(scores[:-2]), "sigma": float(es.sigma), "wall_s": round(time.time() - start, 1),
            }
            curve.append(row)
            print(json.dumps(row), flush=True)
            np.savez(args.out / "params.npz", params=es.mean.reshape(PARAM_SHAPE))
            (args.out / "curve.json").write_text(json.dumps(curve, indent=1))


if __name__ == "__main__":
    main()
