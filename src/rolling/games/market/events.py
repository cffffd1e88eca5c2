"""The log of a Rolling Market game: the kinds of event and their text.

An event is a tuple ``(kind, visibility, *fields)`` (:mod:`rolling.core.events`): ``kind`` one of
the string constants below, ``visibility`` a bitmask of viewers, ``fields`` what happened as the
state holds it (company indexes 0..3, share values 1..6, share counts 0..24, $ amounts, dice). The
state appends events to ``log`` only when the log is on (``if self.log is not None:``), so a game
without a log builds neither events nor text. Text is made here when a screen asks
(:func:`render`, :func:`lines`).

Who sees what: Rolling Market is a solitaire and nothing on its table is hidden; the only unknown
is the dice not yet rolled, and no event is logged before its roll. Every event is
:data:`PUBLIC`; the visibility field stays, as in every game, so that screens filter the same way
for all of them.
"""

from __future__ import annotations

from rolling.core import events as core

# the log's form is shared by every game (rolling.core.events): re-exported for the state
from rolling.core.events import PUBLIC as PUBLIC
from rolling.core.events import sees

# the state (a MarketState) is typed as the protocol every state implements: the state module,
# this game's engine, writes the log and sits above this one (docs/layout.md, "Inside a game package")
from rolling.core.state import State

from . import rules as R

# -- kinds. Each one's text is in TEXT below; its fields are named there, in order.
# Starting (or the log switched on later)
START = "start"
LOG_STARTS = "log_starts"
# Phase One: Market Fluctuation (the roll, splits, a closed market)
ROLL = "roll"
SPLIT = "split"
SPLIT_OVERFLOW = "split_overflow"
CLOSED = "closed"
# Phase Two: Turn Tracking, buying/selling
TURN = "turn"
FINAL_TURN = "final_turn"
BUY = "buy"
SELL = "sell"
DONE = "done"
# the end (Introduction: 12 buy/sell turns)
GAME_OVER = "game_over"

#: TEXT[kind] = (template, field names). A field is shown by its name: ``c`` a company index (its
#: letter); ``dice`` the four fluctuation dice; ``vol`` the volatility die (0: fixed at 3, not
#: rolled); ``moves`` each company's ``(value before, value after)`` the roll; ``shares`` the four
#: share counts; any other field (values, counts, $ amounts, turn numbers) as it is.
TEXT: dict[str, tuple[str, tuple[str, ...]]] = {
    # no seed: every die to come follows from it, and the log is read while the game runs (issue 29)
    START: ("Rolling Market: companies A-D valued {value}, ${cash}, {turns} buy/sell turns",
            ("value", "cash", "turns")),
    LOG_STARTS: ("(log starts at roll {roll}, buy/sell turn {turn}, cash ${cash})", ("roll", "turn", "cash")),
    ROLL: ("Roll {roll}: dice {dice} {vol}; values {moves}", ("roll", "dice", "vol", "moves")),
    SPLIT: ("  {c} splits: {before} -> {after} shares at {value}", ("c", "before", "after", "value")),
    SPLIT_OVERFLOW: (
        "  {c} splits: {before} -> {after} shares at {value}, {excess} over " + str(R.MAX_SHARES)
        + " sold at ${value} less a fee of ${fee}: +${got}",
        ("c", "before", "after", "value", "excess", "fee", "got"),
    ),
    CLOSED: ("  market closed (volatility die {vdie}); {left} buy/sell turns to go", ("vdie", "left")),
    TURN: ("Buy/sell turn {turn} of {turns}: volatility {volatility}; cash ${cash}, shares {shares}",
           ("turn", "turns", "volatility", "cash", "shares")),
    FINAL_TURN: (
        "Buy/sell turn {turn} of {turns}: volatility {volatility}, last two turns: two sells allowed; "
        "cash ${cash}, shares {shares}",
        ("turn", "turns", "volatility", "cash", "shares"),
    ),
    BUY: ("  buy {n} {c} for ${cost}: value {old}->{new}, cash ${cash}->${cash_after}",
          ("n", "c", "cost", "old", "new", "cash", "cash_after")),
    SELL: ("  sell {n} {c} for ${got}: value {old}->{new}, cash ${cash}->${cash_after}",
           ("n", "c", "got", "old", "new", "cash", "cash_after")),
    DONE: ("  done: cash ${cash}", ("cash",)),
    GAME_OVER: ("Game over after {turns} buy/sell turns: final cash ${cash}", ("turns", "cash")),
}


def _field(name: str, value) -> str:
    if name == "c":
        return R.COMPANIES[value]
    if name == "dice":
        return " ".join(map(str, value))
    if name == "vol":
        return f"vol {value}" if value else f"vol fixed {R.FINAL_VOLATILITY}"
    if name == "moves":
        return " ".join(f"{R.COMPANIES[c]}:{b}->{a}" if b != a else f"{R.COMPANIES[c]}:{a}"
                        for c, (b, a) in enumerate(value))
    if name == "shares":
        return " ".join(f"{R.COMPANIES[c]}{n}" for c, n in enumerate(value))
    return str(value)


def render(s: State, event: tuple, seat: int | None = None) -> str | None:
    """The text of ``event`` for the viewer ``seat`` (``None``: an onlooker), or None if that
    viewer may not see it (never, in this solitaire)."""
    if not sees(event[1], seat):
        return None
    return core.text_of(TEXT, event, _field)


def lines(s: State, seat: int | None = None, start: int = 0) -> list[str]:
    """The text of the log's events from index ``start`` on, one line each (empty when the log is off)."""
    return core.lines(s.log, seat, start, lambda event, viewer: render(s, event, viewer))
