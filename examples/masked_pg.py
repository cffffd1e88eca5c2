"""A small masked policy-gradient learner in numpy, for the examples against bots.

The policy is a softmax over the *legal* action indices only (``info["action_mask"]``), with
logits ``b[a] + W[a] . x``: a preference per action index plus a linear term in the observation
``x``, divided by its bounds (``observation_space.high``) so that every entry lies in -1..1.
Training is REINFORCE (Williams 1992) on the final reward with a running-mean baseline; only the
rows of legal actions are touched, so a step costs O(legal actions x observation size).

Nothing here needs more than numpy; with sb3-contrib installed, ``MaskablePPO`` trains on the
same environments through their ``action_masks()`` method instead.
"""

from __future__ import annotations

import time

import numpy as np


class MaskedSoftmaxPolicy:
    """Logits ``b + W x`` over the legal indices (see the module docstring).

    Args:
        n_actions: the size of the ``Discrete`` action space.
        low, high: the observation ``Box``'s bounds (float32 arrays).
        lr: step size of the preferences ``b``; the linear term ``W`` uses ``lr / 10``.
        seed: the seed of the sampling generator.
    """

    def __init__(self, n_actions: int, low: np.ndarray, high: np.ndarray, lr: float = 0.1, seed: int = 0):
        self.b = np.zeros(n_actions, dtype=np.float64)
        self.W = np.zeros((n_actions, low.size), dtype=np.float32)
        self.norm = (1.0 / np.maximum(np.maximum(np.abs(low), np.abs(high)), 1.0)).astype(np.float32)
        self.lr = lr
        self.rng = np.random.default_rng(seed)

    def _probs(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = self.b[legal] + self.W[legal] @ x
        z = z - z.max()
        p = np.exp(z)
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, tuple]:
        """A legal index for ``obs`` and its ``mask``, with what :meth:`update` needs."""
        legal = np.flatnonzero(mask)
        x = obs * self.norm
        p = self._probs(x, legal)
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(legal.size, p=p))
        return int(legal[k]), (x, legal, p, k)

    def update(self, steps: list[tuple], advantage: float) -> None:
        """One REINFORCE step: raise the log-probability of each chosen index by ``advantage``."""
        for x, legal, p, k in steps:
            g = -p
            g[k] += 1.0
            self.b[legal] += self.lr * advantage * g
            self.W[legal] += (self.lr / 10 * advantage * g)[:, None].astype(np.float32) * x[None, :]


def play(env, choose, seed: int) -> tuple[float, list]:
    """One episode with ``choose(obs, mask) -> (index, record)``; returns the final reward and
    the records of the learner's decisions."""
    obs, info = env.reset(seed=seed)
    steps = []
    while True:
        index, record = choose(obs, info["action_mask"])
        steps.append(record)
        obs, reward, terminated, truncated, info = env.step(index)
        if terminated or truncated:
            return float(reward), steps


def train(env, policy: MaskedSoftmaxPolicy, episodes: int, seconds: float, seed: int = 0,
          log_every: int = 0) -> int:
    """REINFORCE for at most ``episodes`` episodes or ``seconds``; returns the episodes played."""
    baseline, start, done = 0.0, time.monotonic(), 0
    for ep in range(episodes):
        if time.monotonic() - start > seconds:
            break
        reward, steps = play(env, lambda o, m: policy.act(o, m), seed + ep)
        policy.update(steps, reward - baseline)
        baseline += 0.05 * (reward - baseline)
        done += 1
        if log_every and done % log_every == 0:
            print(f"  episode {done}: running mean reward {baseline:+.3f} ({time.monotonic() - start:.0f} s)",
                  flush=True)
    return done


def evaluate(env, policy: MaskedSoftmaxPolicy, games: int, seed: int) -> dict[str, dict[str, float]]:
    """The trained policy (greedy and sampled) and a uniformly random legal policy in the same seat
    of the same games: ``{name: {"mean_reward", "win_rate", "stderr"}}``."""
    rng = np.random.default_rng(seed)

    def uniform(obs, mask):
        return int(rng.choice(np.flatnonzero(mask))), None

    players = {
        "trained (greedy)": lambda o, m: policy.act(o, m, greedy=True),
        "trained (sampled)": lambda o, m: policy.act(o, m),
        "uniform random": uniform,
    }
    out = {}
    for name, choose in players.items():
        rewards = np.array([play(env, choose, seed + g)[0] for g in range(games)])
        out[name] = {"mean_reward": float(rewards.mean()), "win_rate": float((rewards == 1.0).mean()),
                     "stderr": float(rewards.std(ddof=1) / np.sqrt(games)) if games > 1 else 0.0}
    return out


def report(results: dict[str, dict[str, float]], games: int) -> str:
    """A Markdown table of :func:`evaluate`'s results."""
    rows = [f"| policy (learner's seat, {games} games) | mean rank reward | win rate |", "|---|---|---|"]
    for name, r in results.items():
        rows.append(f"| {name} | {r['mean_reward']:+.3f} ± {r['stderr']:.3f} | {r['win_rate']:.0%} |")
    return "\n".join(rows)
