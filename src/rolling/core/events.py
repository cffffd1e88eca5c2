"""The event log every game keeps: events as small tuples, who may see each one, text per viewer.

An event is a tuple ``(kind, visibility, *fields)``:

- ``kind``: a string naming what happened; each game lists its kinds in its own ``events`` module,
  with a text template per kind (``TEXT[kind] = (template, field names)``);
- ``visibility``: a bitmask of the viewers who may see the event, bit ``seat`` for a player and bit
  :data:`ONLOOKER` for an onlooker (``seat=None``); :data:`PUBLIC` (-1, every bit set) for all;
- ``fields``: what happened, as the engine holds it: seats, indexes, $ amounts, small tuples of
  them, now and then a fixed string. Never text built from them.

A game appends events to ``state.log`` only when its log is on (``if state.log is not None:``), so
that a game without a log builds neither events nor text: bots and batch runs pay nothing for it.
Text is made from the events when a screen asks for it, for one viewer at a time, by the game's
``render`` (which knows how to name its seats, companies, links...) through :func:`text_of`, and
the lines of a log by :func:`lines`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: visibility of an event everybody sees
PUBLIC = -1
#: the visibility bit of an onlooker (``seat=None``): above every seat (no game seats more than six)
ONLOOKER = 6

#: a game's text table: kind -> (template, names of the event's fields in order)
TextTable = dict[str, tuple[str, tuple[str, ...]]]


def sees(visibility: int, seat: int | None) -> bool:
    """True if the viewer ``seat`` (``None``: an onlooker) may see an event of this visibility."""
    return bool(visibility >> (ONLOOKER if seat is None else seat) & 1)


def text_of(table: TextTable, event: tuple, field_text: Callable[[str, Any], str]) -> str:
    """The text of ``event`` by its kind's template in ``table``, each field shown by
    ``field_text(name, value)`` (raises ValueError if the event has the wrong number of fields)."""
    template, names = table[event[0]]
    return template.format(**{name: field_text(name, v) for name, v in zip(names, event[2:], strict=True)})


def lines(log: list | None, seat: int | None, start: int,
          render: Callable[[tuple, int | None], str | None]) -> list[str]:
    """The text of the events ``log[start:]`` that ``seat`` may see, one line each, made by
    ``render(event, seat)`` (None for an event that viewer may not see); empty when the log is off."""
    if log is None:
        return []
    out = []
    for event in log[start:]:
        text = render(event, seat)
        if text is not None:
            out.append(text)
    return out


def segment_lines(state: Any, seat: int | None, start: int, end: int) -> list[str]:
    """The lines of the events ``start`` to ``end`` (excluded) of ``state.log`` as ``seat`` reads
    them (``state.log_lines``); empty with the log off. Every event is rendered on its own, so the
    log cut at ``end`` for a moment gives exactly the lines of those events (the lines of one
    action, when ``start`` and ``end`` are the log's sizes before and after it)."""
    saved = getattr(state, "log", None)
    if saved is None:
        return []
    state.log = saved[:end]
    try:
        return state.log_lines(seat, start)
    finally:
        state.log = saved
