"""The Rolling Stock Stars table drawn with rich: players, corporations, foreign investor, offering,
deck and cost of ownership, the row of share price cards, the phase and who must act.

Everything shown comes from :meth:`StarsState.view`, so a seat sees exactly what it may see
(secret money, open companies), with the edition's title and corporation codes and names.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

COLOR_STYLE = {"red": "red", "orange": "dark_orange", "yellow": "yellow", "green": "green", "blue": "blue"}


def money(v: Any) -> str:
    """$ amount, or '?' for hidden money."""
    return "?" if v is None else f"${v}"


def company_text(c: dict[str, Any]) -> Text:
    """A company as 'MHE 8 (2)': code in its colour, face value, net income."""
    t = Text()
    t.append(c["code"], style=f"bold {COLOR_STYLE[c['color']]}")
    t.append(f" {c['face_value']}({c['net_income']:+d})")
    if c.get("in_flight"):
        t.append("↻", style="dim")
    return t


def companies_text(cs: list[dict[str, Any]]) -> Text:
    t = Text()
    for k, c in enumerate(cs):
        if k:
            t.append(", ")
        t.append_text(company_text(c))
    return t


def render(v: dict[str, Any], me: int | None = None) -> Group:
    """The whole table as a rich renderable, for seat ``me``."""
    names = {p["seat"]: p["name"] for p in v["players"]}
    head = Text(f"Turn {v['turn']} · Phase {v['phase']}: {v['phase_name']}", style="bold")
    if v["to_act"]:
        head.append("   to act: " + ", ".join(names[s] for s in v["to_act"]), style="cyan")
    if v["is_over"]:
        head.append("   GAME OVER", style="bold red")

    pt = Table(box=box.SIMPLE_HEAD, title="Players", title_justify="left", expand=False)
    for col in ("#", "player", "cash", "companies (face(net income))", "income", "shares", ""):
        pt.add_column(col)
    for p in v["players"]:
        shares = " ".join(f"{sym}×{n}" for sym, n in p["shares"].items())
        name = Text(p["name"], style="bold cyan" if p["seat"] == me else "")
        pt.add_row(
            str(p["order"]),
            name,
            money(p["cash"]),
            companies_text(p["companies"]),
            f"{p['income']:+d}",
            shares,
            "passed" if p["passed"] else "",
        )

    ct = Table(box=box.SIMPLE_HEAD, title="Corporations (share price order)", title_justify="left")
    for col in ("corp", "price", "cash", "president", "shares i/u/bank", "stars", "companies", "synergies", "income"):
        ct.add_column(col)
    for c in v["corporations"]:
        pres = "receivership" if c["receivership"] else names.get(c["president"], "?")
        syn = " ".join(f"{a}-{b}+{x}" for a, b, x in c["synergies"])
        inc = c["income"]
        ct.add_row(
            Text(f"{c['code']} {c['name']}", style="bold"),
            f"${c['share_price']}",
            f"${c['cash']}",
            Text(pres, style="magenta" if c["receivership"] else ""),
            f"{c['issued']}/{c['unissued']}/{c['bank_shares']}",
            str(c["stars"]),
            companies_text(c["companies"]),
            syn,
            f"{inc['total']:+d}",
        )
    if not v["corporations"]:
        ct.add_row("(none yet)", "", "", "", "", "", "", "", "")

    fi = v["foreign_investor"]
    off = Text("Offering: ")
    for k, c in enumerate(v["offering"]):
        if k:
            off.append("  ")
        off.append_text(company_text(c))
        off.append(f" [{c['price_span'][0]}-{c['price_span'][1]}]")
        if not c["available"]:
            off.append(" (unavailable)", style="dim")
    if not v["offering"]:
        off.append("empty")
    coo = v["cost_of_ownership"]
    deck = Text(f"Deck: {v['deck_size']} cards")
    if v["deck_top_color"]:
        deck.append(f" (top: {v['deck_top_color']})")
    deck.append(
        f" · cost of ownership: ${coo['cost']} on {', '.join(coo['colors']) or 'nothing'}"
        + (" · GAME END CARD FLIPPED" if v["end_card_flipped"] else "")
    )
    fit = Text(f"Foreign investor: {money(fi['cash'])}, income {fi['income']:+d}, companies: ")
    fit.append_text(companies_text(fi["companies"]) if fi["companies"] else Text("none"))
    row = Text("Share prices: ")
    for card in v["share_price_row"]:
        label = f"{card['price']}"
        if card["corporation"]:
            row.append(f"[{label}:{card['corporation']}]", style="bold reverse")
        else:
            row.append(label, style="dim")
        row.append(" ")
    parts: list[Any] = [head, pt, ct, off, fit, deck, row]
    if "deck" in v:
        parts.append(Text("Open deck (top first): " + " ".join(v["deck"])))
    if "auction" in v:
        a = v["auction"]
        parts.append(
            Text(
                f"Auction of {a['company']}: high bid ${a['bid']} by {names[a['bidder']]}; still in: "
                + ", ".join(names[s] for s in a["in"]),
                style="bold yellow",
            )
        )
    for pr in v.get("proposals", []):
        parts.append(
            Text(f"Open proposal: {pr['corporation']} offers ${pr['price']} for {pr['company']} (answer: {names[pr['seller_seat']]})", style="yellow")
        )
    for d in v.get("deals", []):
        steps = ", then ".join(f"{x['corporation']} buys {x['company']} for ${x['price']}" for x in d["transactions"])
        waiting = ", ".join(names[p] for p in d["waiting"])
        parts.append(Text(f"Open deal of {names[d['proposer']]}: {steps} (to accept: {waiting})", style="yellow"))
    if "announcement" in v:
        a = v["announcement"]
        parts.append(Text(f"{a['corporation']} announced buying {a['company']} from the foreign investor; asked to pre-empt: {a['asked']}", style="yellow"))
    for a in v.get("standing_announcements", []):
        parts.append(Text(f"{a['corporation']} announced buying {a['company']} from the foreign investor; asked to pre-empt: {a['asked']} (open)", style="yellow"))
    return Group(Panel(Group(*parts), title=v["title"], expand=False))

