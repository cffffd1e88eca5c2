"""Phase 6: Dividends.

"In Share Price Order, Corporations Pay Dividends, Adjust their Share Price, and turn their share
price card vertical. Corporations in Receivership pay a dividend of 0●."

Share price order is taken afresh before each corporation (prices move during the phase; see
:meth:`StarsState.next_in_share_price_order`). The president is asked even when $0 is the only
possible dividend (as at the table and on 18xx.games).
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from . import procedures as P
from .actions import WORDS, Dividend
from .moves import Move
from .state import StarsState

RULE = "Phase 6: Dividends"


def enter(s: StarsState) -> None:
    """All share price cards horizontal; the share price order as the phase begins."""
    s.processed = 0
    s.price_order = tuple(s.active_corps())


def current(s: StarsState) -> int | None:
    """The corporation due: the highest share price not yet processed in this phase."""
    return s.next_in_share_price_order()


def to_act(s: StarsState) -> tuple[int, ...]:
    """The president of the corporation due."""
    c = current(s)
    return () if c is None else (s.president[c],)


def moves(s: StarsState, seat: int) -> list[Move]:
    """Legal moves of ``seat``: a dividend from $0 to the maximum."""
    c = current(s)
    if c is None or s.president[c] != seat:
        return []
    return [Move(Dividend, {"seat": seat, "corporation": D.CORP_SYMBOLS[c]}, "amount", 0, P.max_dividend(s, c))]


def due_corporation(s: StarsState, a, kind: type, rule: str) -> int:
    """Check that ``a`` is a ``kind`` action for the corporation due, by its president; return it.

    Raises:
        IllegalAction: another kind of action, another corporation, or not its president.
    """
    c = s.next_in_share_price_order()  # current(s)
    if not isinstance(a, kind):
        raise IllegalAction(rule, f"you cannot {WORDS.get(type(a), 'do that')} in this phase")
    if D.CORP_INDEX.get(a.corporation, -1) != c and D.corp_index(a.corporation) != c:
        raise IllegalAction(rule, f"in share price order it is {s.corp_name(c)}'s turn")
    if s.president[c] != a.seat:
        raise IllegalAction(rule, f"only the president of {s.corp_name(c)} decides for it")
    return c


def apply(s: StarsState, a) -> None:
    """Check and apply a dividend (raises IllegalAction, state unchanged)."""
    c = due_corporation(s, a, Dividend, RULE)
    hi = P.max_dividend(s, c)
    if not 0 <= a.amount <= hi:
        raise IllegalAction("Pay Dividends", f"the dividend must be between $0 and ${hi} per share")
    _pay(s, c, a.amount)


def _pay(s: StarsState, c: int, amount: int) -> None:
    P.pay_dividends(s, c, amount)
    s.processed |= 1 << c
    P.adjust_share_price(s, c)


def step(s: StarsState) -> bool:
    """Pay the forced dividends; True when every corporation has been processed."""
    while True:
        c = s.next_in_share_price_order()  # current(s)
        if c is None:
            return True
        if s.president[c] < 0:
            _pay(s, c, 0)
            continue
        return False
