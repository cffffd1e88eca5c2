"""Issue 34: the information-relaxation bound on Rolling Market's best mean (scripts/market_bound.py),
checked on tiny cases where the answer is known."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from rolling.bots.market_policy import MarketPolicyBot
from rolling.core.rng import Rng
from rolling.games.market import rules as R
from rolling.games.market.state import MarketState
from rolling.sim.market import game_seeds

pytest.importorskip("scipy")
ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("market_bound", ROOT / "scripts" / "market_bound.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MB = _script()


def position(values, shares, cash, turns_left) -> MarketState:
    """A state at the start of a buy/sell turn with the given position."""
    s = MarketState(0, roll=False)
    s.values, s.shares, s.cash = list(values), list(shares), cash
    s.turns_left, s.volatility = turns_left, R.FINAL_VOLATILITY if turns_left < R.FINAL_TURNS else 4
    s.bought, s.sold, s.n_sold = -1, 0, 0
    return s


def best_last_turn(s: MarketState) -> int:
    """The most cash the last turn can end with, by trying every legal sequence of actions."""
    best = -1
    for a in s.legal_actions(0):
        c = s.clone()
        c.apply(a)
        best = max(best, c.cash if c.over else best_last_turn(c))
    return best


def test_last_turn_bound_is_the_best_play():
    """With no roll left the relaxed program is the game itself: its optimum is the best final
    cash that any sequence of legal actions reaches (two sells, or a buy and a sell)."""
    rng = Rng(3)
    for _ in range(12):
        values = [rng.randint(1, 6) for _ in range(4)]
        shares = [rng.randint(0, 5) for _ in range(4)]
        s = position(values, shares, rng.randint(0, 12), 0)
        expected = best_last_turn(s)
        for penalty in (None, MB.penalty_tables(np.ones((12, 7, 13)))):
            assert MB.inner_bound(s, [([], R.FINAL_VOLATILITY)], penalty) == pytest.approx(expected, abs=1e-6)


def exact_two_turn_case():
    """Penultimate turn, 2 shares of A at 4, nothing else, no cash: the best play sells now ($8:
    holding is worth 7.50 in expectation), a clairvoyant holds when A's die shows 5 or 6 ($10)."""
    s = position([4, 6, 6, 6], [2, 0, 0, 0], 0, 1)
    futures = [[([], 3), ([((d, 1, 1, 1), False, 1)], 3)] for d in range(1, 7)]
    return s, futures


def test_with_the_true_value_function_the_bound_is_exact_on_every_roll():
    """Brown, Smith & Sun's zero-variance property: with the penalty built on the true value (here
    a last turn's value is the proceeds of selling everything, the position holding at most two
    companies), the penalised clairvoyant scores the optimum, $8, whatever the dice; without the
    penalty it scores at least the clairvoyant's $8, $8, $8, $8, $10, $10 (the relaxed program may
    score more: a fractional mix of buying more A and selling it can pass the cash limit)."""
    s, futures = exact_two_turn_case()
    g = np.zeros((12, 7, 13))
    for v in range(1, 7):
        for n in range(13):
            g[0, v, n] = R.sell_proceeds(v, n, R.FINAL_VOLATILITY)[0]
    penalty = MB.penalty_tables(g)
    assert MB.inner_bound(s.clone(), futures[0], penalty) == pytest.approx(8.0, abs=1e-6)
    for future in futures:
        assert MB.inner_bound(s.clone(), future, penalty) == pytest.approx(8.0, abs=1e-6)
    plain = [MB.inner_bound(s.clone(), f, None) for f in futures]
    assert all(got >= want - 1e-6 for got, want in zip(plain, [8, 8, 8, 8, 10, 10], strict=True))
    assert sum(plain) / 6 > 8.5


def test_penalty_has_mean_zero_over_a_roll():
    """Whatever the values, E[h] over a roll equals p at the position before it, for a company at
    every (value, shares) and tracker: the penalty's mean is zero, which makes the bound valid."""
    kappa = np.linspace(1.5, 1.0, 13)
    g = MB.dp_values(kappa, 3.0)
    _, p, _ = MB.penalty_tables(g, kappa)
    for t in (1, 2, 3, 7, 11):
        pc = MB.p_closed(t)
        for v in range(1, 7):
            for n in range(13):
                h = 0.0
                for d in range(1, 7):
                    v2, n2, got = MB.FLUCT[v][n][d]
                    h += kappa[t - 1] * got + pc * p[t, v2, n2] + (1 - pc) * g[t - 1, v2, n2]
                assert h / 6 == pytest.approx(p[t, v, n], abs=1e-9)


def test_without_penalty_the_bound_is_above_the_policy_on_every_game():
    """The relaxed clairvoyant (no penalty) is at least what the shipped policy makes on each game."""
    bot = MarketPolicyBot()
    for seed in game_seeds(0, 2):
        assert MB.game_bound(seed, None) >= MB.policy_cash(seed, bot) - 1e-6


def test_inner_bound_refuses_a_turn_already_traded():
    s = MarketState(5)
    s.apply(s.legal_actions(0)[0])
    with pytest.raises(ValueError, match="beginning"):
        MB.inner_bound(s, MB.game_rolls(5), None)
