"""Named segments of flat vectors, so that every index has a documented meaning and bounds.

:class:`Layout` names the parts of an observation vector with their bounds and scale;
:class:`ActionLayout` names the blocks of a ``Discrete`` action space with their fields, so that an
index decodes to ``(block, fields)`` and back (:func:`action_layout`). docs/research.md holds the
tables these classes print.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np


class Segment(NamedTuple):
    """``size`` consecutive entries starting at ``start``, described by ``meaning``.

    ``high`` and ``scale`` are per-entry patterns (tiled over the segment): an entry's raw value
    (a count, a flag, dollars) lies in ``low..high`` and the observation holds ``raw / scale``.
    """

    name: str
    start: int
    size: int
    meaning: str
    low: float = 0.0
    high: tuple[float, ...] = (1.0,)
    scale: tuple[float, ...] = (1.0,)


def _tile(pattern: float | Sequence[float], size: int, what: str, name: str) -> tuple[float, ...]:
    p = (float(pattern),) if isinstance(pattern, int | float) else tuple(float(x) for x in pattern)
    if not p or size % len(p):
        raise ValueError(f"segment {name!r}: {what} pattern of {len(p)} does not tile {size} entries")
    return p


class Layout:
    """An ordered list of segments; ``layout[name]`` is the Python slice of that segment.

    Build it once at import with :meth:`add`; ``size`` is the vector's length; :attr:`low` and
    :attr:`high` (float32, shape ``(size,)``) are the bounds of the scaled observation, what the
    ``Box`` spaces use.
    """

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0
        self._slices: dict[str, slice] = {}
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def add(self, name: str, size: int, meaning: str, high: float | Sequence[float] = 1,
            scale: float | Sequence[float] = 1, low: float = 0) -> slice:
        """Append a segment of ``size`` entries; returns its slice.

        Args:
            high: the largest raw value of an entry (one number, or a pattern tiled over the segment).
            scale: the raw value is divided by it in the observation (dollars: 100).
            low: the smallest raw value (0, or -1 for "none").

        Raises:
            ValueError: a name used twice, or a pattern that does not tile the segment.
        """
        if name in self._slices:
            raise ValueError(f"segment {name!r} defined twice")
        seg = Segment(name, self.size, size, meaning, float(low), _tile(high, size, "high", name),
                      _tile(scale, size, "scale", name))
        self.segments.append(seg)
        self._slices[name] = slice(self.size, self.size + size)
        self.size += size
        self._arrays = None
        return self._slices[name]

    def __getitem__(self, name: str) -> slice:
        return self._slices[name]

    def _build(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._arrays is None:
            low = np.zeros(self.size, dtype=np.float32)
            high = np.zeros(self.size, dtype=np.float32)
            inv = np.zeros(self.size, dtype=np.float32)
            for s in self.segments:
                reps = s.size // len(s.high)
                sc = np.tile(np.array(s.scale, dtype=np.float64), s.size // len(s.scale))
                low[s.start: s.start + s.size] = s.low / sc
                high[s.start: s.start + s.size] = np.tile(np.array(s.high), reps) / sc
                inv[s.start: s.start + s.size] = 1.0 / sc
            self._arrays = (low, high, inv)
        return self._arrays

    @property
    def low(self) -> np.ndarray:
        """Lower bounds of the scaled observation (float32, shape ``(size,)``)."""
        return self._build()[0]

    @property
    def high(self) -> np.ndarray:
        """Upper bounds of the scaled observation (float32, shape ``(size,)``)."""
        return self._build()[1]

    def scaled(self, raw: np.ndarray) -> np.ndarray:
        """``raw`` (float32, shape ``(size,)``) divided by each entry's scale, in place; returned."""
        raw *= self._build()[2]
        return raw

    def bounded(self, raw: np.ndarray) -> np.ndarray:
        """``raw`` scaled and clipped to ``low..high``, in place (the observation); returned.

        The bounds of flags and most counts are the rules' maxima; dollars, turn numbers and the
        few counts the rules leave open are clipped at the bound the table names, far above what
        games reach (tests/research/test_layout.py)."""
        low, high, inv = self._build()
        raw *= inv
        np.clip(raw, low, high, out=raw)
        return raw

    def table(self) -> str:
        """A Markdown table of the segments: indices, name, range of the raw values, meaning
        (docs/research.md holds these)."""
        rows = ["| indices | name | range | meaning |", "|---|---|---|---|"]
        for s in self.segments:
            idx = str(s.start) if s.size == 1 else f"{s.start}-{s.start + s.size - 1}"
            rows.append(f"| {idx} | `{s.name}` | {_range(s)} | {s.meaning} |")
        return "\n".join(rows)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


def _range(s: Segment) -> str:
    if len(s.high) == 1 and len(s.scale) == 1:
        text = f"{_num(s.low)}..{_num(s.high[0])}"
        return text + (f" (÷{_num(s.scale[0])})" if s.scale[0] != 1 else "")
    scaled = any(x != 1 for x in s.scale)
    return f"{_num(s.low)}..{_num(max(s.high))} by entry" + (" ($ ÷100)" if scaled else "")


# ------------------------------------------------------------------ actions
class Block(NamedTuple):
    """``size`` consecutive action indices from ``start``: the action ``name`` with ``fields``
    (``(field, count)`` pairs, the first the slowest to vary: index = start + mixed-radix number)."""

    name: str
    start: int
    size: int
    fields: tuple[tuple[str, int], ...]
    meaning: str


class ActionLayout:
    """The blocks of a ``Discrete(size)`` action space, in order, covering every index once.

    ``decode(index)`` gives ``(block name, {field: value})`` and ``encode(name, **fields)`` the
    index back; ``block(name)`` the :class:`Block`; ``range(name)`` its Python ``range``;
    ``text(index)`` the game codec's readable name of the index.
    """

    def __init__(self, game: str, blocks: Sequence[tuple[str, tuple[tuple[str, int], ...], str]], text=None):
        self.game = game
        self.blocks: list[Block] = []
        at = 0
        for name, fields, meaning in blocks:
            size = int(np.prod([n for _, n in fields])) if fields else 1
            self.blocks.append(Block(name, at, size, tuple(fields), meaning))
            at += size
        self.size = at
        self._by_name = {b.name: b for b in self.blocks}
        self._starts = np.array([b.start for b in self.blocks])
        self._text = text

    def block(self, name: str) -> Block:
        """The block called ``name`` (KeyError for an unknown one)."""
        return self._by_name[name]

    def range(self, name: str) -> range:
        """The indices of block ``name``."""
        b = self._by_name[name]
        return range(b.start, b.start + b.size)

    def decode(self, index: int) -> tuple[str, dict[str, int]]:
        """``(block name, {field: value})`` of an action index.

        Raises:
            ValueError: an index outside ``0..size-1``.
        """
        index = int(index)
        if not 0 <= index < self.size:
            raise ValueError(f"action index must be 0..{self.size - 1}, got {index}")
        b = self.blocks[int(np.searchsorted(self._starts, index, side="right")) - 1]
        k = index - b.start
        values: dict[str, int] = {}
        for field, n in reversed(b.fields):
            k, values[field] = divmod(k, n)
        return b.name, {f: values[f] for f, _ in b.fields}

    def encode(self, name: str, **fields: int) -> int:
        """The index of block ``name`` with these field values.

        Raises:
            ValueError: an unknown block, a missing or extra field, or a value out of its range.
        """
        b = self._by_name.get(name)
        if b is None:
            raise ValueError(f"no action block {name!r} in {self.game} (blocks: {', '.join(self._by_name)})")
        if set(fields) != {f for f, _ in b.fields}:
            raise ValueError(f"block {name!r} takes fields {[f for f, _ in b.fields]}, got {sorted(fields)}")
        k = 0
        for field, n in b.fields:
            v = int(fields[field])
            if not 0 <= v < n:
                raise ValueError(f"{name}: {field} must be 0..{n - 1}, got {v}")
            k = k * n + v
        return b.start + k

    def text(self, index: int) -> str:
        """The readable name of an index (the codec's ``action_text``)."""
        return self._text(index) if self._text is not None else "{} {}".format(*self.decode(index))

    def table(self) -> str:
        """A Markdown table of the blocks: indices, name, fields (with their counts), meaning."""
        rows = ["| indices | block | fields | meaning |", "|---|---|---|---|"]
        for b in self.blocks:
            idx = str(b.start) if b.size == 1 else f"{b.start}-{b.start + b.size - 1}"
            fields = ", ".join(f"`{f}` 0-{n - 1}" for f, n in b.fields) or "-"
            rows.append(f"| {idx} | `{b.name}` | {fields} | {b.meaning} |")
        return "\n".join(rows)


def action_layout(game: str, **config) -> ActionLayout:
    """The action layout of ``game`` (``"stars"``, ``"freight"`` or ``"market"``).

    The layout is the same for every configuration of a game (one space serves all player counts,
    variants and maps; what a configuration lacks is never in the mask); ``config`` is checked as
    the environments check it (Stars: ``players``, ``edition``, ``variants``, ``compat``;
    Freight: ``map``, ``players``).

    Raises:
        ValueError: an unknown game.
        RecordError: a configuration the game refuses.
    """
    if game == "stars":
        from rolling.games.stars import Config

        from . import stars_codec as S

        if config:
            S.check_config(Config(**{k: tuple(v) if k in ("variants", "compat") else v for k, v in config.items()}))
        return S.ACTION_LAYOUT
    if game == "freight":
        from . import freight_codec as F

        if config:
            from rolling.games.freight.setup import config_from_json

            config_from_json(config)
        return F.ACTION_LAYOUT
    if game == "market":
        if config:
            raise ValueError(f"Rolling Market takes no configuration, got {sorted(config)}")
        from . import market_codec as M

        return M.ACTION_LAYOUT
    raise ValueError(f"unknown game {game!r}: stars, freight or market")
