"""Issue 33 item 4: the single-agent environments rolling/StarsVsBots-v0 and rolling/FreightVsBots-v0,
and the example scripts that train against bots."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import rolling.envs  # noqa: E402, F401  (registers the environments)
from rolling.bots import UnknownBot  # noqa: E402
from rolling.envs.vs_bots import learner_reward  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
IDS = {"stars": ("rolling/StarsVsBots-v0", dict(players=3)),
       "freight": ("rolling/FreightVsBots-v0", dict(map="west-coast", players=2))}


def _random_episode(env, seed: int, check=None):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = [obs]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size, "the learner was asked to act with no legal action"
        if check is not None:
            check(env, obs, info)
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        trace.append(obs)
        assert env.observation_space.contains(obs)
        if term or trunc:
            return reward, info, trace
        assert reward == 0.0


@pytest.mark.parametrize("game", ["stars", "freight"])
def test_check_env(game):
    name, kwargs = IDS[game]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(name, **kwargs).unwrapped)
        check_env(gymnasium.make(name).unwrapped)


@pytest.mark.parametrize("game", ["stars", "freight"])
def test_make_vec_builds_and_steps(game):
    name, kwargs = IDS[game]
    envs = gymnasium.make_vec(name, num_envs=2, vectorization_mode="sync", opponents="random", **kwargs)
    obs, info = envs.reset(seed=4)
    assert obs.shape == (2, envs.single_observation_space.shape[0])
    n = envs.single_action_space.n
    assert info["action_mask"].shape == (2, n)
    for _ in range(5):
        # a finished game's mask is empty: its next step resets it (Gymnasium's next-step autoreset)
        actions = np.array([int(np.flatnonzero(m)[-1]) if m.any() else 0 for m in info["action_mask"]])
        obs, reward, term, trunc, info = envs.step(actions)
        assert not info["illegal_action"].any() and obs.dtype == np.float32
    envs.close()


@pytest.mark.parametrize("game", ["stars", "freight"])
def test_action_masks_are_the_info_mask_and_the_learners_legal_moves(game):
    name, kwargs = IDS[game]
    env = gymnasium.make(name, opponents="random", **kwargs)

    def check(env, obs, info):
        u = env.unwrapped
        masks = u.action_masks()
        assert masks.dtype == bool and masks.shape == (env.action_space.n,)
        assert (masks == info["action_mask"].astype(bool)).all()
        assert (info["action_mask"] == u.table.mask(u.seat)).all()
        assert u.seat in u.table.to_act
        if game == "stars" and u.table.pending is None and u.table.deal is None:
            # the mask has a template for every kind of move the engine lists for the seat
            assert masks[: u.codec.N_TEMPLATES].any()

    for seed in range(2):
        _random_episode(env, seed, check)


def test_an_illegal_action_changes_nothing():
    env = gymnasium.make("rolling/StarsVsBots-v0", players=3)
    obs, info = env.reset(seed=2)
    before = env.unwrapped.table.state.clone()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward == 0.0 and not term
    assert (obs == obs2).all() and env.unwrapped.table.state.digest() == before.digest()
    for outside in (env.action_space.n, -1):  # outside the space: the same, never an IndexError
        obs3, reward, term, trunc, info3 = env.step(outside)
        assert info3["illegal_action"] and (obs3 == obs).all()
    assert env.unwrapped.table.state.digest() == before.digest()


@pytest.mark.parametrize("game", ["stars", "freight"])
def test_episodes_end_with_the_documented_reward_and_are_seeded(game):
    name, kwargs = IDS[game]
    for reward_kind in ("rank", "score", "margin"):
        env = gymnasium.make(name, opponents="random", reward=reward_kind, **kwargs)
        reward, info, trace = _random_episode(env, 7)
        u = env.unwrapped
        standings = u.table.state.standings()
        assert reward == learner_reward(standings, u.n, u.seat, reward_kind)
        mine = next(r for r in standings if r["seat"] == u.seat)
        if reward_kind == "rank":
            assert reward == (u.n + 1 - 2 * mine["rank"]) / (u.n - 1)
        elif reward_kind == "score":
            assert reward == mine["score"]
        else:
            assert reward == mine["score"] - max(r["score"] for r in standings if r["seat"] != u.seat)
        assert not info["action_mask"].any()
        again = _random_episode(gymnasium.make(name, opponents="random", reward=reward_kind, **kwargs), 7)
        assert again[0] == reward and all((a == b).all() for a, b in zip(trace, again[2], strict=True))


def test_opponents_and_seat_by_keyword():
    env = gymnasium.make("rolling/StarsVsBots-v0", players=4, seat=None,
                         opponents=("heuristic", "heuristic", "random")).unwrapped
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        others = [s for s in range(4) if s != env.seat]
        assert [env.bots[s].name for s in others] == ["heuristic", "heuristic", "random"]
    assert len(seats) > 1  # drawn per episode
    fixed = gymnasium.make("rolling/FreightVsBots-v0", map="southern", players=3, seat=2).unwrapped
    fixed.reset(seed=0)
    assert fixed.seat == 2 and set(fixed.bots) == {0, 1}
    with pytest.raises(ValueError, match="opponents must name 3"):
        gymnasium.make("rolling/StarsVsBots-v0", players=4, opponents=("random",) * 2)
    with pytest.raises(UnknownBot):
        gymnasium.make("rolling/StarsVsBots-v0", players=3, opponents="nobody")
    with pytest.raises(ValueError, match="seat must be"):
        gymnasium.make("rolling/FreightVsBots-v0", players=3, seat=3)
    with pytest.raises(ValueError, match="reward must be"):
        gymnasium.make("rolling/FreightVsBots-v0", reward="glory")


@pytest.mark.parametrize("script", ["train_stars_vs_bots.py", "train_freight_vs_bots.py"])
def test_example_scripts_run_with_a_tiny_budget(script):
    """The examples of docs/research.md run in CI with --tiny (a few seconds)."""
    r = subprocess.run([sys.executable, str(ROOT / "examples" / script), "--tiny"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "| uniform random |" in r.stdout and "| trained (greedy) |" in r.stdout
