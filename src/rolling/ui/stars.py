"""Rolling Stock Stars at the terminal table: the screen (:mod:`.stars_screen`), the numbered menu
and typed commands (:mod:`.stars_input`), plugged into the shared loop of :mod:`.terminal`."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from rolling.core.record import GameRecord
from rolling.games.stars import FormCorporation, Offer, previews
from rolling.games.stars import data as D
from rolling.games.stars.config import TITLES
from rolling.games.stars.events import sees
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR, StarsState
from rolling.games.stars.view import cash_audience

from .session import PlaySession
from .stars_input import (
    AskAmount,
    InputError,
    amount,
    cautions,
    check_phase,
    help_text,
    menu,
    parse,
    shortfall_text,
)
from .stars_screen import company_detail, corp_detail, render, render_parts, row_detail
from .terminal import Screen, confirm, draw, draw_menu, read_line

#: what each corporation does, in a few words for the one line of the IPO menu (``show corp CODE``
#: gives the rule book's words), by corporation index
GIST = (
    "+$1 income per company",
    "doubles its best company's income",
    "+$1 per two synergy markers",
    "cost of ownership -$10",
    "+2 stars for its share price",
    "issues shares, price unchanged",
    "2x printed income when closing",
    "buys first from FI, at face value",
)

#: a group of more menu lines than this is packed several to a line, so the table stays in view
PACK_OVER = 5


def warnings(s: StarsState, seat: int | None) -> list[str]:
    """Phases 3 and 4: who could not pay in phase 5, as ``seat`` may know it (another player's
    shortfall tells their cash, hidden with secret money)."""
    if s.phase not in (3, 4):
        return []
    out = []
    for f in previews.phase5_shortfalls(s):
        if f.owner < CORP_BASE and not sees(cash_audience(s, f.owner), seat):
            continue
        out.append("Phase 5: " + shortfall_text(s, f))
    return out


def offer_label(s: StarsState, m) -> tuple[str, str]:
    """(heading, label) of a purchase in a packed menu: the buyer heads; the label is the company,
    its owner, the price and what it adds to the buyer's income per phase 5."""
    c, i = D.CORP_INDEX[m.args["corporation"]], D.INDEX[m.args["company"]]
    owner = s.company_owner[i]
    who = "FI" if owner == FOREIGN_INVESTOR else (s.corp_code(owner - CORP_BASE) if owner >= CORP_BASE else s.names[owner])
    price = f"${m.args['price']}" if "price" in m.args else f"${m.lo}-{m.hi}"
    gain = previews.purchase(s, c, i).gain
    return (f"{s.corp_code(c)} {s.corp_name(c)} buys (company, from, price, income change/turn; FI: foreign investor)",
            f"{m.args['company']} {who} {price} {gain:+d}")


def ipo_lines(s: StarsState, entries: list) -> list[str]:
    """The IPO menu in few lines: the terms at each share price (the same for every charter), then
    one line per free charter with its numbers and what the corporation does."""
    prices: dict[int, Any] = {}
    by_corp: dict[int, list[str]] = {}
    out = []
    for k, line, m in entries:
        if m.kind is not FormCorporation:
            out.append(f"   {k:>2}. {line}")
            continue
        price = m.args["price"]
        prices.setdefault(price, previews.ipo(D.FACE[D.INDEX[m.args["company"]]], price))
        by_corp.setdefault(D.CORP_INDEX[m.args["corporation"]], []).append(f"{k:>2}.${price:<2}")
    if prices:
        ps = sorted(prices)
        out.append("   share price  " + "".join(f"{'$' + str(p):>5}" for p in ps) + "   (shares each to you and the bank:"
                   + ", ".join(f" {prices[p].shares} at ${p}" for p in ps if prices[p].shares > 1) + ", else 1)"
                   if any(prices[p].shares > 1 for p in ps) else
                   "   share price  " + "".join(f"{'$' + str(p):>5}" for p in ps) + "   (one share each to you and the bank)")
        out.append("   you pay      " + "".join(f"{'$' + str(prices[p].pay):>5}" for p in ps))
        out.append("   treasury     " + "".join(f"{'$' + str(prices[p].treasury):>5}" for p in ps))
    company = next((m.args["company"] for _, _, m in entries if m.kind is FormCorporation), "")
    if by_corp:
        out.append(f"   form a corporation with {company}: the number at its share price ('show corp CODE': its ability)")
    for c, labels in by_corp.items():
        out.append(f"   {s.corp_code(c):<3} {' '.join(labels)}  {GIST[c]}")
    return out


def pack(labels: list[str], width: int) -> list[str]:
    """``labels`` side by side, in columns of one width, in lines of at most ``width`` characters."""
    cell = max(len(x) for x in labels) + 3
    per = max(1, width // cell)
    return ["".join(x.ljust(cell) for x in labels[k:k + per]).rstrip() for k in range(0, len(labels), per)]


def menu_entries(s: StarsState, items: list, width: int) -> list[Text]:
    """The menu as lines, a group's name above its entries: the IPO in its few lines
    (:func:`ipo_lines`), purchases packed several to a line under their buyer when there are many."""
    out: list[Text] = []
    groups: dict[str, list] = {}
    for k, (g, line, m) in enumerate(items, 1):
        groups.setdefault(g, []).append((k, line, m))
    for g, entries in groups.items():
        out.append(Text(f"  {g}", style="dim"))
        if g == "IPO":
            out += [Text(text) for text in ipo_lines(s, entries)]
        elif len(entries) <= PACK_OVER or any(m.kind is not Offer for _, _, m in entries):
            out += [Text(f"   {k:>2}. {line}") for k, line, _ in entries]
        else:
            heads: dict[str, list[str]] = {}
            for k, _, m in entries:
                head, label = offer_label(s, m)
                heads.setdefault(head, []).append(f"{k:>2}. {label}")
            for head, labels in heads.items():
                out.append(Text(f"   {head}:"))
                out += [Text(f"    {row}") for row in pack(labels, width)]
    return out


class StarsScreen(Screen):
    """Rolling Stock Stars (either edition): the table from the seat's view and a menu of its legal
    moves before every prompt; a number, ``N AMOUNT`` or a typed command answers."""

    game = "stars"
    standings_columns = (("hand", "hand", False), ("cash", "cash", True), ("companies", "companies", True),
                         ("shares", "shares", True))

    def __init__(self) -> None:
        self.items: list = []
        self.pages: list[list] = [[]]
        #: a detail was printed: the menu is shown again below it
        self.relist = False

    def title(self, session: PlaySession) -> str:
        """The edition's title, and the variants played."""
        cfg = session.state.config
        variants = f" ({', '.join(cfg.variants)})" if cfg.variants else ""
        return TITLES[cfg.edition] + variants

    def commands(self, session: PlaySession) -> str:
        """The typed commands, with examples in the edition's corporation codes."""
        return help_text(session.state.config.edition)

    def players(self, record: GameRecord) -> int:
        """The number of seats in the record's config."""
        return int(record.config.get("players", 4))

    def show(self, session: PlaySession, seat: int, console: Console, first: bool) -> None:
        """The table and a page of the menu (for a new decision, or ``more``), folded to fit the
        terminal (:func:`.terminal.draw`); after a look at the details, the menu page again, whose
        numbers the next line may use."""
        s = session.state
        self.items = menu(s, seat)
        head = Text.from_markup(f"[bold cyan]{escape(session.names[seat])}[/], your choice "
                                "[dim](details: show company CODE · show corp CODE · row · help)[/]:")
        if first:
            entries = menu_entries(s, self.items, max(40, console.width - 6))
            parts = render_parts(s.view(seat), me=seat, warnings=warnings(s, seat))
            self.page, self.pages = draw(console, parts, head, entries, self.page)
        elif self.relist:
            draw_menu(console, head, self.pages, self.page)
        self.relist = False

    def read(self, session: PlaySession, seat: int, line: str, console: Console) -> Any:
        """A menu number (``N``, which asks for the amount a ranged choice needs, or ``N AMOUNT``),
        a typed command or a look at the details (``show company X``, ``show corp Y``, ``row``;
        raises InputError); a question first where a careful player would ask one
        (:func:`.stars_input.cautions`); None when the line was answered on screen or the person
        answers no."""
        s = session.state
        if self.details(s, seat, line, console):
            return None
        got = parse(s, seat, line.strip(), self.items)
        if isinstance(got, AskAmount):
            m = got.move
            answer = read_line(console, f"Amount for '{got.line}' (${m.lo} to ${m.hi}; nothing to cancel): ").strip()
            if not answer:
                console.print("Nothing chosen.", markup=False, highlight=False)
                return None
            got = amount(m, answer)
        check_phase(s, got)
        caution = cautions(s, seat, got)
        if caution is not None:
            question, actions = caution
            if not confirm(console, question):
                console.print("Nothing done.", markup=False, highlight=False)
                return None
            return actions
        return got

    def details(self, s: StarsState, seat: int, line: str, console: Console) -> bool:
        """Print what ``show company X``, ``show corp Y`` or ``row`` asks for; False for any other
        line (raises InputError for a detail command that names nothing known)."""
        words = line.split()
        if not words or words[0].lower() not in ("show", "row"):
            return False
        v = s.view(seat)
        try:
            if words[0].lower() == "row" and len(words) == 1:
                console.print(row_detail(v))
                self.relist = True
                return True
            if len(words) == 3 and words[1].lower() in ("company", "corp", "corporation"):
                if words[1].lower() == "company":
                    out = company_detail(v, words[2])
                else:
                    out = corp_detail(v, words[2], s.config.edition)
                for text in out:
                    console.print(text, markup=False, highlight=False)
                self.relist = True
                return True
        except ValueError as e:
            raise InputError(str(e)) from None
        raise InputError("usage: show company CODE, show corp CODE, or row")

    def final(self, session: PlaySession, console: Console, viewer: int | None) -> None:
        """The final table, and with the two-handed variant the person who wins."""
        s = session.state
        console.print(render(s.view(viewer), me=viewer))
        if "two-handed" in s.config.variants:
            from rolling.games.stars.state import two_handed_winner

            console.print(f"Two-handed variant: person {two_handed_winner(s.standings())} wins.")
