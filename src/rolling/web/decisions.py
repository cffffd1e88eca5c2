"""A seat's legal moves as the controls of a web page, with the engine's previews.

Each decision is a JSON object::

    {"action": {...} | None,   # the whole action when nothing is left to choose, else None
     "type": "bid", "args": {...fixed fields...},
     "field": "amount" | None, "lo": 10, "hi": 25,    # the one number still to choose ($)
     "label": "raise the bid ($10-$25)", "group": "auction",
     "preview": {...} | None}   # what it does, in numbers (rolling.games.stars.previews)

The page builds the action as ``{"type": type, **args, field: value}``. Rolling Stock Stars uses
the terminal's menu (labels and groups: :mod:`rolling.ui.stars_input`) and its previews; the other
games list their legal actions one by one (at most :data:`MAX_LISTED`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

#: the most decisions listed for a game without compact moves
MAX_LISTED = 400


def jsonable(v: Any) -> Any:
    """``v`` with dataclasses, tuples and objects with ``to_json`` turned into JSON values."""
    if hasattr(v, "to_json"):
        return v.to_json()
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: jsonable(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v


def decisions(game: str, state: Any, seat: int) -> list[dict[str, Any]]:
    """The decisions of ``seat`` now (empty when it may not act)."""
    if state.is_over or seat not in state.to_act:
        return []
    if game == "stars":
        return _stars(state, seat)
    if game == "freight":
        from .freight import decisions as freight_decisions

        return freight_decisions(state, seat)
    if game == "market":
        from .market import decisions as market_decisions

        return market_decisions(state, seat)
    out = []
    for a in state.legal_actions(seat)[:MAX_LISTED]:
        data = a.to_json()
        args = {k: v for k, v in data.items() if k != "type"}
        out.append({"action": data, "type": data["type"], "args": args, "field": None, "lo": 0, "hi": 0,
                    "label": _label(a), "group": data["type"], "preview": None})
    return out


def _label(a: Any) -> str:
    describe = getattr(a, "describe", None)
    if callable(describe):
        try:
            return str(describe())
        except Exception:  # a label is a nicety: never let it break the page
            pass
    data = a.to_json()
    rest = " ".join(f"{k}={v}" for k, v in data.items() if k != "type")
    return f"{data['type'].replace('_', ' ')} {rest}".strip()


def _stars(s: Any, seat: int) -> list[dict[str, Any]]:
    from rolling.ui.stars_input import menu

    out = []
    for group, label, m in menu(s, seat):
        args = jsonable(dict(m.args))
        out.append({
            "action": m.action().to_json() if m.field is None else None,
            "type": m.kind.type_name,
            "args": args,
            "field": m.field,
            "lo": m.lo if m.field else None,
            "hi": m.hi if m.field else None,
            "label": label,
            "group": group,
            "preview": stars_preview(s, m),
        })
    return out


def stars_preview(s: Any, m: Any) -> dict[str, Any] | None:
    """What a Stars move does, in numbers (see :mod:`rolling.games.stars.previews`), or ``None``.

    - buy/sell share: ``{"amount", "card", "price", "ends_game", "bankrupt", "receivership"}`` (Buy /
      Sell One Share; ``receivership``: the last share a player holds, the page asks first);
    - answer to a proposal (phase 3): ``{"face", "price", "seller", "seller_gain", "buyer",
      "buyer_gain"}`` (gains in $ per turn), the seller being ``"you"`` or the code of the
      corporation the seat answers for, the buyer the buying corporation's code; a pre-emption of
      the foreign investor's sale: ``{"face", "price", "buyer", "buyer_gain"}``; an answer to a deal
      (variant): ``{"steps": [{"corporation", "company", "face", "price", "seller", "seller_gain",
      "buyer", "buyer_gain"}]}``, each step counted on the state as it is (issue 29);
    - offer (phase 3): ``{"income_before", "income_after", "gain", "synergies": [[company, partner, $]]}``;
    - close (phase 4): ``{"income_before", "income_after", "gain", "scrap_bonus", "stars"}``;
    - dividend (phase 6): ``{"by_amount": {"$": {"price", "card", "treasury", "stars", "required"}}}``;
    - issue (phase 8): the share trade; form corporation (phase 9): ``{"shares", "pay", "treasury", "issued"}``;
    - start auction: ``{"face", "income", "color", "stars"}``.
    """
    from rolling.games.stars import (
        BuyShare,
        Close,
        Dividend,
        FormCorporation,
        Issue,
        Offer,
        Respond,
        RespondDeal,
        SellShare,
        StartAuction,
        previews,
    )
    from rolling.games.stars import data as D

    a = m.args
    k = m.kind
    try:
        if k is BuyShare:
            return jsonable(previews.buy_share(s, D.CORP_INDEX[a["corporation"]], bool(a.get("presidents_share"))))
        if k is SellShare:
            return jsonable(previews.sell_share(s, D.CORP_INDEX[a["corporation"]]))
        if k is Offer:
            ch = previews.purchase(s, D.CORP_INDEX[a["corporation"]], D.INDEX[a["company"]])
            return {"income_before": ch.before.total, "income_after": ch.after.total, "gain": ch.gain,
                    "synergies": [[D.CODES[i], D.CODES[j], v] for i, j, v in ch.synergies]}
        if k is Respond:
            c, i = D.CORP_INDEX[a["corporation"]], D.INDEX[a["company"]]
            if s.announcement is not None or "announcer" in a:
                from rolling.games.stars.acquisition import fi_price

                return {"face": D.FACE[i], "price": fi_price(c, i), "buyer": s.corp_code(c),
                        "buyer_gain": previews.purchase(s, c, i).gain}
            price = next((pr for pc, pi, pr, _ in s.pending if pc == c and pi == i), None)
            return {"face": D.FACE[i], "price": price, **_sale(s, c, i)}
        if k is RespondDeal:
            steps = []
            for x in a["transactions"]:
                c, i = D.CORP_INDEX[x.corporation], D.INDEX[x.company]
                steps.append({"corporation": x.corporation, "company": x.company, "face": D.FACE[i], "price": x.price,
                              **_sale(s, c, i)})
            return {"steps": steps}
        if k is Close:
            eff = previews.closing(s, D.INDEX[a["company"]])
            return {"income_before": eff.income.before.total, "income_after": eff.income.after.total,
                    "gain": eff.income.gain, "scrap_bonus": eff.scrap_bonus, "stars": eff.stars}
        if k is Dividend:
            c = D.CORP_INDEX[a["corporation"]]
            by = {}
            for d in range(m.lo, m.hi + 1):
                p = previews.dividend(s, c, d)
                by[str(d)] = {"price": p.price, "card": p.card, "treasury": p.treasury, "stars": p.stars,
                              "required": p.required, "total": p.total}
            return {"by_amount": by}
        if k is Issue and a.get("issue"):
            return jsonable(previews.issue_share(s, D.CORP_INDEX[a["corporation"]]))
        if k is FormCorporation:
            return jsonable(previews.ipo(D.FACE[D.INDEX[a["company"]]], a["price"]))
        if k is StartAuction:
            i = D.INDEX[a["company"]]
            return {"face": D.FACE[i], "income": D.INCOME[i], "color": D.COLORS[D.COLOR[i]], "stars": D.STARS[i]}
    except (KeyError, ValueError, IndexError):  # a preview is a nicety: the decision stays usable
        return None
    return None


def _sale(s: Any, c: int, i: int) -> dict[str, Any]:
    """A sale of company ``i`` to corporation ``c`` in phase 5 income (Collect Income): the seller
    (``"you"``, or the code of the corporation selling) and both sides' gain in $ per turn; the same
    numbers as the terminal's answer lines (:func:`rolling.ui.stars_input.sale_incomes`)."""
    from rolling.games.stars import previews
    from rolling.games.stars.state import CORP_BASE

    owner = s.company_owner[i]
    return {"seller": "you" if owner < CORP_BASE else s.corp_code(owner - CORP_BASE),
            "seller_gain": previews.income_change(s, owner, remove=(i,)).gain,
            "buyer": s.corp_code(c), "buyer_gain": previews.purchase(s, c, i).gain}
