"""A learned evaluation of Rolling Stock Stars positions: each seat's chance to win (issue 34).

:func:`evaluate` answers *position + seat -> each seat's win probability*, from what that seat may
see (for a Rolling Freight position it answers with :mod:`rolling.bots.freight_value`). It is what the search bot's learned variant (``search:0.2s:value``, :mod:`.stars_search`)
scores the end of its playouts with, and what an analysis of a game can show move by move.

**What it reads** (:func:`features`): one row of :data:`FEATURES` per seat, all of it public
(Glossary, Entity: "All assets are open for inspection by any Player at any time"): the turn, the
phase, the Deck's size and colours (never which companies it holds nor their order), the cost of
ownership, and per seat its cash, its private companies, its shares, its presidencies, its place in
player order (ties are broken by it) and its wealth by the heuristic bot's valuation
(:func:`rolling.bots.stars_search.wealth`: cash, private companies with the income they will still
earn, shares at the price their stars will justify). With the variant *secret private money* (002,
3.2) a seat whose cash the viewer may not see (:func:`rolling.games.stars.view.cash_audience`)
enters with the viewer's own cash in its place, so the answer never depends on a hidden number.

**The model**: gradient-boosted trees (LightGBM, binary objective: "this seat finishes first"),
trained by ``scripts/train_value.py`` on positions of simulated games labelled with who won, and
shipped as plain arrays (``data/stars_value.npz``) that this module walks with numpy: playing needs
neither LightGBM nor anything beyond the base install. The per-seat scores are turned into
probabilities by a softmax over the seats (the margin of a binary model is a log-odds; exactly one
seat wins). Training set, sizes, seed and held-out log loss: docs/strength.md.

Finished games need no model: the winner (the standings' ``win``) has probability 1.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from rolling.games.stars import data as D
from rolling.games.stars.events import sees
from rolling.games.stars.state import MAXP, StarsState
from rolling.games.stars.view import cash_audience

from .data import open_shipped
from .stars_heuristic import StarsHeuristicBot, private_value, schedule, share_value

#: the shipped model (package data)
MODEL_FILE = "stars_value.npz"

#: one row per seat: the columns :func:`features` fills, in order
FEATURES: tuple[str, ...] = (
    "players",          # number of seats
    "turn",             # turn number (1..)
    "phase",            # phase 1-9
    "deck",             # companies left in the Deck
    "offering",         # companies in the offering
    "end_flipped",      # the game end card is flipped (one turn left)
    "cost",             # cost of ownership now ($)
    "income_phases",    # income phases left by the heuristic's forecast
    "position",         # place in player order, 0 first (ties go to the earlier)
    "cash",             # the seat's cash ($)
    "worth",            # score if the game ended now ($)
    "wealth",           # expected final wealth by the heuristic's valuation ($)
    "privates",         # private companies held
    "private_value",    # their value by the heuristic ($)
    "private_income",   # their income after cost of ownership this turn ($)
    "shares_value",     # the seat's shares at the heuristic's expected price ($)
    "presidencies",     # corporations the seat presides
    "wealth_margin",    # wealth minus the best other seat's ($)
    "worth_margin",     # worth minus the best other seat's ($)
    "wealth_rank",      # 0 for the richest by wealth, ties by player order
    "wealth_share",     # wealth / mean wealth of all seats
    "cash_margin",      # cash minus the best other seat's ($)
)
N_FEATURES = len(FEATURES)
_RATE = StarsHeuristicBot.RATE_PER_PLAYER


def features(s: StarsState, seat: int) -> np.ndarray:
    """The model's input as ``seat`` sees ``s``: float64 array of shape ``(s.n, N_FEATURES)``, row
    ``p`` describing seat ``p`` (columns: :data:`FEATURES`). Reads nothing hidden from ``seat``
    (the module docstring): not the Deck's companies or order, not a secret cash."""
    n = s.n
    sched = schedule(s, max(1.0, _RATE * n))
    visible = [sees(cash_audience(s, p), seat) for p in range(n)]
    cash = [float(s.cash[p] if visible[p] else s.cash[seat]) for p in range(n)]
    owner = s.company_owner
    privates = [0] * n
    pvalue = [0.0] * n
    pincome = [0] * n
    face = [0] * n
    for i in range(D.N_COMPANIES):
        o = owner[i]
        if 0 <= o < n:
            privates[o] += 1
            pvalue[o] += private_value(i, sched)
            pincome[o] += D.INCOME[i] - s.company_cost(i)
            face[o] += D.FACE[i]
    svalue = [0.0] * n
    sprice = [0.0] * n
    pres = [0] * n
    for c in range(D.N_CORPS):
        if not s.corp_active[c]:
            continue
        if 0 <= s.president[c] < n:
            pres[s.president[c]] += 1
        if s.corp_issued[c] <= 0:
            continue
        value = None
        price = s.share_price(c)
        base = c * MAXP
        for p in range(n):
            k = s.held[base + p]
            if k:
                if value is None:
                    value = share_value(s, c, sched)
                svalue[p] += k * value
                sprice[p] += k * price
    worth = [cash[p] + face[p] + sprice[p] for p in range(n)]
    wealth = [cash[p] + pvalue[p] + svalue[p] for p in range(n)]
    position = [0] * n
    for k, p in enumerate(s.order):
        position[p] = k
    cost, _ = s.cost_of_ownership()
    common = (n, s.turn, s.phase, len(s.deck), len(s.offering), int(s.end_flipped), cost, len(sched))
    mean_wealth = sum(wealth) / n
    ranked = sorted(range(n), key=lambda p: (-wealth[p], position[p]))
    rank = [0] * n
    for k, p in enumerate(ranked):
        rank[p] = k
    out = np.empty((n, N_FEATURES))
    for p in range(n):
        others = [q for q in range(n) if q != p]
        out[p] = (
            *common, position[p], cash[p], worth[p], wealth[p], privates[p], pvalue[p], pincome[p],
            svalue[p], pres[p],
            wealth[p] - max(wealth[q] for q in others),
            worth[p] - max(worth[q] for q in others),
            rank[p],
            wealth[p] / mean_wealth if mean_wealth > 0 else 1.0,
            cash[p] - max(cash[q] for q in others),
        )
    return out


class TreeModel:
    """A boosted tree ensemble as flat arrays, evaluated with numpy (no LightGBM needed).

    Every node of every tree is one entry of ``feature`` (int, -1 for a leaf), ``threshold``
    (go left when ``x[feature] <= threshold``), ``left``, ``right`` (global node indices; a leaf
    points to itself) and ``value`` (a leaf's output, 0 elsewhere); ``roots`` holds each tree's
    root and ``depth`` the deepest path, so ``depth`` steps take every row to a leaf.
    """

    def __init__(self, feature, threshold, left, right, value, roots, depth: int, base: float = 0.0,
                 names: tuple[str, ...] = FEATURES) -> None:
        self.feature = np.asarray(feature, dtype=np.int64)
        self.threshold = np.asarray(threshold, dtype=np.float64)
        self.left = np.asarray(left, dtype=np.int64)
        self.right = np.asarray(right, dtype=np.int64)
        self.value = np.asarray(value, dtype=np.float64)
        self.roots = np.asarray(roots, dtype=np.int64)
        self.depth = int(depth)
        self.base = float(base)
        self.names = tuple(names)
        # a leaf compares column 0 with +inf: always left, to itself
        self._col = np.where(self.feature < 0, 0, self.feature)
        self._thr = np.where(self.feature < 0, np.inf, self.threshold)

    def margin(self, x: np.ndarray) -> np.ndarray:
        """The ensemble's raw output (log-odds) for each row of ``x`` (shape ``(rows, features)``)."""
        x = np.asarray(x, dtype=np.float64)
        rows = np.arange(x.shape[0])[:, None]
        node = np.broadcast_to(self.roots, (x.shape[0], self.roots.size)).copy()
        for _ in range(self.depth):
            go_left = x[rows, self._col[node]] <= self._thr[node]
            node = np.where(go_left, self.left[node], self.right[node])
        return self.value[node].sum(axis=1) + self.base

    @classmethod
    def from_lightgbm(cls, dump: dict) -> TreeModel:
        """From ``lightgbm.Booster.dump_model()`` (numerical splits ``<=`` only, no missing values).

        Raises:
            ValueError: a split this evaluator cannot follow (categorical, or missing values routed
                by a rule other than ``x <= threshold``).
        """
        feature: list[int] = []
        threshold: list[float] = []
        left: list[int] = []
        right: list[int] = []
        value: list[float] = []
        roots: list[int] = []
        depth = 0

        def add(node: dict, d: int) -> int:
            nonlocal depth
            k = len(feature)
            feature.append(-1)
            threshold.append(0.0)
            left.append(k)
            right.append(k)
            value.append(0.0)
            if "leaf_value" in node:
                value[k] = float(node["leaf_value"])
                depth = max(depth, d)
                return k
            if node.get("decision_type") != "<=" or node.get("missing_type") not in (None, "None"):
                raise ValueError(f"unsupported split {node.get('decision_type')} / {node.get('missing_type')}")
            feature[k] = int(node["split_feature"])
            threshold[k] = float(node["threshold"])
            left[k] = add(node["left_child"], d + 1)
            right[k] = add(node["right_child"], d + 1)
            return k

        for tree in dump["tree_info"]:
            roots.append(add(tree["tree_structure"], 0))
        return cls(feature, threshold, left, right, value, roots, depth, 0.0, tuple(dump["feature_names"]))

    def save(self, path) -> None:
        """Write the arrays to ``path`` (``.npz``, compressed)."""
        np.savez_compressed(path, feature=self.feature.astype(np.int16), threshold=self.threshold,
                            left=self.left.astype(np.int32), right=self.right.astype(np.int32),
                            value=self.value, roots=self.roots.astype(np.int32),
                            depth=np.int64(self.depth), base=np.float64(self.base), names=np.array(self.names))

    @classmethod
    def load(cls, source) -> TreeModel:
        """Read what :meth:`save` wrote (a path or a binary file)."""
        with np.load(source, allow_pickle=False) as z:
            return cls(z["feature"], z["threshold"], z["left"], z["right"], z["value"], z["roots"],
                       int(z["depth"]), float(z["base"]), tuple(str(v) for v in z["names"]))


@lru_cache(maxsize=1)
def model() -> TreeModel:
    """The shipped model (loaded once; ``data/stars_value.npz``).

    Raises:
        ValueError: the file's feature names differ from :data:`FEATURES` (a model trained for
            another version of :func:`features`).
    """
    with open_shipped(MODEL_FILE) as f:
        m = TreeModel.load(f)
    if m.names != FEATURES:
        raise ValueError(f"{MODEL_FILE} was trained on other features: {m.names}")
    return m


def softmax(margins) -> tuple[float, ...]:
    """``exp(m_p) / sum exp(m_q)``: per-seat log-odds to probabilities summing to 1."""
    top = max(margins)
    e = [math.exp(m - top) for m in margins]
    total = sum(e)
    return tuple(x / total for x in e)


def evaluate(s, seat: int) -> tuple[float, ...]:
    """Each seat's probability of winning ``s`` as ``seat`` sees it: a tuple of ``s.n`` floats in
    [0, 1] summing to 1, index = seat. Once the game is over, 1 for the winner (in the two-handed
    variant each winning hand has 1/2), 0 for the others. Nothing hidden from ``seat`` changes it
    (the module docstring). The model was trained on games without the two-handed variant; there
    it rates the four hands as players.

    One function for both games with a learned evaluation: a Rolling Freight state goes to
    :func:`rolling.bots.freight_value.evaluate`.

    Raises:
        ValueError: ``seat`` is not a seat of the game.
        TypeError: ``s`` is neither a Rolling Stock Stars nor a Rolling Freight state.
    """
    if not isinstance(s, StarsState):
        from rolling.games.freight import FreightState

        if isinstance(s, FreightState):
            from .freight_value import evaluate as freight_evaluate

            return freight_evaluate(s, seat)
        raise TypeError(f"no learned evaluation for {type(s).__name__}")
    if not 0 <= seat < s.n:
        raise ValueError(f"seat {seat} is not in this {s.n}-player game")
    if s.over:
        wins = [0.0] * s.n
        rows = [r for r in s.standings() if r["win"]]
        for r in rows:
            wins[r["seat"]] = 1.0 / len(rows)
        return tuple(wins)
    return softmax(model().margin(features(s, seat)).tolist())
