"""Phase 8: Issue share.

"In Share Price Order, each Corporation may Issue One Share. Then it turns its share price card
horizontal (whether it has issued a share or not). Corporations in Receivership Issue One Share if
they have any left."
"""

from __future__ import annotations

from . import data as D
from . import events as E
from . import procedures as P
from .actions import Issue

# Phases 6 and 8 both go through the corporations in share price order, turning each card once:
# the same entry, order and seat to act.
from .dividends import current, due_corporation, enter, to_act  # noqa: F401
from .moves import Move
from .state import StarsState

RULE = "Phase 8: Issue share"


def moves(s: StarsState, seat: int) -> list[Move]:
    """Issue one share or not."""
    c = current(s)
    if c is None or s.president[c] != seat:
        return []
    sym = D.CORP_SYMBOLS[c]
    return [Move(Issue, {"seat": seat, "corporation": sym, "issue": True}), Move(Issue, {"seat": seat, "corporation": sym, "issue": False})]


def apply(s: StarsState, a) -> None:
    """Check and apply an issue decision (raises IllegalAction, state unchanged)."""
    c = due_corporation(s, a, Issue, RULE)
    if a.issue:
        P.check_issue_one_share(s, c)
        s.processed |= 1 << c
        P.issue_one_share(s, c)
    else:
        if s.log is not None:
            s.log.append((E.NO_ISSUE, E.PUBLIC, c))
        s.processed |= 1 << c


def step(s: StarsState) -> bool:
    """Skip corporations with nothing to issue, issue for those in receivership; True when done."""
    while True:
        c = current(s)
        if c is None:
            return True
        if s.corp_issued[c] >= D.CORP_SHARES[c]:
            s.processed |= 1 << c
            continue
        if s.president[c] < 0:
            s.processed |= 1 << c
            P.issue_one_share(s, c)
            continue
        return False
