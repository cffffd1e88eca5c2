"""Rolling Freight at the terminal table: the tracks, the players, the cargo, your dice and a
numbered menu of your legal moves, plugged into the shared loop of :mod:`.terminal`.

Everything counts from 1 on the screen, as the player types it (:mod:`.freight_input`): players,
menu moves, dice, track slots. Links are named as ``build`` reads them (``Gray 2A L28``), routes
by the cities they pass. ``map`` lists the board as text (:mod:`.freight_map`); ``board`` draws
it as a picture (:mod:`.freight_board`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rolling.core.whole import is_whole
from rolling.games.freight.actions import (
    Build,
    BuildStation,
    BuyImprovement,
    DraftContract,
    DraftImprovement,
    DraftPass,
    EndTurn,
    EstablishRoute,
    SteadyBuild,
    TakeContract,
)
from rolling.games.freight.components import COLOURS, PHASES, face, load_map
from rolling.games.freight.events import link_name, route_cities
from rolling.games.freight.payment import kept_after
from rolling.games.freight.routes import parse_path

from .freight_input import parse as parse
from .freight_map import LEGEND, city_detail, map_table
from .session import PlaySession
from .terminal import Part, Screen, draw

COMMANDS = """Commands (dice, slots and moves count from 1, as the screen shows them):
  N               do move N of the menu; each way to pay is its own move, [pay ...; keeps ...]
                  says what it spends and leaves (the first: the engine's best)
  N pay 1 4 blue  do move N paying with dice 1 and 4 and one blue marker
  take S          take the contract in slot S of the contract track (or 'take Gray 2A')
  build L [N]     build on your contract on link L ('build Gray 2A', 'build L28' or 'build 28');
                  N cubes (the cubes symbol adds one or two; default: all the dice can)
  ship CITY ...   a major route through these cities, the cargo's colour first if need be:
                  'ship blue Fresno Stockton Oakland' or by links 'ship Fresno L31 L24'; the
                  two ends alone take the menu's route between them
  buy S           buy the improvement in slot S of the improvement track (or 'buy Black Die')
  station         build a switching station
  end [COLOURS]   end the turn; a colour for each unspent split die to stockpile as (default:
                  the most markers)
  ... pay 1 blue  after take, build, ship, buy, station: pay with these dice and markers
  map [CITY]      the board as text: every city's cargo, demands and links, or one city's
  board [FILE]    draw the board as a picture (PNG) and say where it is
  dice, menu      your dice again (and what their symbols mean), the moves again
Each turn: take contracts (A), build (B), one major route (C), switching stations (D),
improvements (E) in any order, then end the turn: F stockpile, G refill, H roll.
In the opening draft 'take S' and 'buy S' draft that card, free."""

RICH_SEAT = ["red", "blue", "green", "magenta", "dark_orange"]


class FreightScreen(Screen):
    """Rolling Freight: the whole table and the menu for each new decision; ``undo`` stays within
    the turn, since ending it rolls the dice."""

    game = "freight"
    undo_scope = " in this turn"
    standings_columns = (("stations", "stations", False),)

    def __init__(self) -> None:
        self.moves: list = []

    def title(self, session: PlaySession) -> str:
        """``Rolling Freight (U.S. West Coast)``."""
        return f"Rolling Freight ({load_map(session.record.config.get('map', 'west-coast')).title})"

    def commands(self, session: PlaySession) -> str:
        """The typed commands and the order of a turn."""
        return COMMANDS

    def show(self, session: PlaySession, seat: int, console: Console, first: bool) -> None:
        """The whole table and a page of the menu (for a new decision, or ``more``), folded to fit
        the terminal (:func:`.terminal.draw`)."""
        if first:
            self.moves = menu_moves(session.state, seat)
            head = Text(f"{session.names[seat]}, your move ('menu': all of them; 'help': the commands):")
            self.page, _ = draw(console, render_parts(session, seat), head, menu_lines(session.state, self.moves),
                                self.page)

    def read(self, session: PlaySession, seat: int, line: str, console: Console) -> Any:
        """A move (by number or typed), or a listing or picture made here (``None``)."""
        st = session.state
        kind, arg = parse(line, st, self.moves)
        if kind == "move":
            return arg
        if kind == "dice":
            console.print(dice_line(st, seat, session.names[seat]), markup=False, highlight=False)
            for text in dice_legend(st, seat):
                console.print("  " + text, markup=False, highlight=False)
        elif kind == "map" and arg is None:
            console.print(map_table(st))
            console.print(LEGEND, markup=False, highlight=False, style="dim")
        elif kind == "map":
            for text in city_detail(st, arg, session.names):
                console.print(text, markup=False, highlight=False)
        elif kind == "menu":
            show_menu(console, st, self.moves)
        elif kind == "board":
            out = write_board(session, arg)
            console.print(f"Wrote the board picture to {out}.", markup=False, highlight=False, soft_wrap=True)
        return None

    def final(self, session: PlaySession, console: Console, viewer: int | None) -> None:
        """The players' table at the end."""
        console.print(players_table(session, None))


def board_file(session: PlaySession) -> Path:
    """Where ``board`` writes without a file name: beside the save file, named after it and the
    turn (``rolling-freight-7-turn12.png``), so that each turn's picture is kept."""
    st = session.state
    when = "draft" if st.stage == "draft" else "end" if st.is_over else f"turn{st.turn}"
    if session.path is not None:
        return session.path.with_name(f"{session.path.stem}-{when}.png")
    return Path(f"rolling-freight-{session.record.seed}-{when}.png")


def write_board(session: PlaySession, name: str | None) -> Path:
    """Draw the current position to ``name`` (.png or .svg; default :func:`board_file`).

    Raises:
        ValueError: a name not ending in .png or .svg, or a file that cannot be written
            (:class:`~rolling.core.extras.MissingExtra`, a ValueError: matplotlib is not installed).
    """
    from rolling.core.extras import import_optional

    # matplotlib (the extra "report"): loaded only when a picture is asked for; MissingExtra if absent
    draw_board = import_optional("rolling.ui.freight_board").draw_board

    out = Path(name) if name else board_file(session)
    if out.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"the board picture is a .png or .svg file, not {out.name!r}")
    try:
        draw_board(session.state, str(out), names=session.names)
    except OSError as e:
        raise ValueError(f"cannot write {out}: {e.strerror or e}") from None
    return out


# -- describing things ------------------------------------------------------------------------------


def link_text(state, index: int) -> str:
    """``"Red 5A L14 Birmingham-Memphis (6)"``: the name ``build`` reads, the cities, the length."""
    ln = state.map.links[index]
    return f"{link_name(ln)} {state.map.cities[ln.a].name}-{state.map.cities[ln.b].name} ({ln.length})"


def route_text(state, a: EstablishRoute) -> str:
    """``"blue Fresno > Stockton > Oakland"``: the cargo and the cities a route passes."""
    path = parse_path(state, a.path)
    return " > ".join([f"{a.colour} {a.origin}", *route_cities(state, path), a.dest])


def pay_shown(tokens) -> str:
    """The engine's payment as the player would type it (dice from 1): ``pay 1 4 blue``."""
    return "pay " + " ".join(str(v + 1) if k == "d" else COLOURS[v] for k, v in tokens) if tokens else "cannot pay"


def pay_and_keep(state, seat: int, tokens) -> str:
    """A payment and what it leaves (issue 28 item 5), dice numbered from 1:
    ``pay 1 4 blue; keeps 2 red, 3 any2, 1 gray marker``."""
    if not tokens:
        return "cannot pay"
    p = state.players[seat]
    dice, markers = kept_after(p, tokens)
    kept = [f"{i + 1} {p.dice[i]}" for i in dice]
    kept += [f"{n} {COLOURS[k]} marker{'s' if n > 1 else ''}" for k, n in enumerate(markers) if n]
    return f"{pay_shown(tokens)}; keeps {', '.join(kept) or 'nothing'}"


def dice_count(n: int) -> str:
    """``1 die``, ``3 dice``."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def describe(state, a) -> str:
    """A menu line for an action."""
    from rolling.games.freight import previews

    seat = a.seat
    if isinstance(a, DraftContract):
        return f"draft contract {link_text(state, state.contract_track[a.slot])} (slot {a.slot + 1})"
    if isinstance(a, DraftImprovement):
        return f"draft improvement {state.improvement_track[a.slot]} (slot {a.slot + 1})"
    if isinstance(a, DraftPass):
        return "pass (nothing to draft)"
    if isinstance(a, TakeContract):
        card = state.contract_track[a.slot]
        pv = previews.contract(state, a)
        colour = "split" if pv.colour == "ocean" else pv.colour
        return f"take slot {a.slot + 1}: {link_text(state, card)}, 1 {colour} + {pv.dice} any  [{pay_and_keep(state, seat, pv.pay)}]"
    if isinstance(a, Build):
        ln = state.link_by_id(a.link)
        p = state.players[seat]
        words = a.pay.split()
        if not words:
            what = "all matching dice"
        else:
            what = ", ".join(f"die {int(w) + 1} ({p.dice[int(w)]})" if is_whole(w) and int(w) < len(p.dice)
                             else f"a {w} marker" for w in words)
        many = f"{a.cubes} cube{'s' if a.cubes > 1 else ''} on " if a.cubes else ""
        return f"build {many}{link_text(state, ln.index)} [{state.cubes[ln.index]}/{ln.length}] with {what}"
    if isinstance(a, SteadyBuild):
        ln = state.link_by_id(a.link)
        return f"Steady Builder: free cube on {link_text(state, ln.index)}"
    if isinstance(a, EstablishRoute):
        pv = previews.route(state, a)
        own = pv.earns(seat) - pv.distance_bonus - pv.dice_bonus
        links = f"{pv.links} link{'s' if pv.links != 1 else ''}"
        # what the owners of the other links earn from it: a player weighs their gain too
        others = "".join(f", {state.name(k)} ${pv.earns(k)}" for k in range(len(state.players))
                         if k != seat and pv.earns(k))
        dice = f" + ${pv.dice_bonus} bonus dice" if pv.dice_bonus else ""
        return (f"ship {route_text(state, a)} ({links}): {dice_count(pv.dice)}, you ${own} + "
                f"${pv.distance_bonus} bonus{dice}{others}  [{pay_and_keep(state, seat, pv.pay)}]")
    if isinstance(a, BuildStation):
        pv = previews.station(state, a)
        return (f"build switching station #{state.players[seat].stations + 1} for {dice_count(pv.dice)}"
                f"  [{pay_and_keep(state, seat, pv.pay)}]")
    if isinstance(a, BuyImprovement):
        pv = previews.improvement(state, a)
        text = f"buy {pv.name} (slot {a.slot + 1}) for {dice_count(pv.cost.dice)}"
        if pv.returned is not None:
            text += f", returning {pv.returned}"
        return text + f"  [{pay_and_keep(state, seat, pv.cost.pay)}]"
    if isinstance(a, EndTurn):
        g = previews.stockpile(state, a)
        kept = ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(g) if n) or "nothing"
        return f"end turn, stockpiling {kept}" + (f" (split dice as {a.store})" if a.store else "")
    return str(a.to_json())


# -- the screen -------------------------------------------------------------------------------------


def render(console: Console, session: PlaySession, seat: int) -> None:
    """The phase line, the tracks, the players, the cargo and demands, and ``seat``'s dice."""
    for part in render_parts(session, seat):
        console.print(part.full)


def render_parts(session: PlaySession, seat: int) -> list[Part]:
    """The table in parts (:func:`.terminal.draw`): the phase line, the tracks, the players, the
    cargo and demands (on a short terminal, a line saying how many cities and that ``map`` lists
    them) and ``seat``'s dice with what their symbols mean."""
    st = session.state
    names = session.names
    phase = PHASES[st.phase]
    eop = (f" | End of Phase card held by {names[st.eop_holder]}, {st.final_left} turn(s) left"
           if st.eop_holder >= 0 else "")
    stage = "opening draft" if st.stage == "draft" else f"turn {st.turn}"
    head = Text.from_markup(f"[bold]{escape(st.map.title)} - phase {phase}, {stage}[/bold] - contract deck "
                            f"{len(st.contract_deck)}, improvement deck {len(st.improvement_deck)}{escape(eop)}")
    tracks = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold underline")
    tracks.add_column("slot")
    tracks.add_column("contract track (length)")
    tracks.add_column("cost")
    tracks.add_column("improvement track")
    tracks.add_column("cost")
    for i in range(max(len(st.contract_track), len(st.improvement_track))):
        c = st.contract_track[i] if i < len(st.contract_track) else None
        m = st.improvement_track[i] if i < len(st.improvement_track) else None
        ln = st.map.links[c] if c is not None else None
        tracks.add_row(str(i + 1), link_text(st, c) if ln else "-", f"{ln.cost}+1" if ln else "",
                       m or "-", str(st.comp.improvements[m].cost) if m else "")
    wants = sum(1 for c in st.map.cities for r in st.rings[c.index] if r[1] <= st.phase and not r[2])
    cargo = sum(1 for c in st.map.cities if st.cargo[c.index])
    short = Text(f"Cargo and demand: {cargo} cities have cargo, {wants} open demands ('map' lists them, "
                 "'map CITY' one city)")
    return [
        Part(head),
        Part(tracks),
        Part(players_table(session, seat)),
        Part(Text("Cargo and demand ('map' lists the links too): " + cities_line(st)), short),
        Part(Text("\n".join([dice_line(st, seat, names[seat]), *("  " + x for x in dice_legend(st, seat))])),
             Text(dice_line(st, seat, names[seat]) + " ('dice': what the faces mean)")),
    ]


def players_table(session: PlaySession, seat: int | None) -> Table:
    """Each player (numbered from 1, ``*`` marking ``seat``): stock, stations, markers (blue, gray,
    red, yellow), contracts (by link number, cubes built of its length), improvements and cargo."""
    st = session.state
    players = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold underline")
    for col in ("player", "stock", "stns", "b/g/r/y", "contracts, cubes", "improvements", "cargo"):
        players.add_column(col)
    for i, p in enumerate(st.players):
        name = f"{i + 1} [{RICH_SEAT[i]}]{escape(session.names[i])}[/]" + (" *" if i == seat else "")
        # a contract by its link's number (build reads it; 'map' names its card and cities)
        cons = " ".join(f"L{st.map.links[c].id} {st.cubes[c]}/{st.map.links[c].length}" for c in p.contracts)
        imps = ", ".join(p.improvements + [x + " (next turn)" for x in p.pending])
        players.add_row(name, f"${p.stock}", str(p.stations), "/".join(map(str, p.markers)), cons or "-",
                        imps or "-", " ".join(f"{c}×{n}" if n > 1 else c for c, n in Counter(p.cargo).items()) or "-")
    return players


def cities_line(st) -> str:
    """Cities with cargo or an open demand: ``Fresno [blue] wants gray; ...``."""
    parts = []
    for c in st.map.cities:
        wants = [r[0] for r in st.rings[c.index] if r[1] <= st.phase and not r[2]]
        cargo = st.cargo[c.index]
        if wants or cargo:
            parts.append(f"{c.name}" + (f" [{' '.join(cargo)}]" if cargo else "") + (f" wants {'/'.join(wants)}" if wants else ""))
    return "; ".join(parts)


#: what each kind of die face does (003, Dice symbols; The Improvement Dice sidebar), for the
#: legend under the dice: a split face, then the improvement dice's symbols
FACE_MEANING = {
    "split": "blue/gray etc.: either colour, or the split die a Slash (ocean) contract needs",
    "wild": "wild: a die of any colour, or a cube on an ocean link",
    "cubes": "cubes: one or two construction cubes on one of your contracts",
    "bonus": "bonus: +$2 when spent on a major route",
    "any": "any: one die for anything not colour-specific (contract, improvement, route, station)",
    "any2": "any2: two such dice for one purpose",
    "route": "route: pays for a second major route this turn",
}


def dice_legend(st, seat: int) -> list[str]:
    """What the faces showing on ``seat``'s dice mean, for those that are not a plain colour (one
    line each, in :data:`FACE_MEANING`'s order; none when every face is a plain colour)."""
    kinds = set()
    for name in st.players[seat].dice:
        f = face(name)
        kinds.add("split" if f.kind == "colour" and len(f.colours) > 1 else f.kind)
    return [text for kind, text in FACE_MEANING.items() if kind in kinds]


def dice_line(st, seat: int, name: str) -> str:
    """``Dice of Player 1: 1:red 2:blue/gray 3:(spent) ...`` (numbered from 1, as ``pay`` reads
    them) and markers."""
    p = st.players[seat]
    dice = "  ".join(f"{i + 1}:{'(' + f + ')' if p.spent[i] else f}" for i, f in enumerate(p.dice))
    marks = ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(p.markers) if n) or "none"
    return f"Dice of {name}: {dice}; markers: {marks}"


def menu_moves(st, seat: int) -> list:
    """The legal moves as the menu lists them: one ``end turn`` (the engine's stockpile, the
    most markers) stands for the engine's one per way to stockpile the split dice, which
    ``end COLOURS`` still chooses."""
    moves = st.legal_actions(seat)
    ends = [a for a in moves if isinstance(a, EndTurn)]
    if len(ends) <= 1:
        return moves
    return [a for a in moves if not isinstance(a, EndTurn)] + [EndTurn(seat)]


def menu_lines(st, moves) -> list[Text]:
    """The legal moves, numbered from 1, a line each."""
    return [Text(f"  {i:>3}. {describe(st, a)}") for i, a in enumerate(moves, 1)]


def show_menu(console: Console, st, moves) -> None:
    """Numbered list of the legal moves."""
    for line in menu_lines(st, moves):
        console.print(line)
