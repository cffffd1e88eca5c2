"""Phase 2: Wrap-up (automatic).

"Determine the new Player Order by descending remaining Money. Ties are broken by the old Player
Order. ... In ascending Face Value Order, the Foreign Investor buys as many of the remaining
available Companies as possible, paying Face Value. For each Company bought in that way, draw and
reveal a new one from the deck and mark it as unavailable ... Once the Foreign Investor cannot buy
any more Companies, all unavailable Companies become available for future Auctions."
"""

from __future__ import annotations

from . import data as D
from . import events as E
from . import procedures as P
from .state import FOREIGN_INVESTOR, StarsState


def new_player_order(s: StarsState) -> list[int]:
    """Seats by descending money, ties kept in the old player order (a stable sort)."""
    return sorted(s.order, key=s.cash.__getitem__, reverse=True)  # reverse keeps ties in order


def enter(s: StarsState) -> None:
    """Run the whole phase."""
    s.order = new_player_order(s)
    if "secret-money" in s.config.variants:
        # the order ranks the players' cash, which is secret (002, 3.2): a reveal to everyone
        s.reveals += 1
        s.last_reveal = ("order", "")
    if s.log is not None:
        s.log.append((E.PLAYER_ORDER, E.PUBLIC, tuple(s.order)))
    while True:
        available = sorted(i for i in s.offering if not s.unavailable >> i & 1)
        if not available or D.FACE[available[0]] > s.fi_cash:
            break
        i = available[0]
        s.fi_cash -= D.FACE[i]
        s.bank_paid -= D.FACE[i]
        s.company_owner[i] = FOREIGN_INVESTOR
        s.offering.remove(i)
        if s.log is not None:
            s.log.append((E.FI_BUYS, E.PUBLIC, i, D.FACE[i]))
        P.draw(s)
    s.unavailable = 0


def step(s: StarsState) -> bool:
    """Nothing is left to decide: the phase is over once entered."""
    return True
