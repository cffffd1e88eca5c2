"""Rolling Freight at the terminal table: the tracks, the players, the cargo, your dice and a
numbered menu of your legal moves, plugged into the shared loop of :mod:`.terminal`.

Players are numbered from 1 on the screen; dice and track slots are numbered as ``pay`` and
``take`` read them (from 0).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

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
from rolling.games.freight.components import COLOURS, PHASES, load_map

from .session import PlaySession
from .terminal import Screen

COMMANDS = """Commands:
  N               do move N of the menu (the engine picks the dice to pay with)
  N pay 0 3 blue  do move N paying with dice 0 and 3 and one blue marker
  take S [pay ..] take the contract in slot S of the contract track
  build L [pay ..] build on your contract on link L (default: all matching dice)
  build L N [pay ..] the same, adding N cubes (the cubes symbol adds one or two)
  end [COLOURS]   end the turn; optional colour for each unspent split die to stockpile as
  dice            list your dice again;  map   list cities with cargo or demand;  menu   the moves again
Each turn: take contracts (A), build (B), one major route (C), switching stations (D),
improvements (E) in any order, then end the turn: F stockpile, G refill, H roll."""

#: moves after which undo cannot reach back (each draft pick is a turn of its own)
TURN_ENDS = (EndTurn, DraftContract, DraftImprovement, DraftPass)
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

    def barrier(self, action: Any, before: tuple[int, ...], state: Any) -> bool:
        """A turn ends when the seats to act change, or with a turn-ending action (the dice roll)."""
        return state.to_act != before or isinstance(action, TURN_ENDS)

    def show(self, session: PlaySession, seat: int, console: Console, first: bool) -> None:
        """The whole table and the menu (for a new decision)."""
        if first:
            render(console, session, seat)
            self.moves = session.state.legal_actions(seat)
            show_menu(console, session.state, self.moves)

    def read(self, session: PlaySession, seat: int, line: str, console: Console) -> Any:
        """A move (by number or typed), or a listing printed here (``None``)."""
        st = session.state
        kind, action = parse(line, st, self.moves)
        if kind == "dice":
            console.print(dice_line(st, seat, session.names[seat]), markup=False, highlight=False)
        elif kind == "map":
            console.print(cities_line(st), markup=False, highlight=False)
        elif kind == "menu":
            show_menu(console, st, self.moves)
        return action

    def final(self, session: PlaySession, console: Console, viewer: int | None) -> None:
        """The players' table at the end."""
        console.print(players_table(session, None))


# -- describing things ------------------------------------------------------------------------------


def link_text(state, index: int) -> str:
    """``"Red 5A Birmingham-Memphis (6)"``."""
    ln = state.map.links[index]
    return f"{ln.label} {state.map.cities[ln.a].name}-{state.map.cities[ln.b].name} ({ln.length})"


def describe(state, a) -> str:
    """A menu line for an action."""
    from rolling.games.freight import previews
    from rolling.games.freight.payment import pay_text

    seat = a.seat
    if isinstance(a, DraftContract):
        return f"draft contract {link_text(state, state.contract_track[a.slot])}"
    if isinstance(a, DraftImprovement):
        return f"draft improvement {state.improvement_track[a.slot]}"
    if isinstance(a, DraftPass):
        return "pass (nothing to draft)"
    if isinstance(a, TakeContract):
        card = state.contract_track[a.slot]
        pv = previews.contract(state, a)
        return f"take {link_text(state, card)}: 1 {pv.colour if pv.colour != 'ocean' else 'split'} + {pv.dice} any  [pay {pay_text(pv.pay or ())}]"
    if isinstance(a, Build):
        ln = state.link_by_id(a.link)
        p = state.players[seat]
        words = a.pay.split()
        if not words:
            what = "all matching dice"
        else:
            what = ", ".join(f"die {w} ({p.dice[int(w)]})" if w.isdigit() and int(w) < len(p.dice) else f"a {w} marker"
                             for w in words)
        many = f"{a.cubes} cube{'s' if a.cubes > 1 else ''} " if a.cubes else ""
        return f"build {many}{link_text(state, ln.index)} [{state.cubes[ln.index]}/{ln.length}] with {what}"
    if isinstance(a, SteadyBuild):
        ln = state.link_by_id(a.link)
        return f"Steady Builder: free cube on {link_text(state, ln.index)}"
    if isinstance(a, EstablishRoute):
        pv = previews.route(state, a)
        own = pv.earns(seat) - pv.distance_bonus - pv.dice_bonus
        return (f"route {a.colour} {a.origin} -> {a.dest}, {pv.links} links via {a.path}: {pv.dice} dice, "
                f"you ${own}+{pv.distance_bonus} bonus")
    if isinstance(a, BuildStation):
        return f"build switching station #{state.players[seat].stations + 1} for {previews.station(state, a).dice} dice"
    if isinstance(a, BuyImprovement):
        pv = previews.improvement(state, a)
        text = f"buy {pv.name} for {pv.cost.dice} dice"
        if pv.returned is not None:
            text += f", returning {pv.returned}"
        return text
    if isinstance(a, EndTurn):
        g = previews.stockpile(state, a)
        kept = ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(g) if n) or "nothing"
        return f"end turn, stockpiling {kept}" + (f" (splits as {a.store})" if a.store else "")
    return str(a.to_json())


# -- the screen -------------------------------------------------------------------------------------


def render(console: Console, session: PlaySession, seat: int) -> None:
    """The phase line, the tracks, the players, the cargo and demands, and ``seat``'s dice."""
    st = session.state
    names = session.names
    phase = PHASES[st.phase]
    eop = (f" | End of Phase card held by {names[st.eop_holder]}, {st.final_left} turn(s) left"
           if st.eop_holder >= 0 else "")
    stage = "opening draft" if st.stage == "draft" else f"turn {st.turn}"
    console.print(f"[bold]{st.map.title} - phase {phase}, {stage}[/bold] - contract deck {len(st.contract_deck)}, "
                  f"improvement deck {len(st.improvement_deck)}{eop}", highlight=False)
    tracks = Table(title="Tracks", title_justify="left", show_edge=False)
    tracks.add_column("slot")
    tracks.add_column("contract (length)")
    tracks.add_column("cost")
    tracks.add_column("improvement")
    tracks.add_column("cost")
    for i in range(max(len(st.contract_track), len(st.improvement_track))):
        c = st.contract_track[i] if i < len(st.contract_track) else None
        m = st.improvement_track[i] if i < len(st.improvement_track) else None
        ln = st.map.links[c] if c is not None else None
        tracks.add_row(str(i), link_text(st, c) if ln else "-", f"{ln.cost}+1" if ln else "",
                       m or "-", str(st.comp.improvements[m].cost) if m else "")
    console.print(tracks)
    console.print(players_table(session, seat))
    console.print("Cargo and demand: " + cities_line(st), highlight=False, markup=False)
    console.print(dice_line(st, seat, names[seat]), highlight=False, markup=False)


def players_table(session: PlaySession, seat: int | None) -> Table:
    """Each player (numbered from 1, ``*`` marking ``seat``): stock, stations, markers, contracts,
    improvements and cargo."""
    st = session.state
    players = Table(title="Players", title_justify="left", show_edge=False)
    for col in ("", "stock", "stns", "markers b/g/r/y", "contracts (link, cubes)", "improvements", "cargo"):
        players.add_column(col)
    for i, p in enumerate(st.players):
        name = f"{i + 1} [{RICH_SEAT[i]}]{session.names[i]}[/]" + (" *" if i == seat else "")
        cons = ", ".join(f"{st.map.links[c].label} L{st.map.links[c].id} {st.cubes[c]}/{st.map.links[c].length}"
                         for c in p.contracts)
        imps = ", ".join(p.improvements + [x + " (next turn)" for x in p.pending])
        players.add_row(name, f"${p.stock}", str(p.stations), "/".join(map(str, p.markers)), cons or "-",
                        imps or "-", " ".join(p.cargo) or "-")
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


def dice_line(st, seat: int, name: str) -> str:
    """``Dice of Player 1: 0:red 1:blue/gray 2:(spent) ...`` and markers."""
    p = st.players[seat]
    dice = "  ".join(f"{i}:{'(' + f + ')' if p.spent[i] else f}" for i, f in enumerate(p.dice))
    marks = ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(p.markers) if n) or "none"
    return f"Dice of {name}: {dice}   markers: {marks}"


def show_menu(console: Console, st, moves) -> None:
    """Numbered list of the legal moves."""
    for i, a in enumerate(moves, 1):
        console.print(f"  {i:>3}. {describe(st, a)}", markup=False, highlight=False)


def parse(line: str, st, moves):
    """A command line to ``(kind, action_or_None)``; kind in move/dice/map/menu.

    Raises:
        ValueError: with a message for the player.
    """
    words = line.strip().split()
    if not words:
        raise ValueError("type a move number or a command ('help' lists them)")
    cmd = words[0].lower()
    simple = {"dice": "dice", "map": "map", "menu": "menu", "m": "menu"}
    if cmd in simple:
        return simple[cmd], None
    seat = st.to_act[0]
    pay = ""
    if "pay" in [w.lower() for w in words]:
        k = [w.lower() for w in words].index("pay")
        pay = " ".join(words[k + 1:])
        words = words[:k]
        if not pay:
            raise ValueError("'pay' needs dice numbers or marker colours after it")
    if cmd.isdigit():
        n = int(cmd)
        if not 1 <= n <= len(moves):
            raise ValueError(f"there is no move {n} (1-{len(moves)})")
        a = moves[n - 1]
        if pay:
            if not hasattr(a, "pay"):
                raise ValueError("that move takes no payment")
            a = type(a)(**{**{f: getattr(a, f) for f in a.__dataclass_fields__}, "pay": pay})
        return "move", a
    if cmd in ("take", "t"):
        if len(words) != 2 or not words[1].isdigit():
            raise ValueError(f"write it as '{cmd} S' (a slot number), optionally 'pay ...'")
        return "move", TakeContract(seat, int(words[1]), pay)
    if cmd in ("build", "b"):
        if len(words) not in (2, 3) or not all(w.isdigit() for w in words[1:]):
            raise ValueError(f"write it as '{cmd} L' or '{cmd} L CUBES' (a link number, how many cubes), "
                             "optionally 'pay ...'")
        return "move", Build(seat, int(words[1]), pay, int(words[2]) if len(words) == 3 else 0)
    if cmd in ("end", "e", "done", "d"):
        return "move", EndTurn(seat, " ".join(words[1:]))
    if cmd in ("station", "s"):
        return "move", BuildStation(seat, pay)
    raise ValueError(f"unknown command {words[0]!r} ('help' lists them)")
