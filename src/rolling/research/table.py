"""What the research tables of the three games share: an engine state seen through action indices."""

from __future__ import annotations

import numpy as np


class Table:
    """An engine ``state`` driven by action indices, one decision at a time.

    Subclasses add ``mask(seat)``, ``apply_index(seat, index)`` and ``observe(seat)``, and name in
    ``__slots__`` the small immutable records of a decision in progress (copied as they are by
    :meth:`clone`).
    """

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        # copy.deepcopy (OpenSpiel clones Python states with it) would copy the shared rule data too
        return self.clone()

    def clone(self):
        """An independent copy (the engine state cloned, the decision in progress shared: it is immutable)."""
        t = type(self).__new__(type(self))
        t.state = self.state.clone()
        for k in type(self).__slots__:
            setattr(t, k, getattr(self, k))
        return t

    def legal_indices(self, seat: int) -> list[int]:
        """The legal action indices of ``seat`` now, ascending (the non-zero entries of ``mask``)."""
        return [int(k) for k in np.flatnonzero(self.mask(seat))]

    def is_legal(self, seat: int, index: int) -> bool:
        """Whether action ``index`` is legal for ``seat`` now (``False`` outside the action space)."""
        m = self.mask(seat)
        return 0 <= index < len(m) and bool(m[index])

    def draws(self, seat: int, index: int) -> bool:
        """Whether action ``index`` of ``seat`` now may draw from the engine's generator (a die, a
        card, a shuffle): OpenSpiel's states run an action that cannot on the table itself, with
        no chance node to wait for. ``True`` unless a game knows better."""
        return True

    def private_step(self, seat: int, index: int) -> bool:
        """Whether action ``index`` of ``seat`` now is seen by that seat alone (a step of a decision
        the others learn only once it is made); none in most games."""
        return False

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (the engine's)."""
        return self.state.to_act
