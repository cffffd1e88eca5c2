"""Variant ``deals``: complex transactions in phase 3 (Player's Guide 002, 3.1, Deals and negotiation).

002: "you might want to introduce a variant rule that allows “complex” transactions where a number
of individual transactions can be executed in one step ... But make sure that the “complex”
transaction would still be legal if executed in a series of individual transactions. It is still
impossible to “swap” companies if the corporations don't have enough money to pay for their newly
acquired companies, or if both corporations only own one company."

How the engine runs it:

- A :class:`~.actions.Deal` lists two or more purchases ``(corporation, company, price $)`` in the
  order they are to happen. Its proposer presides at least one of the buying corporations and may
  act in phase 3 (has not declared done since the last transaction; no foreign-investor
  announcement is being settled).
- **Legal as a series.** The deal is legal only if its purchases, executed one after another in
  the order given, would each be a legal transaction of phase 3 at its turn: the price span, money
  not yet used in the phase (money received earlier in the deal is in flight), at least one company
  per corporation, no company traded twice, no corporation in receivership selling or buying. Each
  is checked with the acquisition rules (:func:`.acquisition._cannot_buy`) on a copy of the state
  after the purchases before it.
- **The foreign investor takes no part.** A purchase from it is announced on its own, so that
  corporations with a higher share price may pre-empt it (canonical rules, phase 3); a deal cannot
  offer that.
- **Everyone who gives something accepts.** Each buying corporation gives money, each seller a
  company; their players (the buyer's president, the selling player or the seller's president)
  accept, one acceptance per player for all the entities they control. The proposal is the
  proposer's acceptance; a deal whose parties are all the proposer's executes at once. Others
  answer with :class:`~.actions.RespondDeal`; one rejection withdraws the deal.
- **One step.** When the last party accepts, the deal is checked again and its purchases are
  executed one after another with nothing in between; each is an ordinary transaction (money and
  company in flight, everyone may act again, open proposals that can no longer be executed lapse).
  A deal that breaks a rule raises :class:`~rolling.core.errors.IllegalAction` naming it and
  changes nothing.
- Open deals lapse, like open proposals, once they could no longer be executed (checked after
  every action of the phase); the phase does not end while one is open.

This module is the engine's phase 3 module: it wraps :mod:`.acquisition`, whose rules it reuses,
and passes every call through unchanged when the variant is off.

**Legal moves.** The bundles of purchases are far too many to list (any sequence of legal
purchases at any prices). Besides the acquisition moves and the answers to open deals,
:func:`moves` lists the *swaps*, the shape of 002's example: one company of a corporation the seat
presides for one company of another corporation not in receivership, both at one common price (the
move's range: within both price spans and both corporations' unused money), ordered so that each
corporation always owns a company (the corporation with a single company buys first); swaps whose
two corporations own one company each are not listed, being illegal. :func:`apply` accepts every
legal deal, listed or not.
"""

from __future__ import annotations

from collections.abc import Iterator

from rolling.core.errors import IllegalAction

from . import acquisition as A
from . import data as D
from . import events as E
from .actions import Deal, RespondDeal, Transaction
from .moves import Move
from .state import CORP_BASE, FOREIGN_INVESTOR, StarsState

VARIANT = "deals"
RULE = "Variant deals (complex transactions)"

#: a deal's purchases as engine indices: ((corporation, company, price $), ...)
Purchases = tuple[tuple[int, int, int], ...]


def enabled(s: StarsState) -> bool:
    """True when the game is played with the variant ``deals``."""
    return VARIANT in s.config.variants


# ---------------------------------------------------------------------------------- phase protocol


def enter(s: StarsState) -> None:
    """Open the marketplace of phase 3 (:func:`.acquisition.enter`) with no deal open."""
    A.enter(s)
    s.deals = ()


def step(s: StarsState) -> bool:
    """:func:`.acquisition.step`; open deals that can no longer be executed lapse, and the phase
    is not over while a deal is open."""
    over = A.step(s)
    if s.deals:
        lapse(s)
    return over and not s.deals


def to_act(s: StarsState) -> tuple[int, ...]:
    """:func:`.acquisition.to_act` and every player asked to accept an open deal, in player order."""
    acting = A.to_act(s)
    if s.announcement is not None or not s.deals:
        return acting
    mask = 0
    for seat in acting:
        mask |= 1 << seat
    for _, _, waiting in s.deals:
        mask |= waiting
    return tuple(p for p in s.order if mask >> p & 1)


def moves(s: StarsState, seat: int) -> list[Move]:
    """:func:`.acquisition.moves`, then (variant on) the answers to open deals and the swaps ``seat``
    may propose (see the module docstring for what is listed)."""
    out = A.moves(s, seat)
    if not enabled(s) or s.announcement is not None:
        return out
    for _, purchases, waiting in s.deals:
        if waiting >> seat & 1:
            args = {"seat": seat, "transactions": _named(purchases)}
            out.append(Move(RespondDeal, args | {"accept": True}))
            out.append(Move(RespondDeal, args | {"accept": False}))
    if _may_propose(s, seat):
        out.extend(swaps(s, seat))
    return out


def apply(s: StarsState, a) -> None:
    """Check and apply a phase 3 action, deals included (raises IllegalAction, state unchanged);
    afterwards open deals that can no longer be executed lapse."""
    if isinstance(a, (Deal, RespondDeal)):
        if not enabled(s):
            raise IllegalAction(RULE, "deals of several transactions are played only with the variant 'deals'")
        if s.announcement is not None:
            raise IllegalAction(A.RULE, "the announced purchase from the foreign investor must be settled first")
        if isinstance(a, Deal):
            _propose(s, a)
        else:
            _respond(s, a)
    else:
        A.apply(s, a)
    if s.deals:
        lapse(s)


# ------------------------------------------------------------------------------------------- rules


def purchases_of(s: StarsState, transactions: tuple[Transaction, ...]) -> Purchases:
    """A deal's transactions as engine indices (raises IllegalAction for an unknown corporation or
    company)."""
    out = []
    for x in transactions:
        c = D.corp_index(x.corporation)
        i = D.company_index(x.company)
        if c is None or not s.corp_active[c]:
            raise IllegalAction(A.RULE, f"{x.corporation} is not an existing corporation")
        if i is None:
            raise IllegalAction(A.RULE, f"unknown company {x.company!r}")
        out.append((c, i, x.price))
    return tuple(out)


def check(s: StarsState, purchases: Purchases) -> int:
    """Check a deal as the series of its purchases, without changing ``s``; return the bitmask of
    the seats that must accept it (every player giving something).

    Raises:
        IllegalAction: fewer than two purchases, a purchase from the foreign investor, or the first
            purchase of the series that breaks a rule of phase 3 (named, with its position).
    """
    if len(purchases) < 2:
        raise IllegalAction(RULE, "a deal joins two or more transactions; propose a single purchase as an offer")
    return _run(s, purchases)[1]


def _run(s: StarsState, purchases: Purchases) -> tuple[StarsState, int]:
    """Check ``purchases`` as a series (see :func:`check`, any length): the state after them (``s``
    itself when there are none) and the bitmask of the seats giving something."""
    if not purchases:
        return s, 0
    t, givers = s, 0
    for k, (t, c, i, price) in enumerate(series(s, purchases), 1):
        refused = _refusal(t, c, i, price)
        if refused:
            rule, why = refused
            raise IllegalAction(rule, f"transaction {k} of the deal ({t.corp_name(c)} buys {D.CODES[i]} for ${price}): {why}")
        givers |= 1 << t.president[c] | 1 << A.controller(t, t.company_owner[i])
    # series() executes the last purchase when the loop asks for one more: ``t`` is the state after all
    return t, givers


def _refusal(t: StarsState, c: int, i: int, price: int) -> tuple[str, str] | None:
    """``(rule, why)`` if corporation ``c`` may not buy company ``i`` for ``price`` $ as the next
    purchase of a deal in state ``t`` (the state after the purchases before it), else None."""
    if t.president[c] < 0:
        return A.RULE, f"{t.corp_name(c)} is in receivership and buys only from the foreign investor"
    if t.company_owner[i] == FOREIGN_INVESTOR:
        return RULE, "a purchase from the foreign investor is announced on its own, so that others may pre-empt it"
    why = A._cannot_buy(t, c, i, price)
    return (A.RULE, why) if why else None


def may_propose(s: StarsState, seat: int) -> bool:
    """Whether ``seat`` may propose a deal now: variant on, phase 3, no announced purchase from the
    foreign investor being settled, and ``seat`` presides a corporation not in receivership and
    has not declared done since the last transaction."""
    return enabled(s) and s.phase == 3 and not s.over and s.announcement is None and _may_propose(s, seat)


def check_proposal(s: StarsState, seat: int, purchases: Purchases) -> int:
    """Check ``seat``'s proposal of a deal of ``purchases`` (engine indices) as :class:`~.actions.Deal`
    would, without changing ``s``; return the bitmask of the seats that must still accept it (0: it
    executes at once).

    Raises:
        IllegalAction: the proposal breaks a rule (see the module docstring).
    """
    if not _may_propose(s, seat):
        if A.active_seats(s) >> seat & 1:
            raise IllegalAction(A.RULE, f"{s.names[seat]} has declared done; wait for the next transaction")
        raise IllegalAction(A.RULE, f"{s.names[seat]} is not president of a corporation that may buy")
    if not any(s.president[c] == seat for c, _, _ in purchases):
        raise IllegalAction(RULE, f"{s.names[seat]} presides none of the buying corporations; a buyer proposes a deal")
    if any(d[1] == purchases for d in s.deals):
        raise IllegalAction(RULE, "this deal is already open")
    return check(s, purchases) & ~(1 << seat)


def next_purchases(s: StarsState, purchases: Purchases) -> list[tuple[int, int, int, int]]:
    """The purchases that may follow ``purchases`` (engine indices; a legal series, possibly empty)
    in a deal: ``(corporation, company, lo, hi)``, every price ``lo..hi`` $ legal, in corporation
    then company order. Each is checked as :func:`check` checks the purchases of a deal, on the
    state after ``purchases``; ``s`` is not changed.

    Raises:
        IllegalAction: ``purchases`` is not a legal series.
    """
    t = _run(s, purchases)[0]
    out = []
    for c in range(D.N_CORPS):
        if not t.corp_active[c] or t.president[c] < 0:
            continue
        for i in range(D.N_COMPANIES):
            # the lowest price of the span is the one most likely legal: a purchase refused at it is refused at every price
            lo = D.SPAN_LO[i]
            if _refusal(t, c, i, lo):
                continue
            out.append((c, i, lo, min(D.SPAN_HI[i], A.spendable(t, c))))
    return out


def series(s: StarsState, purchases: Purchases) -> Iterator[tuple[StarsState, int, int, int]]:
    """Run ``purchases`` one after another on a copy of ``s`` (no log, no open proposals or deals
    to lapse): yield ``(copy, corporation, company, price $)`` before each purchase, which is
    executed when the next item is asked for. ``s`` is never changed; a purchase that breaks a rule
    is the caller's to refuse before asking for the next."""
    t = s.clone()
    t.log = None
    t.pending = ()
    t.deals = ()
    for c, i, price in purchases:
        yield t, c, i, price
        A._transfer(t, c, i, price)


def lapse(s: StarsState) -> None:
    """Drop the open deals that could no longer be executed (as open proposals lapse)."""
    keep = []
    for d in s.deals:
        try:
            check(s, d[1])
        except IllegalAction:
            if s.log is not None:
                s.log.append((E.DEAL_LAPSE, E.PUBLIC, d[0], d[1]))
            continue
        keep.append(d)
    s.deals = tuple(keep)


def _may_propose(s: StarsState, seat: int) -> bool:
    return bool((A.active_seats(s) & ~s.done) >> seat & 1)


def _propose(s: StarsState, a: Deal) -> None:
    if not _may_propose(s, a.seat):
        check_proposal(s, a.seat, ())  # raises: the seat may not propose (named before the deal is read)
    purchases = purchases_of(s, a.transactions)
    waiting = check_proposal(s, a.seat, purchases)
    if not waiting:
        _execute(s, purchases)
        return
    if s.log is not None:
        s.log.append((E.DEAL_PROPOSE, E.PUBLIC, a.seat, purchases))
    s.deals = s.deals + ((a.seat, purchases, waiting),)


def _respond(s: StarsState, a: RespondDeal) -> None:
    purchases = purchases_of(s, a.transactions)
    for n, (proposer, open_purchases, waiting) in enumerate(s.deals):
        if open_purchases != purchases:
            continue
        if not waiting >> a.seat & 1:
            raise IllegalAction(RULE, f"{s.names[a.seat]} is not asked to accept this deal")
        rest = s.deals[:n] + s.deals[n + 1 :]
        if not a.accept:
            s.deals = rest
            if s.log is not None:
                s.log.append((E.DEAL_REJECT, E.PUBLIC, a.seat, purchases))
            return
        waiting &= ~(1 << a.seat)
        if waiting:
            s.deals = s.deals[:n] + ((proposer, purchases, waiting),) + s.deals[n + 1 :]
            if s.log is not None:
                s.log.append((E.DEAL_ACCEPT, E.PUBLIC, a.seat, purchases))
            return
        check(s, purchases)
        s.deals = rest
        _execute(s, purchases)
        return
    raise IllegalAction(RULE, "there is no open deal with these transactions")


def _execute(s: StarsState, purchases: Purchases) -> None:
    """The checked deal, as one step: its purchases one after another with nothing in between."""
    if s.log is not None:
        s.log.append((E.DEAL, E.PUBLIC, purchases))
    for c, i, price in purchases:
        A._transfer(s, c, i, price)


def _named(purchases: Purchases) -> tuple[Transaction, ...]:
    return tuple(Transaction(D.CORP_SYMBOLS[c], D.CODES[i], price) for c, i, price in purchases)


# ------------------------------------------------------------------------------------------- swaps


class SwapMove(Move):
    """A :class:`~.moves.Move` standing for the swaps of two companies at every common price
    ``lo..hi`` ($): ``args["transactions"]`` holds the two purchases in order, their price left
    ``None``; :meth:`action` fills in the price of both."""

    __slots__ = ()

    def action(self, value: int | None = None) -> Deal:
        """The :class:`~.actions.Deal` of this swap with both purchases at ``value`` $."""
        return Deal(self.args["seat"], tuple(Transaction(x.corporation, x.company, value) for x in self.args["transactions"]))

    def actions(self) -> list:
        """Every deal of this move, one per price."""
        return [self.action(v) for v in range(self.lo, self.hi + 1)]


def swaps(s: StarsState, seat: int) -> list[Move]:
    """The swaps ``seat`` may propose (see the module docstring), one :class:`SwapMove` per pair of
    companies, ranging over the common price ($)."""
    corps = [c for c in range(D.N_CORPS) if s.corp_active[c] and s.president[c] >= 0]
    owned = {c: s.companies_of(CORP_BASE + c) for c in corps}
    open_shapes = {tuple((c, i) for c, i, _ in d[1]) for d in s.deals}
    out: list[Move] = []
    for c1 in corps:
        if s.president[c1] != seat:
            continue
        for c2 in corps:
            n1, n2 = len(owned[c1]), len(owned[c2])
            if c2 == c1 or (n1 < 2 and n2 < 2):
                continue
            # money received in the deal is in flight: each buyer pays from what it had before
            money = min(A.spendable(s, c1), A.spendable(s, c2))
            for a in owned[c1]:
                if s.in_flight >> a & 1:
                    continue
                for b in owned[c2]:
                    if s.in_flight >> b & 1:
                        continue
                    lo = max(D.SPAN_LO[a], D.SPAN_LO[b])
                    hi = min(D.SPAN_HI[a], D.SPAN_HI[b], money)
                    if lo > hi:
                        continue
                    # whoever owns a single company buys first, so that it never owns none
                    order = ((c2, a), (c1, b)) if n2 < 2 else ((c1, b), (c2, a))
                    if order in open_shapes:
                        continue
                    txs = tuple(Transaction(D.CORP_SYMBOLS[c], D.CODES[i], None) for c, i in order)  # type: ignore[arg-type]
                    out.append(SwapMove(Deal, {"seat": seat, "transactions": txs}, "price", lo, hi))
    return out
