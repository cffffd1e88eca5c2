"""What a seat sees: a JSON-able picture of the table (``StarsState.view``).

Glossary, Entity: "All assets are open for inspection by any Player at any time." Hidden are only
the order of the face-down deck (visible with the open-companies variant) and, with the
secret-money variant, other players' cash (with the two-handed variant a person's two hands see
each other's cash). :func:`cash_audience` is that rule; the log applies it too (:mod:`.events`).

Corporations are named by the edition's code (``"JUP"`` in v2.2, the symbol ``"PR"`` in stars);
each corporation entry also gives its ``symbol``, the name actions use in every edition.
"""

from __future__ import annotations

from typing import Any

from . import data as D
from . import procedures as P
from .config import TITLES
from .events import PUBLIC, sees
from .state import CORP_BASE, FOREIGN_INVESTOR, PHASE_NAMES, StarsState, two_handed_partner


def cash_audience(s: StarsState, p: int) -> int:
    """The viewers who may see player ``p``'s cash, as an event visibility (:mod:`.events`):
    everyone, or with the secret-money variant ``p`` alone (002, 3.2: "secret private money"); with
    the two-handed variant too, ``p`` and its partner hand, since one person holds both (001,
    Two-player two-handed variant: "each player takes the position of two players")."""
    variants = s.config.variants
    if "secret-money" not in variants:
        return PUBLIC
    if "two-handed" in variants:
        return 1 << p | 1 << two_handed_partner(p)
    return 1 << p


def company_card(i: int) -> dict[str, Any]:
    """What company ``i``'s card prints: code, name, colour, stars, face value ($), price span
    ([$lo, $hi]), income ($) and synergy partners (``[[code, $]]``)."""
    return {
        "code": D.CODES[i],
        "name": D.NAMES[i],
        "color": D.COLORS[D.COLOR[i]],
        "stars": D.STARS[i],
        "face_value": D.FACE[i],
        "price_span": [D.SPAN_LO[i], D.SPAN_HI[i]],
        "income": D.INCOME[i],
        "synergies": [[D.CODES[j], bonus] for j, bonus in D.SYNERGY[i]],
    }


#: every card, built once (views share their lists, which a reader must not change)
_CARDS = tuple(company_card(i) for i in range(D.N_COMPANIES))


def company_json(s: StarsState, i: int) -> dict[str, Any]:
    """One company in play: its card (:func:`company_card`) and its net income ($, after the cost
    of ownership) and whether an offer for it is in flight (phase 3)."""
    return dict(_CARDS[i], net_income=D.INCOME[i] - s.company_cost(i),
                in_flight=bool(s.in_flight >> i & 1) if s.phase == 3 else False)


def _worth(s: StarsState, p: int) -> int:
    """Player ``p``'s score if the game ended now (:meth:`StarsState.standings`)."""
    companies = sum(D.FACE[i] for i in s.companies_of(p))
    shares = sum(s.shares_of(c, p) * s.share_price(c) for c in range(D.N_CORPS) if s.corp_active[c])
    return s.cash[p] + companies + shares


#: what each share price card prints (the same in every view, so built once; its lists are shared
#: between views and must not be changed by a reader)
_PRICE_CARDS = tuple(
    {
        "price": D.PRICES[k],
        "corporation": None,
        "max_dividend": D.MAX_DIVIDEND[k],
        "ipo_colors": [D.COLORS[x] for x in range(len(D.COLORS)) if D.IPO_COLORS[k] >> x & 1],
        "stars_required": {str(n): row[k] for n, row in D.REQUIRED_STARS.items()},
    }
    for k in range(D.N_CARDS)
)


def view(s: StarsState, seat: int | None = None) -> dict[str, Any]:
    """The table as ``seat`` sees it (``None``: an onlooker), as a JSON-able dict; also the method
    ``StarsState.view(seat)``.

    Everything is open in this game except: the deck's order (only its size and the colour of the
    top card, unless the open-companies variant is on) and, with the secret-money variant, other
    players' cash (with the two-handed variant, a hand sees its partner hand's cash:
    :func:`cash_audience`).
    """
    code = D.CORP_CODES[s.config.edition]
    players = []
    for pos, p in enumerate(s.order):
        shares = {code[c]: s.shares_of(c, p) for c in range(D.N_CORPS) if s.corp_active[c] and s.shares_of(c, p)}
        players.append(
            {
                "seat": p,
                "name": s.names[p],
                "order": pos + 1,
                "cash": s.cash[p] if sees(cash_audience(s, p), seat) else None,
                # net worth as the final scoring counts it (cash, face values, shares at their price)
                "worth": _worth(s, p) if sees(cash_audience(s, p), seat) else None,
                "companies": [company_json(s, i) for i in s.companies_of(p)],
                "income": P.income_of(s, p),
                "shares": shares,
                "passed": bool(s.passed >> p & 1) if s.phase == 1 else bool(s.done >> p & 1),
            }
        )
    corps = []
    for c in s.active_corps():
        owned = s.companies_of(CORP_BASE + c)
        inc = P.income_breakdown(s, CORP_BASE + c)
        corps.append(
            {
                "code": code[c],
                "symbol": D.CORP_SYMBOLS[c],
                "name": s.corp_name(c),
                "ability": D.CORP_ABILITY[c],
                "share_price": s.share_price(c),
                "cash": s.corp_cash[c],
                "president": s.president[c] if s.president[c] >= 0 else None,
                "receivership": s.president[c] < 0,
                "issued": s.corp_issued[c],
                "unissued": D.CORP_SHARES[c] - s.corp_issued[c],
                "bank_shares": s.bank_shares(c),
                "companies": [company_json(s, i) for i in owned],
                "synergies": [[D.CODES[i], D.CODES[j], v] for i, j, v in P.synergy_pairs(owned)],
                "income": inc,
                "stars": P.corp_stars(s, c),
                "stars_required": D.REQUIRED_STARS[s.corp_issued[c]][s.corp_card[c] if s.corp_card[c] >= 0 else D.TOP_CARD],
                "max_dividend": P.max_dividend(s, c),
            }
        )
    cost, mask = s.cost_of_ownership()
    out: dict[str, Any] = {
        "game": "stars",
        "edition": s.config.edition,
        "title": TITLES[s.config.edition],
        "turn": s.turn,
        "phase": s.phase,
        "phase_name": PHASE_NAMES[s.phase],
        "to_act": list(s.to_act),
        "players": players,
        "corporations": corps,
        "charters_free": [code[c] for c in range(D.N_CORPS) if not s.corp_active[c]],
        "foreign_investor": {
            "cash": s.fi_cash,
            "companies": [company_json(s, i) for i in s.companies_of(FOREIGN_INVESTOR)],
            "income": P.income_of(s, FOREIGN_INVESTOR),
        },
        "offering": [dict(company_json(s, i), available=not s.unavailable >> i & 1) for i in s.offering],
        "deck_size": len(s.deck),
        "deck_top_color": D.COLORS[s.top_color()] if s.deck else None,
        "end_card_flipped": s.end_flipped,
        "cost_of_ownership": {"cost": cost, "colors": [D.COLORS[k] for k in range(5) if mask >> k & 1]},
        "share_price_row": [
            dict(card, corporation=code[s.card_owner[k]] if s.card_owner[k] >= 0 else None)
            for k, card in enumerate(_PRICE_CARDS)
        ],
        "is_over": s.over,
    }
    if "open-companies" in s.config.variants:
        out["deck"] = [D.CODES[i] for i in reversed(s.deck)]
    if s.auction is not None:
        i, high, bidder, starter, _, in_mask = s.auction
        out["auction"] = {
            "company": D.CODES[i],
            "bid": high,
            "bidder": bidder,
            "starter": starter,
            "in": [p for p in s.order if in_mask >> p & 1],
        }
    if s.pending:
        out["proposals"] = [
            {"corporation": code[c], "company": D.CODES[i], "price": price, "seller_seat": seller}
            for c, i, price, seller in s.pending
        ]
    if s.deals:
        out["deals"] = [
            {
                "proposer": proposer,
                "transactions": [
                    {"corporation": D.CORP_SYMBOLS[c], "company": D.CODES[i], "price": price} for c, i, price in purchases
                ],
                "waiting": [p for p in s.order if waiting >> p & 1],
            }
            for proposer, purchases, waiting in s.deals
        ]
    if s.announcement is not None:
        c, i, queue, k = s.announcement
        out["announcement"] = {
            "corporation": code[c],
            "company": D.CODES[i],
            "asked": code[queue[k]] if k < len(queue) else None,
        }
    if s.standing:
        out["standing_announcements"] = [
            {"corporation": D.CORP_SYMBOLS[c], "company": D.CODES[i], "asked": D.CORP_SYMBOLS[asked[0]]}
            for c, i, asked in s.standing
        ]
    if s.over:
        out["standings"] = s.standings()
        out["end_reason"] = s.end_reason
    return out
