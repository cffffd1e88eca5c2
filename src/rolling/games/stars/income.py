"""Phase 5: Income (automatic). "Players, Corporations, and the Foreign Investor Collect Income."

A corporation that cannot pay a negative income Goes Bankrupt (Collect Income).
"""

from __future__ import annotations

from . import events as E
from . import procedures as P
from .state import CORP_BASE, FOREIGN_INVESTOR, StarsState


def enter(s: StarsState) -> None:
    """Pay (or charge) every entity's income."""
    cost, mask = s.cost_of_ownership()
    log = s.log
    if log is not None and cost:
        log.append((E.COST, E.PUBLIC, cost, mask))
    # every owner's companies in one pass (owner codes index the list), ascending
    owned: list[list[int]] = [[] for _ in range(FOREIGN_INVESTOR + 1)]
    for i, owner in enumerate(s.company_owner):
        if owner >= 0:
            owned[owner].append(i)
    coo = (cost, mask)
    parts = P.income_parts  # printed, cost, synergy, bonus: called inline, once per owner
    cash = s.cash
    for seat in s.order:
        mine = owned[seat]
        if not mine:
            continue  # no company, no income
        printed, charged, synergy, bonus = parts(seat, mine, coo)
        inc = printed - charged + synergy + bonus
        if inc:
            cash[seat] += inc
            s.bank_paid += inc
            if log is not None:
                log.append((E.EARNS if inc > 0 else E.PAYS, E.PUBLIC, seat, abs(inc)))
    printed, charged, synergy, bonus = parts(FOREIGN_INVESTOR, owned[FOREIGN_INVESTOR], coo)
    inc = printed - charged + synergy + bonus
    s.fi_cash += inc
    s.bank_paid += inc
    if log is not None:
        log.append((E.EARNS if inc >= 0 else E.PAYS, E.PUBLIC, FOREIGN_INVESTOR, abs(inc)))
    corp_cash = s.corp_cash
    for c in s.active_corps():
        printed, charged, synergy, bonus = parts(CORP_BASE + c, owned[CORP_BASE + c], coo)
        inc = printed - charged + synergy + bonus
        if corp_cash[c] + inc < 0:
            if log is not None:
                log.append((E.CANNOT_PAY, E.PUBLIC, c, -inc))
            P.go_bankrupt(s, c)
            continue
        corp_cash[c] += inc
        s.bank_paid += inc
        if log is not None:
            log.append((E.EARNS if inc >= 0 else E.PAYS, E.PUBLIC, CORP_BASE + c, abs(inc)))


def step(s: StarsState) -> bool:
    """Nothing to decide."""
    return True
