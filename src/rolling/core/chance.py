"""Chance outcomes chosen from outside the engine.

Every random event of the engines is a call on the state's :class:`~rolling.core.rng.Rng`
(``below``, ``randint``, ``shuffle``, ``choice`` all come down to ``below(n)``: one of ``n``
outcomes, each with probability ``1/n``). A :class:`ScriptedRng` put in its place answers those
calls from a list of outcomes and, when the list is used up, raises :class:`ChanceNeeded` naming
``n``. A driver catches it on a copy of the state, asks its chooser for the next outcome and
replays the action with the longer list. (The OpenSpiel games, :mod:`rolling.spiel`, run each action
once instead, suspending it at each draw.) The engines' normal path is untouched: they keep drawing
from their seeded :class:`Rng`.
"""

from __future__ import annotations

from rolling.core.rng import Rng


class ChanceNeeded(Exception):  # noqa: N818 - a signal, not an error
    """The engine wants one more chance outcome: one of ``n``, each with probability ``1/n``."""

    def __init__(self, n: int):
        super().__init__(f"a chance outcome of {n} is needed")
        self.n = n


class ScriptedRng(Rng):
    """An :class:`Rng` whose draws are given: ``below(n)`` returns the next of ``outcomes``.

    Raises (from ``below``):
        ChanceNeeded: the outcomes are used up.
        ValueError: the next outcome is not in ``0..n-1``.
        TypeError (from ``next64``): a draw that is no finite uniform choice.
    """

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: tuple[int, ...] = ()):
        super().__init__(0)
        self.outcomes = tuple(outcomes)
        self.used = 0

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        if self.used >= len(self.outcomes):
            raise ChanceNeeded(n)
        v = self.outcomes[self.used]
        if not 0 <= v < n:
            raise ValueError(f"chance outcome {v} is not one of 0..{n - 1}")
        self.used += 1
        return v

    def next64(self) -> int:
        raise TypeError("a scripted generator gives only finite uniform choices (below)")

    def copy(self) -> ScriptedRng:
        r = ScriptedRng(self.outcomes)
        r.used = self.used
        return r
