"""Train the learned evaluations of Rolling Stock Stars (:mod:`rolling.bots.value`) and Rolling
Freight (:mod:`rolling.bots.freight_value`), issue 34.

Usage (training dependencies: ``pip install -e '.[train]'``, which brings LightGBM)::

    nice python scripts/train_value.py --games 3000 --seed 1 --workers 2 --out runs/stars-value
    nice python scripts/train_value.py --game freight --games 1200 --seed 1 --workers 2 --rounds 200 --out runs/freight-value

These two commands made the shipped models; each writes over the package's model file unless
``--model`` says where else, and a rerun gives byte-identical files (docs/strength.md,
*Reproducibility*; tests/stars_bots/test_train_value.py checks it at a tiny size).

Rolling Freight (``--game freight``): the heuristic in every seat, West Coast with 2 to 4 players
and Southern with 3 to 5 in turn (game ``g`` dealt with engine seed ``--seed * 1,000,003 + g``, no
random moves), a position at the start of every player turn (the search's playouts end there) and
each other decision state with probability ``--sample``, labelled 1 for each seat ranked first.
The rest of this docstring describes Stars, the default.

1. **Data**: ``--games`` games of Rolling Stock Stars played by the heuristic bot in every seat
   (2 to 6 players, four in half of them; in every third game each decision is, with probability
   ``--noise``, a random bot's, so the data also holds positions the heuristic would not reach).
   Game ``g`` is dealt with engine seed ``--seed * 1,000,003 + g`` and its bots are seeded from it,
   so the data is reproducible. Positions: the first state of every turn (what the search bot's
   playouts end on) and each other decision state with probability ``--sample``; each position
   gives one row per seat (:func:`rolling.bots.value.features`, as seen by a seat drawn at random:
   without the secret-money variant every seat sees the same), labelled 1 for the seat that won.
2. **Training**: LightGBM, binary objective, on the first 90% of the games; the last 10% are held
   out (whole games, so no position of a held-out game is learned). Reports the held-out log loss
   of the per-seat win probabilities (softmax over the seats) against the heuristic's valuation
   turned into probabilities the same way (the search bot's reward, $25 scale).
3. **Export**: the trees as numpy arrays to ``--model`` (default: the package's
   ``src/rolling/bots/data/stars_value.npz``) and a summary to ``OUT/summary.json`` (seed, games,
   positions, rounds, seconds, log losses).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from rolling.bots import freight_value, value
from rolling.bots.freight import FreightHeuristicBot
from rolling.bots.stars_heuristic import StarsHeuristicBot
from rolling.bots.stars_random import StarsRandomBot
from rolling.bots.value import TreeModel
from rolling.core.rng import Rng
from rolling.games import freight
from rolling.games.stars import Config, new_game
from rolling.sim.stars import pick_seat

PLAYERS = (4, 3, 4, 5, 4, 6, 4, 2)
#: Freight: (map, players) of game g, in turn
FREIGHT_TABLES = (("west-coast", 3), ("southern", 3), ("west-coast", 2), ("southern", 4), ("west-coast", 4),
                  ("southern", 5))
DATA = Path(__file__).resolve().parent.parent / "src" / "rolling" / "bots" / "data"
#: game -> (features module, the search's own valuation's column and its $ scale)
GAMES = {"stars": (value, "wealth", 25.0), "freight": (freight_value, "expected_stock", 4.0)}


def play(args: tuple[str, int, int, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One game: ``(rows, labels, position ids)``; rows of a position share its id."""
    game, seed, g, noise, sample = args
    if game == "freight":
        return play_freight(seed, g, sample)
    game_seed = seed * 1_000_003 + g
    n = PLAYERS[g % len(PLAYERS)]
    s = new_game(Config(players=n), game_seed)
    rng = Rng(game_seed ^ 0x5EED)
    bots = [StarsHeuristicBot(game_seed * 7 + k) for k in range(n)]
    randoms = [StarsRandomBot(game_seed * 11 + k) for k in range(n)]
    eps = noise if g % 3 == 2 else 0.0
    rows: list[np.ndarray] = []
    ids: list[int] = []
    last = s.order[0]
    turn = 0
    while not s.over:
        if s.turn != turn or rng.below(1 << 30) < sample * (1 << 30):
            turn = s.turn
            rows.append(value.features(s, rng.below(n)))
            ids.extend([len(rows) - 1] * n)
        seat = pick_seat(s, last)
        bot = randoms[seat] if eps and rng.below(1 << 30) < eps * (1 << 30) else bots[seat]
        s.apply(bot.choose(s, seat))
        last = seat
    win = np.array([1.0 if r["win"] else 0.0 for r in sorted(s.standings(), key=lambda r: r["seat"])])
    x = np.concatenate(rows)
    y = np.tile(win, len(rows))
    return x, y, np.array(ids)


def play_freight(seed: int, g: int, sample: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One Freight game (see the module docstring)."""
    game_seed = seed * 1_000_003 + g
    name, n = FREIGHT_TABLES[g % len(FREIGHT_TABLES)]
    s = freight.new_game(freight.Config(name, n), game_seed)
    rng = Rng(game_seed ^ 0x5EED)
    bots = [FreightHeuristicBot(game_seed + k) for k in range(n)]
    rows: list[np.ndarray] = []
    ids: list[int] = []
    turn = -1
    while not s.is_over:
        if s.turn != turn or rng.below(1 << 30) < sample * (1 << 30):
            turn = s.turn
            rows.append(freight_value.features(s, rng.below(n)))
            ids.extend([len(rows) - 1] * n)
        seat = s.to_act[0]
        s.apply(bots[seat].choose(s, seat))
    win = np.array([1.0 if r["rank"] == 1 else 0.0 for r in sorted(s.standings(), key=lambda r: r["seat"])])
    return np.concatenate(rows), np.tile(win, len(rows)), np.array(ids)


def softmax_groups(margin: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Softmax of ``margin`` within each run of equal ``groups``."""
    out = np.empty_like(margin)
    bounds = np.flatnonzero(np.diff(groups)) + 1
    for a, b in zip(np.r_[0, bounds], np.r_[bounds, len(groups)], strict=True):
        e = np.exp(margin[a:b] - margin[a:b].max())
        out[a:b] = e / e.sum()
    return out


def log_loss(p: np.ndarray, y: np.ndarray, groups: np.ndarray) -> float:
    """Mean over positions of -log(probability given to the winner)."""
    won = y > 0.5
    return float(-np.log(np.clip(p[won], 1e-9, 1)).mean()) if won.any() else float("nan")


def main() -> None:
    import lightgbm as lgb

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="stars")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--noise", type=float, default=0.1, help="random-move chance in every third game")
    ap.add_argument("--sample", type=float, default=0.03, help="chance of recording a mid-turn position")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--leaves", type=int, default=31)
    ap.add_argument("--out", type=Path, default=Path("runs/stars-value"))
    ap.add_argument("--model", type=Path, help="where the model goes (default: the package's data/GAME_value.npz)")
    ap.add_argument("--data", type=Path, help="an .npz of earlier data to use instead of playing")
    a = ap.parse_args()
    module, own, scale = GAMES[a.game]
    FEATURES = module.FEATURES
    a.model = a.model or DATA / module.MODEL_FILE
    a.out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if a.data:
        z = np.load(a.data)
        x, y, gid, pid = z["x"], z["y"], z["game"], z["position"]
    else:
        jobs = [(a.game, a.seed, g, a.noise, a.sample) for g in range(a.games)]
        with Pool(a.workers) as pool:
            parts = pool.map(play, jobs, chunksize=8)
        x = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        gid = np.concatenate([np.full(len(p[1]), g) for g, p in enumerate(parts)])
        offsets = np.cumsum([0] + [int(p[2][-1]) + 1 for p in parts[:-1]])
        pid = np.concatenate([p[2] + o for p, o in zip(parts, offsets, strict=True)])
        np.savez_compressed(a.out / "data.npz", x=x, y=y, game=gid, position=pid)
    t_data = time.time() - t0
    games = int(gid.max()) + 1
    train = gid < int(games * 0.9)
    test = ~train
    params = {"objective": "binary", "learning_rate": 0.05, "num_leaves": a.leaves, "min_data_in_leaf": 200,
              "feature_fraction": 0.9, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
              "seed": a.seed, "deterministic": True, "num_threads": a.workers, "verbose": -1}
    t1 = time.time()
    ds = lgb.Dataset(x[train], y[train], feature_name=list(FEATURES), free_raw_data=False)
    booster = lgb.train(params, ds, num_boost_round=a.rounds)
    t_train = time.time() - t1
    tree = TreeModel.from_lightgbm(booster.dump_model())
    a.model.parent.mkdir(parents=True, exist_ok=True)
    tree.save(a.model)
    check = TreeModel.load(a.model)
    margin = check.margin(x[test])
    assert np.allclose(margin, booster.predict(x[test], raw_score=True)), "exported trees disagree with LightGBM"
    p_model = softmax_groups(margin, pid[test])
    p_wealth = softmax_groups(x[test, FEATURES.index(own)] / scale, pid[test])
    n_seats = np.bincount(pid[test])[pid[test]]
    summary = {
        "game": a.game, "seed": a.seed, "games": games, "positions": int(len(np.unique(pid))), "rows": int(len(y)),
        "held_out_games": int(games - int(games * 0.9)), "rounds": a.rounds, "leaves": a.leaves,
        "data_seconds": round(t_data, 1), "train_seconds": round(t_train, 1),
        "model_bytes": a.model.stat().st_size, "nodes": int(check.feature.size), "depth": check.depth,
        "held_out_log_loss": {
            "model": round(log_loss(p_model, y[test], pid[test]), 4),
            f"search_valuation_{own}_softmax_${scale:g}": round(log_loss(p_wealth, y[test], pid[test]), 4),
            "uniform": round(float(np.log(n_seats[y[test] > 0.5]).mean()), 4),
        },
        "held_out_top1_accuracy": {
            "model": _top1(p_model, y[test], pid[test]),
            f"search_valuation_{own}": _top1(p_wealth, y[test], pid[test]),
        },
        "importance_gain": dict(zip(FEATURES, [round(float(v)) for v in booster.feature_importance("gain")],
                                    strict=True)),
    }
    (a.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


def _top1(p: np.ndarray, y: np.ndarray, groups: np.ndarray) -> float:
    hits = total = 0
    bounds = np.flatnonzero(np.diff(groups)) + 1
    for a, b in zip(np.r_[0, bounds], np.r_[bounds, len(groups)], strict=True):
        total += 1
        hits += int(y[a + int(np.argmax(p[a:b]))] > 0.5)
    return round(hits / total, 4)


if __name__ == "__main__":
    main()
