"""The event log's shared form (rolling.core.events): visibility bits, text from a template, lines."""

from __future__ import annotations

import pytest

from rolling.core.events import ONLOOKER, PUBLIC, lines, sees, text_of

TABLE = {"pay": ("{p} pays ${amount}.", ("p", "amount"))}


def test_visibility_bits_seats_and_onlooker():
    """Bit ``seat`` for a player, bit ONLOOKER for an onlooker (seat None); PUBLIC is every bit."""
    assert all(sees(PUBLIC, seat) for seat in [*range(ONLOOKER), None])
    only_1 = 1 << 1
    assert [seat for seat in [*range(ONLOOKER), None] if sees(only_1, seat)] == [1]
    assert sees(~only_1, None) and sees(~only_1, 0) and not sees(~only_1, 1)


def test_text_of_fills_the_template_by_field_names():
    ev = ("pay", PUBLIC, 2, 7)
    assert text_of(TABLE, ev, lambda name, v: f"P{v}" if name == "p" else str(v)) == "P2 pays $7."
    with pytest.raises(ValueError):
        text_of(TABLE, ("pay", PUBLIC, 2), lambda name, v: str(v))  # a field missing


def test_lines_keep_what_the_viewer_sees_from_start_on():
    log = [("pay", PUBLIC, 0, 1), ("pay", 1 << 1, 1, 2), ("pay", PUBLIC, 2, 3)]

    def render(ev, seat):
        return text_of(TABLE, ev, lambda n, v: str(v)) if sees(ev[1], seat) else None

    assert lines(log, 0, 0, render) == ["0 pays $1.", "2 pays $3."]
    assert lines(log, 1, 1, render) == ["1 pays $2.", "2 pays $3."]
    assert lines(None, 1, 0, render) == [], "log off: nothing"
