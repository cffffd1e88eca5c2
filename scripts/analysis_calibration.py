"""Fit and check the win probabilities of ``rolling analyze`` (docs/analysis.md, "Calibration").

``fit``: plays heuristic games (Stars: 2 to 6 players; Freight: 2 to 4 on the West Coast), notes at
the start of every turn each seat's expected final score by the search
bots' valuation and who won in the end, and fits per turn (round) the temperature of the softmax
that :mod:`rolling.analysis.values` turns those values into win probabilities with, by maximum
likelihood (a grid of 200 temperatures from 0.01 to 10, log-spaced). Writes
``src/rolling/analysis/data/temperatures.json``. ``fit --value learned`` fits likewise the
temperature that the learned value function divides the learned evaluation's log-probabilities by
(entries ``stars-learned``, ``freight-learned``).

``check``: on other games (other seeds, the same bots), evaluates ``--positions`` decisions per
game, drawn at random, exactly as ``rolling analyze`` does (from the decider's information set,
``--budget`` determinizations) with ``--value``: the learned value function, the heuristic one or
both on the same positions and determinizations, and compares every seat's predicted win probability before the
decision (``win_before``) with whether it won: the Brier score (mean over positions of the sum
over seats of (p - won)^2; 1/n ties: won = 1/k), the same for the uninformed guess 1/n, and a
reliability diagram (10 bins) in ``--png``.

    python scripts/analysis_calibration.py fit --games 2000
    python scripts/analysis_calibration.py check --games 1000 --positions 2 --budget 4 --png docs/img/analysis-calibration.png
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TEMPERATURES = ROOT / "src/rolling/analysis/data/temperatures.json"
GRID = np.exp(np.linspace(math.log(0.01), math.log(10.0), 200))
#: buckets with fewer samples than this take the fit of the buckets around them together
MIN_SAMPLES = 200


def new_game(game: str, seed: int):
    """Game ``seed`` of a run: its state and the heuristic bots, players cycling through the counts."""
    if game == "stars":
        from rolling.bots.stars_heuristic import StarsHeuristicBot
        from rolling.games.stars import Config
        from rolling.games.stars import new_game as ng

        n = 2 + seed % 5
        return ng(Config(players=n), seed), [StarsHeuristicBot(seed * 10 + k) for k in range(n)]
    from rolling.bots.freight import FreightHeuristicBot
    from rolling.games.freight import Config
    from rolling.games.freight import new_game as ng

    n = 2 + seed % 3
    return ng(Config(players=n), seed), [FreightHeuristicBot(seed * 10 + k) for k in range(n)]


def play(game: str, seed: int, on_state=None):
    """Play game ``seed`` to the end; ``on_state(state)`` before every action. Returns the record
    (``GameRecord``) and the final state."""
    from rolling.core.record import GameRecord
    from rolling.sim.stars import pick_seat

    s, bots = new_game(game, seed)
    config = s.config.to_json()
    record = GameRecord(game, config, seed)
    last = 0
    while not s.is_over:
        if on_state:
            on_state(s)
        seat = pick_seat(s, last) if game == "stars" else s.to_act[0]
        a = bots[seat].choose(s, seat)
        record.actions.append(a.to_json())
        s.apply(a)
        last = seat
    return record, s


def fit_samples(job):
    """One game's samples for ``fit``: ``[(bucket, values, outcome)]``; ``values``: each seat's
    expected final score (``heuristic``) or the log of its learned win probability (``learned``)."""
    game, seed, kind = job
    from rolling.analysis.values import (
        end_triggered,
        expected_scores,
        freight_bucket,
        result_value,
        stars_bucket,
    )

    bucket_of = stars_bucket if game == "stars" else freight_bucket
    rows = []
    last = [-1]

    def note(s):
        # the start of every turn: where the analysis's playouts stop (its horizon)
        if s.turn != last[0]:
            last[0] = s.turn
            if kind == "learned":
                from rolling.bots.value import evaluate

                # no variant with secret money here: every seat sees the same features
                # bucket -1: the end is triggered (one temperature for all of it)
                rows.append((-1 if end_triggered(s) else bucket_of(s),
                             [math.log(max(1e-300, p)) for p in evaluate(s, 0)]))
                return
            values = expected_scores(game, s)
            if max(values) > min(values):  # equal values say nothing of the temperature
                rows.append((bucket_of(s), values))

    _, final = play(game, seed, note)
    outcome = list(result_value(final.standings(), final.n).win)
    return [(b, v, outcome) for b, v in rows]


def nll(samples, t: float, kind: str = "heuristic") -> float:
    """Negative log-likelihood of the outcomes under the softmax at temperature ``t``."""
    from rolling.analysis.values import softmax_log, softmax_win

    total = 0.0
    for _, values, outcome in samples:
        p = softmax_log(values, t) if kind == "learned" else softmax_win(values, t)
        total -= sum(o * math.log(max(1e-12, q)) for o, q in zip(outcome, p, strict=True))
    return total


def fit(args) -> None:
    games = {}
    for game in args.game:
        jobs = [(game, args.seed + g, args.value) for g in range(args.games)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            samples = [row for rows in pool.map(fit_samples, jobs, chunksize=8) for row in rows]
        turns = [x for x in samples if x[0] >= 0]  # -1: the end triggered, fitted apart
        top = max(b for b, _, _ in turns)
        temps = []
        counts = []
        for b in range(top + 1):
            group = [x for x in turns if x[0] == b]
            reach = 0
            while len(group) < MIN_SAMPLES and reach <= top:  # a sparse bucket borrows its neighbours'
                reach += 1
                group += [x for x in turns if abs(x[0] - b) == reach]
            best = min(GRID, key=lambda t: nll(group, t, args.value))
            temps.append(round(float(best), 4))
            counts.append(sum(1 for x in turns if x[0] == b))
        entry = {"temperature": temps, "samples": counts}
        if args.value == "learned":
            ends = [x for x in samples if x[0] == -1]
            entry["end"] = round(float(min(GRID, key=lambda t: nll(ends, t, args.value))), 4)
            entry["end_samples"] = len(ends)
            print(game, "temperature once the end is triggered:", entry["end"], file=sys.stderr)
        games[game if args.value == "heuristic" else f"{game}-learned"] = entry
        print(game, "temperatures by bucket:", temps, file=sys.stderr)
    data = json.loads(TEMPERATURES.read_text()) if TEMPERATURES.exists() else {"games": {}}
    made_by = ("scripts/analysis_calibration.py fit " + " ".join(sys.argv[2:])).strip()
    if args.value == "learned":  # each fit names its own command; the heuristic's is the file's
        for entry in games.values():
            entry["made_by"] = made_by
    else:
        data["made_by"] = made_by
    data["games"].update(games)
    TEMPERATURES.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {TEMPERATURES}")


def check_positions(job):
    """``check``'s samples of one game: ``{value name: [(win_before per seat, outcome per seat,
    share of the game played)]}``; every value function sees the same positions and the same
    determinizations (the same generator seed per position)."""
    game, seed, positions, budget, names = job
    from rolling.analysis.evaluation import evaluate_position
    from rolling.analysis.games import Kit
    from rolling.analysis.values import result_value
    from rolling.bots.ismcts import parse_budget
    from rolling.core.record import replay_steps
    from rolling.core.rng import Rng
    record, final = play(game, seed)
    outcome = list(result_value(final.standings(), final.n).win)
    pick = Rng(seed * 31 + 7)
    chosen = sorted({pick.below(len(record.actions)) for _ in range(positions)})
    kit = Kit(game)
    values = {name: kit.default_value(name) for name in names}
    out = {name: [] for name in names}
    for i, s in enumerate(replay_steps(record, upto=chosen[-1] + 1)):
        kit.observe(s)
        if i in chosen:
            data = record.actions[i]
            seat = data.get("seat", s.to_act[0])
            for name in names:
                v = evaluate_position(kit.searcher(seat, seed), kit.hidden(s, seat), seat, parse_budget(budget),
                                      Rng(seed + i), values[name])
                out[name].append((list(v.win), outcome, i / len(record.actions)))
    return out


def calibration(rows) -> dict:
    """Brier score, the uniform guess's, and the reliability bins (tenths) of ``rows``."""
    p = np.array([q for pred, _, _ in rows for q in pred])
    y = np.array([o for _, out, _ in rows for o in out])
    brier = float(np.mean([sum((a - b) ** 2 for a, b in zip(pred, out, strict=True)) for pred, out, _ in rows]))
    base = float(np.mean([sum((1 / len(out) - b) ** 2 for b in out) for _, out, _ in rows]))
    bins = np.minimum((p * 10).astype(int), 9)
    found = []
    for b in range(10):
        m = bins == b
        if m.sum():
            found.append({"predicted": round(float(p[m].mean()), 3), "observed": round(float(y[m].mean()), 3),
                          "n": int(m.sum())})
    return {"positions": len(rows), "probabilities": int(len(p)), "brier": round(brier, 4),
            "brier_uniform": round(base, 4), "bins": found}


def check(args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["learned", "heuristic"] if args.value == "both" else [args.value]
    fig, axes = plt.subplots(1, len(args.game), figsize=(5.2 * len(args.game), 5), squeeze=False)
    report = {}
    for ax, game in zip(axes[0], args.game, strict=True):
        jobs = [(game, args.seed + g, args.positions, args.budget, names) for g in range(args.games)]
        t0 = time.time()
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(check_positions, jobs, chunksize=1)
        report[game] = {"games": args.games, "budget": args.budget, "seconds": round(time.time() - t0, 1)}
        ax.plot([0, 1], [0, 1], color="#999", linestyle="--", label="perfect calibration")
        title = []
        for name in names:
            rows = [row for part in parts for row in part[name]]
            r = calibration(rows)
            report[game][name] = r
            xs = [b["predicted"] for b in r["bins"]]
            ys = [b["observed"] for b in r["bins"]]
            ax.plot(xs, ys, marker="o", label=f"{name} value (Brier {r['brier']:.3f})")
            for b in r["bins"]:
                ax.annotate(str(b["n"]), (b["predicted"], b["observed"]), textcoords="offset points",
                            xytext=(4, -12), fontsize=7, color="#555")
            title.append(f"{name} {r['brier']:.3f}")
        positions = report[game][names[0]]["positions"]
        ax.set_title(f"{game}: {positions} positions of {args.games} games\n"
                     f"Brier {', '.join(title)} (uniform guess {report[game][names[0]]['brier_uniform']:.3f})",
                     fontsize=9)
        ax.set_xlabel("predicted win probability (bin mean)")
        ax.set_ylabel("observed win frequency")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(loc="upper left", fontsize=8)
        print(game, json.dumps(report[game]), file=sys.stderr)
    fig.tight_layout()
    Path(args.png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.png, dpi=110)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.png}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("fit", "check"):
        p = sub.add_parser(name)
        p.add_argument("--game", action="append", choices=("stars", "freight"))
        p.add_argument("--games", type=int, default=1000)
        p.add_argument("--seed", type=int, default=1 if name == "fit" else 1_000_000)
        p.add_argument("--workers", type=int, default=os.cpu_count())
        if name == "fit":
            p.add_argument("--value", choices=("heuristic", "learned"), default="heuristic",
                           help="fit the heuristic valuation's softmax, or the learned evaluation's "
                                "temperature (its log-probabilities divided by T)")
        if name == "check":
            p.add_argument("--positions", type=int, default=2)
            p.add_argument("--budget", default="4")
            p.add_argument("--png", default=str(ROOT / "docs/img/analysis-calibration.png"))
            p.add_argument("--json", default=None)
            p.add_argument("--value", choices=("learned", "heuristic", "both"), default="both",
                           help="the value function(s) checked; both: on the same positions and determinizations")
    args = ap.parse_args()
    args.game = args.game or ["stars", "freight"]
    fit(args) if args.cmd == "fit" else check(args)


if __name__ == "__main__":
    main()
