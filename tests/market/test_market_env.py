"""The Gymnasium environment rolling/Market-v0."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import rolling.envs  # noqa: F401  (registers the environments)
from rolling.envs.market import N_ACTIONS, MarketEnv, action_mask, action_to_index, index_to_action, observe
from rolling.games.market import MarketState


def test_acceptance_command():
    """Issue 6 acceptance: check_env passes on gymnasium.make('rolling/Market-v0').unwrapped."""
    code = ("import gymnasium, rolling.envs; from gymnasium.utils.env_checker import check_env; "
            "check_env(gymnasium.make('rolling/Market-v0').unwrapped)")
    r = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_check_env_in_process():
    """gymnasium's env checker accepts the env."""
    check_env(MarketEnv())


def test_index_mapping_round_trip():
    """Action layout: 0 done, 1..48 buy, 49..96 sell; every index maps to an action and back."""
    assert N_ACTIONS == 97
    for i in range(N_ACTIONS):
        assert action_to_index(index_to_action(i)) == i
    assert str(index_to_action(0)) == "done"
    assert str(index_to_action(1)) == "buy A 1"
    assert str(index_to_action(48)) == "buy D 12"
    assert str(index_to_action(49)) == "sell A 1"
    assert str(index_to_action(96)) == "sell D 12"


def test_mask_matches_legal_actions():
    """info['action_mask'] marks exactly the engine's legal actions."""
    for seed in range(20):
        s = MarketState(seed)
        s.shares = [3, 0, 12, 1]
        s.cash = 25
        legal = {action_to_index(a) for a in s.legal_actions(0)}
        mask = action_mask(s)
        assert set(np.flatnonzero(mask).tolist()) == legal


def test_episode_reward_is_final_cash_and_seeding_is_deterministic():
    """Reward: the final cash at the end, 0 before; reset(seed=...) fixes the game."""
    def run(seed):
        env = gymnasium.make("rolling/Market-v0")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        rewards, observations = [], [obs]
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
            assert env.observation_space.contains(obs)
            rewards.append(r)
            observations.append(obs)
            done = term or trunc
        return rewards, observations, info

    rewards, obs, info = run(3)
    assert all(r == 0 for r in rewards[:-1])
    assert rewards[-1] == info["cash"]
    rewards2, obs2, _ = run(3)
    assert rewards == rewards2 and all((a == b).all() for a, b in zip(obs, obs2, strict=True))


def test_illegal_action_changes_nothing():
    """An action outside the mask is ignored, with reward 0 and info['illegal_action']."""
    env = MarketEnv()
    obs, info = env.reset(seed=1)
    assert (env.action_masks() == info["action_mask"].astype(bool)).all()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[-1])
    digest = env.state.digest()
    obs2, r, term, trunc, info2 = env.step(illegal)
    assert info2["illegal_action"] and r == 0 and not term
    assert env.state.digest() == digest
    assert (obs == obs2).all()


def test_observation_layout():
    """Observation: values, shares, cash, turns left, volatility, last-turns flag, trade status."""
    s = MarketState(9)
    s.shares[1] = 4
    o = observe(s)
    assert o.shape == (16,) and o.dtype == np.float32
    assert list(o[0:4]) == s.values and list(o[4:8]) == s.shares
    assert o[8] == s.cash and o[9] == s.turns_left and o[10] == s.volatility
    env = MarketEnv(render_mode="ansi")
    env.reset(seed=0)
    assert "cash $10" in env.render()
