"""A learned evaluation of Rolling Freight positions: each seat's chance to win (issue 34).

The Freight counterpart of :mod:`rolling.bots.value` (same model form: LightGBM trees shipped as
numpy arrays, ``data/freight_value.npz``, walked by :class:`rolling.bots.value.TreeModel`; trained
by ``scripts/train_value.py --game freight``). :func:`evaluate` answers *position + seat -> each
seat's win probability*; the search bot ``vsearch`` (:class:`.freight_search.FreightValueSearchBot`)
scores the end of its playouts with it.

**What it reads** (:func:`features`): everything in Rolling Freight is open but the order of the
contract and improvement decks and the dice and cargo to come ("Setting Up the Game Board"; H:
Rolling Your Dice), and it reads none of those: the map, the phase, the turn, the turns left once
the last phase ends, how many contracts are left above the next End of Phase card (public: each
set's size is), the saturation, and per seat who moves next, its stock, its expected final stock by
the search's valuation (:func:`rolling.bots.freight_search.expected_stock`), cargo markers,
contracts in progress, stockpile markers, dice on its mat, improvements, stations and links, and its
margins over the best other seat.

Finished games need no model: the winners (rank 1 after "Winning"'s tie-break) share probability 1.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rolling.games.freight import FreightState

from .data import open_shipped
from .value import TreeModel, softmax

MODEL_FILE = "freight_value.npz"

#: one row per seat: the columns :func:`features` fills, in order
FEATURES: tuple[str, ...] = (
    "players", "southern", "phase", "turn", "final_left", "phase_contracts_left", "saturation",
    "to_move",            # turns until this seat plays (0: it is playing or drafting now)
    "stock", "expected_stock", "cargo", "contracts", "contracts_value", "markers", "dice",
    "improvements", "stations", "links",
    "expected_margin",    # expected stock minus the best other seat's
    "stock_margin",       # stock minus the best other seat's
    "expected_rank",      # 0 for the best expected stock
)
N_FEATURES = len(FEATURES)


def features(s: FreightState, seat: int) -> np.ndarray:
    """The model's input as ``seat`` sees ``s``: float64 array of shape ``(s.n, N_FEATURES)``,
    row ``p`` describing seat ``p`` (columns: :data:`FEATURES`). Reads nothing hidden (module
    docstring); every seat sees the same."""
    from .freight_search import expected_stock

    n = s.n
    exp = expected_stock(s)
    bonus = s.comp.cargo_bonus[min(s.phase, 2)]
    current = s.to_act[0] if s.to_act else s.current
    common = (n, float(s.config.map == "southern"), s.phase, s.turn, s.final_left, s.phase_contracts_left(),
              s.saturation)
    ranked = sorted(range(n), key=lambda p: -exp[p])
    rank = [0] * n
    for k, p in enumerate(ranked):
        rank[p] = k
    out = np.empty((n, N_FEATURES))
    for p, pl in enumerate(s.players):
        others = [q for q in range(n) if q != p]
        out[p] = (
            *common, (p - current) % n, pl.stock, exp[p], len(pl.cargo), len(pl.contracts),
            exp[p] - pl.stock - bonus * len(pl.cargo), sum(pl.markers), len(pl.dice),
            len(pl.improvements), pl.stations, pl.links_owned,
            exp[p] - max(exp[q] for q in others),
            pl.stock - max(s.players[q].stock for q in others),
            rank[p],
        )
    return out


@lru_cache(maxsize=1)
def model() -> TreeModel:
    """The shipped model (loaded once; ``data/freight_value.npz``).

    Raises:
        ValueError: the file's feature names differ from :data:`FEATURES`.
    """
    with open_shipped(MODEL_FILE) as f:
        m = TreeModel.load(f)
    if m.names != FEATURES:
        raise ValueError(f"{MODEL_FILE} was trained on other features: {m.names}")
    return m


def evaluate(s: FreightState, seat: int) -> tuple[float, ...]:
    """Each seat's probability of winning ``s`` as ``seat`` sees it: a tuple of ``s.n`` floats in
    [0, 1] summing to 1, index = seat; once the game is over, the winners share 1.

    Raises:
        ValueError: ``seat`` is not a seat of the game.
    """
    if not 0 <= seat < s.n:
        raise ValueError(f"seat {seat} is not in this {s.n}-player game")
    if s.is_over:
        top = [r["seat"] for r in s.standings() if r["rank"] == 1]
        return tuple(1.0 / len(top) if p in top else 0.0 for p in range(s.n))
    return softmax(model().margin(features(s, seat)).tolist())
