"""Whole numbers read from text: ASCII digits only.

Die numbers, link numbers, slots, menu numbers and $ amounts arrive as text (a Freight ``pay`` or
``path`` string, a line typed at the terminal, a word of an imported record). Python's own tests
and ``int`` read far more than a person means by a number: ``"²".isdigit()`` is true but
``int("²")`` fails, and ``int`` reads ``"٣"`` (an Arabic-Indic three), ``"+3"``, ``" 3"``,
``"-1"`` and ``"1_000"``. Every reader of such text uses :func:`parse_whole` instead, so that one
rule holds everywhere: a whole number is one or more of the digits ``0``-``9`` and nothing else.
"""

from __future__ import annotations

#: the most digits a whole number may have: far beyond any die, seat, slot or $ amount, and far
#: below the 4,300 digits past which ``int`` refuses to read a string
MAX_DIGITS = 18


def is_whole(text: str) -> bool:
    """Whether ``text`` is a whole number: 1 to :data:`MAX_DIGITS` ASCII digits ``0``-``9`` and
    nothing else (no sign, space, underscore, superscript or other script's digit)."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def parse_whole(text: str) -> int | None:
    """The whole number ``text`` writes (``"07"`` -> 7), or ``None`` when it is not one (see
    :func:`is_whole`): the caller says what it expected, in its own words and error."""
    return int(text) if is_whole(text) else None
