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
- A proposal to another player's company (or corporation) stays open until that player accepts or
  rejects it; several proposals may be open at once, as at a real table, and the players asked may
  answer at any time (also after declaring done). A proposal whose two sides one player controls
  executes at once. After each transaction, open proposals that can no longer be executed (the
  company has moved, the money is spent, the seller would be left without a company) lapse. The
  phase ends when everyone is done and no proposal is open.
- A purchase announced from the foreign investor pauses the marketplace: the president of every
  corporation allowed to pre-empt it is asked in priority order; the first to take it buys, else
  the announcer buys.
- With compat option ``18xx-fi-standing-offer`` (18xx.games) a president's announcement does not
  pause the marketplace: it stands, asking one corporation at a time, while everyone (the one
  asked included) goes on. After every transaction a corporation asked or still to be asked that
  can no longer pay is dropped, and when none is left the announcer buys at once; the
  announcement lapses if the company has gone elsewhere, if the announcer can no longer pay, or
  when the phase ends before it is answered. The announcer's president's other corporations are
  never asked. Receivership announcements still pause the phase.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from . import events as E
from .actions import WORDS, Done, Offer, Respond
from .config import FI_STANDING_OFFER
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
    for p in s.president:  # -1 for a corporation in receivership or not in play
        if p >= 0:
            m |= 1 << p
    return m


def company_count(s: StarsState, owner: int) -> int:
    """Companies owned by an entity (in-flight ones included)."""
    return s.company_owner.count(owner)


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
    """Open the marketplace; queue corporations in receivership by :func:`priority` (Overseas
    Trading first: it "is considered to have the highest Share Price during the whole phase",
    canonical rules, phase 3; then highest share price first)."""
    s.done = 0
    s.pending = ()
    s.announcement = None
    s.standing = ()
    s.in_flight = 0
    s.received = [0] * D.N_CORPS
    receivers = [c for c in range(D.N_CORPS) if s.corp_active[c] and s.president[c] < 0]
    receivers.sort(key=lambda c: priority(s, c), reverse=True)
    s.receivership_queue = tuple(receivers)


def to_act(s: StarsState) -> tuple[int, ...]:
    """The president asked about a pre-emption; else every active player not yet done and every
    player with an open proposal or standing announcement to answer, in player order."""
    if s.announcement is not None:
        return (_asked(s),)
    waiting = active_seats(s) & ~s.done
    for p in s.pending:
        waiting |= 1 << p[3]
    for _, _, asked in s.standing:
        waiting |= 1 << s.president[asked[0]]
    return tuple(p for p in s.order if waiting >> p & 1)


def _asked(s: StarsState) -> int:
    _, _, queue, k = s.announcement
    return s.president[queue[k]]


def moves(s: StarsState, seat: int) -> list[Move]:
    """Legal moves of ``seat`` in phase 3."""
    if s.announcement is not None:
        if seat != _asked(s):
            return []
        _, i, queue, k = s.announcement
        args = {"seat": seat, "corporation": D.CORP_SYMBOLS[queue[k]], "company": D.CODES[i]}
        return [Move(Respond, args | {"accept": True}), Move(Respond, args | {"accept": False})]
    out = []
    for c, i, _, seller in s.pending:
        if seller == seat:
            args = {"seat": seat, "corporation": D.CORP_SYMBOLS[c], "company": D.CODES[i]}
            out += [Move(Respond, args | {"accept": True}), Move(Respond, args | {"accept": False})]
    for announcer, i, asked in s.standing:
        if s.president[asked[0]] == seat:
            args = {"seat": seat, "corporation": D.CORP_SYMBOLS[asked[0]], "company": D.CODES[i]}
            args["announcer"] = D.CORP_SYMBOLS[announcer]
            out += [Move(Respond, args | {"accept": True}), Move(Respond, args | {"accept": False})]
    if not (active_seats(s) & ~s.done) >> seat & 1:
        return out
    out.append(Move(Done, {"seat": seat}))
    co = s.company_owner
    in_flight = s.in_flight
    # owners that may sell: players, the foreign investor, and corporations not in receivership
    # that keep a company (the same tests as _cannot_buy, made once per owner)
    sells = {owner: owner < CORP_BASE or owner == FOREIGN_INVESTOR
             or (s.president[owner - CORP_BASE] >= 0 and co.count(owner) >= 2)
             for owner in set(co) if owner >= 0}
    for c in range(D.N_CORPS):
        if not (s.corp_active[c] and s.president[c] == seat):
            continue
        money = spendable(s, c)
        sym = D.CORP_SYMBOLS[c]
        own = CORP_BASE + c
        proposing = {p[1] for p in s.pending if p[0] == c} | {p[1] for p in s.standing if p[0] == c}
        for i in range(D.N_COMPANIES):
            owner = co[i]
            if owner < 0 or owner == own or in_flight >> i & 1 or i in proposing or not sells[owner]:
                continue
            if owner == FOREIGN_INVESTOR:
                price = fi_price(c, i)
                if price <= money:
                    out.append(Move(Offer, {"seat": seat, "corporation": sym, "company": D.CODES[i], "price": price}))
                continue
            hi = min(D.SPAN_HI[i], money)
            if hi >= D.SPAN_LO[i]:
                out.append(Move(Offer, {"seat": seat, "corporation": sym, "company": D.CODES[i]}, "price", D.SPAN_LO[i], hi))
    return out


def apply(s: StarsState, a) -> None:
    """Check and apply a phase 3 action (raises IllegalAction, state unchanged)."""
    if isinstance(a, Respond):
        _respond(s, a)
        return
    if s.announcement is not None:
        raise IllegalAction(RULE, f"{s.names[_asked(s)]} must first decide whether to pre-empt the announced purchase")
    if s.done >> a.seat & 1 or a.seat not in s.president:  # not (active_seats(s) & ~s.done) >> a.seat & 1
        if active_seats(s) >> a.seat & 1:
            raise IllegalAction(RULE, f"{s.names[a.seat]} has declared done; wait for the next transaction")
        raise IllegalAction(RULE, f"{s.names[a.seat]} is not president of a corporation that may buy")
    if isinstance(a, Done):
        s.done |= 1 << a.seat
        if s.log is not None:
            s.log.append((E.DONE_BUYING, E.PUBLIC, a.seat))
        return
    if not isinstance(a, Offer):
        raise IllegalAction(RULE, f"you cannot {WORDS.get(type(a), 'do that')} in phase 3")
    c, i = _check_offer(s, a)
    owner = s.company_owner[i]
    if owner == FOREIGN_INVESTOR:
        if s.log is not None:
            s.log.append((E.ANNOUNCE, E.PUBLIC, c, i, a.price))
        if FI_STANDING_OFFER in s.config.compat:
            _stand(s, c, i)
        else:
            s.announcement = (c, i, interveners(s, c, i), 0)
        return
    seller_seat = controller(s, owner)
    if seller_seat == a.seat:
        _transfer(s, c, i, a.price)
        return
    if s.log is not None:
        s.log.append((E.OFFER, E.PUBLIC, c, owner, i, a.price))
    s.pending = s.pending + ((c, i, a.price, seller_seat),)


def _check_offer(s: StarsState, a: Offer) -> tuple[int, int]:
    c = D.corp_index(a.corporation)
    i = D.company_index(a.company)
    if c is None or not s.corp_active[c]:
        raise IllegalAction(RULE, f"{_named(s, c, a.corporation)} is not an existing corporation")
    if i is None:
        raise IllegalAction(RULE, f"unknown company {a.company!r}")
    if s.president[c] != a.seat:
        raise IllegalAction(RULE, f"only the president of {s.corp_name(c)} acts for it")
    if _proposing(s, c, i):
        raise IllegalAction(RULE, f"{s.corp_name(c)} already has an open proposal for {D.CODES[i]}")
    why = _cannot_buy(s, c, i, a.price)
    if why:
        raise IllegalAction(RULE, why)
    return c, i


def _named(s: StarsState, c: int | None, symbol: str) -> str:
    """A corporation named in an action, as the edition calls it (the symbol itself if unknown)."""
    return symbol if c is None else s.corp_name(c)


def _proposing(s: StarsState, c: int, i: int) -> bool:
    """Whether corporation ``c`` already has an open proposal or a standing announcement for ``i``."""
    return any(p[0] == c and p[1] == i for p in s.pending) or any(
        p[0] == c and p[1] == i for p in s.standing
    )


def _stand(s: StarsState, c: int, i: int) -> None:
    """Compat ``18xx-fi-standing-offer``: corporation ``c``'s announced purchase of ``i`` from the
    foreign investor waits for the corporations that may pre-empt (those of ``c``'s own president
    are never asked); with none to ask, ``c`` buys at once."""
    own = s.president[c]
    asked = tuple(o for o in interveners(s, c, i) if s.president[o] != own)
    if not asked:
        _transfer(s, c, i, fi_price(c, i))
        return
    s.standing = s.standing + ((c, i, asked),)


def _cannot_buy(s: StarsState, c: int, i: int, price: int) -> str:
    """Why corporation ``c`` may not buy company ``i`` for ``price`` $ now ('' if it may)."""
    owner = s.company_owner[i]
    if owner < 0:
        return f"{D.CODES[i]} is not owned by a player, a corporation or the foreign investor"
    if owner == CORP_BASE + c:
        return f"{s.corp_name(c)} already owns {D.CODES[i]}"
    if s.in_flight >> i & 1:
        return f"{D.CODES[i]} was already transferred this phase (in flight)"
    if CORP_BASE <= owner < FOREIGN_INVESTOR:
        o = owner - CORP_BASE
        if s.president[o] < 0:
            return f"{s.corp_name(o)} is in receivership and never sells companies"
        if company_count(s, owner) < 2:
            return f"{s.corp_name(o)} must keep at least one company"
    if owner == FOREIGN_INVESTOR:
        want = fi_price(c, i)
        if price != want:
            what = "face value" if c == D.OVERSEAS else "the maximum price"
            return f"the foreign investor sells {D.CODES[i]} only at {what}, ${want}"
    elif not D.SPAN_LO[i] <= price <= D.SPAN_HI[i]:
        return f"the price must be within {D.CODES[i]}'s span ${D.SPAN_LO[i]}-${D.SPAN_HI[i]}"
    if spendable(s, c) < price:
        return f"{s.corp_name(c)} has only ${spendable(s, c)} not yet used in this phase, not ${price}"
    return ""


def _respond(s: StarsState, a: Respond) -> None:
    c = D.corp_index(a.corporation)
    i = D.company_index(a.company)
    if s.announcement is not None:
        announcer, ann_i, queue, k = s.announcement
        asked = _asked(s)
        if a.seat != asked or c != queue[k] or i != ann_i:
            raise IllegalAction(
                RULE,
                f"{s.names[asked]} must first decide whether {s.corp_name(queue[k])} pre-empts the purchase of {D.CODES[ann_i]}",
            )
        if a.accept:
            s.announcement = None
            if s.log is not None:
                s.log.append((E.PREEMPT, E.PUBLIC, c, announcer))
            _transfer(s, c, i, fi_price(c, i))
        else:
            if s.log is not None:
                s.log.append((E.NO_PREEMPT, E.PUBLIC, c))
            s.announcement = (announcer, ann_i, queue, k + 1)
        return
    if a.announcer or any(si == i for _, si, _ in s.standing):
        _respond_standing(s, a, c, i)
        return
    for n, (pc, pi, price, seller) in enumerate(s.pending):
        if pc == c and pi == i:
            if seller != a.seat:
                raise IllegalAction(RULE, f"the proposal for {D.CODES[i]} is for {s.names[seller]} to answer")
            s.pending = s.pending[:n] + s.pending[n + 1 :]
            if a.accept:
                _transfer(s, c, i, price)
            else:
                if s.log is not None:
                    s.log.append((E.REJECT, E.PUBLIC, seller, c, i))
            return
    raise IllegalAction(RULE, f"there is no open proposal of {_named(s, c, a.corporation)} for {a.company} to answer")


def _respond_standing(s: StarsState, a: Respond, c: int | None, i: int | None) -> None:
    """Answer a standing announcement (compat ``18xx-fi-standing-offer``) as corporation ``c``,
    the one asked now: take company ``i`` at the foreign investor's price, or pass the question
    on (the announcer buys when nobody is left to ask)."""
    announcer = D.corp_index(a.announcer) if a.announcer else None
    n = next(
        (n for n, (ac, si, asked) in enumerate(s.standing) if si == i and asked[0] == c and announcer in (None, ac)),
        -1,
    )
    if n < 0:
        raise IllegalAction(
            RULE, f"{_named(s, c, a.corporation)} is not asked about a purchase of {a.company} from the foreign investor"
        )
    ac, _, asked = s.standing[n]
    if s.president[c] != a.seat:
        raise IllegalAction(RULE, f"only the president of {s.corp_name(c)} acts for it")
    rest = s.standing[:n] + s.standing[n + 1 :]
    if a.accept:
        s.standing = rest
        if s.log is not None:
            s.log.append((E.PREEMPT, E.PUBLIC, c, ac))
        _transfer(s, c, i, fi_price(c, i))
        return
    if s.log is not None:
        s.log.append((E.NO_PREEMPT, E.PUBLIC, c))
    if len(asked) > 1:
        s.standing = s.standing[:n] + ((ac, i, asked[1:]),) + s.standing[n + 1 :]
        return
    s.standing = rest
    _transfer(s, ac, i, fi_price(ac, i))


def _filter_standing(s: StarsState) -> None:
    """After a transaction: standing announcements whose company has moved or whose announcer can
    no longer pay lapse; corporations that can no longer pay are not asked; an announcement with
    nobody left to ask is bought by its announcer at once."""
    for offer in s.standing:
        if offer not in s.standing:
            continue  # settled by a purchase this loop set off
        c, i, asked = offer
        n = s.standing.index(offer)
        if s.in_flight >> i & 1 or spendable(s, c) < fi_price(c, i):
            s.standing = s.standing[:n] + s.standing[n + 1 :]
            if s.log is not None:
                s.log.append((E.ANNOUNCE_LAPSE, E.PUBLIC, c, i))
            continue
        left = tuple(o for o in asked if spendable(s, o) >= fi_price(o, i))
        if left == asked:
            continue
        if left:
            s.standing = s.standing[:n] + ((c, i, left),) + s.standing[n + 1 :]
        else:
            s.standing = s.standing[:n] + s.standing[n + 1 :]
            _transfer(s, c, i, fi_price(c, i))


def _transfer(s: StarsState, c: int, i: int, price: int) -> None:
    """Execute one transaction: company ``i`` to corporation ``c`` for ``price`` $, both in flight;
    then open proposals that can no longer be executed lapse."""
    owner = s.company_owner[i]
    s.corp_cash[c] -= price
    if owner == FOREIGN_INVESTOR:
        s.fi_cash += price
    elif owner >= CORP_BASE:
        s.corp_cash[owner - CORP_BASE] += price
        s.received[owner - CORP_BASE] += price
    else:
        s.cash[owner] += price
    if s.log is not None:
        s.log.append((E.BUY_COMPANY, E.PUBLIC, c, i, owner, price))
    s.company_owner[i] = CORP_BASE + c
    s.in_flight |= 1 << i
    s.done = 0
    if s.pending:
        keep = []
        for p in s.pending:
            pc, pi, pprice, seller = p
            if _cannot_buy(s, pc, pi, pprice) or controller(s, s.company_owner[pi]) != seller:
                if s.log is not None:
                    s.log.append((E.LAPSE, E.PUBLIC, pc, pi))
            else:
                keep.append(p)
        s.pending = tuple(keep)
    if s.standing:
        _filter_standing(s)


def step(s: StarsState) -> bool:
    """Run the automatic steps (receivership purchases, pre-emption bookkeeping); True when over."""
    while True:
        if s.announcement is not None:
            announcer, i, queue, k = s.announcement
            # skip corporations that can no longer pre-empt; the announcer buys when none is left
            while k < len(queue) and (s.president[queue[k]] < 0 or spendable(s, queue[k]) < fi_price(queue[k], i)):
                k += 1
            if k < len(queue):
                if k != s.announcement[3]:
                    s.announcement = (announcer, i, queue, k)
                return False
            s.announcement = None
            _transfer(s, announcer, i, fi_price(announcer, i))
            continue
        if s.receivership_queue:
            r = s.receivership_queue[0]
            target = _receivership_target(s, r)
            if target is None:
                s.receivership_queue = s.receivership_queue[1:]
                continue
            if s.log is not None:
                s.log.append((E.RECEIVER_ANNOUNCES, E.PUBLIC, r, target, fi_price(r, target)))
            s.announcement = (r, target, interveners(s, r, target), 0)
            continue
        if s.pending:
            return False
        done = s.done
        for p in s.president:  # active_seats(s) & ~s.done, up to the first president not done
            if p >= 0 and not done >> p & 1:
                return False
        if s.log is not None:
            for c, i, _ in s.standing:
                s.log.append((E.ANNOUNCE_LAPSE_AT_END, E.PUBLIC, c, i))
        s.standing = ()
        return True


def _receivership_target(s: StarsState, r: int) -> int | None:
    """The most expensive company of the foreign investor that receivership corporation ``r`` can
    afford, or None."""
    if not (s.corp_active[r] and s.president[r] < 0):
        return None
    money = spendable(s, r)
    best = None
    for i in s.companies_of(FOREIGN_INVESTOR):  # ascending face value
        if fi_price(r, i) <= money and (best is None or fi_price(r, i) >= fi_price(r, best)):
            best = i
    return best
