"""Shared pieces of the OpenSpiel tests."""

from __future__ import annotations

import numpy as np
from open_spiel.python.algorithms import mcts


class StandingsEvaluator(mcts.Evaluator):
    """Values a position by the returns it would give if the game ended now (no rollouts: cheap)."""

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        if state.is_chance_node() or state.table is None:
            return np.zeros(state.get_game().num_players())
        return np.array(state.get_game().returns_of(state.table))

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]
