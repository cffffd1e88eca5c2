"""Turning what a person types into Rolling Stock Stars actions, and the numbered menu with previews.

Typed commands (case-insensitive): ``bid MHE 9`` (start an auction, or ``bid 11`` to raise),
``leave``, ``buy PR``, ``sell OS``, ``pass``, ``offer OS PR 19`` (corporation OS proposes $19 for
company PR), ``accept`` / ``reject`` (optionally ``accept OS PR``), ``close BSE``, ``div 3``,
``issue`` / ``noissue``, ``ipo MHE PR 11``, ``decline``, ``done``; with the variant deals,
``deal VM OL 8 DA BY 7`` (purchases in the order they happen, accepted or rejected with
``accept`` / ``reject``). A menu number picks a listed
action; a number and a value (``4 12``) picks a ranged one with that value, and a number alone
asks for the value (:class:`AskAmount`). :func:`cautions` says what a careful player would say
before some actions (pass in an auction, done with proposals open, someone unable to pay in phase 5).

A corporation is typed and shown by its code in the game's edition (``PR`` in a Rolling Stock Stars
game, ``JUP`` in a v2.2 game, whose codes clash with no company code), or typed by a one-word name
there (``Jupiter``). Actions hold the canonical symbol in every edition.
"""

from __future__ import annotations

from typing import NamedTuple

from rolling.core.whole import parse_whole
from rolling.games.stars import (
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
    Move,
    Offer,
    Pass,
    Respond,
    RespondDeal,
    SellShare,
    StartAuction,
    Transaction,
    previews,
)
from rolling.games.stars import data as D
from rolling.games.stars.acquisition import fi_price
from rolling.games.stars.closing import must_close
from rolling.games.stars.engine import wrong_phase
from rolling.games.stars.procedures import income_of
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR, StarsState

GROUPS = {
    Pass: "pass",
    LeaveAuction: "auction",
    Bid: "auction",
    StartAuction: "auction",
    BuyShare: "shares",
    SellShare: "shares",
    Offer: "acquisition",
    Respond: "answers",
    Deal: "acquisition",
    RespondDeal: "answers",
    Done: "pass",
    Close: "closing",
    Dividend: "dividend",
    Issue: "issue",
    FormCorporation: "IPO",
    DeclineIpo: "IPO",
}


class InputError(ValueError):
    """What the person typed is not a legal action now; the message says why."""


def _corp(s: StarsState, text: str) -> int:
    c = D.corp_by_code(s.config.edition, text)
    if c is None:
        raise InputError(f"unknown corporation {text!r} (corporations: {', '.join(D.CORP_CODES[s.config.edition])})")
    return c


def _company(code: str) -> int:
    i = D.company_index(code)
    if i is None:
        raise InputError(f"unknown company {code!r}")
    return i


def describe(s: StarsState, m: Move) -> str:
    """A menu line for a move, with the numbers a player would work out by hand."""
    a = m.args
    k = m.kind
    rng = f" (${m.lo}-${m.hi})" if m.field and m.hi > m.lo else (f" (${m.lo})" if m.field else "")
    if k is Pass:
        return "pass"
    if k is LeaveAuction:
        return "leave the auction"
    if k is Bid:
        return f"raise the bid{rng}"
    if k is StartAuction:
        i = D.INDEX[a["company"]]
        return f"auction {a['company']} (face ${D.FACE[i]}, income ${D.INCOME[i]}, {D.COLORS[D.COLOR[i]]}){rng}"
    if k is BuyShare:
        c = D.CORP_INDEX[a["corporation"]]
        price = previews.buy_share(s, c, bool(a.get("presidents_share"))).amount
        extra = " (President's Share)" if a.get("presidents_share") else ""
        return f"buy a share of {s.corp_code(c)} {s.corp_name(c)} for ${price} (now ${s.share_price(c)}){extra}"
    if k is SellShare:
        c = D.CORP_INDEX[a["corporation"]]
        price = previews.sell_share(s, c).amount
        return f"sell a share of {s.corp_code(c)} {s.corp_name(c)} for ${price} (now ${s.share_price(c)})"
    if k is Offer:
        c = D.CORP_INDEX[a["corporation"]]
        i = D.INDEX[a["company"]]
        owner = s.company_owner[i]
        who = "foreign investor" if owner == FOREIGN_INVESTOR else s.entity_name(owner)
        gain = previews.purchase(s, c, i).gain
        price = f" for ${a['price']}" if "price" in a else rng
        return f"{s.corp_code(c)} buys {a['company']} from {who}{price} (income {gain:+d}/turn)"
    if k is Respond:
        c, i = D.CORP_INDEX[a["corporation"]], D.INDEX[a["company"]]
        if s.announcement is not None or "announcer" in a:
            price = fi_price(c, i)
            if a["accept"]:
                gain = previews.purchase(s, c, i).gain
                return (f"pre-empt: {s.corp_code(c)} buys {a['company']} from the foreign investor for ${price} "
                        f"(income {s.corp_code(c)} {gain:+d}/turn)")
            return f"do not pre-empt: {s.corp_code(c)} lets the announced purchase of {a['company']} (${price}) go"
        price = next((pr for pc, pi, pr, _ in s.pending if pc == c and pi == i), None)
        word = "accept" if a["accept"] else "reject"
        return f"{word}: {s.corp_code(c)} buys {a['company']} from you for ${price}{sale_incomes(s, c, i)}"
    if k is Deal:
        steps = ", then ".join(f"{s.corp_code(D.CORP_INDEX[x.corporation])} buys {x.company}" for x in a["transactions"])
        return f"deal: {steps}, each at one price{rng}"
    if k is RespondDeal:
        steps = ", then ".join(
            f"{s.corp_code(D.CORP_INDEX[x.corporation])} buys {x.company} for ${x.price}" for x in a["transactions"]
        )
        return f"{'accept' if a['accept'] else 'reject'} the deal: {steps}"
    if k is Done:
        return "done for this phase"
    if k is Close:
        i = D.INDEX[a["company"]]
        owner = s.company_owner[i]
        effect = previews.closing(s, i)
        scrap = f", scrap bonus ${effect.scrap_bonus}" if effect.scrap_bonus else ""
        return f"close {a['company']} of {s.entity_name(owner)} (income {effect.income.gain:+d}/turn{scrap})"
    if k is Dividend:
        c = D.CORP_INDEX[a["corporation"]]
        prev = ", ".join(f"${d}→${previews.dividend(s, c, d).price}" for d in range(m.lo, m.hi + 1))
        return f"dividend per share for {s.corp_code(c)} ({s.corp_issued[c]} shares; payout→share price: {prev})"
    if k is Issue:
        c = D.CORP_INDEX[a["corporation"]]
        if a["issue"]:
            return f"{s.corp_code(c)} issues a share: receives ${previews.issue_share(s, c).amount}"
        return f"{s.corp_code(c)} issues no share"
    if k is FormCorporation:
        i = D.INDEX[a["company"]]
        c = D.CORP_INDEX[a["corporation"]]
        terms = previews.ipo(D.FACE[i], a["price"])
        return (
            f"form {s.corp_code(c)} {s.corp_name(c)} with {a['company']} at ${a['price']}: "
            f"you pay ${terms.pay}, {terms.shares} share(s) each, treasury ${terms.treasury}"
        )
    if k is DeclineIpo:
        return f"keep {a['company']} private"
    return repr(m)


def sale_incomes(s: StarsState, c: int, i: int) -> str:
    """What a sale of company ``i`` to corporation ``c`` changes in phase 5 income (Collect
    Income), for the one answering the offer: `` (income: you -3/turn, PR +5/turn)``; the seller is
    the company's owner (a player, or a corporation its president answers for)."""
    owner = s.company_owner[i]
    lose = previews.income_change(s, owner, remove=(i,)).gain
    gain = previews.purchase(s, c, i).gain
    seller = "you" if owner < CORP_BASE else s.corp_code(owner - CORP_BASE)
    return f" (income: {seller} {lose:+d}/turn, {s.corp_code(c)} {gain:+d}/turn)"


def menu(s: StarsState, seat: int) -> list[tuple[str, str, Move]]:
    """(group, line, move) for every legal move of ``seat``, grouped by kind."""
    items = [(GROUPS.get(m.kind, "other"), describe(s, m), m) for m in s.legal_moves(seat)]
    order = ["answers", "auction", "shares", "acquisition", "closing", "dividend", "issue", "IPO", "pass", "other"]
    items.sort(key=lambda t: order.index(t[0]))
    return items


class AskAmount(NamedTuple):
    """A menu number typed without the amount its choice needs: the screen asks for the amount
    (the answer is an amount, never another menu number)."""

    move: Move
    line: str


def amount(m: Move, text: str):
    """The action of ranged move ``m`` with the typed amount ``text`` (raises InputError)."""
    return _value(m, text)


def cautions(s: StarsState, seat: int, action) -> tuple[str, list] | None:
    """What a careful player at the table would say before ``action`` is taken, and what the
    person means if they answer yes: ``(question, actions)``; None when there is nothing to say.

    - pass during an auction: the rule book stresses that pass and leaving an auction "are entirely
      different things"; leaving is for good;
    - done in phase 3 with proposals still open to the player: they stay open until answered;
    - done in phase 4, and forming a corporation, when someone could not pay in phase 5.
    """
    if isinstance(action, Pass) and s.auction is not None:
        company = D.CODES[s.auction[0]]
        return (
            f"Pass is not leaving the auction: you pass when it is your turn to act, and may act again "
            f"later; leaving the auction of {company} is for good, you may not bid in it again. "
            f"Leave the auction of {company}?",
            [LeaveAuction(seat)],
        )
    if isinstance(action, Done) and s.phase == 3:
        mine = [(c, i, price) for c, i, price, seller in s.pending if seller == seat]
        if mine:
            listed = "; ".join(f"{s.corp_code(c)} offers ${price} for {D.CODES[i]}" for c, i, price in mine)
            rejects = [Respond(seat, D.CORP_SYMBOLS[c], D.CODES[i], False) for c, i, _ in mine]
            done = [action] if any(m.kind is Done for m in s.legal_moves(seat)) else []
            return f"Open proposals to you: {listed}. Reject them all and be done?", rejects + done
    if isinstance(action, Done) and s.phase == 4:
        if must_close(s, seat):
            # Done is not a choice (the engine would refuse it): say so instead of asking
            closable = ", ".join(m.args["company"] for m in s.legal_moves(seat) if m.kind is Close)
            raise InputError(f"{s.names[seat]} could not pay an income of -${-income_of(s, seat)} in phase 5: "
                             f"close companies with negative income first ({closable})")
        short = [f for f in previews.phase5_shortfalls(s) if _concerns(s, seat, f.owner)]
        if short:
            return f"{' '.join(shortfall_text(s, f) for f in short)} Done anyway?", [action]
    if isinstance(action, FormCorporation):
        i, c = D.INDEX[action.company], D.CORP_INDEX[action.corporation]
        short = previews.ipo_shortfalls(s, seat, i, c, action.price)
        if short:
            return f"{' '.join(shortfall_text(s, f, after_ipo=True) for f in short)} Form it anyway?", [action]
    return None


def _concerns(s: StarsState, seat: int, owner: int) -> bool:
    """Whether ``owner`` is ``seat`` or a corporation ``seat`` presides."""
    return owner == seat or (CORP_BASE <= owner < FOREIGN_INVESTOR and s.president[owner - CORP_BASE] == seat)


def shortfall_text(s: StarsState, f: previews.Shortfall, after_ipo: bool = False) -> str:
    """One sentence: who could not pay what in phase 5 (Collect Income), and what follows."""
    when = "in the next phase 5" if after_ipo else "in phase 5"
    if CORP_BASE <= f.owner < FOREIGN_INVESTOR:
        c = f.owner - CORP_BASE
        has = "would start with" if after_ipo else "has"
        return (f"{s.corp_code(c)} {has} ${f.cash} and an income of -${-f.income}: it could not pay {when} "
                f"and would go bankrupt.")
    who = "you" if after_ipo else s.names[f.owner]
    has = "would have" if after_ipo else "has"
    return (f"{who[0].upper() + who[1:]} {has} ${f.cash} and an income of -${-f.income}: "
            f"{'you' if after_ipo else 'they'} could not pay it {when} without closing companies.")


def check_phase(s: StarsState, action) -> None:
    """Raise InputError, in the rule book's words, when ``action`` belongs to another phase."""
    why = wrong_phase(s, action)
    if why:
        raise InputError(why[0].upper() + why[1:] + ".")


def _value(m: Move, text: str | None):
    if m.field is None:
        if text is not None:
            raise InputError("that choice takes no number")
        return m.action()
    if text is None:
        if m.lo == m.hi:
            return m.action(m.lo)
        raise InputError(f"give a number from {m.lo} to {m.hi}, e.g. '{text or ''}{m.lo}'")
    v = _int(text)
    if not m.lo <= v <= m.hi:
        raise InputError(f"the amount must be between ${m.lo} and ${m.hi}")
    return m.action(v)


def parse(s: StarsState, seat: int, text: str, items: list[tuple[str, str, Move]]):
    """The action meant by ``text`` for ``seat`` (raises InputError with a one-line reason).

    The action is not checked against the rules here beyond what the menu offers: the engine's
    IllegalAction message is shown if it breaks one.
    """
    words = text.split()
    if not words:
        raise InputError("type a menu number or a command (help lists them)")
    w0 = words[0].lower()
    k = parse_whole(w0)
    if k is None and w0.isdigit():
        raise InputError(f"{words[0]!r} is not a menu number: type it with the digits 0-9")
    if k is not None:
        if not 1 <= k <= len(items):
            raise InputError(f"choose a number from 1 to {len(items)}")
        m = items[k - 1][2]
        if len(words) > 2:
            raise InputError(f"type the number alone, or with one amount: '{k} {m.lo}'")
        if len(words) == 1 and m.field is not None and m.hi > m.lo:
            return AskAmount(m, items[k - 1][1])
        return _value(m, words[1] if len(words) > 1 else None)
    args = words[1:]

    def need(n: int, usage: str):
        if len(args) != n:
            raise InputError(f"usage: {usage}")

    if w0 == "pass" or w0 == "decline" or w0 == "noissue":
        if s.phase == 1:
            return Pass(seat)  # in an auction too: see cautions(), pass is not leave
        if s.phase in (3, 4):
            if s.phase == 3 and s.announcement is not None:
                return _answer(s, seat, False, args)
            return Done(seat)
        if s.phase == 8:
            return Issue(seat, D.CORP_SYMBOLS[s.next_in_share_price_order()], False)
        if s.phase == 9:
            return DeclineIpo(seat, D.CODES[s.ipo_cursor])
        raise InputError("there is nothing to pass here")
    if w0 == "done":
        return Done(seat)
    if w0 == "leave":
        return LeaveAuction(seat)
    if w0 == "bid":
        if s.auction is not None:
            if len(args) == 2:
                running = D.CODES[s.auction[0]]
                if _company(args[0]) != s.auction[0]:
                    raise InputError(
                        f"the auction of {running} is running: raise its bid ('bid {s.auction[1] + 1}') or leave it; "
                        f"{D.CODES[_company(args[0])]} may be auctioned after it"
                    )
                args = args[1:]
            need(1, "bid AMOUNT")
            return Bid(seat, _int(args[0]))
        need(2, "bid COMPANY AMOUNT")
        return StartAuction(seat, D.CODES[_company(args[0])], _int(args[1]))
    if w0 == "buy":
        need(1, "buy CORPORATION")
        c = _corp(s, args[0])
        if "18xx-receivership-buy" in s.config.compat and s.president[c] < 0:
            return BuyShare(seat, D.CORP_SYMBOLS[c], presidents_share=True)
        return BuyShare(seat, D.CORP_SYMBOLS[c])
    if w0 == "sell":
        need(1, "sell CORPORATION")
        return SellShare(seat, D.CORP_SYMBOLS[_corp(s, args[0])])
    if w0 == "offer":
        need(3, "offer CORPORATION COMPANY PRICE")
        c = _corp(s, args[0])
        if not s.corp_active[c]:
            # said here, by name: the engine's message would quote the action's canonical symbol
            raise InputError(f"{s.corp_name(c)} is not an existing corporation")
        return Offer(seat, D.CORP_SYMBOLS[c], D.CODES[_company(args[1])], _int(args[2]))
    if w0 in ("accept", "reject"):
        return _answer(s, seat, w0 == "accept", args)
    if w0 == "deal":
        if len(args) < 6 or len(args) % 3:
            raise InputError("usage: deal CORPORATION COMPANY PRICE CORPORATION COMPANY PRICE ... (in the order they happen)")
        return Deal(
            seat,
            tuple(
                Transaction(D.CORP_SYMBOLS[_corp(s, args[k])], D.CODES[_company(args[k + 1])], _int(args[k + 2]))
                for k in range(0, len(args), 3)
            ),
        )
    if w0 == "close":
        need(1, "close COMPANY")
        return Close(seat, D.CODES[_company(args[0])])
    if w0 in ("div", "dividend"):
        need(1, "div AMOUNT")
        c = s.next_in_share_price_order()
        if s.phase != 6 or c is None:
            raise InputError("dividends are paid in phase 6")
        return Dividend(seat, D.CORP_SYMBOLS[c], _int(args[0]))
    if w0 == "issue":
        c = s.next_in_share_price_order()
        if s.phase != 8 or c is None:
            raise InputError("shares are issued in phase 8")
        return Issue(seat, D.CORP_SYMBOLS[c], True)
    if w0 == "ipo":
        need(3, "ipo COMPANY CORPORATION PRICE")
        return FormCorporation(seat, D.CODES[_company(args[0])], D.CORP_SYMBOLS[_corp(s, args[1])], _int(args[2]))
    raise InputError(f"unknown command {words[0]!r} (help lists the commands)")


def _int(text: str) -> int:
    """A typed $ amount (``"12"`` or ``"$12"``), ASCII digits only (raises InputError)."""
    v = parse_whole(text.removeprefix("$"))
    if v is None:
        raise InputError(f"{text!r} is not a whole number of $ (the digits 0-9)")
    return v


def _answer(s: StarsState, seat: int, accept: bool, args: list[str]):
    qs = [m for m in s.legal_moves(seat) if m.kind in (Respond, RespondDeal) and m.args["accept"] == accept]
    if args:
        qs = [m for m in qs if m.kind is Respond]
        if len(args) != 2:
            raise InputError("usage: accept|reject [CORPORATION COMPANY]")
        c, i = D.CORP_SYMBOLS[_corp(s, args[0])], D.CODES[_company(args[1])]
        qs = [m for m in qs if m.args["corporation"] == c and m.args["company"] == i]
    if not qs:
        raise InputError("there is no question for you to answer")
    if len(qs) > 1:
        a = qs[0].args
        example = f"{'accept' if accept else 'reject'} {s.corp_code(D.CORP_INDEX[a['corporation']])} {a['company']}"
        raise InputError(f"several proposals are open: say which, e.g. '{example}'")
    return qs[0].action()


def help_text(edition: str) -> str:
    """The list of commands, its examples in ``edition``'s corporation codes and names."""
    code, name = D.CORP_CODES[edition], D.CORP_NAMES[edition]
    first, last = D.PRUSSIAN, D.OVERSEAS

    def col(left: str, width: int = 54) -> str:
        return left.ljust(width)

    return "\n".join(
        [
            "Commands (or type a menu number; 'N AMOUNT' for a ranged choice):",
            "  " + col("bid MHE 9       start an auction of MHE at $9") + "bid 11        raise the running auction",
            "  " + col("leave           leave the auction") + "pass          pass / done / decline, by phase",
            "  " + col(f"buy {code[first]:<11} buy one share of {name[first]}") + f"sell {code[last]:<8} sell one share of {name[last]}",
            "  " + col(f"{'offer ' + code[last] + ' PR 19':<15} {name[last]} offers $19 for PR") + "accept/reject answer a proposal or pre-emption",
            "  " + col("close BSE       close a company (phase 4)") + "done          done with this phase (3, 4)",
            "  " + col("div 3           pay $3 per share (phase 6)") + "issue         issue one share (phase 8)",
            "  " + col(f"{'ipo MHE ' + code[first] + ' 11':<15} form {name[first]} from MHE at $11") + "decline       keep the company private (phase 9)",
            f"  {'deal ' + code[last] + ' OL 8 ' + code[first] + ' BY 7':<23}(variant deals) {code[last]} buys OL for $8, then {code[first]} buys BY for $7, in one step",
            "  show company MHE  the card, who holds it, its synergy partners and who holds them",
            f"  show corp {code[first]:<8}its ability in the rule book's words, money, stars, income itemised",
            "  row               the share price cards: maximum dividend, IPO colours, stars needed",
            f"Corporations (type the code, or a one-word name): {', '.join(f'{k} {n}' for k, n in zip(code, name, strict=True))}.",
        ]
    )
