"""Named segments of a flat observation vector, so that every index has a documented meaning."""

from __future__ import annotations

from typing import NamedTuple


class Segment(NamedTuple):
    """``size`` consecutive entries starting at ``start``, described by ``meaning``."""

    name: str
    start: int
    size: int
    meaning: str


class Layout:
    """An ordered list of segments; ``layout[name]`` is the Python slice of that segment.

    Build it once at import with :meth:`add`; ``size`` is the vector's length.
    """

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0
        self._slices: dict[str, slice] = {}

    def add(self, name: str, size: int, meaning: str) -> slice:
        """Append a segment of ``size`` entries; returns its slice.

        Raises:
            ValueError: a name used twice.
        """
        if name in self._slices:
            raise ValueError(f"segment {name!r} defined twice")
        seg = Segment(name, self.size, size, meaning)
        self.segments.append(seg)
        self._slices[name] = slice(self.size, self.size + size)
        self.size += size
        return self._slices[name]

    def __getitem__(self, name: str) -> slice:
        return self._slices[name]

    def table(self) -> str:
        """A Markdown table of the segments: indices, name, meaning (docs/research.md holds these)."""
        rows = ["| indices | name | meaning |", "|---|---|---|"]
        for s in self.segments:
            idx = str(s.start) if s.size == 1 else f"{s.start}-{s.start + s.size - 1}"
            rows.append(f"| {idx} | `{s.name}` | {s.meaning} |")
        return "\n".join(rows)
