"""A bounded memo for the engines' derived values (Freight's payments): what depends only
on a few small keys and recurs from one decision to the next."""

from __future__ import annotations


class Recent:
    """A memo that keeps what was used recently: two generations of at most ``size`` entries
    each; when the young one is full it becomes the old one and the old one is dropped, and an
    entry found in the old one moves back to the young one. So an entry asked for again and
    again (a search returning to the same state) stays, where emptying the whole memo when full
    would lose it, at the cost of one dict look-up more on a miss.
    """

    __slots__ = ("size", "young", "old")

    def __init__(self, size: int) -> None:
        self.size = size
        self.young: dict = {}
        self.old: dict = {}

    def get(self, key):
        """The value stored for ``key``, or ``None``."""
        got = self.young.get(key)
        if got is None:
            got = self.old.get(key)
            if got is not None:
                self.put(key, got)
        return got

    def put(self, key, value) -> None:
        """Store ``value`` (not ``None``) for ``key``."""
        if len(self.young) >= self.size:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def clear(self) -> None:
        """Forget everything."""
        self.young = {}
        self.old = {}
