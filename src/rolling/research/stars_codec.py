"""Rolling Stock Stars as fixed action indices and flat float32 observations (docs/research.md).

Action space (``Discrete(N_ACTIONS)``): :data:`N_TEMPLATES` *templates*, an action with every field
fixed except its amount ($), then :data:`AMOUNTS` amount entries ``$0..$MAX_AMOUNT``. A template
whose action has no amount (pass, done, close ...) or just one legal amount is applied at once. A
template with several legal amounts (a bid, the first bid of an auction, a purchase price, a
dividend, an IPO share price) is *selected*: the same seat then picks the amount among the amount
entries, the only legal ones in its mask. Amounts above :data:`MAX_AMOUNT` cannot be chosen (no
player came near it in any simulated game; see docs/research.md).

The ``deals`` variant's proposals (002, 3.1: two or more purchases in one step) are built one
purchase at a time: ``add_purchase c i`` (then its price, an amount entry) appends "corporation
``c`` buys company ``i``" to the deal the seat is building, ``propose_deal`` proposes the deal built
so far (a :class:`~rolling.games.stars.actions.Deal`) and ``discard_deal`` drops it. While it builds,
the seat keeps the turn; it can always discard, so building never locks up, and it ends within two
decisions per company in play. The mask offers a purchase only if the deal stays legal as a series
(:func:`rolling.games.stars.deals.next_purchases`) and the proposal only when the engine accepts it
(:func:`rolling.games.stars.deals.check_proposal`). ``respond_deal k accept|reject`` answers the
open deal in slot ``k`` (its place in the state's list of open deals, shown in the observation);
at most :data:`MAX_OPEN_DEALS` deals are open at once here (the rules set no bound: a seat may not
start a deal while that many are open).

Not in the space: the compat option ``18xx-fi-standing-offer`` (its answers name an announcer);
:func:`check_config` rejects the option.
"""

from __future__ import annotations

import numpy as np

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.events import sees
from rolling.games.stars import data as D
from rolling.games.stars import deals as DL
from rolling.games.stars.actions import (
    Bid,
    BuyShare,
    Close,
    Deal,
    DeclineIpo,
    Dividend,
    Done,
    FormCorporation,
    Issue,
    LeaveAuction,
    Offer,
    Pass,
    Respond,
    RespondDeal,
    SellShare,
    StartAuction,
    Transaction,
)
from rolling.games.stars.config import FI_STANDING_OFFER, Config
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR, IN_OFFERING, MAXP, StarsState
from rolling.games.stars.view import cash_audience

from .layout import ActionLayout, Layout
from .table import Table

MAX_AMOUNT = 999
AMOUNTS = MAX_AMOUNT + 1
NC, NK = D.N_COMPANIES, D.N_CORPS
#: the most deals open at once in the research space (variant deals; the rules set no bound)
MAX_OPEN_DEALS = 6


class AddPurchase:
    """Template kind of the research space, not an engine action (variant ``deals``): append the
    purchase ``(corporation, company, price $)`` to the deal the seat is building."""

    type_name = "add_purchase"


class DiscardDeal:
    """Template kind of the research space, not an engine action (variant ``deals``): drop the deal
    the seat is building (nothing happens in the game)."""

    type_name = "discard_deal"

#: the numeric field of each action kind that has one
AMOUNT_FIELD = {StartAuction: "bid", Bid: "amount", Offer: "price", Dividend: "amount", FormCorporation: "price"}


def _templates() -> list[tuple]:
    t: list[tuple] = [(Pass,), (LeaveAuction,), (Done,), (Bid,)]
    t += [(StartAuction, i) for i in range(NC)]
    t += [(BuyShare, c, pres) for c in range(NK) for pres in (False, True)]
    t += [(SellShare, c) for c in range(NK)]
    t += [(Offer, c, i) for c in range(NK) for i in range(NC)]
    t += [(Respond, c, i, acc) for c in range(NK) for i in range(NC) for acc in (True, False)]
    t += [(Close, i) for i in range(NC)]
    t += [(Dividend, c) for c in range(NK)]
    t += [(Issue, c, flag) for c in range(NK) for flag in (True, False)]
    t += [(FormCorporation, i, c) for i in range(NC) for c in range(NK)]
    t += [(DeclineIpo, i) for i in range(NC)]
    t += [(AddPurchase, c, i) for c in range(NK) for i in range(NC)]
    t += [(Deal,), (DiscardDeal,)]
    t += [(RespondDeal, k, acc) for k in range(MAX_OPEN_DEALS) for acc in (True, False)]
    return t


#: TEMPLATES[index] = (action class, fixed fields as company/corporation indexes and flags)
TEMPLATES: tuple[tuple, ...] = tuple(_templates())
TEMPLATE_INDEX = {t: k for k, t in enumerate(TEMPLATES)}
N_TEMPLATES = len(TEMPLATES)
AMOUNT0 = N_TEMPLATES
N_ACTIONS = N_TEMPLATES + AMOUNTS
ADD_PURCHASE = TEMPLATE_INDEX[(AddPurchase, 0, 0)]
PROPOSE_DEAL = TEMPLATE_INDEX[(Deal,)]
DISCARD_DEAL = TEMPLATE_INDEX[(DiscardDeal,)]
KINDS = (Pass, LeaveAuction, Done, Bid, StartAuction, BuyShare, SellShare, Offer, Respond, Close, Dividend,
         Issue, FormCorporation, DeclineIpo, AddPurchase, Deal, DiscardDeal, RespondDeal)


#: the action space by blocks and fields (:mod:`rolling.research.layout`): index <-> (block, fields)
ACTION_LAYOUT = ActionLayout("stars", (
    ("pass", (), "pass (phase 1)"),
    ("leave_auction", (), "leave the auction"),
    ("done", (), "done (phases 3, 4)"),
    ("bid", (), "bid; then the amount"),
    ("start_auction", (("company", NC),), "start an auction of the company; then the first bid"),
    ("buy_share", (("corporation", NK), ("presidents_share", 2)), "buy one share (1: name the President's Share)"),
    ("sell_share", (("corporation", NK),), "sell one share"),
    ("offer", (("corporation", NK), ("company", NC)), "the corporation offers to buy the company; then the price"),
    ("respond", (("corporation", NK), ("company", NC), ("reject", 2)), "answer the proposal: 0 accept, 1 reject"),
    ("close", (("company", NC),), "close the company"),
    ("dividend", (("corporation", NK),), "the corporation pays a dividend; then the amount per share"),
    ("issue", (("corporation", NK), ("decline", 2)), "0 issue a share, 1 do not"),
    ("form_corporation", (("company", NC), ("corporation", NK)), "form the corporation; then the share price"),
    ("decline_ipo", (("company", NC),), "keep the company private this turn"),
    ("add_purchase", (("corporation", NK), ("company", NC)), "deals: add a purchase to the deal being built; then the price"),
    ("propose_deal", (), "deals: propose the deal built so far"),
    ("discard_deal", (), "deals: discard the deal being built"),
    ("respond_deal", (("slot", MAX_OPEN_DEALS), ("reject", 2)), "deals: answer the open deal in the slot: 0 accept, 1 reject"),
    ("amount", (("dollars", AMOUNTS),), "the amount $ of the selected template"),
), text=lambda index: action_text(index))


def check_config(config: Config) -> Config:
    """Validate ``config`` for the research interfaces (raises RecordError; see module docstring)."""
    config = config.validate()
    if FI_STANDING_OFFER in config.compat:
        raise RecordError(f"compat option {FI_STANDING_OFFER!r} is not in the research action space")
    return config


def template_key(move) -> tuple[tuple, int | None, int | None]:
    """``(template, lo, hi)`` of a compact legal move: its amount range ($), or None, None."""
    kind, a = move.kind, move.args
    if kind in (Pass, LeaveAuction, Done, Bid):
        key: tuple = (kind,)
    elif kind in (StartAuction, Close, DeclineIpo):
        key = (kind, D.INDEX[a["company"]])
    elif kind is BuyShare:
        key = (kind, D.CORP_INDEX[a["corporation"]], bool(a.get("presidents_share", False)))
    elif kind in (SellShare, Dividend):
        key = (kind, D.CORP_INDEX[a["corporation"]])
    elif kind is Offer:
        key = (kind, D.CORP_INDEX[a["corporation"]], D.INDEX[a["company"]])
    elif kind is Respond:
        key = (kind, D.CORP_INDEX[a["corporation"]], D.INDEX[a["company"]], bool(a["accept"]))
    elif kind is Issue:
        key = (kind, D.CORP_INDEX[a["corporation"]], bool(a["issue"]))
    elif kind is FormCorporation:
        key = (kind, D.INDEX[a["company"]], D.CORP_INDEX[a["corporation"]])
    else:
        raise ValueError(f"{kind.__name__} is not in the research action space")
    if move.field is not None:
        return key, move.lo, move.hi
    f = AMOUNT_FIELD.get(kind)
    if f is not None:
        return key, a[f], a[f]
    return key, None, None


def build_action(template: tuple, seat: int, amount: int | None):
    """The engine action of a template for ``seat`` with ``amount`` ($, None: no amount)."""
    kind = template[0]
    if kind in (Pass, LeaveAuction, Done):
        return kind(seat)
    if kind is Bid:
        return Bid(seat, amount)
    if kind is StartAuction:
        return StartAuction(seat, D.CODES[template[1]], amount)
    if kind is BuyShare:
        return BuyShare(seat, D.CORP_SYMBOLS[template[1]], template[2])
    if kind is SellShare:
        return SellShare(seat, D.CORP_SYMBOLS[template[1]])
    if kind is Offer:
        return Offer(seat, D.CORP_SYMBOLS[template[1]], D.CODES[template[2]], amount)
    if kind is Respond:
        return Respond(seat, D.CORP_SYMBOLS[template[1]], D.CODES[template[2]], template[3])
    if kind is Close:
        return Close(seat, D.CODES[template[1]])
    if kind is Dividend:
        return Dividend(seat, D.CORP_SYMBOLS[template[1]], amount)
    if kind is Issue:
        return Issue(seat, D.CORP_SYMBOLS[template[1]], template[2])
    if kind is FormCorporation:
        return FormCorporation(seat, D.CODES[template[1]], D.CORP_SYMBOLS[template[2]], amount)
    return DeclineIpo(seat, D.CODES[template[1]])


def template_text(template: tuple) -> str:
    """A short readable name of a template (``"offer PR MHE"``, ``"respond_deal 0 true"``); symbols
    and codes as in actions, open deals by slot."""
    kind, rest = template[0], template[1:]
    words = ["propose_deal" if kind is Deal else kind.type_name]
    for k, v in enumerate(rest):
        if isinstance(v, bool):
            words.append(str(v).lower())
        elif kind is RespondDeal:
            words.append(str(v))
        elif kind in (StartAuction, Close, DeclineIpo) or (kind in (Offer, Respond, AddPurchase) and k == 1) or (
            kind is FormCorporation and k == 0
        ):
            words.append(D.CODES[v])
        else:
            words.append(D.CORP_SYMBOLS[v])
    return " ".join(words)


def action_text(index: int) -> str:
    """A short readable name of an action index (``"amount $12"`` for the amount entries)."""
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"action index must be 0..{N_ACTIONS - 1}, got {index}")
    if index >= AMOUNT0:
        return f"amount ${index - AMOUNT0}"
    return template_text(TEMPLATES[index])


class StarsTable(Table):
    """A Stars state driven by action indices, for one decision at a time.

    ``pending`` is ``(seat, template, values)`` while ``seat`` must pick the amount of the template
    it selected (``values``: the legal amounts as ``(lo, hi)`` ranges, clipped to MAX_AMOUNT).
    ``deal`` is ``(seat, purchases)`` while ``seat`` builds a deal (variant ``deals``):
    ``purchases`` the ``(corporation, company, price $)`` added so far, engine indices.
    """

    __slots__ = ("pending", "deal")

    def __init__(self, state: StarsState):
        super().__init__(state)
        self.pending: tuple | None = None
        self.deal: tuple | None = None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act: the engine's, or only the seat picking an amount or building a deal."""
        if self.pending is not None:
            return (self.pending[0],)
        if self.deal is not None:
            return (self.deal[0],)
        return self.state.to_act

    def _options(self, seat: int) -> dict[int, list[tuple[int, int]] | None]:
        """Legal template index -> the legal amounts as ``(lo, hi)`` ranges, or None (no amount)."""
        s = self.state
        if self.deal is not None:
            return self._building(seat) if seat == self.deal[0] else {}
        out: dict[int, list | None] = {}
        for m in s.legal_moves(seat):
            kind = m.kind
            if kind is Deal:  # the engine's swaps: built purchase by purchase instead (module docstring)
                continue
            if kind is RespondDeal:
                slot = _slot(s, m.args["transactions"])
                if slot < MAX_OPEN_DEALS:
                    out[TEMPLATE_INDEX[(RespondDeal, slot, m.args["accept"])]] = None
                continue
            key, lo, hi = template_key(m)
            k = TEMPLATE_INDEX[key]
            if lo is None:
                out[k] = None
            elif lo <= MAX_AMOUNT:
                out.setdefault(k, []).append((lo, min(hi, MAX_AMOUNT)))
        if len(s.deals) < MAX_OPEN_DEALS and DL.may_propose(s, seat):
            self._add_purchases(out, ())
        return out

    def _building(self, seat: int) -> dict[int, list[tuple[int, int]] | None]:
        """The next steps of ``seat``'s deal being built: discard, a purchase that keeps the series
        legal, propose (when the engine accepts the deal)."""
        s, purchases = self.state, self.deal[1]
        out: dict[int, list | None] = {DISCARD_DEAL: None}
        self._add_purchases(out, purchases)
        if len(purchases) >= 2 and len(s.deals) < MAX_OPEN_DEALS:
            try:
                DL.check_proposal(s, seat, purchases)
            except IllegalAction:
                pass
            else:
                out[PROPOSE_DEAL] = None
        return out

    def _add_purchases(self, out: dict, purchases: tuple) -> None:
        for c, i, lo, hi in DL.next_purchases(self.state, purchases):
            if lo <= MAX_AMOUNT:
                out[ADD_PURCHASE + NC * c + i] = [(lo, min(hi, MAX_AMOUNT))]

    def private_step(self, seat: int, index: int) -> bool:
        """Building a deal (``add_purchase``, its price, ``discard_deal``) is the builder's own
        business: the others learn the deal when it is proposed (``propose_deal``)."""
        if self.pending is not None:
            return self.pending[1][0] is AddPurchase
        return self.deal is not None and index != PROPOSE_DEAL or (
            0 <= index < N_TEMPLATES and TEMPLATES[index][0] is AddPurchase)

    def mask(self, seat: int) -> np.ndarray:
        """int8 mask of shape (N_ACTIONS,): the legal indices of ``seat`` now."""
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if self.pending is not None:
            if seat == self.pending[0]:
                for lo, hi in self.pending[2]:
                    mask[AMOUNT0 + lo: AMOUNT0 + hi + 1] = 1
            return mask
        if self.state.over:
            return mask
        for k in self._options(seat):
            mask[k] = 1
        return mask

    def apply_index(self, seat: int, index: int) -> None:
        """Take action ``index`` for ``seat``.

        Raises:
            ValueError: the index is not legal for that seat now (nothing changes).
        """
        index = int(index)
        if self.pending is not None:
            p_seat, template, values = self.pending
            amount = index - AMOUNT0
            if seat != p_seat or not any(lo <= amount <= hi for lo, hi in values):
                raise ValueError(f"{action_text(index) if 0 <= index < N_ACTIONS else index} is not legal now "
                                 f"(seat {p_seat} picks the amount of {template_text(template)})")
            self.pending = None
            self._take(seat, template, amount)
            return
        opts = self._options(seat) if 0 <= index < N_TEMPLATES and not self.state.over else {}
        if index not in opts:
            raise ValueError(f"action {index} is not legal for seat {seat} now")
        values = opts[index]
        template = TEMPLATES[index]
        if values is None:
            self._take(seat, template, None)
        elif len(values) == 1 and values[0][0] == values[0][1]:
            self._take(seat, template, values[0][0])
        else:
            self.pending = (seat, template, tuple(values))

    def _take(self, seat: int, template: tuple, amount: int | None) -> None:
        """Carry out a legal template with its amount: a step of a deal being built, or an engine action."""
        kind = template[0]
        if kind is AddPurchase:
            before = self.deal[1] if self.deal is not None else ()
            self.deal = (seat, before + ((template[1], template[2], amount),))
        elif kind is DiscardDeal:
            self.deal = None
        elif kind is Deal:
            self.state.apply(Deal(seat, _transactions(self.deal[1])))
            self.deal = None
        elif kind is RespondDeal:
            self.state.apply(RespondDeal(seat, _transactions(self.state.deals[template[1]][1]), template[2]))
        else:
            self.state.apply(build_action(template, seat, amount))

    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` (shape (OBS.size,), float32; see :data:`OBS`)."""
        return observe(self, seat)


def _transactions(purchases) -> tuple[Transaction, ...]:
    return tuple(Transaction(D.CORP_SYMBOLS[c], D.CODES[i], price) for c, i, price in purchases)


def _slot(s: StarsState, transactions) -> int:
    """The slot (place in ``s.deals``) of the open deal with these transactions."""
    purchases = tuple((D.CORP_INDEX[x.corporation], D.INDEX[x.company], x.price) for x in transactions)
    return next(k for k, d in enumerate(s.deals) if d[1] == purchases)


# ------------------------------------------------------------------ observation
#: dollars in the observation are divided by DOLLARS and clipped at MONEY_CAP (no rule bounds them;
#: no seat, corporation or score came near it in simulated games, tests/research/test_layout.py)
DOLLARS = 100
MONEY_CAP = 2000
#: the turn number is clipped at TURN_CAP (random play ends well before; the rules end the game when
#: the deck runs out or the end card is reached)
TURN_CAP = 100
_M, _SH = MONEY_CAP, max(D.CORP_SHARES)
#: the highest cost of ownership: a top card's colour or the end card (Glossary, Cost of Ownership)
_COST = max(c for c, _ in (*D.COST_BY_TOP_COLOR, D.END_CARD_BACK, D.END_CARD_FRONT))
OBS = Layout()
_me = OBS.add("me", MAXP, "1 at the observing seat (seats 0-5)")
_present = OBS.add("seat_in_game", MAXP, "1 for each seat in the game")
_position = OBS.add("player_order", MAXP, "position of each seat in player order (1 = first), 0 if absent", high=MAXP)
_cash = OBS.add("cash", MAXP, "cash of each seat in $ (0 where not visible)", high=_M, scale=DOLLARS)
_cash_seen = OBS.add("cash_visible", MAXP, "1 where that seat's cash is visible to the observer (secret-money hides others' but a two-handed partner's)")
_worth = OBS.add("worth", MAXP, "score if the game ended now ($; 0 where cash is not visible)", high=_M, scale=DOLLARS)
_passed = OBS.add("passed", MAXP, "phase 1: the seat has passed (player order card vertical)")
_done = OBS.add("done", MAXP, "phases 3-4: the seat has declared done")
_phase = OBS.add("phase", 9, "one-hot phase 1-9")
_turn = OBS.add("turn", 1, "turn number (1..)", high=TURN_CAP)
_owner = OBS.add(
    "company_owner", NC * 17,
    "company i (0-35, ascending face value) x owner one-hot [seat 0-5, corporation 0-7, foreign investor, "
    "offering, not in play (deck, removed at setup or closed)]: entry 17*i + k",
)
_avail = OBS.add("available", NC, "company in the offering and not drawn this phase (may be auctioned)")
_flight = OBS.add("in_flight", NC, "phase 3: company transferred this phase")
_deckpos = OBS.add("deck_position", NC, "open-companies variant: place of the company in the deck (1 = top), else 0",
                   high=NC)
_deck = OBS.add("deck", 13, "deck size, top card colour one-hot (red, orange, yellow, green, blue), end card "
                "flipped, cost of ownership $, colours paying it (5)",
                high=(NC, 1, 1, 1, 1, 1, 1, _COST, 1, 1, 1, 1, 1))
_corp = OBS.add(
    "corporations", NK * 21,
    "corporation c (0-7: PR DA S VM SI SM JS OS) x 21: active, cash $, share price $, price card (1-27, 0 none), "
    "issued shares, bank shares, president one-hot [none, seat 0-5], shares held by seat 0-5, $ received this "
    "phase, card turned this phase: entry 21*c + k",
    high=(1, _M, max(D.PRICES), D.N_CARDS, _SH, _SH, *[1] * 7, *[_SH] * MAXP, _M, 1),
    scale=(1, DOLLARS, DOLLARS, 1, 1, 1, *[1] * 7, *[1] * MAXP, DOLLARS, 1),
)
_fi = OBS.add("foreign_investor_cash", 1, "cash of the foreign investor ($)", high=_M, scale=DOLLARS)
_auction = OBS.add("auction", 1 + NC + 1 + 3 * MAXP,
                   "auction running, company one-hot (36), high bid $, high bidder one-hot (6), starter one-hot (6), "
                   "seats still in (6)",
                   high=(*[1] * (1 + NC), _M, *[1] * 3 * MAXP), scale=(*[1] * (1 + NC), DOLLARS, *[1] * 3 * MAXP))
_proposals = OBS.add("proposals", NK * NC, "open purchase proposal of corporation c for company i: its price $ "
                     "(entry 36*c + i; 0 none)",
                     high=_M, scale=DOLLARS)
_announce = OBS.add("announcement", 1 + NK + NC + NK, "purchase from the foreign investor announced: flag, "
                    "announcing corporation one-hot, company one-hot, corporation asked now one-hot")
_pending = OBS.add("selected", 1 + len(KINDS) + NC + NK,
                   "the observer has selected a template and picks its amount: flag, action kind one-hot (pass, "
                   "leave_auction, done, bid, start_auction, buy_share, sell_share, offer, respond, close, "
                   "dividend, issue, form_corporation, decline_ipo, add_purchase, propose_deal, discard_deal, "
                   "respond_deal), its company one-hot, its corporation one-hot")
#: per company of a deal: its place in the deal (1 = first purchase, 0 = not in it), the buying
#: corporation one-hot, the price $
_PURCHASE = 1 + NK + 1
_DEAL = 1 + 2 * MAXP + NC * _PURCHASE
_open_deals = OBS.add(
    "open_deals", MAX_OPEN_DEALS * _DEAL,
    f"variant deals: open deal in slot d (0-{MAX_OPEN_DEALS - 1}, the order they were proposed in; the slot of "
    f"respond_deal) x {_DEAL}: open, proposer one-hot (seat 0-5), seats still to accept (6), then company i "
    f"(0-35) x [place in the deal (1 = first purchase, 0 = not in it), buying corporation one-hot (8), price $] "
    f"at 13 + {_PURCHASE}*i + k: entry {_DEAL}*d + k",
    high=(*[1] * (1 + 2 * MAXP), *(NC, *[1] * NK, _M) * NC), scale=(*[1] * (1 + 2 * MAXP), *(1, *[1] * NK, DOLLARS) * NC),
)
_building = OBS.add(
    "deal_building", 2 + NC * _PURCHASE,
    f"variant deals: the observer is building a deal: flag, purchases added so far, then company i x "
    f"[place in the deal, buying corporation one-hot (8), price $] at 2 + {_PURCHASE}*i + k",
    high=(1, NC, *(NC, *[1] * NK, _M) * NC), scale=(1, 1, *(1, *[1] * NK, DOLLARS) * NC),
)


def _company_and_corp(template: tuple) -> tuple[int | None, int | None]:
    kind = template[0]
    if kind in (StartAuction, Close, DeclineIpo):
        return template[1], None
    if kind in (BuyShare, SellShare, Dividend, Issue):
        return None, template[1]
    if kind in (Offer, Respond, AddPurchase):
        return template[2], template[1]
    if kind is FormCorporation:
        return template[1], template[2]
    return None, None


def observe(table: StarsTable, seat: int) -> np.ndarray:
    """What ``seat`` sees, as the flat vector :data:`OBS` documents (hidden: the deck's order unless
    open-companies, others' cash with secret-money, by the rule of ``view``:
    :func:`rolling.games.stars.view.cash_audience`, so a two-handed hand sees its partner's cash):
    :func:`encode`'s raw values scaled to ``OBS.low..OBS.high`` (dollars / :data:`DOLLARS`)."""
    return OBS.bounded(encode(table, seat))


def encode(table: StarsTable, seat: int) -> np.ndarray:
    """The raw observation of ``seat`` (dollars in $, counts as they are; float32, shape
    (OBS.size,)): what :func:`observe` scales."""
    s = table.state
    o = np.zeros(OBS.size, dtype=np.float32)
    o[_me.start + seat] = 1
    for pos, p in enumerate(s.order):
        o[_present.start + p] = 1
        o[_position.start + p] = pos + 1
        if sees(cash_audience(s, p), seat):
            o[_cash.start + p] = s.cash[p]
            o[_cash_seen.start + p] = 1
            companies = sum(D.FACE[i] for i in range(NC) if s.company_owner[i] == p)
            shares = sum(s.held[c * MAXP + p] * s.share_price(c) for c in range(NK) if s.corp_active[c])
            o[_worth.start + p] = s.cash[p] + companies + shares
        o[_passed.start + p] = s.passed >> p & 1
        o[_done.start + p] = s.done >> p & 1
    o[_phase.start + s.phase - 1] = 1
    o[_turn.start] = s.turn
    base = _owner.start
    for i, w in enumerate(s.company_owner):
        if 0 <= w < MAXP:
            k = w
        elif CORP_BASE <= w < CORP_BASE + NK:
            k = 6 + w - CORP_BASE
        elif w == FOREIGN_INVESTOR:
            k = 14
        elif w == IN_OFFERING:
            k = 15
            if not s.unavailable >> i & 1:
                o[_avail.start + i] = 1
        else:
            k = 16
        o[base + 17 * i + k] = 1
        if s.in_flight >> i & 1:
            o[_flight.start + i] = 1
    if "open-companies" in s.config.variants:
        for depth, i in enumerate(reversed(s.deck)):
            o[_deckpos.start + i] = depth + 1
    d = _deck.start
    o[d] = len(s.deck)
    top = s.top_color()
    if top is not None:
        o[d + 1 + top] = 1
    o[d + 6] = s.end_flipped
    cost, colours = s.cost_of_ownership()
    o[d + 7] = cost
    for k in range(5):
        o[d + 8 + k] = colours >> k & 1
    for c in range(NK):
        b = _corp.start + 21 * c
        if not s.corp_active[c]:
            continue
        o[b] = 1
        o[b + 1] = s.corp_cash[c]
        o[b + 2] = s.share_price(c)
        o[b + 3] = s.corp_card[c] + 1
        o[b + 4] = s.corp_issued[c]
        o[b + 5] = s.bank_shares(c)
        o[b + 6 + s.president[c] + 1] = 1
        for p in range(s.n):
            o[b + 13 + p] = s.held[c * MAXP + p]
        o[b + 19] = s.received[c]
        o[b + 20] = s.processed >> c & 1
    o[_fi.start] = s.fi_cash
    if s.auction is not None:
        i, high, bidder, starter, _, in_mask = s.auction
        a = _auction.start
        o[a] = 1
        o[a + 1 + i] = 1
        o[a + 1 + NC] = high
        o[a + 2 + NC + bidder] = 1
        o[a + 2 + NC + MAXP + starter] = 1
        for p in range(s.n):
            o[a + 2 + NC + 2 * MAXP + p] = in_mask >> p & 1
    for c, i, price, _seller in s.pending:
        o[_proposals.start + NC * c + i] = price
    if s.announcement is not None:
        announcer, i, queue, k = s.announcement
        a = _announce.start
        o[a] = 1
        o[a + 1 + announcer] = 1
        o[a + 1 + NK + i] = 1
        o[a + 1 + NK + NC + queue[k]] = 1
    for d, (proposer, purchases, waiting) in enumerate(s.deals[:MAX_OPEN_DEALS]):
        a = _open_deals.start + _DEAL * d
        o[a] = 1
        o[a + 1 + proposer] = 1
        for p in range(s.n):
            o[a + 1 + MAXP + p] = waiting >> p & 1
        _put_purchases(o, a + 1 + 2 * MAXP, purchases)
    if table.deal is not None and table.deal[0] == seat:
        a = _building.start
        o[a] = 1
        o[a + 1] = len(table.deal[1])
        _put_purchases(o, a + 2, table.deal[1])
    if table.pending is not None and table.pending[0] == seat:
        template = table.pending[1]
        a = _pending.start
        o[a] = 1
        o[a + 1 + KINDS.index(template[0])] = 1
        company, corp = _company_and_corp(template)
        if company is not None:
            o[a + 1 + len(KINDS) + company] = 1
        if corp is not None:
            o[a + 1 + len(KINDS) + NC + corp] = 1
    return o


def _put_purchases(o: np.ndarray, start: int, purchases) -> None:
    for place, (c, i, price) in enumerate(purchases, 1):
        b = start + _PURCHASE * i
        o[b] = place
        o[b + 1 + c] = 1
        o[b + 1 + NK] = price
