"""The actions of Rolling Stock Stars.

Every action names the acting ``seat`` (0-based, fixed for the whole game; player order is kept
separately). Companies are named by code (``"MHE"``), corporations by symbol (``"PR"``, ``"OS"``...).
Money is in $ (the rule book's ●).
"""

from __future__ import annotations

from dataclasses import dataclass

from rolling.core.action import Action, action_type, json_reader
from rolling.core.errors import RecordError

#: JSON type name -> action class
ACTIONS: dict[str, type] = {}


@action_type(ACTIONS, "pass")
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Phase 1: the pass action (the player order card is turned vertical)."""

    seat: int


@action_type(ACTIONS, "start_auction")
@dataclass(frozen=True, slots=True)
class StartAuction(Action):
    """Phase 1: start an auction of an available ``company`` with a first ``bid`` ($ >= face value)."""

    seat: int
    company: str
    bid: int


@action_type(ACTIONS, "bid")
@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Auction: raise the running auction to ``amount`` $ (at least $1 more, at most own money)."""

    seat: int
    amount: int


@action_type(ACTIONS, "leave_auction")
@dataclass(frozen=True, slots=True)
class LeaveAuction(Action):
    """Auction: leave the running auction for good."""

    seat: int


@action_type(ACTIONS, "buy_share")
@dataclass(frozen=True, slots=True)
class BuyShare(Action):
    """Phase 1: Buy One Share of ``corporation`` from the bank.

    ``presidents_share``: the buyer names the share marked President's Share (legal only while
    the corporation is in receivership, where it is the share taken anyway). It changes nothing
    under the canonical rules; with compat option ``18xx-receivership-buy`` the buyer then pays
    the share price before the move (see :mod:`rolling.games.stars.config`). Written to JSON only
    when true.
    """

    seat: int
    corporation: str
    presidents_share: bool = False
    optional_fields = ("presidents_share",)


@action_type(ACTIONS, "sell_share")
@dataclass(frozen=True, slots=True)
class SellShare(Action):
    """Phase 1: Sell One Share of ``corporation`` to the bank."""

    seat: int
    corporation: str


@action_type(ACTIONS, "offer")
@dataclass(frozen=True, slots=True)
class Offer(Action):
    """Phase 3: the president of ``corporation`` proposes to buy ``company`` for ``price`` $.

    From the foreign investor this is the announcement of the intention to buy (``price`` must be
    the maximum of the price span, or the face value for Overseas Trading).
    """

    seat: int
    corporation: str
    company: str
    price: int


@action_type(ACTIONS, "respond")
@dataclass(frozen=True, slots=True)
class Respond(Action):
    """Phase 3: answer a question put to you: accept or reject the open proposal of
    ``corporation`` to buy ``company`` from you, or (``corporation`` being yours) take or decline
    the right to pre-empt a purchase of ``company`` from the foreign investor.

    ``announcer``: with compat option ``18xx-fi-standing-offer`` several announcements of the same
    company may stand at once; the symbol of the announcing corporation tells them apart (empty:
    the first one that asks ``corporation``). Written to JSON only when set.
    """

    seat: int
    corporation: str
    company: str
    accept: bool
    announcer: str = ""
    optional_fields = ("announcer",)


@action_type(ACTIONS, "done")
@dataclass(frozen=True, slots=True)
class Done(Action):
    """Phases 3 and 4 (any order): declare that you have nothing more to do in this phase."""

    seat: int


@action_type(ACTIONS, "close")
@dataclass(frozen=True, slots=True)
class Close(Action):
    """Phase 4: close ``company`` (owned privately, or by a corporation you preside)."""

    seat: int
    company: str


@action_type(ACTIONS, "dividend")
@dataclass(frozen=True, slots=True)
class Dividend(Action):
    """Phase 6: ``corporation`` pays ``amount`` $ per issued share."""

    seat: int
    corporation: str
    amount: int


@action_type(ACTIONS, "issue")
@dataclass(frozen=True, slots=True)
class Issue(Action):
    """Phase 8: ``corporation`` issues one share (``issue=True``) or not."""

    seat: int
    corporation: str
    issue: bool


@action_type(ACTIONS, "form_corporation")
@dataclass(frozen=True, slots=True)
class FormCorporation(Action):
    """Phase 9: Form Corporation ``corporation`` from the private ``company`` at share ``price`` $."""

    seat: int
    company: str
    corporation: str
    price: int


@action_type(ACTIONS, "decline_ipo")
@dataclass(frozen=True, slots=True)
class DeclineIpo(Action):
    """Phase 9: the owner of ``company`` does not form a corporation with it this turn."""

    seat: int
    company: str


@dataclass(frozen=True, slots=True)
class Transaction:
    """One purchase within a :class:`Deal`: ``corporation`` buys ``company`` from whoever owns it
    when the transaction's turn in the deal comes, for ``price`` $ (within the price span)."""

    corporation: str
    company: str
    price: int

    def to_json(self) -> dict:
        """``{"corporation", "company", "price"}``."""
        return {"corporation": self.corporation, "company": self.company, "price": self.price}

    @classmethod
    def of(cls, value) -> Transaction:
        """A checked Transaction from one, a ``(corporation, company, price)`` sequence or its JSON
        object.

        Raises:
            RecordError: anything else, or fields of the wrong kind.
        """
        if isinstance(value, Transaction):
            value = (value.corporation, value.company, value.price)  # built directly: check it too
        elif isinstance(value, dict):
            if set(value) != {"corporation", "company", "price"}:
                raise RecordError(f"a deal's transaction needs exactly corporation, company and price, got {value!r}")
            value = (value["corporation"], value["company"], value["price"])
        if not isinstance(value, (list, tuple)) or len(value) != 3:
            raise RecordError(f"a deal's transaction must be (corporation, company, price), got {value!r}")
        corporation, company, price = value
        if not isinstance(corporation, str) or not isinstance(company, str):
            raise RecordError(f"a deal's corporation and company are strings, got {value!r}")
        if not isinstance(price, int) or isinstance(price, bool):
            raise RecordError(f"a deal's price must be an integer, got {price!r}")
        return cls(corporation, company, price)


def _transactions(value) -> tuple[Transaction, ...]:
    if not isinstance(value, (list, tuple)):
        raise RecordError(f"a deal's transactions must be a list, got {value!r}")
    return tuple(Transaction.of(x) for x in value)


@action_type(ACTIONS, "deal")
@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Phase 3, variant ``deals`` (002, 3.1, complex transactions): propose ``transactions``, two or
    more purchases executed together, in the order given, as one step, or not at all.

    The proposer presides at least one of the buying corporations. Every player who gives something
    (the president of each buying corporation, each seller or its president) must accept; the
    proposal counts as the proposer's acceptance. ``transactions`` may be given as
    :class:`Transaction` records or ``(corporation, company, price)`` triples; JSON:
    ``{"type": "deal", "seat", "transactions": [{"corporation", "company", "price"}, ...]}``.
    """

    seat: int
    transactions: tuple[Transaction, ...]

    def __post_init__(self):
        object.__setattr__(self, "transactions", _transactions(self.transactions))

    def to_json(self) -> dict:
        return {"type": self.type_name, "seat": self.seat, "transactions": [x.to_json() for x in self.transactions]}


@action_type(ACTIONS, "respond_deal")
@dataclass(frozen=True, slots=True)
class RespondDeal(Action):
    """Phase 3, variant ``deals``: accept or reject the open deal with exactly these
    ``transactions`` (see :class:`Deal`); a rejection withdraws the whole deal."""

    seat: int
    transactions: tuple[Transaction, ...]
    accept: bool

    def __post_init__(self):
        object.__setattr__(self, "transactions", _transactions(self.transactions))

    def to_json(self) -> dict:
        return {
            "type": self.type_name,
            "seat": self.seat,
            "transactions": [x.to_json() for x in self.transactions],
            "accept": self.accept,
        }


#: what each action does, in the rule book's words, to complete "you cannot ..." (messages never
#: name a class)
WORDS: dict[type, str] = {
    Pass: "pass",
    StartAuction: "start an auction",
    Bid: "bid",
    LeaveAuction: "leave an auction",
    BuyShare: "buy shares",
    SellShare: "sell shares",
    Offer: "offer to buy a company",
    Respond: "answer a proposal",
    Done: "declare done",
    Close: "close companies",
    Dividend: "pay dividends",
    Issue: "issue shares",
    FormCorporation: "form a corporation",
    DeclineIpo: "keep a company private (that is phase 9: IPO)",
    Deal: "propose a deal",
    RespondDeal: "answer a deal",
}


#: ``from_json(data)``: build a Rolling Stock Stars action from its JSON form (raises RecordError;
#: see :func:`rolling.core.action.json_reader`)
from_json = json_reader(ACTIONS)
