"""Helpers for the Rolling Market tests: a state with scripted dice."""

from __future__ import annotations

from rolling.games.market.state import MarketState


class ScriptedDice:
    """Stands in for the state's Rng: ``randint`` returns the scripted faces in order.

    Raises AssertionError when the script runs out, so a test also checks how many dice a step
    rolls (four fluctuation dice, plus the volatility die outside the last two turns).
    """

    def __init__(self, faces):
        self.faces = list(faces)
        self.state = 0

    def randint(self, lo, hi):
        assert self.faces, "the engine rolled more dice than the test scripted"
        face = self.faces.pop(0)
        assert lo <= face <= hi
        return face

    def copy(self):
        c = ScriptedDice(self.faces)
        c.state = self.state
        return c


def scripted(faces, *, values=(3, 3, 3, 3), shares=(0, 0, 0, 0), cash=10, turns_left=12) -> MarketState:
    """A state set up by hand, then rolled with the given dice faces (a..d, volatility, ...)."""
    s = MarketState(0, roll=False)
    s.values = list(values)
    s.shares = list(shares)
    s.cash = cash
    s.turns_left = turns_left
    s.rng = ScriptedDice(faces)
    s.roll()
    return s
