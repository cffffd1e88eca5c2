"""The distribution of the bots' final scores in Rolling Market, shipped with the package so that a
player's final cash can be placed against it (the browser's end-of-game chart).

The shipped file ``market_scores.json`` (next to this module) holds, per bot, the scores of the
same games that ``rolling simulate market --seats BOT --games 10000 --seed 0`` plays (the same
SplitMix64 stream of game seeds, the same bot seeds, so its mean, median, p5 and p95 are the ones
that command prints). Make it again with::

    python -m rolling.sim.market_scores            # 10,000 games of each bot, seed 0
    python -m rolling.sim.market_scores --games 2000 --seed 3 --out /tmp/scores.json

Units: scores are the final cash in whole $; percentiles in % of the games.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

#: the shipped distribution
DATA_FILE = Path(__file__).with_name("market_scores.json")
#: what the shipped file holds: the registry names of the bots, games per bot, the run's seed
BOTS = ("value", "policy", "heuristic", "random")
GAMES = 10_000
SEED = 0


def scores(bot: str, games: int, seed: int) -> list[int]:
    """The final scores ($) of ``games`` games of ``bot`` in the order ``rolling simulate market``
    plays them with ``--seed seed``.

    Raises:
        ValueError: an unknown bot, or fewer than one game.
    """
    from rolling.sim import check_seats, play_one, runner

    if games < 1:
        raise ValueError(f"at least one game is needed, not {games}")
    labels = check_seats("market", [bot])
    run = runner("market")
    return [play_one("market", labels, game_seed, i)[0][0]["score"]
            for i, game_seed in enumerate(run.game_seeds(seed, games))]


def distribution(values: Sequence[int]) -> dict[str, Any]:
    """The summary and the histogram of a list of scores.

    Returns:
        ``{"games", "mean", "median", "p5", "p95"`` (as :func:`rolling.sim.summarize` rounds them),
        ``"p25", "p75", "min", "max", "histogram": [[score $, games], ...]}`` (ascending scores,
        only those that occur).
    """
    import numpy as np

    from rolling.sim import summarize

    a = np.asarray(values, dtype=float)
    out: dict[str, Any] = {"games": len(values), **summarize(values)}
    out.update({"p25": round(float(np.percentile(a, 25)), 3), "p75": round(float(np.percentile(a, 75)), 3),
                "min": int(a.min()), "max": int(a.max())})
    out["histogram"] = [[int(s), n] for s, n in sorted(Counter(int(v) for v in values).items())]
    return out


def build(games: int = GAMES, seed: int = SEED, bots: Sequence[str] = BOTS) -> dict[str, Any]:
    """``{"game": "market", "games", "seed", "command", "bots": {name: distribution}}`` for ``bots``.

    Raises:
        ValueError: an unknown bot, or fewer than one game.
    """
    return {
        "game": "market",
        "games": games,
        "seed": seed,
        "command": f"python -m rolling.sim.market_scores --games {games} --seed {seed}",
        "bots": {bot: distribution(scores(bot, games, seed)) for bot in bots},
    }


@cache
def load() -> dict[str, Any]:
    """The shipped distribution (read once)."""
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def standing(score: int, dist: dict[str, Any]) -> dict[str, Any]:
    """Where ``score`` ($) stands among the games of one bot's ``dist`` (:func:`distribution`).

    Returns:
        ``{"below", "equal", "above"}`` (games scoring less, the same, more) and ``"percentile"``:
        the % of games scoring less plus half of those scoring the same (the mid-rank percentile,
        so the median score stands at about 50), rounded to one decimal.
    """
    below = equal = 0
    for s, n in dist["histogram"]:
        if s < score:
            below += n
        elif s == score:
            equal += n
    total = dist["games"]
    return {"below": below, "equal": equal, "above": total - below - equal,
            "percentile": round(100.0 * (below + equal / 2) / total, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    """Write the distribution file (by default the shipped one)."""
    p = argparse.ArgumentParser(prog="python -m rolling.sim.market_scores",
                                description="The bots' final scores in Rolling Market, for the browser's end-of-game chart.")
    p.add_argument("--games", type=int, default=GAMES, help=f"games per bot (default {GAMES})")
    p.add_argument("--seed", type=int, default=SEED, help=f"seed of the run, as rolling simulate --seed (default {SEED})")
    p.add_argument("--out", type=Path, default=DATA_FILE, help="where to write it (default: the package's file)")
    args = p.parse_args(argv)
    try:
        data = build(args.games, args.seed)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    for bot, d in data["bots"].items():
        print(f"{bot}: {d['games']} games, mean ${d['mean']}, median ${d['median']}, p5 ${d['p5']}, p95 ${d['p95']}")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
