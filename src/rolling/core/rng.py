"""A small seeded random number generator kept inside a game state.

Python's ``random.Random`` carries 2.5 KB of state; copying it on every ``clone()`` would dominate
search and simulation. SplitMix64 keeps one 64-bit integer, gives the same stream on every
machine and Python version, and is more than good enough for shuffles and dice.
"""

from __future__ import annotations

import os

_MASK = (1 << 64) - 1

try:  # the same steps in C (issue 34): built by setup.py where a C compiler is found
    from rolling.core import _splitmix
except ImportError:
    _splitmix = None
if os.environ.get("ROLLING_PURE_PYTHON"):  # read once, at import: every draw in Python
    _splitmix = None


def compiled() -> bool:
    """Whether :class:`Rng` draws through the optional C extension ``_splitmix`` (built by
    ``setup.py`` where a C compiler is found, and ``ROLLING_PURE_PYTHON`` not set); the stream is
    the same either way."""
    return _splitmix is not None


class Rng:
    """SplitMix64 generator.

    Args:
        seed: any integer; the same seed gives the same stream everywhere.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer of the stream."""
        if _splitmix is not None:
            got = _splitmix.next64(self.state)
            if got is not None:
                self.state = got[0]
                return got[1]
        return self._next64_py()

    def _next64_py(self) -> int:
        """:meth:`next64` in Python: the reference of the C steps."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (rejection sampling, no modulo bias).

        Raises:
            ValueError: if ``n`` is not positive.
        """
        if n <= 0:
            raise ValueError("n must be positive")
        if _splitmix is not None:  # about a seventh of the Python steps' time
            got = _splitmix.below(self.state, n)
            if got is not None:
                self.state = got[0]
                return got[1]
        return self._below_py(n)

    def _below_py(self, n: int) -> int:
        """:meth:`below` in Python: the reference of the C steps (also where a number does not
        fit them)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def draws(self, bounds: list[int]) -> list[int]:
        """``[self.below(n) for n in bounds]``: a uniform integer in ``[0, n)`` for each bound, in
        order (a roll of several dice), the same stream as drawing them one by one.

        Raises:
            ValueError: if a bound is not positive.
        """
        if _splitmix is not None and type(self) is Rng:  # a subclass draws each by its below
            got = _splitmix.draws(self.state, bounds)
            if got is not None:
                self.state = got[0]
                return got[1]
        return [self.below(n) for n in bounds]

    def randint(self, lo: int, hi: int) -> int:
        """Return a uniform integer in ``[lo, hi]``, both ends included (a die: ``randint(1, 6)``)."""
        return lo + self.below(hi - lo + 1)

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        """Return one element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        """Return an independent generator at the same point of the stream."""
        r = Rng.__new__(Rng)
        r.state = self.state
        return r
