"""The Rolling Stock Stars table drawn with rich, compact enough for a 100 x 30 terminal: the phase
and cost of ownership, the players (with their net worth as the final scoring counts it), the
corporations, the offering, the foreign investor, the row of share price cards, what is open (an
auction, proposals, announcements) and the warnings a careful player would give.

The details a player looks up now and then are commands that print them on request:
:func:`company_detail` (``show company MHE``: colour, face value, income, price span, stars and
synergy partners with who owns them), :func:`corp_detail` (``show corp PR``: its ability in words,
money, stars, income itemised) and :func:`row_detail` (``row``: each share price card's maximum
dividend, IPO colours and the stars it requires by issued shares).

Everything shown comes from :meth:`StarsState.view`, so a seat sees exactly what it may see
(secret money, open companies), with the edition's title and corporation codes and names; the
printed numbers of a card come from :mod:`rolling.games.stars.data`.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rolling.games.stars import data as D

from .terminal import Part

COLOR_STYLE = {"red": "red", "orange": "dark_orange", "yellow": "yellow", "green": "green", "blue": "blue"}
#: the first letter of each colour, for the IPO line of the share price row
COLOR_LETTER = {"red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b"}


def money(v: Any) -> str:
    """$ amount, or '?' for hidden money."""
    return "?" if v is None else f"${v}"


def company_text(c: dict[str, Any]) -> Text:
    """A company as 'MHE $8 +2': code in its colour, face value, income after cost of ownership."""
    t = Text()
    t.append(c["code"], style=f"bold {COLOR_STYLE[c['color']]}")
    t.append(f" ${c['face_value']} {c['net_income']:+d}")
    if c.get("in_flight"):
        t.append("↻", style="dim")
    return t


def companies_text(cs: list[dict[str, Any]]) -> Text:
    """Companies side by side, separated by two spaces."""
    t = Text()
    for k, c in enumerate(cs):
        if k:
            t.append("  ")
        t.append_text(company_text(c))
    return t


def _table(*columns: str, right: tuple[str, ...] = ()) -> Table:
    t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1), header_style="bold underline")
    for col in columns:
        t.add_column(col, justify="right" if col in right else "left")
    return t


def render(v: dict[str, Any], me: int | None = None, warnings: list[str] | tuple[str, ...] = ()) -> Group:
    """The whole table as a rich renderable, for seat ``me``, with ``warnings`` (one line each)
    below it."""
    return Group(*(p.full for p in render_parts(v, me, warnings)))


def render_parts(v: dict[str, Any], me: int | None = None, warnings: list[str] | tuple[str, ...] = ()) -> list[Part]:
    """The table in parts, each with the shorter form it folds to on a short terminal
    (:func:`rolling.ui.terminal.draw`): the row of share prices to its taken cards and ranges of
    free ones, the open business (proposals, deals, announcements) to one paragraph."""
    names = {p["seat"]: p["name"] for p in v["players"]}
    head = Text(f"{v['title']} · Turn {v['turn']} · Phase {v['phase']}: {v['phase_name']}", style="bold")
    if v["to_act"]:
        head.append(" · to act: " + ", ".join(names[s] for s in v["to_act"]), style="cyan")
    if v["is_over"]:
        head.append(" · GAME OVER", style="bold red")
    coo = v["cost_of_ownership"]
    cost = (f"Cost of ownership ${coo['cost']} per {'/'.join(coo['colors'])} company" if coo["cost"]
            else "No cost of ownership")
    deck = f"deck {v['deck_size']} cards" + (f", top {v['deck_top_color']}" if v["deck_top_color"] else "")
    line2 = Text(f"{cost} · {deck}")
    if v["end_card_flipped"]:
        line2.append(" · GAME END CARD FLIPPED: last turn", style="bold red")

    pt = _table("#", "player", "cash", "worth", "income", "companies ($face income)", "shares", "",
                right=("cash", "worth", "income"))
    for p in v["players"]:
        shares = " ".join(f"{sym}×{n}" for sym, n in p["shares"].items())
        pt.add_row(
            str(p["order"]),
            Text(p["name"], style="bold cyan" if p["seat"] == me else ""),
            money(p["cash"]),
            money(p.get("worth")),
            f"{p['income']:+d}",
            companies_text(p["companies"]),
            shares,
            # a mark only where passing or being done is part of the phase: 1, 3 and 4
            "passed" if p["passed"] and v["phase"] == 1 else ("done" if p["passed"] and v["phase"] in (3, 4) else ""),
        )

    parts: list[Part] = [Part(head), Part(line2), Part(pt)]
    if v["corporations"]:
        ct = _table("corporation", "price", "cash", "president", "issued", "★/need", "income", "companies",
                    right=("price", "cash", "income"))
        # the name gives way to the companies (codes: 'show corp CODE' itemises them), one row each
        ct.columns[0].max_width, ct.columns[0].no_wrap, ct.columns[0].overflow = 18, True, "ellipsis"
        for c in v["corporations"]:
            pres = "receivership" if c["receivership"] else names.get(c["president"], "?")
            stars = Text(f"{c['stars']}/{c['stars_required']}",
                         style="" if c["stars"] >= c["stars_required"] else "yellow")
            ct.add_row(
                Text(f"{c['code']} {c['name']}", style="bold"),
                f"${c['share_price']}",
                f"${c['cash']}",
                Text(pres, style="magenta" if c["receivership"] else ""),
                f"{c['issued']}/{c['issued'] + c['unissued']}" + (f" bank {c['bank_shares']}" if c["bank_shares"] else ""),
                stars,
                f"{c['income']['total']:+d}",
                company_codes(c["companies"]),
            )
        parts.append(Part(ct))
    else:
        parts.append(Part(Text("Corporations: none yet", style="dim")))

    off = Text("Offering: ")
    for k, c in enumerate(v["offering"]):
        if k:
            off.append(" · ")
        off.append_text(company_text(c))
        off.append(f" [{c['price_span'][0]}-{c['price_span'][1]}]")
        if not c["available"]:
            off.append(" (drawn this phase)", style="dim")
    if not v["offering"]:
        off.append("empty")
    fi = v["foreign_investor"]
    fit = Text(f"Foreign investor: {money(fi['cash'])}, income {fi['income']:+d}: ")
    fit.append_text(companies_text(fi["companies"]) if fi["companies"] else Text("no companies"))
    short_off = Text("Offering: " + (" ".join(c["code"] for c in v["offering"]) or "empty")
                     + " ('show company CODE': its card)")
    parts += [Part(off, short_off), Part(fit), Part(share_price_line(v), share_price_line(v, short=True))]
    if "deck" in v:
        parts.append(Part(Text("Open deck (top first): " + " ".join(v["deck"]))))
    business = open_business(v, names)
    if business:
        parts.append(Part(Group(*business), open_business_short(v, names)))
    parts += [Part(Text(w, style="bold yellow")) for w in warnings]
    return parts


def company_codes(cs: list[dict[str, Any]]) -> Text:
    """Companies by their codes in their colours (``↻``: bought this turn), a space between."""
    t = Text()
    for k, c in enumerate(cs):
        if k:
            t.append(" ")
        t.append(c["code"], style=f"bold {COLOR_STYLE[c['color']]}")
        if c.get("in_flight"):
            t.append("↻", style="dim")
    return t


def share_price_line(v: dict[str, Any], short: bool = False) -> Text:
    """The row of share price cards: each price, a taken card with its corporation's code;
    ``short``: each run of free cards as its first and last price (``13-22``; ``row`` lists them)."""
    row = Text("Share prices: ")
    free: list[int] = []

    def flush() -> None:
        if free:
            row.append(f"{free[0]}-{free[-1]}" if short and len(free) > 2 else " ".join(map(str, free)), style="dim")
            row.append(" ")
            free.clear()

    for card in v["share_price_row"]:
        if card["corporation"]:
            flush()
            row.append(f"{card['price']}:{card['corporation']}", style="bold reverse")
            row.append(" ")
        else:
            free.append(card["price"])
    flush()
    if short:
        row.append("('row': every card)", style="dim")
    return row


def open_business(v: dict[str, Any], names: dict[int, str]) -> list[Text]:
    """The running auction, open proposals and deals, and announced purchases, one line each."""
    out = []
    if "auction" in v:
        a = v["auction"]
        out.append(Text(f"Auction of {a['company']}: high bid ${a['bid']} by {names[a['bidder']]}; still in: "
                        + ", ".join(names[s] for s in a["in"]), style="bold yellow"))
    for pr in v.get("proposals", []):
        out.append(Text(f"Open proposal: {pr['corporation']} offers ${pr['price']} for {pr['company']} "
                        f"(to answer: {names[pr['seller_seat']]})", style="yellow"))
    for d in v.get("deals", []):
        steps = ", then ".join(f"{x['corporation']} buys {x['company']} for ${x['price']}" for x in d["transactions"])
        waiting = ", ".join(names[p] for p in d["waiting"])
        out.append(Text(f"Open deal of {names[d['proposer']]}: {steps} (to accept: {waiting})", style="yellow"))
    if "announcement" in v:
        a = v["announcement"]
        out.append(Text(f"{a['corporation']} announced buying {a['company']} from the foreign investor; "
                        f"asked to pre-empt: {a['asked']}", style="yellow"))
    for a in v.get("standing_announcements", []):
        out.append(Text(f"{a['corporation']} announced buying {a['company']} from the foreign investor; "
                        f"asked to pre-empt: {a['asked']} (open)", style="yellow"))
    return out


def open_business_short(v: dict[str, Any], names: dict[int, str]) -> Text:
    """:func:`open_business` in one paragraph: the proposals as ``DA $13 for MS (Ann)``, the rest
    as they are."""
    rest = open_business({k: x for k, x in v.items() if k != "proposals"}, names)
    out = Text(" · ").join(rest)
    if v.get("proposals"):
        if rest:
            out.append(" · ")
        out.append("Open proposals (to answer): " + ", ".join(
            f"{pr['corporation']} ${pr['price']} for {pr['company']} ({names[pr['seller_seat']]})"
            for pr in v["proposals"]), style="yellow")
    return out


def owners(v: dict[str, Any]) -> dict[str, str]:
    """company code -> who holds it, as a player reads it (the offering and the foreign investor
    included; a company in none of these is in the deck or out of the game)."""
    out = {c["code"]: p["name"] for p in v["players"] for c in p["companies"]}
    out |= {c["code"]: f"{k['code']} {k['name']}" for k in v["corporations"] for c in k["companies"]}
    out |= {c["code"]: "the foreign investor" for c in v["foreign_investor"]["companies"]}
    out |= {c["code"]: "the offering" for c in v["offering"]}
    return out


def company_detail(v: dict[str, Any], code: str) -> list[str]:
    """``show company CODE``: the printed card and who holds it and its synergy partners.

    Raises:
        ValueError: no such company.
    """
    i = D.company_index(code)
    if i is None:
        raise ValueError(f"unknown company {code!r}")
    held = owners(v)
    where = held.get(D.CODES[i], "not in play (in the deck, or out of the game)")
    color = D.COLORS[D.COLOR[i]]
    out = [
        f"{D.CODES[i]} {D.NAMES[i]}: {color}, face value ${D.FACE[i]}, income ${D.INCOME[i]}, "
        f"price span ${D.SPAN_LO[i]}-${D.SPAN_HI[i]}, {D.STARS[i]} star{'s' if D.STARS[i] > 1 else ''}; held by {where}.",
    ]
    partners = [f"{D.CODES[j]} +${bonus} ({held.get(D.CODES[j], 'not in play')})" for j, bonus in D.SYNERGY[i]]
    out.append("Synergies (within one corporation): " + (", ".join(partners) if partners else "none"))
    return out


def corp_detail(v: dict[str, Any], text: str, edition: str) -> list[str]:
    """``show corp CODE``: the corporation's ability in words and, if it exists, its money, shares,
    stars, income itemised and companies with their synergies.

    Raises:
        ValueError: no such corporation in ``edition``.
    """
    c = D.corp_by_code(edition, text)
    if c is None:
        raise ValueError(f"unknown corporation {text!r} (corporations: {', '.join(D.CORP_CODES[edition])})")
    code, name = D.CORP_CODES[edition][c], D.CORP_NAMES[edition][c]
    out = [f"{code} {name} ({D.CORP_SHARES[c]} shares): {D.CORP_ABILITY[c]}."]
    k = next((k for k in v["corporations"] if k["symbol"] == D.CORP_SYMBOLS[c]), None)
    if k is None:
        out.append("Its charter is free: it may be formed in phase 9 (IPO).")
        return out
    names = {p["seat"]: p["name"] for p in v["players"]}
    pres = "in receivership" if k["receivership"] else f"president {names.get(k['president'], '?')}"
    inc = k["income"]
    out += [
        f"Share price ${k['share_price']} (max dividend ${k['max_dividend']} per share now), cash ${k['cash']}, {pres}; "
        f"shares issued {k['issued']} (bank {k['bank_shares']}), unissued {k['unissued']}.",
        f"Stars {k['stars']}, required by its card {k['stars_required']}. Income: printed ${inc['printed']}, "
        f"cost of ownership -${inc['cost']}, synergies +${inc['synergy']}, ability +${inc['bonus']} = {inc['total']:+d}.",
        "Companies: " + ", ".join(f"{x['code']} (${x['face_value']}, {x['net_income']:+d})" for x in k["companies"]),
        "Synergies: " + (", ".join(f"{a}-{b} +${x}" for a, b, x in k["synergies"]) or "none"),
    ]
    return out


def row_detail(v: dict[str, Any]) -> Group:
    """``row``: the share price cards left to right, with each card's maximum dividend, the
    colours that may start a corporation there (IPO) and the stars it requires for 2 to 7 issued
    shares; then the cards held."""
    cards = v["share_price_row"]
    t = Table(box=None, show_header=False, pad_edge=False, padding=(0, 0))
    t.add_column(justify="left", style="bold", min_width=9)
    for _ in cards:
        t.add_column(justify="right", min_width=3)
    t.add_row("price $", *[Text(str(c["price"]), style="bold reverse" if c["corporation"] else "") for c in cards])
    t.add_row("max div", *[str(c["max_dividend"]) for c in cards])
    t.add_row("IPO", *[Text("".join(COLOR_LETTER[x] for x in c["ipo_colors"])) for c in cards])
    for n in sorted(cards[0]["stars_required"], key=int):
        t.add_row(f"★ {n} sh.", *[str(c["stars_required"][n]) for c in cards])
    held = ", ".join(f"${c['price']} {c['corporation']}" for c in cards if c["corporation"])
    note = Text("IPO: r red, o orange, y yellow, g green, b blue. ★ N sh.: stars required with N issued shares.\n"
                + f"Held: {held or 'none'}.", style="dim")
    return Group(t, note)
