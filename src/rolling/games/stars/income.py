"""Phase 5: Income (automatic). "Players, Corporations, and the Foreign Investor Collect Income."

A corporation that cannot pay a negative income Goes Bankrupt (Collect Income).
"""

from __future__ import annotations

from . import data as D
from . import events as E
from . import procedures as P
from .state import CORP_BASE, FOREIGN_INVESTOR, StarsState


def _net(cost: int, mask: int) -> tuple[int, ...]:
    """Each company's printed income less the cost of ownership it pays (cost $, bitmask of the
    colours paying it): what a player or the foreign investor collects for it."""
    return tuple(D.INCOME[i] - (cost if mask >> D.COLOR[i] & 1 else 0) for i in range(D.N_COMPANIES))


#: :func:`_net` for each cost of ownership the deck's top or the end card may set
_NET = {coo: _net(*coo) for coo in {*D.COST_BY_TOP_COLOR, D.END_CARD_FRONT, D.END_CARD_BACK}}


def enter(s: StarsState) -> None:
    """Pay (or charge) every entity's income."""
    cost, mask = s.cost_of_ownership()
    log = s.log
    if log is not None and cost:
        log.append((E.COST, E.PUBLIC, cost, mask))
    # one pass over the companies: each player's and the foreign investor's income (printed income
    # less cost of ownership: they have no synergy, Collect Income) summed on the way, and each
    # corporation's companies, ascending, for income_parts (synergy and abilities)
    net = _NET.get((cost, mask)) or _net(cost, mask)
    income = [0] * (FOREIGN_INVESTOR + 1)
    owned: list[list[int]] = [[] for _ in range(FOREIGN_INVESTOR)]
    for i, owner in enumerate(s.company_owner):
        if owner >= 0:
            income[owner] += net[i]
            if owner >= CORP_BASE and owner != FOREIGN_INVESTOR:
                owned[owner].append(i)
    coo = (cost, mask)
    cash = s.cash
    for seat in s.order:
        inc = income[seat]
        if inc:
            cash[seat] += inc
            s.bank_paid += inc
            if log is not None:
                log.append((E.EARNS if inc > 0 else E.PAYS, E.PUBLIC, seat, abs(inc)))
    inc = income[FOREIGN_INVESTOR] + D.FI_BONUS
    s.fi_cash += inc
    s.bank_paid += inc
    if log is not None:
        log.append((E.EARNS if inc >= 0 else E.PAYS, E.PUBLIC, FOREIGN_INVESTOR, abs(inc)))
    parts = P.income_parts  # printed, cost, synergy, bonus: called inline, once per corporation
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
