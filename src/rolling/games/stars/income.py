"""Phase 5: Income (automatic). "Players, Corporations, and the Foreign Investor Collect Income."

A corporation that cannot pay a negative income Goes Bankrupt (Collect Income).
"""

from __future__ import annotations

from . import data as D
from . import procedures as P
from .state import CORP_BASE, FOREIGN_INVESTOR, StarsState


def enter(s: StarsState) -> None:
    """Pay (or charge) every entity's income."""
    cost, mask = s.cost_of_ownership()
    if s.log is not None and cost:
        colors = ", ".join(D.COLORS[k] for k in range(5) if mask >> k & 1)
        s.say(f"Cost of ownership: ${cost} per {colors} company.")
    for seat in s.order:
        inc = P.income_of(s, seat)
        if inc:
            s.cash[seat] += inc
            s.bank_paid += inc
            s.say(f"{s.names[seat]} {'earns' if inc > 0 else 'pays'} ${abs(inc)}.")
    inc = P.income_of(s, FOREIGN_INVESTOR)
    s.fi_cash += inc
    s.bank_paid += inc
    s.say(f"The foreign investor {'earns' if inc >= 0 else 'pays'} ${abs(inc)}.")
    for c in s.active_corps():
        inc = P.income_of(s, CORP_BASE + c)
        if s.corp_cash[c] + inc < 0:
            s.say(f"{s.corp_name(c)} cannot pay its negative income of ${-inc}.")
            P.go_bankrupt(s, c)
            continue
        s.corp_cash[c] += inc
        s.bank_paid += inc
        s.say(f"{s.corp_name(c)} {'earns' if inc >= 0 else 'pays'} ${abs(inc)}.")


def step(s: StarsState) -> bool:
    """Nothing to decide."""
    return True
