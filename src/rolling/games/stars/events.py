"""The log of a Rolling Stock Stars game: the kinds of event, who may see one, and its text.

An event is a tuple ``(kind, visibility, *fields)``, the form every game's log shares
(:mod:`rolling.core.events`):

- ``kind``: one of the string constants below (:data:`PASS`, :data:`BUY_SHARE`, ...);
- ``visibility``: a bitmask of the viewers who may see it, bit ``seat`` for a player and bit
  :data:`ONLOOKER` for an onlooker (``seat=None``); :data:`PUBLIC` (-1, every bit set) for all;
- ``fields``: what happened, as the engine holds it: seats, corporation and company indexes, $
  amounts, now and then a fixed string. Never text built from them.

The engine appends events to ``state.log`` only when the log is on (``if s.log is not None: ...``),
so a game without a log builds neither events nor text. Text is made here, for one viewer at a
time, when a screen asks for it (:func:`render`, :func:`lines`), in the game's edition (v2.2 names
in a v2.2 game).

Secret private money (variant; 002, 3.2): a player's cash is hidden from the others, while every
payment stays public ("the private money is perfectly trackable"). The engine sometimes acts for a
player because of their cash alone: it passes for a player who can afford nothing, and it passes
over the IPO of a company whose owner cannot pay for any corporation. Saying why would tell the
table that player's cash. Such a moment is logged as two events with complementary visibilities: a
private one, with the reason, for the viewers who may see that player's cash
(:func:`rolling.games.stars.view.cash_audience`, the rule ``view(seat)`` uses), and a public one,
worded as a free choice would be, for everyone else (:func:`private`). Each viewer sees exactly one
of them. Without the variant the private one is public and the other is not logged.

At the end of the game the final scores are public (everyone counts their book value).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rolling.core import events as core

# the log's form is shared by every game (rolling.core.events): re-exported for this game's modules
from rolling.core.events import ONLOOKER as ONLOOKER
from rolling.core.events import PUBLIC as PUBLIC
from rolling.core.events import sees as sees

from . import data as D
from .state import PHASE_NAMES

if TYPE_CHECKING:
    from .state import StarsState

# -- kinds. Each one's text is in TEXT below; its fields are named there, in order.
PHASE = "phase"
# phase 1
PASS = "pass"
PASS_NO_CHOICE = "pass_no_choice"
START_AUCTION = "start_auction"
BID = "bid"
LEAVE_AUCTION = "leave_auction"
LEAVE_NO_MONEY = "leave_no_money"
WIN_AUCTION = "win_auction"
DRAW = "draw"
BUY_SHARE = "buy_share"
TAKE_PRESIDENCY = "take_presidency"
SELL_SHARE = "sell_share"
RECEIVERSHIP = "receivership"
NEW_PRESIDENT = "new_president"
# phase 2
PLAYER_ORDER = "player_order"
FI_BUYS = "fi_buys"
# phase 3
DONE_BUYING = "done_buying"
ANNOUNCE = "announce"
RECEIVER_ANNOUNCES = "receiver_announces"
OFFER = "offer"
PREEMPT = "preempt"
NO_PREEMPT = "no_preempt"
REJECT = "reject"
BUY_COMPANY = "buy_company"
LAPSE = "lapse"
ANNOUNCE_LAPSE = "announce_lapse"
ANNOUNCE_LAPSE_AT_END = "announce_lapse_at_end"
# phase 3, variant deals
DEAL_PROPOSE = "deal_propose"
DEAL_ACCEPT = "deal_accept"
DEAL_REJECT = "deal_reject"
DEAL = "deal"
DEAL_LAPSE = "deal_lapse"
# phase 4
CLOSE = "close"
SCRAP_BONUS = "scrap_bonus"
DONE_CLOSING = "done_closing"
# phase 5
COST = "cost"
EARNS = "earns"
PAYS = "pays"
CANNOT_PAY = "cannot_pay"
BANKRUPT = "bankrupt"
# phase 6
DIVIDEND = "dividend"
PRICE_MOVE = "price_move"
# phase 7
END_CARD_FLIPPED = "end_card_flipped"
# phase 8
ISSUE = "issue"
NO_ISSUE = "no_issue"
# phase 9
FORM = "form"
KEEP_PRIVATE = "keep_private"
CANNOT_FORM = "cannot_form"
# game end
GAME_END = "game_end"
RANK = "rank"

#: TEXT[kind] = (template, field names). A field is shown by its name: ``p``, ``p2`` a seat (the
#: player's name); ``c``, ``c2`` a corporation (its name in the edition); ``i`` a company (its
#: code); ``e`` an owner code (player, corporation or foreign investor; ``E`` the same with a
#: capital letter, to open a sentence); ``deal`` the purchases of a deal, ((corporation, company,
#: price $), ...); ``order`` a tuple of seats; ``colors`` a bitmask of
#: colours; ``phase`` a phase number (with its name); any other field as it is.
TEXT: dict[str, tuple[str, tuple[str, ...]]] = {
    PHASE: ("-- Turn {turn}, phase {phase} --", ("turn", "phase")),
    PASS: ("{p} passes.", ("p",)),
    PASS_NO_CHOICE: ("{p} passes (no other action possible).", ("p",)),
    START_AUCTION: ("{p} starts an auction of {i} with a bid of ${bid}.", ("p", "i", "bid")),
    BID: ("{p} bids ${amount} for {i}.", ("p", "i", "amount")),
    LEAVE_AUCTION: ("{p} leaves the auction.", ("p",)),
    LEAVE_NO_MONEY: ("{p} leaves the auction: they cannot raise the bid of ${bid} (a bid may not exceed their money).", ("p", "bid")),
    WIN_AUCTION: ("{p} wins {i} for ${price}.", ("p", "i", "price")),
    DRAW: ("{i} is drawn into the offering (unavailable this phase).", ("i",)),
    BUY_SHARE: ("{p} buys a share of {c} for ${price}.", ("p", "c", "price")),
    TAKE_PRESIDENCY: ("{p} takes the President's Share: {c} leaves receivership.", ("p", "c")),
    SELL_SHARE: ("{p} sells a share of {c} for ${price}.", ("p", "c", "price")),
    RECEIVERSHIP: ("{c} goes into receivership.", ("c",)),
    NEW_PRESIDENT: ("{p} becomes president of {c}.", ("p", "c")),
    PLAYER_ORDER: ("New player order: {order}.", ("order",)),
    FI_BUYS: ("The foreign investor buys {i} for ${price}.", ("i", "price")),
    DONE_BUYING: ("{p} is done with acquisitions.", ("p",)),
    ANNOUNCE: ("{c} announces it will buy {i} from the foreign investor for ${price}.", ("c", "i", "price")),
    RECEIVER_ANNOUNCES: (
        "{c} (in receivership) announces it will buy {i} from the foreign investor for ${price}.",
        ("c", "i", "price"),
    ),
    OFFER: ("{c} offers ${price} to {e} for {i}.", ("c", "e", "i", "price")),
    PREEMPT: ("{c} pre-empts {c2}.", ("c", "c2")),
    NO_PREEMPT: ("{c} does not pre-empt.", ("c",)),
    REJECT: ("{p} rejects {c}'s offer for {i}.", ("p", "c", "i")),
    BUY_COMPANY: ("{c} buys {i} from {e} for ${price}.", ("c", "i", "e", "price")),
    LAPSE: ("{c}'s offer for {i} lapses.", ("c", "i")),
    ANNOUNCE_LAPSE: ("{c}'s announced purchase of {i} lapses.", ("c", "i")),
    ANNOUNCE_LAPSE_AT_END: ("{c}'s announced purchase of {i} lapses at the end of the phase.", ("c", "i")),
    DEAL_PROPOSE: ("{p} proposes a deal: {deal}.", ("p", "deal")),
    DEAL_ACCEPT: ("{p} accepts the deal: {deal}.", ("p", "deal")),
    DEAL_REJECT: ("{p} rejects the deal: {deal}.", ("p", "deal")),
    DEAL: ("Deal, in one step: {deal}.", ("deal",)),
    DEAL_LAPSE: ("The deal proposed by {p} lapses: {deal}.", ("p", "deal")),
    CLOSE: ("{E} closes {i}.", ("e", "i")),
    SCRAP_BONUS: ("{c} receives a ${bonus} scrapping bonus.", ("c", "bonus")),
    DONE_CLOSING: ("{p} is done closing companies.", ("p",)),
    COST: ("Cost of ownership: ${cost} per {colors} company.", ("cost", "colors")),
    EARNS: ("{E} earns ${amount}.", ("e", "amount")),
    PAYS: ("{E} pays ${amount}.", ("e", "amount")),
    CANNOT_PAY: ("{c} cannot pay its negative income of ${amount}.", ("c", "amount")),
    BANKRUPT: ("{c} goes bankrupt: its companies leave the game and its shares become worthless.", ("c",)),
    DIVIDEND: ("{c} pays ${amount} per share (${total} in all).", ("c", "amount", "total")),
    PRICE_MOVE: ("{c}'s share price moves from ${old} to ${new}.", ("c", "old", "new")),
    END_CARD_FLIPPED: (
        "No unowned companies are left: the game end card is flipped ($10 cost of ownership). Last turn!",
        (),
    ),
    ISSUE: ("{c} issues a share for ${price}.", ("c", "price")),
    NO_ISSUE: ("{c} issues no share.", ("c",)),
    FORM: (
        "{p} forms {c} with {i} at ${price}: {n} share(s) each to {p} and the bank; "
        "{p} pays ${pay}, the corporation holds ${treasury}.",
        ("p", "c", "i", "price", "n", "pay", "treasury"),
    ),
    KEEP_PRIVATE: ("{p} keeps {i} private.", ("p", "i")),
    CANNOT_FORM: ("{p} cannot pay for a corporation with {i} and keeps it private.", ("p", "i")),
    GAME_END: ("The game ends: {reason}.", ("reason",)),
    RANK: ("  {rank}. {p}: ${score}", ("rank", "p", "score")),
}

#: kinds that tell a player's cash, each with the field naming that player: logged only through
#: :func:`private`, so that they reach only the viewers who may see that cash
REVEALS_CASH: dict[str, str] = {PASS_NO_CHOICE: "p", CANNOT_FORM: "p", LEAVE_NO_MONEY: "p"}


def private(log: list, audience: int, secret: tuple, public: tuple) -> None:
    """Log one moment twice: ``(*secret)`` for the viewers in ``audience``, ``(*public)`` for the
    others (not logged when ``audience`` is everyone). Both are ``(kind, *fields)``."""
    log.append((secret[0], audience, *secret[1:]))
    if audience != PUBLIC:
        log.append((public[0], ~audience, *public[1:]))


def _field(s: StarsState, name: str, value) -> str:
    if name in ("p", "p2"):
        return s.names[value]
    if name in ("c", "c2"):
        return s.corp_name(value)
    if name == "i":
        return D.CODES[value]
    if name == "e":
        return s.entity_name(value)
    if name == "deal":
        return ", then ".join(f"{s.corp_name(c)} buys {D.CODES[i]} for ${price}" for c, i, price in value)
    if name == "order":
        return ", ".join(f"{k + 1}. {s.names[p]}" for k, p in enumerate(value))
    if name == "colors":
        return ", ".join(D.COLORS[k] for k in range(len(D.COLORS)) if value >> k & 1)
    if name == "phase":
        return f"{value}: {PHASE_NAMES[value]}"
    return str(value)


def render(s: StarsState, event: tuple, seat: int | None = None) -> str | None:
    """The text of ``event`` for the viewer ``seat`` (``None``: an onlooker), or None if that
    viewer may not see it. Names are those of ``s``'s edition."""
    if not sees(event[1], seat):
        return None
    template, names = TEXT[event[0]]
    values = {name: _field(s, name, v) for name, v in zip(names, event[2:], strict=True)}
    if "e" in values:
        e = values["e"]
        values["E"] = "The" + e[3:] if e.startswith("the ") else e
    return template.format(**values)


def enable_log(s: StarsState) -> None:
    """Start keeping the log of events in ``s.log`` (off by default, for speed); also the method
    ``StarsState.enable_log()``. The log holds events, not text: :func:`lines` renders them."""
    if s.log is None:
        s.log = [(PHASE, PUBLIC, s.turn, s.phase)]


def lines(s: StarsState, seat: int | None = None, start: int = 0) -> list[str]:
    """The text of the log's events from index ``start`` on that ``seat`` may see, one line each
    (empty when the log is off), in this game's edition; also the method ``StarsState.log_lines``."""
    return core.lines(s.log, seat, start, lambda event, viewer: render(s, event, viewer))
