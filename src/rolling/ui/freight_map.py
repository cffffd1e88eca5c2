"""The Rolling Freight board as text (for the ``map`` and ``map CITY`` commands of :mod:`.freight`).

For each city: its cargo markers, its demands, and its links, each named as ``build`` reads it
(``Gray 2A L28``) with the city at its other end, its length and whose cubes or stick are on it.
Players are named by their number from 1 (``P2``), as the players' table numbers them.
"""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from rolling.games.freight.components import OCEAN, PHASES

LEGEND = ("Links: card and number (build reads either), the city at the other end, length; "
          "[P2 3/5] player 2 is building it, 3 cubes of 5; [P2] player 2 completed it; "
          "[track 3] its contract is in slot 3 of the contract track.")


def link_status(st, index: int) -> str:
    """Whose cubes or stick are on a link: ``P2 3/5`` (building), ``P2`` (completed), ``track 3``
    (its contract lies on the contract track), or ``""``."""
    if st.owner[index] >= 0:
        return f"P{st.owner[index] + 1}"
    if st.holder[index] >= 0:
        return f"P{st.holder[index] + 1} {st.cubes[index]}/{st.map.links[index].length}"
    if index in st.contract_track:
        return f"track {st.contract_track.index(index) + 1}"
    return ""


def link_from(st, index: int, city: int) -> str:
    """A link seen from ``city``: ``Gray 2A L28 to Fresno (4) [P2 1/4]``."""
    ln = st.map.links[index]
    other = st.map.cities[ln.b if ln.a == city else ln.a].name
    status = link_status(st, index)
    return f"{ln.label} L{ln.id} to {other} ({ln.length})" + (f" [{status}]" if status else "")


def demands(st, city: int) -> tuple[list[str], list[str]]:
    """A city's demands: ``(open ones, the rest)``, the rest saying why they are not open
    (``gray, saturated``; ``red from phase B``)."""
    open_, rest = [], []
    for colour, phase, saturated in st.rings[city]:
        if phase > st.phase:
            rest.append(f"{colour} from phase {PHASES[phase]}")
        elif saturated:
            rest.append(f"{colour}, saturated")
        else:
            open_.append(colour)
    return open_, rest


def city_links(st, city: int) -> list[int]:
    """The indexes of the links at ``city``, by printed number."""
    return sorted((ln.index for ln in st.map.links if city in (ln.a, ln.b)), key=lambda i: st.map.links[i].id)


def map_table(st) -> Table:
    """Every city: cargo, open demands, and its links."""
    t = Table(title=f"{st.map.title} map", title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
              pad_edge=False)
    t.add_column("city", no_wrap=True)
    t.add_column("cargo")
    t.add_column("wants")
    t.add_column(Text("links (to, length) [whose]"), overflow="fold")
    for c in st.map.cities:
        open_, _ = demands(st, c.index)
        # plain Text: the [brackets] of a link's status are not rich markup
        t.add_row(c.name, " ".join(st.cargo[c.index]) or "-", " ".join(open_) or "-",
                  Text("; ".join(link_from(st, i, c.index) for i in city_links(st, c.index))))
    return t


def city_detail(st, city: int, names: list[str]) -> list[str]:
    """One city in full: cargo, demands, each link and who holds it (players by name)."""
    c = st.map.cities[city]
    open_, rest = demands(st, city)
    out = [f"{c.name}, {c.state}: cargo {', '.join(st.cargo[city]) or 'none'}; "
           f"wants {', '.join(open_) or 'nothing now'}" + (f" ({'; '.join(rest)})" if rest else "")]
    for i in city_links(st, city):
        ln = st.map.links[i]
        other = st.map.cities[ln.b if ln.a == city else ln.a].name
        colour = "ocean, paid with split dice" if ln.colour == OCEAN else ln.colour
        if st.owner[i] >= 0:
            who = f"completed by {names[st.owner[i]]}"
        elif st.holder[i] >= 0:
            who = f"{names[st.holder[i]]} building, {st.cubes[i]} of {ln.length} cubes"
        elif i in st.contract_track:
            who = f"contract in slot {st.contract_track.index(i) + 1} of the track (cost {ln.cost}+1)"
        else:
            who = "no contract taken"
        out.append(f"  {ln.label} L{ln.id} to {other}: {colour}, length {ln.length}, {who}")
    return out
