"""Labels and accuracy, as chess sites grade moves by the drop in win probability.

A decision's *loss* is the decider's win probability with the best move found minus with the move
played (0 to 1). Lichess grades a move by its drop in "winning chances" on a -1..1 scale: 0.1 an
inaccuracy, 0.2 a mistake, 0.3 a blunder; on a 0..1 win probability those are the thresholds below.
Rolling Market has one player and no win probability: its decisions are graded by the expected
final cash they lose, in dollars (:data:`MARKET_THRESHOLDS`).

A move's accuracy is lichess's formula on the win percentage lost (``loss`` x 100)::

    accuracy = 103.1668 * exp(-0.04354 * loss_percent) - 3.1669      (clamped to 0..100)

and a seat's accuracy is the mean over its decisions (for Market, ``loss_percent`` is the dollars
lost as a share of the best move's expected final cash).
"""

from __future__ import annotations

import math

#: win probability lost (0..1) from which a decision is an inaccuracy, a mistake, a blunder
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
#: Rolling Market: expected final cash lost ($) from which a decision is each label
MARKET_THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 6.0), ("mistake", 3.0), ("inaccuracy", 1.0))
#: the labels, mildest first
LABELS = ("inaccuracy", "mistake", "blunder")


def label(loss: float, thresholds: tuple[tuple[str, float], ...] = THRESHOLDS) -> str | None:
    """The label of a decision that lost ``loss`` (``None``: a good move)."""
    for name, least in thresholds:
        if loss >= least - 1e-12:
            return name
    return None


def move_accuracy(loss_percent: float) -> float:
    """Lichess's accuracy of one move (0..100) from the win percentage it lost."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, loss_percent)) - 3.1669))
