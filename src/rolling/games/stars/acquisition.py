"""Phase 3: Acquisition (any order).

Canonical rules, Phase 3: corporations buy companies from other corporations, players or the
foreign investor, one company per transaction, at a price within the company's price span agreed by
both sides, paid from money not yet used in this phase. The company and the money transferred are
"in flight" (turned vertical) until the phase ends and cannot be used again. A corporation always
owns at least one company (an in-flight one counts). The foreign investor sells only at the maximum
price, after an announcement that higher-priced corporations with enough money may pre-empt,
highest share price first; otherwise the announcer must buy. Corporations in receivership never
sell, and buy from the foreign investor only at the start of the phase. Overseas Trading counts as
the highest share price and pays only face value to the foreign investor.

How the any-order marketplace is run here:

- Every president of a corporation not in receivership may act until they declare ``Done``.
  A transaction makes everyone act again ("the phase ends when every player has declared done
  since the last transaction").
- A proposal to another player's company (or corporation) waits for that player's answer; while a
  question is pending only the player asked may act. A proposal whose two sides one player controls
  executes at once. A rejected proposal may not be repeated identically in the same phase (it would
  only be rejected again; this also guarantees the phase ends).
- A purchase announced from the foreign investor asks, in priority order, the president of every
  corporation allowed to pre-empt it; the first to take it buys, else the announcer buys.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from .actions import Done, Offer, Respond
from .moves import Move
from .state import CORP_BASE, FOREIGN_INVESTOR, StarsState

RULE = "Phase 3: Acquisition"


# ------------------------------------------------------------------------------------------ queries


def spendable(s: StarsState, c: int) -> int:
    """$ of corporation ``c`` not yet in flight this phase."""
    return s.corp_cash[c] - s.received[c]


def fi_price(c: int, i: int) -> int:
    """$ corporation ``c`` pays the foreign investor for company ``i``: the maximum of the price
    span, or the face value for Overseas Trading."""
    return D.FACE[i] if c == D.OVERSEAS else D.SPAN_HI[i]


def priority(s: StarsState, c: int) -> tuple:
    """Rank among buyers from the foreign investor: Overseas Trading first, then share price."""
    return (c == D.OVERSEAS, s.share_price(c), s.corp_card[c])


def active_seats(s: StarsState) -> int:
    """Bitmask of players who may act: presidents of corporations not in receivership."""
    m = 0
    for c in range(D.N_CORPS):
        if s.corp_active[c] and s.president[c] >= 0:
            m |= 1 << s.president[c]
    return m


def company_count(s: StarsState, owner: int) -> int:
    """Companies owned by an entity (in-flight ones included)."""
    return sum(1 for o in s.company_owner if o == owner)


def controller(s: StarsState, owner: int) -> int:
    """The seat deciding for an owner code (a player, or a corporation's president); -1 for none."""
    if 0 <= owner < CORP_BASE:
        return owner
    if CORP_BASE <= owner < FOREIGN_INVESTOR:
        return s.president[owner - CORP_BASE]
    return -1


def interveners(s: StarsState, announcer: int, i: int) -> tuple[int, ...]:
    """Corporations that may pre-empt ``announcer``'s purchase of ``i`` from the foreign investor:
    not in receivership, ranked above the announcer, with enough money; highest priority first."""
    mine = priority(s, announcer)
    out = [
        c
        for c in range(D.N_CORPS)
        if c != announcer
        and s.corp_active[c]
        and s.president[c] >= 0
        and priority(s, c) > mine
        and spendable(s, c) >= fi_price(c, i)
    ]
    out.sort(key=lambda c: priority(s, c), reverse=True)
    return tuple(out)


# ------------------------------------------------------------------------------------------- phase


def enter(s: StarsState) -> None:
    """Open the marketplace; queue corporations in receivership (highest share price first)."""
    s.done = 0
    s.pending = None
    s.in_flight = 0
    s.received = [0] * D.N_CORPS
    s.rejected = frozenset()
    s.receivership_queue = tuple(c for c in s.active_corps() if s.president[c] < 0)


def to_act(s: StarsState) -> tuple[int, ...]:
    """The player asked a pending question, else every active player not yet done."""
    if s.pending is not None:
        return (_asked(s),)
    waiting = active_seats(s) & ~s.done
    return tuple(p for p in s.order if waiting >> p & 1)


def _asked(s: StarsState) -> int:
    p = s.pending
    if p[0] == "offer":
        return p[4]
    return s.president[p[3][p[4]]]


def moves(s: StarsState, seat: int) -> list[Move]:
    """Legal moves of ``seat`` in phase 3."""
    if seat not in to_act(s):
        return []
    if s.pending is not None:
        return [Move(Respond, {"seat": seat, "accept": True}), Move(Respond, {"seat": seat, "accept": False})]
    out = [Move(Done, {"seat": seat})]
    for c in range(D.N_CORPS):
        if not (s.corp_active[c] and s.president[c] == seat):
            continue
        money = spendable(s, c)
        sym = D.CORP_SYMBOLS[c]
        for i in range(D.N_COMPANIES):
            owner = s.company_owner[i]
            if owner < 0 or owner == CORP_BASE + c or s.in_flight >> i & 1:
                continue
            if owner == FOREIGN_INVESTOR:
                if fi_price(c, i) <= money:
                    out.append(Move(Offer, {"seat": seat, "corporation": sym, "company": D.CODES[i], "price": fi_price(c, i)}))
                continue
            if owner >= CORP_BASE:
                o = owner - CORP_BASE
                if s.president[o] < 0 or company_count(s, owner) < 2:
                    continue
            hi = min(D.SPAN_HI[i], money)
            lo = D.SPAN_LO[i]
            if hi < lo:
                continue
            args = {"seat": seat, "corporation": sym, "company": D.CODES[i]}
            bad = [p for (cc, ii, p) in s.rejected if cc == c and ii == i]
            if not bad:
                out.append(Move(Offer, args, "price", lo, hi))
            else:
                out.extend(Move(Offer, args | {"price": p}) for p in range(lo, hi + 1) if p not in bad)
    return out


def apply(s: StarsState, a) -> None:
    """Check and apply a phase 3 action (raises IllegalAction, state unchanged)."""
    if s.pending is not None:
        asked = _asked(s)
        if not isinstance(a, Respond):
            raise IllegalAction(RULE, f"{s.names[asked]} must first answer the pending question")
        if a.seat != asked:
            raise IllegalAction(RULE, f"the pending question is for {s.names[asked]}")
        _respond(s, a.accept)
        return
    if isinstance(a, Respond):
        raise IllegalAction(RULE, "there is no pending proposal to answer")
    if a.seat not in to_act(s):
        if active_seats(s) >> a.seat & 1:
            raise IllegalAction(RULE, f"{s.names[a.seat]} has declared done; wait for the next transaction")
        raise IllegalAction(RULE, f"{s.names[a.seat]} is not president of a corporation that may buy")
    if isinstance(a, Done):
        s.done |= 1 << a.seat
        s.say(f"{s.names[a.seat]} is done with acquisitions.")
        return
    if not isinstance(a, Offer):
        raise IllegalAction(RULE, f"{type(a).__name__} is not an action of phase 3")
    c, i = _check_offer(s, a)
    owner = s.company_owner[i]
    name = s.corp_name(c)
    if owner == FOREIGN_INVESTOR:
        s.say(f"{name} announces it will buy {D.CODES[i]} from the foreign investor for ${a.price}.")
        _announce(s, c, i)
        return
    seller_seat = controller(s, owner)
    if seller_seat == a.seat:
        _transfer(s, c, i, a.price)
        return
    s.say(f"{name} offers ${a.price} to {s.entity_name(owner)} for {D.CODES[i]}.")
    s.pending = ("offer", c, i, a.price, seller_seat)


def _check_offer(s: StarsState, a: Offer) -> tuple[int, int]:
    c = D.corp_index(a.corporation)
    i = D.company_index(a.company)
    if c is None or not s.corp_active[c]:
        raise IllegalAction(RULE, f"{a.corporation} is not an existing corporation")
    if i is None:
        raise IllegalAction(RULE, f"unknown company {a.company!r}")
    if s.president[c] != a.seat:
        raise IllegalAction(RULE, f"only the president of {s.corp_name(c)} acts for it")
    owner = s.company_owner[i]
    if owner < 0:
        raise IllegalAction(RULE, f"{D.CODES[i]} is not owned by a player, a corporation or the foreign investor")
    if owner == CORP_BASE + c:
        raise IllegalAction(RULE, f"{s.corp_name(c)} already owns {D.CODES[i]}")
    if s.in_flight >> i & 1:
        raise IllegalAction(RULE, f"{D.CODES[i]} was already transferred this phase (in flight)")
    if CORP_BASE <= owner < FOREIGN_INVESTOR:
        o = owner - CORP_BASE
        if s.president[o] < 0:
            raise IllegalAction(RULE, f"{s.corp_name(o)} is in receivership and never sells companies")
        if company_count(s, owner) < 2:
            raise IllegalAction(RULE, f"{s.corp_name(o)} must keep at least one company")
    if owner == FOREIGN_INVESTOR:
        want = fi_price(c, i)
        if a.price != want:
            what = "face value" if c == D.OVERSEAS else "the maximum price"
            raise IllegalAction(RULE, f"the foreign investor sells {D.CODES[i]} only at {what}, ${want}")
    elif not D.SPAN_LO[i] <= a.price <= D.SPAN_HI[i]:
        raise IllegalAction(RULE, f"the price must be within {D.CODES[i]}'s span ${D.SPAN_LO[i]}-${D.SPAN_HI[i]}")
    if spendable(s, c) < a.price:
        raise IllegalAction(
            RULE, f"{s.corp_name(c)} has only ${spendable(s, c)} not yet used in this phase, not ${a.price}"
        )
    if (c, i, a.price) in s.rejected:
        raise IllegalAction(RULE, "this exact proposal was already rejected in this phase")
    return c, i


def _announce(s: StarsState, c: int, i: int) -> None:
    s.pending = ("fi", c, i, interveners(s, c, i), 0)


def _respond(s: StarsState, accept: bool) -> None:
    p = s.pending
    if p[0] == "offer":
        _, c, i, price, seat = p
        s.pending = None
        if accept:
            _transfer(s, c, i, price)
        else:
            s.say(f"{s.names[seat]} rejects the offer.")
            s.rejected = s.rejected | {(c, i, price)}
        return
    _, announcer, i, queue, k = p
    c = queue[k]
    if accept:
        s.pending = None
        s.say(f"{s.corp_name(c)} pre-empts {s.corp_name(announcer)}.")
        _transfer(s, c, i, fi_price(c, i))
    else:
        s.pending = ("fi", announcer, i, queue, k + 1)


def _transfer(s: StarsState, c: int, i: int, price: int) -> None:
    """Execute one transaction: company ``i`` to corporation ``c`` for ``price`` $, both in flight."""
    owner = s.company_owner[i]
    s.corp_cash[c] -= price
    if owner == FOREIGN_INVESTOR:
        s.fi_cash += price
    elif owner >= CORP_BASE:
        s.corp_cash[owner - CORP_BASE] += price
        s.received[owner - CORP_BASE] += price
    else:
        s.cash[owner] += price
    s.say(f"{s.corp_name(c)} buys {D.CODES[i]} from {s.entity_name(owner)} for ${price}.")
    s.company_owner[i] = CORP_BASE + c
    s.in_flight |= 1 << i
    s.done = 0


def step(s: StarsState) -> bool:
    """Run the automatic steps (receivership purchases, pre-emption bookkeeping); True when over."""
    while True:
        p = s.pending
        if p is not None:
            if p[0] == "offer":
                return False
            _, announcer, i, queue, k = p
            # skip corporations that can no longer pre-empt; the announcer buys when none is left
            while k < len(queue) and spendable(s, queue[k]) < fi_price(queue[k], i):
                k += 1
            if k < len(queue):
                if k != p[4]:
                    s.pending = ("fi", announcer, i, queue, k)
                return False
            s.pending = None
            _transfer(s, announcer, i, fi_price(announcer, i))
            continue
        if s.receivership_queue:
            r = s.receivership_queue[0]
            target = _receivership_target(s, r)
            if target is None:
                s.receivership_queue = s.receivership_queue[1:]
                continue
            s.say(
                f"{s.corp_name(r)} (in receivership) announces it will buy {D.CODES[target]} "
                f"from the foreign investor for ${fi_price(r, target)}."
            )
            _announce(s, r, target)
            continue
        return active_seats(s) & ~s.done == 0


def _receivership_target(s: StarsState, r: int) -> int | None:
    """The most expensive company of the foreign investor that receivership corporation ``r`` can
    afford, or None."""
    if not (s.corp_active[r] and s.president[r] < 0):
        return None
    money = spendable(s, r)
    best = None
    for i in range(D.N_COMPANIES):
        if s.company_owner[i] == FOREIGN_INVESTOR and fi_price(r, i) <= money:
            if best is None or (fi_price(r, i), D.FACE[i]) > (fi_price(r, best), D.FACE[best]):
                best = i
    return best
