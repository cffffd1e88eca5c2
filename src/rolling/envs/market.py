"""Gymnasium environment for Rolling Market (``rolling/Market-v0``).

One episode is one game. The agent takes every trade decision; dice are rolled by the engine.

Observation (``Box(16,)``, float32; the layout is also in docs/market.md):

====== ============================================================ ===========
index  meaning                                                      range
====== ============================================================ ===========
0-3    share value of companies A-D                                 1..6
4-7    shares held of A-D                                           0..12
8      cash in dollars, clipped at 10000 (never reached in play)     0..10000
9      turn tracker: buy/sell turns left after this one             0..11
10     this turn's volatility (0 once the game is over)             0..5
11     1 in the last two turns (volatility 3, two sells allowed)    0..1
12-15  this turn's trade in A-D: 0 none, 1 bought, 2 sold           0..2
====== ============================================================ ===========

Action (``Discrete(97)``): 0 = done (end the turn's trading); ``1 + 12*c + (n-1)`` = buy ``n``
shares (1..12) of company ``c`` (0..3 for A..D); ``49 + 12*c + (n-1)`` = sell ``n`` shares of
``c``. ``info["action_mask"]`` (int8, shape (97,)) marks the legal ones. An illegal action
changes nothing, gives reward 0 and sets ``info["illegal_action"] = True``.

Reward: the final cash when the game ends, 0 before. Seed with ``reset(seed=...)``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, buy, sell
from rolling.games.market.state import MarketState

N_ACTIONS = 1 + 2 * R.N_COMPANIES * R.MAX_SHARES
OBS_SIZE = 16
CASH_CAP = 10_000
_BUY0 = 1
_SELL0 = 1 + R.N_COMPANIES * R.MAX_SHARES


def action_to_index(action) -> int:
    """The Discrete index of a Rolling Market action (see the module docstring)."""
    if action is DONE or action.type_name == "done":
        return 0
    base = _BUY0 if action.type_name == "buy" else _SELL0
    return base + R.MAX_SHARES * action.company + action.shares - 1


def index_to_action(index: int):
    """The Rolling Market action of a Discrete index 0..96.

    Raises:
        ValueError: index outside 0..96.
    """
    index = int(index)
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"action index must be 0..{N_ACTIONS - 1}, got {index}")
    if index == 0:
        return DONE
    if index < _SELL0:
        c, n = divmod(index - _BUY0, R.MAX_SHARES)
        return buy(c, n + 1)
    c, n = divmod(index - _SELL0, R.MAX_SHARES)
    return sell(c, n + 1)


def observe(state: MarketState) -> np.ndarray:
    """The observation vector of a state (shape (16,), float32)."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    obs[0:4] = state.values
    obs[4:8] = state.shares
    obs[8] = min(state.cash, CASH_CAP)
    obs[9] = state.turns_left
    obs[10] = state.volatility
    obs[11] = 1.0 if state.final_turn and not state.over else 0.0
    for c in range(R.N_COMPANIES):
        if state.bought == c:
            obs[12 + c] = 1
        elif state.sold >> c & 1:
            obs[12 + c] = 2
    return obs


def action_mask(state: MarketState) -> np.ndarray:
    """int8 mask of shape (97,): 1 where the action index is legal now (all 0 once over)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if state.over:
        return mask
    mask[0] = 1
    for c in range(R.N_COMPANIES):
        nb = state.max_buy(c)
        if nb:
            mask[_BUY0 + R.MAX_SHARES * c: _BUY0 + R.MAX_SHARES * c + nb] = 1
        ns = state.max_sell(c)
        if ns:
            mask[_SELL0 + R.MAX_SHARES * c: _SELL0 + R.MAX_SHARES * c + ns] = 1
    return mask


class MarketEnv(gym.Env):
    """Rolling Market as a single-agent Gymnasium environment (see the module docstring).

    Args:
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns a text summary).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, render_mode: str | None = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        high = np.array([6] * 4 + [12] * 4 + [CASH_CAP, 11, 5, 1] + [2] * 4, dtype=np.float32)
        low = np.array([1] * 4 + [0] * 12, dtype=np.float32)
        self.observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.state: MarketState | None = None

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        assert self.state is not None
        return {
            "action_mask": action_mask(self.state),
            "cash": self.state.cash,
            "illegal_action": illegal,
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new game; the game's seed is drawn from the env's ``np_random``."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state = MarketState(game_seed)
        return observe(self.state), self._info()

    def step(self, action):
        """Apply one action index; returns ``(obs, reward, terminated, truncated, info)``.

        Raises:
            RuntimeError: ``step`` before ``reset`` or after the game ended.
        """
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.state.over:
            raise RuntimeError("the game is over; call reset()")
        illegal = False
        mask = action_mask(self.state)
        index = int(action)
        if 0 <= index < N_ACTIONS and mask[index]:
            self.state.apply(index_to_action(index))
        else:
            illegal = True
        terminated = self.state.over
        reward = float(self.state.cash) if terminated else 0.0
        return observe(self.state), reward, terminated, False, self._info(illegal)

    def action_masks(self) -> np.ndarray:
        """The current action mask as bools, shape (97,) (the hook sb3-contrib's MaskablePPO calls)."""
        if self.state is None:
            return np.ones(N_ACTIONS, dtype=bool)
        return action_mask(self.state).astype(bool)

    def render(self):
        """Return a one-line text summary (render_mode ``"ansi"``), else nothing."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        s = self.state
        cos = " ".join(f"{R.COMPANIES[c]}={s.values[c]}x{s.shares[c]}" for c in range(R.N_COMPANIES))
        return f"turns left {s.turns_left} vol {s.volatility} cash ${s.cash} | {cos}\n"
