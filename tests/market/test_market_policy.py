"""bot:policy for Rolling Market: learned worth tables over the heuristic's plans, and the clairvoyant bound."""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import rolling.envs  # noqa: F401  (registers rolling/Market-v0)
from rolling.bots import STRONGEST, make_bot
from rolling.bots.market import WORTH, MarketHeuristicBot
from rolling.bots.market_policy import PARAM_SHAPE, MarketPolicyBot, shipped_params, worth_tables
from rolling.envs.market import action_to_index
from rolling.games.market import DONE, MarketState
from rolling.sim import simulate
from rolling.sim.market import game_seeds

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_weights_load_from_package_data():
    """The weights ship inside the package (rolling/bots/data) and are 36 finite, not all-zero numbers."""
    assert resources.files("rolling.bots.data").joinpath("market_policy.npz").is_file()
    params = shipped_params()
    assert params.shape == PARAM_SHAPE
    assert np.all(np.isfinite(params)) and np.any(params != 0)
    assert isinstance(make_bot("market", "bot:policy"), MarketPolicyBot)


def test_worth_tables_layout_and_bad_weights():
    """Row 0 (last turn) is zero, row 1 is the heuristic's WORTH; wrong sizes or NaN are refused."""
    t = worth_tables(shipped_params())
    assert t.shape == (12, 7, 13)
    assert not t[0].any()
    assert np.array_equal(t[1], np.array(WORTH))
    with pytest.raises(ValueError):
        worth_tables(np.zeros(5))
    with pytest.raises(ValueError):
        worth_tables(np.full(PARAM_SHAPE, np.nan))


def test_zero_weights_play_exactly_as_the_heuristic():
    """With every weight 0 the policy is the heuristic: the learned part is only the correction."""
    h, p = MarketHeuristicBot(), MarketPolicyBot(params=np.zeros(PARAM_SHAPE))
    for seed in game_seeds(5, 40):
        a, b = MarketState(seed), MarketState(seed)
        while not a.over:
            x, y = h.choose(a, 0), p.choose(b, 0)
            assert x == y
            a.apply(x)
            b.apply(y)


def test_policy_plays_legal_masked_actions_through_the_env():
    """Through rolling/Market-v0 every action the policy picks is allowed by info["action_mask"]."""
    env = gym.make("rolling/Market-v0")
    bot = make_bot("market", "policy")
    for seed in range(25):
        _obs, info = env.reset(seed=seed)
        done, steps = False, 0
        while not done:
            index = action_to_index(bot.choose(env.unwrapped.state, 0))
            assert info["action_mask"][index] == 1
            _obs, reward, done, _trunc, info = env.step(index)
            assert not info["illegal_action"]
            steps += 1
        assert reward == env.unwrapped.state.cash and steps <= 12 * 4
        assert bot.last_reason


def test_policy_is_deterministic():
    """Same game, same choices: the bot has no randomness, whatever its seed."""
    def run(bot_seed):
        state, bot, actions = MarketState(99), make_bot("market", "policy", bot_seed), []
        while not state.over:
            actions.append(bot.choose(state, 0))
            state.apply(actions[-1])
        return actions, state.digest()
    assert run(1) == run(2)


def test_policy_beats_random_and_heuristic_on_the_same_games():
    """400 games of one run: far above the random bot and above the heuristic (paired dice)."""
    p = simulate("market", ["policy"], 400, seed=21)
    h = simulate("market", ["heuristic"], 400, seed=21)
    r = simulate("market", ["random"], 400, seed=21)
    assert p["mean"] > r["mean"] + 20
    assert p["mean"] > h["mean"] + 2


def test_policy_is_still_a_market_bot():
    """`bot:policy` stays playable; `bot` now means bot:value, which beats it (issue 34,
    tests/market/test_market_value.py)."""
    assert STRONGEST["market"] == "value"
    assert isinstance(make_bot("market", "bot:policy"), MarketPolicyBot)


def test_clairvoyant_dice_schedule_matches_the_engine():
    """The bound's solver draws the same rolls as the engine: a do-nothing game replays exactly."""
    cv = _script("market_clairvoyant")
    for seed in game_seeds(2, 10):
        state = MarketState(seed)
        values, shares, cash = (3, 3, 3, 3), (0, 0, 0, 0), 10
        for k, (rolls, vol) in enumerate(cv.dice_schedule(seed)):
            values, shares, cash = cv.apply_rolls(values, shares, cash, rolls)
            assert (list(values), state.volatility) == (state.values, vol), (seed, k)
            state.apply(DONE)
        assert state.over


def test_clairvoyant_is_at_least_the_bots_it_keeps():
    """With foresight of the dice the search never does worse than the heuristic on the same game."""
    cv = _script("market_clairvoyant")
    for seed in game_seeds(0, 2):
        state = MarketState(seed)
        bot = MarketHeuristicBot()
        while not state.over:
            state.apply(bot.choose(state, 0))
        assert cv.clairvoyant(seed, 10, ("heuristic",)) >= state.cash
