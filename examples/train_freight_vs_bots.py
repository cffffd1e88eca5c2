"""Train a masked policy-gradient learner on ``rolling/FreightVsBots-v0`` and compare it with a
uniformly random policy in the same seat of the same games (docs/research.md, "Learning against
bots").

    python examples/train_freight_vs_bots.py                # a few minutes on one CPU core
    python examples/train_freight_vs_bots.py --tiny         # a smoke run of seconds (what CI runs)

Needs ``pip install 'rolling[research]'`` (Gymnasium) and numpy only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium

import rolling.envs  # noqa: F401  (registers the environments)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from masked_pg import MaskedSoftmaxPolicy, evaluate, report, train  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="west-coast", help="west-coast (2-4 players) or southern (3-5)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--opponents", default="random", help="the bot of every other seat (random, heuristic, ...)")
    ap.add_argument("--episodes", type=int, default=20000, help="at most this many training games")
    ap.add_argument("--seconds", type=float, default=180, help="at most this much training time")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tiny", action="store_true", help="a smoke run: 2 training games, 1 evaluation game")
    args = ap.parse_args(argv)
    if args.tiny:
        args.episodes, args.eval_games = 2, 1
    env = gymnasium.make("rolling/FreightVsBots-v0", map=args.map, players=args.players, seat=None, opponents=args.opponents)
    space = env.observation_space
    policy = MaskedSoftmaxPolicy(env.action_space.n, space.low, space.high, seed=args.seed)
    start = time.monotonic()
    done = train(env, policy, args.episodes, args.seconds, seed=args.seed, log_every=0 if args.tiny else 20)
    print(f"trained on {done} games in {time.monotonic() - start:.0f} s "
          f"({args.map}, {args.players} players, opponents: {args.opponents}, the learner's seat drawn per game)")
    results = evaluate(env, policy, args.eval_games, seed=10**6 + args.seed)
    print(report(results, args.eval_games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
