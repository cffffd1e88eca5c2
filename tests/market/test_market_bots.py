"""Rolling Market bots and batch simulation."""

from __future__ import annotations

import pytest

from rolling.bots import UnknownBot, make_bot
from rolling.bots.market import WORTH, MarketHeuristicBot, MarketRandomBot
from rolling.games.market import MarketState
from rolling.sim import play_game, simulate, summarize
from rolling.sim.market import bot_seed, game_seeds


def play(name: str, seed: int) -> MarketState:
    """One game of bot ``name`` dealt with ``seed``, as ``rolling simulate market`` plays it."""
    state = MarketState(seed)
    play_game(state, [make_bot("market", name, bot_seed(seed, 0, 0))])
    return state


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bots_only_play_legal_actions(name):
    """Bots choose among the engine's legal actions and finish every game."""
    for seed in range(30):
        s = MarketState(seed)
        bot = make_bot("market", name, seed)
        while not s.is_over:
            a = bot.choose(s, 0)
            assert a in s.legal_actions(0)
            s.apply(a)


def test_heuristic_beats_random():
    """The heuristic's mean final cash beats the random bot's on the same games."""
    h = simulate("market", ["heuristic"], 300, seed=11)
    r = simulate("market", ["random"], 300, seed=11)
    assert h["mean"] > r["mean"] + 20


def test_heuristic_sells_out_over_the_last_two_turns():
    """Phase Two (last two turns): the heuristic ends nearly all games holding nothing.

    It may keep a small third holding into the last turn, which can sell only two companies,
    when that is worth it; it never strands more than one company.
    """
    left = 0
    for seed in game_seeds(3, 200):
        state = play("heuristic", seed)
        assert sum(1 for n in state.shares if n) <= 1
        left += sum(state.shares) > 0
    assert left <= 10


def test_heuristic_worth_charges_the_overflow_fee():
    """Phase One (split): holding 12 at an even value is worth less per share than 6 (overflow risk)."""
    for v in (2, 4, 6):
        assert WORTH[v][12] / 12 < WORTH[v][6] / 6


def test_bots_are_deterministic_per_seed():
    """A bot with its own seed makes the same choices again (its Rng, never the game's)."""
    assert play("random", 42).digest() == play("random", 42).digest()
    assert isinstance(make_bot("market", "random"), MarketRandomBot)
    assert isinstance(make_bot("market", "heuristic"), MarketHeuristicBot)
    with pytest.raises(UnknownBot):
        make_bot("market", "nope")


def test_summarize_shape():
    """simulate reports the mean, median, p5 and p95 of the final cash, at the top for solitaire."""
    assert summarize([0, 10, 20, 30, 40]) == {"mean": 20.0, "median": 20.0, "p5": 2.0, "p95": 38.0}
    ticks = []
    res = simulate("market", "bot:random", 50, seed=1, progress=ticks.append)
    assert sum(ticks) == 50
    assert set(res) >= {"games", "mean", "median", "p5", "p95"}
    assert res["p5"] <= res["median"] <= res["p95"]
    assert res["seats"][0]["mean_score"] == res["mean"] and res["seats"][0]["bot"] == "random"


def test_simulate_market_is_solitaire():
    """Rolling Market has one seat: two bots are refused with the reason."""
    with pytest.raises(ValueError, match="solitaire"):
        simulate("market", "bot,bot", 1)
