"""Baseline: plain MaskablePPO (sb3-contrib) on ``rolling/Market-v0``, for comparison with bot:policy.

Not what ships: docs/market-policy.md reports what this reaches in the same kind of time budget.
Needs ``torch`` (a CPU build) and ``sb3-contrib``, which are not dependencies of rolling, and Gymnasium
(``pip install 'rolling[research]'``).

The env is used as it is (Discrete(97), ``action_masks()``); the observation is only rescaled to
about 0..1 and the reward (final cash) divided by 100, as PPO's defaults expect small numbers.

Usage::

    nice python scripts/train_market_ppo.py --minutes 10 --out runs/market-ppo
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import rolling.envs  # noqa: F401  (registers rolling/Market-v0)
from rolling.sim.market import game_seeds

SCALE = np.array([6] * 4 + [12] * 4 + [200, 11, 5, 1] + [2] * 4, dtype=np.float32)


class Scaled(gym.Wrapper):
    """Observation / SCALE, reward / 100; passes ``action_masks`` through."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = gym.spaces.Box(0.0, 50.0, shape=(16,), dtype=np.float32)

    def reset(self, **kw):
        obs, info = self.env.reset(**kw)
        return obs / SCALE, info

    def step(self, action):
        obs, r, term, trunc, info = self.env.step(action)
        return obs / SCALE, r / 100.0, term, trunc, info

    def action_masks(self):
        return self.env.unwrapped.action_masks()


def evaluate(model, games: int, seed: int) -> list[float]:
    """Final cash of deterministic masked play on ``games`` env seeds from the run seed ``seed``."""
    env = Scaled(gym.make("rolling/Market-v0"))
    out = []
    for s in game_seeds(seed, games):
        obs, _ = env.reset(seed=s % 2**32)
        done = False
        while not done:
            action, _ = model.predict(obs, deterministic=True, action_masks=env.action_masks())
            obs, _r, done, _t, _i = env.step(int(action))
        out.append(env.unwrapped.state.cash)
    return out


def main() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=Path("runs/market-ppo"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    class WallClock(BaseCallback):
        def __init__(self):
            super().__init__()
            self.start = time.time()

        def _on_step(self) -> bool:
            return time.time() - self.start < args.minutes * 60

    env = Scaled(gym.make("rolling/Market-v0"))
    env.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, gamma=1.0,
                        ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    start = time.time()
    model.learn(total_timesteps=10**9, callback=WallClock())
    wall = time.time() - start
    scores = evaluate(model, 1000, 0)
    row = {"steps": model.num_timesteps, "wall_s": round(wall, 1), "eval_games": 1000, "eval_seed": 0,
           "mean": statistics.fmean(scores), "stdev": statistics.stdev(scores)}
    (args.out / "result.json").write_text(json.dumps(row, indent=1))
    print(json.dumps(row))


if __name__ == "__main__":
    main()
