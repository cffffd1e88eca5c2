"""The figures of docs/market-policy.md: scores of bot:value, bot:policy, bot:heuristic and bot:random, and plots.

Plays ``--games`` games of the run seed ``--seed`` with each bot exactly as ``rolling simulate market
--games N --seed S --seats bot:NAME`` does (same engine seeds, same bot seeds), then writes

- ``OUT/market-policy-scores.json``: per bot the mean, standard deviation and 95% interval of the
  mean; each learned bot's paired gain over the heuristic (and bot:value's over bot:policy) with
  its 95% interval;
- ``IMG/market-policy-scores.png``: the score distributions;
- ``IMG/market-policy-curve.png``: the learning curve from a training run's ``curve.json``.

Usage (matplotlib comes with the extras `report` and `train`)::

    nice python scripts/market_policy_report.py --curve runs/market-policy/curve.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from rolling.sim import play_one  # noqa: E402
from rolling.sim.market import game_seeds  # noqa: E402


def scores(bot: str, games: int, seed: int) -> list[int]:
    """Final cash of each game of the run, as ``rolling simulate`` plays it."""
    return [play_one("market", [bot], s, i)[0][0]["score"] for i, s in enumerate(game_seeds(seed, games))]


def interval(xs: list[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% normal interval."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def plot_scores(by_bot: dict[str, list[int]], path: Path) -> None:
    """Overlaid histograms of final cash, one per bot, with each mean marked."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    top = max(max(v) for v in by_bot.values())
    bins = range(0, top + 6, 5)
    colours = {"random": "#999999", "heuristic": "#1f77b4", "policy": "#d62728", "value": "#2ca02c"}
    for name, xs in by_bot.items():
        m = statistics.fmean(xs)
        ax.hist(xs, bins=bins, histtype="step", linewidth=1.8, color=colours.get(name),
                label=f"bot:{name}  mean ${m:.2f}")
        ax.axvline(m, color=colours.get(name), linestyle="--", linewidth=1)
    n = len(next(iter(by_bot.values())))
    ax.set_xlabel("final cash ($)")
    ax.set_ylabel(f"games (of {n:,})")
    ax.set_title(f"Rolling Market: final cash over {n:,} games (rolling simulate market --seed 0)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_curve(curve: list[dict], path: Path) -> None:
    """Mean cash of the policy's mean weights and of the heuristic on each generation's games."""
    games = [r["games"] / 1000 for r in curve]
    pol = [r["mean_policy"] for r in curve]
    heu = [r["heuristic"] for r in curve]
    gain = [p - h for p, h in zip(pol, heu, strict=True)]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    ax1.plot(games, pol, color="#d62728", marker=".", label="policy (CMA-ES mean weights)")
    ax1.plot(games, heu, color="#1f77b4", marker=".", label="heuristic (weights 0)")
    ax1.set_ylabel("mean final cash ($)")
    ax1.set_title("Learning curve: each point is one generation's fresh games (same dice for both)")
    ax1.legend()
    ax2.plot(games, gain, color="#2ca02c", marker=".", label="policy - heuristic, same games")
    k = 5
    if len(gain) >= k:
        avg = [statistics.fmean(gain[max(0, i - k + 1): i + 1]) for i in range(len(gain))]
        ax2.plot(games, avg, color="black", linewidth=1.5, label=f"running mean of {k} generations")
    ax2.axhline(0, color="grey", linewidth=0.8)
    ax2.set_xlabel("training games played (thousands)")
    ax2.set_ylabel("gain ($)")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bots", nargs="+", default=["random", "heuristic", "policy", "value"])
    ap.add_argument("--curve", type=Path, default=None, help="a training run's curve.json")
    ap.add_argument("--out", type=Path, default=Path("runs"))
    ap.add_argument("--img", type=Path, default=Path("docs/img"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    args.img.mkdir(parents=True, exist_ok=True)
    if args.curve:
        plot_curve(json.loads(args.curve.read_text()), args.img / "market-policy-curve.png")
    by_bot = {name: scores(name, args.games, args.seed) for name in args.bots}
    report: dict = {"games": args.games, "seed": args.seed, "bots": {}}
    for name, xs in by_bot.items():
        m, lo, hi = interval(xs)
        report["bots"][name] = {"mean": m, "ci95": [lo, hi], "stdev": statistics.stdev(xs),
                                "median": statistics.median(xs), "min": min(xs), "max": max(xs)}
    for a, b in (("policy", "heuristic"), ("value", "heuristic"), ("value", "policy")):
        if a not in by_bot or b not in by_bot:
            continue
        diff = [x - y for x, y in zip(by_bot[a], by_bot[b], strict=True)]
        m, lo, hi = interval(diff)
        report[f"{a}_minus_{b}"] = {
            "mean": m, "ci95": [lo, hi], f"{a}_better": sum(d > 0 for d in diff),
            "same": sum(d == 0 for d in diff), f"{b}_better": sum(d < 0 for d in diff),
        }
    (args.out / "market-policy-scores.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    plot_scores(by_bot, args.img / "market-policy-scores.png")


if __name__ == "__main__":
    main()
