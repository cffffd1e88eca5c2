"""Rolling Freight's commands: ``rolling play freight``, ``rolling simulate freight``,
``rolling bench freight`` and ``rolling freight board``.

The play screen is drawn with rich; it only shows what the engine says and asks it what is
legal (every move goes through :meth:`FreightState.apply`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

import typer
from rich.console import Console
from rich.table import Table

from rolling.cli.session import Quit, TurnUndo, fail, games_progress, read_line
from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, load_record, new_state
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
    freight_action_from_json,
)
from rolling.games.freight.bots import BOTS, make_bot, play_game
from rolling.games.freight.components import COLOURS, MAP_NAMES, PHASES, load_map

HELP = """Commands:
  N               do move N of the menu (the engine picks the dice to pay with)
  N pay 0 3 blue  do move N paying with dice 0 and 3 and one blue marker
  take S [pay ..] take the contract in slot S of the contract track
  build L [pay ..] build on your contract on link L (default: all matching dice)
  build L N [pay ..] the same, adding N cubes (the cubes symbol adds one or two)
  end [COLOURS]   end the turn; optional colour for each unspent split die to stockpile as
  dice            list your dice again;  map   list cities with cargo or demand
  undo            take back your last move of this turn
  help            this text
  quit            save and leave (continue later with --resume FILE)
Each turn: take contracts (A), build (B), one major route (C), switching stations (D),
improvements (E) in any order, then end the turn: F stockpile, G refill, H roll."""

#: moves after which undo cannot reach back (each draft pick is a turn of its own)
TURN_ENDS = (EndTurn, DraftContract, DraftImprovement, DraftPass)
RICH_SEAT = ["red", "blue", "green", "magenta", "dark_orange"]


def parse_seats(text: str | None, players: int | None, default_players: int) -> list[str]:
    """Seat list from ``--seats`` (``human``, ``random``, ``heuristic``), or seat 0 human and heuristic bots.

    Raises:
        ValueError: an unknown seat kind, or a count disagreeing with ``--players``.
    """
    if text:
        seats = [w.strip().lower() for w in text.split(",") if w.strip()]
        for s in seats:
            if s != "human" and s not in BOTS:
                raise ValueError(f"unknown seat {s!r} (use human, {', '.join(BOTS)})")
        if players is not None and players != len(seats):
            raise ValueError(f"--players {players} but --seats names {len(seats)} seats")
        return seats
    n = players if players is not None else default_players
    return ["human"] + ["heuristic"] * (n - 1)


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


# -- the session ------------------------------------------------------------------------------------


@dataclass
class Session(TurnUndo):
    """A game at the terminal: the state, its record (saved after every action), who sits where,
    and where the current turn began (for undo)."""

    state: object
    record: GameRecord
    path: str
    seats: list[str]
    turn_state: object = None
    turn_start: int = 0
    shown: int = 0
    bots: dict = field(default_factory=dict)

    @classmethod
    def start(cls, record: GameRecord, path: str, seats: list[str]) -> Session:
        """Rebuild a session from a record.

        Raises:
            RecordError: not a freight record, or a malformed or illegal action in it.
        """
        if record.game != "freight":
            raise RecordError(f"that record is a game of {record.game!r}, not freight")
        state = new_state(record)
        state.enable_log()
        s = cls(state, record, path, seats)
        s.turn_state, s.turn_start = state.clone(), 0
        for i, data in enumerate(record.actions):
            action = freight_action_from_json(data)
            before = state.to_act
            try:
                state.apply(action)
            except IllegalAction as e:
                raise RecordError(f"action {i} ({data}) is illegal: {e}") from None
            if state.to_act != before or isinstance(action, TURN_ENDS):
                s.turn_state, s.turn_start = state.clone(), i + 1
        s.bots = {i: make_bot(k, record.seed + 101 * i) for i, k in enumerate(seats) if k != "human"}
        # On resume show only the latest events, not the whole game so far.
        s.shown = max(0, len(state.log) - 12)
        return s

    read_action = staticmethod(freight_action_from_json)

    def ends_turn(self, action, before) -> bool:
        """A turn ends when the seats to act change, or with a turn-ending action."""
        return self.state.to_act != before or isinstance(action, TURN_ENDS)

    def after_undo(self) -> None:
        self.shown = len(self.state.log)


def render(console: Console, s: Session, full: bool = True) -> None:
    """New log lines, then (``full``) the tracks, the players, your dice and the menu."""
    st = s.state
    for line in st.log_lines(None, s.shown):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    s.shown = len(st.log)
    if st.is_over:
        console.print("[bold]Game over.[/bold]")
        for r in st.standings():
            console.print(f"  {r['rank']}. {s.record.meta['names'][r['seat']]}: ${r['score']} ({r['stations']} stations)")
        return
    if not full:
        return
    seat = st.to_act[0]
    phase = PHASES[st.phase]
    eop = (f" | End of Phase card held by {s.record.meta['names'][st.eop_holder]}, {st.final_left} turn(s) left"
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
    players = Table(title="Players", title_justify="left", show_edge=False)
    for col in ("", "stock", "stns", "markers b/g/r/y", "contracts (link, cubes)", "improvements", "cargo"):
        players.add_column(col)
    for i, p in enumerate(st.players):
        name = f"P{i} [{RICH_SEAT[i]}]{s.record.meta['names'][i]}[/]" + (" *" if i == seat else "")
        cons = ", ".join(f"{st.map.links[c].label} L{st.map.links[c].id} {st.cubes[c]}/{st.map.links[c].length}"
                         for c in p.contracts)
        imps = ", ".join(p.improvements + [x + " (next turn)" for x in p.pending])
        players.add_row(name, f"${p.stock}", str(p.stations), "/".join(map(str, p.markers)), cons or "-",
                        imps or "-", " ".join(p.cargo) or "-")
    console.print(players)
    console.print("Cargo and demand: " + cities_line(st), highlight=False, markup=False)
    console.print(dice_line(st, seat), highlight=False, markup=False)


def cities_line(st) -> str:
    """Cities with cargo or an open demand: ``Fresno [blue] wants gray; ...``."""
    parts = []
    for c in st.map.cities:
        wants = [r[0] for r in st.rings[c.index] if r[1] <= st.phase and not r[2]]
        cargo = st.cargo[c.index]
        if wants or cargo:
            parts.append(f"{c.name}" + (f" [{' '.join(cargo)}]" if cargo else "") + (f" wants {'/'.join(wants)}" if wants else ""))
    return "; ".join(parts)


def dice_line(st, seat: int) -> str:
    """``Dice of P0: 0:red 1:blue/gray 2:(spent) ...`` and markers."""
    p = st.players[seat]
    dice = "  ".join(f"{i}:{'(' + f + ')' if p.spent[i] else f}" for i, f in enumerate(p.dice))
    marks = ", ".join(f"{n} {COLOURS[k]}" for k, n in enumerate(p.markers) if n) or "none"
    return f"Dice of seat {seat}: {dice}   markers: {marks}"


def show_menu(console: Console, st, moves) -> None:
    """Numbered list of the legal moves."""
    for i, a in enumerate(moves, 1):
        console.print(f"  {i:>3}. {describe(st, a)}", markup=False, highlight=False)


def parse(line: str, st, moves):
    """A command line to ``(kind, action_or_None)``; kind in move/undo/help/quit/dice/map/menu.

    Raises:
        ValueError: with a message for the player.
    """
    words = line.strip().split()
    if not words:
        raise ValueError("type a move number or a command ('help' lists them)")
    cmd = words[0].lower()
    simple = {"undo": "undo", "u": "undo", "help": "help", "h": "help", "?": "help", "quit": "quit",
              "q": "quit", "exit": "quit", "dice": "dice", "map": "map", "menu": "menu", "m": "menu"}
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


def run_bots(s: Session, console: Console) -> None:
    """Let bot seats move until a human must act or the game ends."""
    while not s.state.is_over:
        seat = s.state.to_act[0]
        if s.seats[seat] == "human":
            return
        s.apply(s.bots[seat].act(s.state, seat))
        render(console, s, full=False)


def play_loop(s: Session, console: Console) -> None:
    """The prompt loop; end of input or ``quit`` saves and leaves."""
    try:
        run_bots(s, console)
        render(console, s)
        shown_for = None
        while not s.state.is_over:
            st = s.state
            seat = st.to_act[0]
            key = (id(st), len(s.record.actions))
            if key != shown_for:
                moves = st.legal_actions(seat)
                show_menu(console, st, moves)
                shown_for = key
            try:
                line = read_line(console, f"{s.record.meta['names'][seat]}> ")
                kind, action = parse(line, st, moves)
            except ValueError as e:
                console.print(f"[yellow]{e}[/yellow]", highlight=False)
                continue
            if kind == "help":
                console.print(HELP, markup=False, highlight=False)
            elif kind == "quit":
                raise Quit
            elif kind == "dice":
                console.print(dice_line(st, seat), markup=False, highlight=False)
            elif kind == "map":
                console.print(cities_line(st), markup=False, highlight=False)
            elif kind == "menu":
                show_menu(console, st, moves)
            elif kind == "undo":
                if s.undo():
                    console.print("Undone.")
                    render(console, s)
                else:
                    console.print("[yellow]nothing to undo this turn[/yellow]")
            else:
                try:
                    s.apply(action)
                except IllegalAction as e:
                    console.print(f"[yellow]Not allowed ({e.rule}): {e.reason}[/yellow]", highlight=False)
                    continue
                render(console, s, full=False)
                run_bots(s, console)
                render(console, s)
    except (Quit, KeyboardInterrupt):
        s.save()
        console.print(f"\nSaved to {s.path}; resume with: rolling play freight --resume {s.path}")
        return
    console.print(f"Record saved to {s.path}; replay with: rolling replay {s.path}")


# -- simulation -------------------------------------------------------------------------------------


def simulate(map_name: str, games: int, seats: list[str], seed: int = 0, progress=None) -> dict:
    """Play ``games`` bot games; seats rotate through the positions from game to game.

    Returns:
        ``{"games": n, "seats": [{"bot", "win_rate", "mean_score"}, ...]}`` in the order of ``seats``
        (a win is rank 1, shared ties included).
    """
    from rolling.games.freight import Config, new_game

    n = len(seats)
    wins = [0] * n
    scores = [0] * n
    for g in range(games):
        rot = g % n
        # entry k of ``seats`` sits at position (k + rot) % n
        pos_of = [(k + rot) % n for k in range(n)]
        by_pos = [None] * n
        for k, pos in enumerate(pos_of):
            by_pos[pos] = make_bot(seats[k], seed * 1_000_003 + g * 31 + k)
        state = new_game(Config(map_name, n), seed * 1_000_003 + g)
        play_game(state, by_pos)
        ranks = {r["seat"]: r for r in state.standings()}
        for k, pos in enumerate(pos_of):
            wins[k] += ranks[pos]["rank"] == 1
            scores[k] += ranks[pos]["score"]
        if progress:
            progress(1)
    return {"games": games, "seats": [
        {"bot": seats[k], "win_rate": round(wins[k] / games, 4), "mean_score": round(scores[k] / games, 2)}
        for k in range(n)]}


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``play freight``, ``simulate freight``, ``bench freight`` and the ``freight`` group (``board``)."""

    @groups["play"].command("freight")
    def play_freight(
        map_name: str = typer.Option("west-coast", "--map", help="west-coast (2-4 players) or southern (3-5)"),
        players: int = typer.Option(None, "--players", help="number of players (default 3, or as many as --seats)"),
        seats: str = typer.Option(None, "--seats", help="comma list of human/random/heuristic, e.g. human,heuristic,random"),
        seed: int = typer.Option(None, "--seed", help="seed of the game (default: random)"),
        save: str = typer.Option(None, "--save", help="record file, saved after every action (default freight-SEED.json)"),
        resume: str = typer.Option(None, "--resume", help="continue the game in this record file"),
    ) -> None:
        """Play Rolling Freight in the terminal, with and against bots."""
        console = Console(highlight=False)
        if resume is not None:
            if seed is not None or seats is not None or players is not None:
                fail("--seed, --seats and --players cannot be used with --resume (the record has them)")
            record = load_record(resume)
            seat_list = record.meta.get("seats")
            if not isinstance(seat_list, list) or len(seat_list) != record.config.get("players"):
                raise RecordError("the record does not say who sits where (meta.seats)")
            path = save or resume
        else:
            if map_name not in MAP_NAMES:
                fail(f"unknown map {map_name!r} for --map (known: {', '.join(MAP_NAMES)})")
            m = load_map(map_name)
            try:
                seat_list = parse_seats(seats, players, 3 if m.max_players >= 3 else m.max_players)
            except ValueError as e:
                fail(str(e))
            if not m.min_players <= len(seat_list) <= m.max_players:
                fail(f"the {m.title} map is for {m.min_players}-{m.max_players} players, not {len(seat_list)}")
            if seed is None:
                seed = int.from_bytes(os.urandom(4), "little")
            names = [f"{k}{i}" if k != "human" else f"you{i}" if seat_list.count("human") > 1 else "you"
                     for i, k in enumerate(seat_list)]
            record = GameRecord("freight", {"map": map_name, "players": len(seat_list)}, seed, [],
                                meta={"names": names, "seats": seat_list})
            path = save or f"freight-{seed}.json"
        session = Session.start(record, path, seat_list)
        session.save()
        console.print(f"Rolling Freight ({record.config['map']}), seed {record.seed}; saving to {path}. "
                      "Type 'help' for commands.")
        play_loop(session, console)

    @groups["simulate"].command("freight")
    def simulate_freight(
        map_name: str = typer.Option("west-coast", "--map", help="west-coast or southern"),
        games: int = typer.Option(100, "--games", help="number of games"),
        seats: str = typer.Option("heuristic,random,random", "--seats", help="comma list of bots, one per seat"),
        seed: int = typer.Option(0, "--seed", help="seed of the run"),
        as_json: bool = typer.Option(False, "--json", help='print one JSON object {"games", "seats": [...]}'),
    ) -> None:
        """Play many bot games (seats rotate through positions) and report win rates and mean scores."""
        if map_name not in MAP_NAMES:
            fail(f"unknown map {map_name!r} for --map (known: {', '.join(MAP_NAMES)})")
        seat_list = [w.strip() for w in seats.split(",") if w.strip()]
        for b in seat_list:
            if b not in BOTS:
                fail(f"unknown bot {b!r} in --seats (known: {', '.join(BOTS)})")
        m = load_map(map_name)
        if not m.min_players <= len(seat_list) <= m.max_players:
            fail(f"the {m.title} map is for {m.min_players}-{m.max_players} players, not {len(seat_list)}")
        if games < 1:
            fail(f"--games must be 1 or more, not {games}")
        t0 = time.perf_counter()
        with games_progress(f"freight/{map_name}", games, transient=as_json) as advance:
            out = simulate(map_name, games, seat_list, seed, progress=advance)
        if as_json:
            print(json.dumps(out))
            return
        print(f"Rolling Freight, {m.title}, {games} games, seed {seed} ({time.perf_counter() - t0:.1f} s)")
        for k, row in enumerate(out["seats"]):
            print(f"  seat entry {k} {row['bot']:>10}: win rate {row['win_rate']:.1%}, mean score {row['mean_score']}")

    @groups["bench"].command("freight")
    def bench_freight(
        map_name: str = typer.Option("west-coast", "--map", help="west-coast or southern"),
        games: int = typer.Option(20, "--games", help="number of games"),
        players: int = typer.Option(3, "--players", help="number of players"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Measure games and actions per second of the engine with random bots (bot time included)."""
        from rolling.games.freight import Config, new_game
        from rolling.games.freight.bots import RandomBot

        if map_name not in MAP_NAMES:
            fail(f"unknown map {map_name!r} for --map (known: {', '.join(MAP_NAMES)})")
        m = load_map(map_name)
        if not m.min_players <= players <= m.max_players:
            fail(f"the {m.title} map is for {m.min_players}-{m.max_players} players, not {players}")
        t0 = time.perf_counter()
        actions = 0
        for g in range(games):
            st = new_game(Config(map_name, players), g)
            actions += len(play_game(st, [RandomBot(g * 10 + i) for i in range(players)]))
        wall = time.perf_counter() - t0
        out = {"games": games, "map": map_name, "seconds": round(wall, 3), "games_per_s": round(games / wall, 2),
               "actions_per_s": round(actions / wall, 1)}
        if as_json:
            print(json.dumps(out))
        else:
            print(f"freight/{map_name}: {games} games in {wall:.2f} s: {out['games_per_s']} games/s, "
                  f"{out['actions_per_s']} actions/s")

    freight_app = typer.Typer(help="Rolling Freight tools.", no_args_is_help=True)
    app.add_typer(freight_app, name="freight")

    @freight_app.command("board")
    def board(
        record_file: str = typer.Argument(..., metavar="RECORD.json", help="a Rolling Freight game record"),
        out: str = typer.Option(..., "--out", help="picture file: .svg or .png"),
        at: int = typer.Option(None, "--at", help="draw the board after the first N actions (default: all)"),
    ) -> None:
        """Draw the board of a game record (cities at their real places, links, cubes, cargo)."""
        from rolling.cli.freight_board import draw_board
        from rolling.core.record import replay

        if not out.lower().endswith((".svg", ".png")):
            fail("--out must end in .svg or .png")
        record = load_record(record_file)
        if record.game != "freight":
            raise RecordError(f"that record is a game of {record.game!r}, not freight")
        if at is not None and not 0 <= at <= len(record.actions):
            fail(f"--at must be between 0 and {len(record.actions)}")
        state = replay(record, at)
        try:
            draw_board(state, out, names=record.meta.get("names"))
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror or e}")
        print(f"wrote {out}")
