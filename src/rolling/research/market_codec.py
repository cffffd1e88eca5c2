"""Rolling Market on the same footing as the other tables: action indices and the observation of
``rolling/Market-v0`` (:mod:`rolling.envs.market`, docs/market.md), for the OpenSpiel game."""

from __future__ import annotations

import numpy as np

from rolling.envs.market import N_ACTIONS, OBS_SIZE, action_mask, index_to_action, observe

from .layout import ActionLayout
from .table import Table

__all__ = ["ACTION_LAYOUT", "N_ACTIONS", "OBS_SIZE", "MarketTable"]

#: the action space of ``rolling/Market-v0`` by blocks and fields (:mod:`rolling.research.layout`)
ACTION_LAYOUT = ActionLayout("market", (
    ("done", (), "end the turn's trading"),
    ("buy", (("company", 4), ("shares_minus_1", 12)), "buy shares_minus_1 + 1 shares of company A-D"),
    ("sell", (("company", 4), ("shares_minus_1", 12)), "sell shares_minus_1 + 1 shares of company A-D"),
), text=lambda index: str(index_to_action(index)))


class MarketTable(Table):
    """A Market state (:class:`MarketState`) driven by action indices (one seat, 0)."""

    __slots__ = ()

    def mask(self, seat: int) -> np.ndarray:
        """int8 mask of shape (97,) (:func:`rolling.envs.market.action_mask`)."""
        return action_mask(self.state)

    def apply_index(self, seat: int, index: int) -> None:
        """Take action ``index`` (0..96).

        Raises:
            ValueError: not legal now (nothing changes).
        """
        index = int(index)
        if self.state.over or not 0 <= index < N_ACTIONS or not action_mask(self.state)[index]:
            raise ValueError(f"action {index} is not legal now")
        self.state.apply(index_to_action(index))

    def observe(self, seat: int) -> np.ndarray:
        """The 16 floats of :func:`rolling.envs.market.observe`."""
        return observe(self.state)
