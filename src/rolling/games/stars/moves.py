"""Compact legal moves: an action template with an optional inclusive range for one numeric field.

Bids, purchase prices and dividends span many values; listing each as an action is wasteful for
bots that sample. A :class:`Move` stands for ``hi - lo + 1`` actions (or exactly one when it has
no numeric field); :meth:`Move.actions` enumerates them.
"""

from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """A set of legal actions of one kind.

    Attributes:
        kind: the action class.
        args: the fixed fields, as a dict.
        field: the name of the numeric field that ranges, or None.
        lo, hi: inclusive range of that field ($).
    """

    kind: type
    args: dict
    field: str | None = None
    lo: int = 0
    hi: int = 0

    def count(self) -> int:
        """How many actions this move stands for."""
        return 1 if self.field is None else self.hi - self.lo + 1

    def action(self, value: int | None = None):
        """The action with the numeric field set to ``value`` (ignored when there is none)."""
        if self.field is None:
            return self.kind(**self.args)
        return self.kind(**self.args, **{self.field: value})

    def actions(self) -> list:
        """Every action of this move."""
        if self.field is None:
            return [self.kind(**self.args)]
        return [self.kind(**self.args, **{self.field: v}) for v in range(self.lo, self.hi + 1)]
