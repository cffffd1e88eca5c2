"""``bot:policy`` for Rolling Market: the heuristic's plans, valued by a learned worth table.

The bot enumerates the same plans for the rest of a turn as :class:`~rolling.bots.market.MarketHeuristicBot`
(see :func:`~rolling.bots.market.best_plan`) but values the holdings a plan leaves with a table that
depends on the turns left. The heuristic's table :data:`~rolling.bots.market.WORTH` prices a holding
after one more roll; with more turns to go a holding is worth more or less than that (more rolls,
more splits, more chances to sell high), so for ``turns_left`` 2..11 the policy adds a learned
correction per share value ``v`` (1..6) and share count ``s`` (0..12)::

    table[t][v][s] = WORTH[v][s] + a[b, v] * s + q[b, v] * s**2 / 12     with b = bucket of t

``a`` and ``q`` are the learned weights (``params[b, v-1] = (a, q)``, dollars per share), fitted by
CMA-ES on the final cash of self-played games (``scripts/train_market_policy.py``,
docs/market-policy.md). With all weights 0 the policy is exactly the heuristic. In the last two
turns the heuristic's valuation is kept (penultimate: one roll then two sells; last: holdings are
worth nothing).

Inference is numpy and table look-ups; the weights ship as package data
(``rolling/bots/data/market_policy.npz``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rolling.core.action import Action
from rolling.games.market import rules as R
from rolling.games.market.state import MarketState

from .data import open_shipped
from .market import WORTH, best_plan, plan_reason

#: turns_left (0..11) -> index of the weight bucket, or -1 where the heuristic's valuation is used
BUCKET_OF_TURNS_LEFT = (-1, -1, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2)
N_BUCKETS = 3
#: the shape of the learned weights: bucket x share value 1..6 x (linear, quadratic) term
PARAM_SHAPE = (N_BUCKETS, R.MAX_VALUE, 2)
WEIGHTS_FILE = "market_policy.npz"


def worth_tables(params: np.ndarray) -> np.ndarray:
    """The worth tables of a weight vector, one per ``turns_left``.

    Args:
        params: weights, any shape with ``prod(PARAM_SHAPE)`` (36) elements, dollars per share.

    Returns:
        float64 array of shape (12, 7, 13): ``[turns_left][value][shares]`` in dollars; row 0 is all
        zeros (the last turn), row 1 is :data:`WORTH`.

    Raises:
        ValueError: ``params`` has the wrong number of elements or is not finite.
    """
    p = np.asarray(params, dtype=np.float64)
    if p.size != int(np.prod(PARAM_SHAPE)) or not np.all(np.isfinite(p)):
        raise ValueError(f"policy weights must be {int(np.prod(PARAM_SHAPE))} finite numbers, got shape {p.shape}")
    p = p.reshape(PARAM_SHAPE)
    base = np.array(WORTH, dtype=np.float64)  # (7, 13)
    s = np.arange(R.MAX_SHARES + 1, dtype=np.float64)
    tables = np.zeros((R.BUY_SELL_TURNS, R.MAX_VALUE + 1, R.MAX_SHARES + 1))
    for t, b in enumerate(BUCKET_OF_TURNS_LEFT):
        if t == 0:
            continue
        tables[t] = base
        if b >= 0:
            a, q = p[b, :, 0], p[b, :, 1]
            tables[t, 1:] += a[:, None] * s[None, :] + q[:, None] * (s * s / R.MAX_SHARES)[None, :]
    return tables


@lru_cache(maxsize=1)
def shipped_params() -> np.ndarray:
    """The weights shipped with the package (shape ``PARAM_SHAPE``), read once.

    Raises:
        FileNotFoundError: the package was installed without its data file.
    """
    with open_shipped(WEIGHTS_FILE) as f:
        with np.load(f) as data:
            return np.array(data["params"], dtype=np.float64).reshape(PARAM_SHAPE)


class MarketPolicyBot:
    """Plays the best plan of the turn under the learned worth tables (deterministic).

    Args:
        seed: accepted like every bot's; the policy draws no random numbers.
        params: weights to play with instead of the shipped ones (training and tests).
    """

    name = "policy"
    last_reason: str | None = None

    def __init__(self, seed: int = 0, params: np.ndarray | None = None):
        tables = worth_tables(shipped_params() if params is None else params)
        # nested tuples: a Python look-up is several times faster than indexing a numpy array
        self.tables = tuple(tuple(tuple(row) for row in t) for t in tables.tolist())

    def choose(self, state: MarketState, seat: int) -> Action:
        """Return the first action of the best plan for the rest of this turn."""
        best_value, best_action, pat = best_plan(state, self.tables[state.turns_left])
        self.last_reason = plan_reason(best_value, best_action, pat)
        return best_action
