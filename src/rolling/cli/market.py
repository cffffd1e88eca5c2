"""Rolling Market's commands: ``rolling play market``, ``rolling simulate market``, ``rolling bench market``.

The play screen is drawn with rich; it only shows what the engine says and asks it what is legal
(every trade goes through :meth:`MarketState.apply`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

import typer
from rich.console import Console
from rich.table import Table

from rolling.cli.session import Quit, TurnUndo, fail, games_progress, read_line
from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, load_record, new_state
from rolling.games.market import previews
from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, action_from_json, buy, sell
from rolling.games.market.state import MarketState

HELP = """Commands (company letters A-D, either case):
  buy B 4     buy 4 shares of B (a preview is shown: Enter or y confirms, n cancels)
  sell A 7    sell 7 shares of A
  buy B max   buy as many B as you can afford and hold ('sell A all' sells them all)
  done        end this turn's trading and roll the next turn
  undo        take back the last trade of this turn
  help        this text
  quit        save and leave (continue later with --resume FILE)
Each turn you may buy one company and/or sell one other company, in either
order, both optional; in the last two turns you may sell two different
companies instead. Shares trade at the current value; after every <volatility>
shares bought the value rises by 1 (max 6), after every <volatility> sold it
falls by 1 (min 1). At most 12 shares of a company. Your score is your cash
after the 12th buy/sell turn: shares still held are worth nothing."""


@dataclass
class Session(TurnUndo):
    """A game being played at the terminal: the state, its record and where the turn began.

    Attributes:
        state: the live state (with its log on).
        record: the game record, saved to ``path`` after every action.
        path: the record's file.
        turn_state: a clone of the state at the start of the current buy/sell turn (for undo).
        turn_start: how many of the record's actions came before this turn.
    """

    state: MarketState
    record: GameRecord
    path: str
    turn_state: MarketState
    turn_start: int
    shown: int = 0
    closed_seen: int = 0

    @classmethod
    def start(cls, record: GameRecord, path: str) -> Session:
        """Rebuild a session from a record (all its actions), with the log on from the first roll.

        Raises:
            RecordError: a malformed or illegal action in the record, or not a market record.
        """
        if record.game != "market":
            raise RecordError(f"that record is a game of {record.game!r}, not market")
        state = new_state(record)
        state.enable_log()
        turn_state, turn_start = state.clone(), 0
        closed_seen = 0  # closed turns before the latest roll, so the screen reports only new ones
        for i, data in enumerate(record.actions):
            action = action_from_json(data)
            if action == DONE:
                closed_seen = state.closed
            try:
                state.apply(action)
            except IllegalAction as e:
                raise RecordError(f"action {i} ({data}) is illegal: {e}") from None
            if action == DONE:
                turn_state, turn_start = state.clone(), i + 1
        return cls(state, record, path, turn_state, turn_start, closed_seen=closed_seen)

    read_action = staticmethod(action_from_json)

    def ends_turn(self, action, before) -> bool:
        """A buy/sell turn ends with ``done``."""
        return action == DONE


def _money(x: int) -> str:
    return f"${x}"


def render(console: Console, s: Session) -> None:
    """Draw the screen: new events, the dice, each company and the player's position."""
    st = s.state
    for line in st.log_lines(None, s.shown):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    s.shown = len(st.log)
    if st.over:
        console.print(f"[bold]Game over.[/bold] Final cash: [bold green]{_money(st.cash)}[/bold green]")
        return
    turn = R.BUY_SELL_TURNS - st.turns_left
    dice = "  ".join(f"{R.COMPANIES[c]}:{st.dice[c]}" for c in range(R.N_COMPANIES))
    vdie = f"volatility die {st.dice[4]}" if st.dice[4] else "volatility die set to 3 (not rolled)"
    title = f"Rolling Market - buy/sell turn {turn} of {R.BUY_SELL_TURNS}"
    table = Table(title=title, title_justify="left", caption=f"Dice  {dice}   {vdie}", caption_justify="left")
    for col in ("Company", "Die", "Roll", "Value", "Shares", "Sell all", "Buy max"):
        table.add_column(col, justify="right" if col != "Company" else "left")
    for c in range(R.N_COMPANIES):
        b, r, a = st.before[c], st.rolled[c], st.values[c]
        if st.splits >> c & 1:
            move = f"[magenta]{b} -> {r} split[/magenta]"
        elif r > b:
            move = f"[green]{b} -> {r} up[/green]"
        elif r < b:
            move = f"[red]{b} -> {r} down[/red]"
        else:
            move = f"{b} ="
        shares = st.shares[c]
        ns = st.max_sell(c)
        sell_txt = "-" if not ns else f"{ns} for {_money(st.quote_sell(c, ns)[0])}"
        nb = st.max_buy(c)
        buy_txt = "-" if not nb else f"{nb} for {_money(st.quote_buy(c, nb)[0])}"
        name = R.COMPANIES[c] + (" (bought)" if st.bought == c else " (sold)" if st.sold >> c & 1 else "")
        table.add_row(name, str(st.dice[c]), move, f"[bold]{a}[/bold]", str(shares), sell_txt, buy_txt)
    console.print(table)
    vol = f"volatility {st.volatility}" + (" (fixed)" if st.final_turn else "")
    if st.closed > s.closed_seen:
        k = st.closed - s.closed_seen
        console.print(f"[bold yellow]Market closed[/bold yellow] on {k} turn{'s' if k > 1 else ''} "
                      "before this one (volatility die 1 or 6).", highlight=False)
    s.closed_seen = st.closed
    left = st.turns_left
    console.print(
        f"Cash [bold green]{_money(st.cash)}[/bold green] | {vol} | "
        f"{left} turn{'s' if left != 1 else ''} after this | {st.closed} closed",
        highlight=False,
    )
    can = []
    if st.can_buy():
        can.append("buy one company")
    left_sells = st.sells_allowed() - st.n_sold
    if left_sells > 0:
        can.append("sell two different companies" if left_sells == 2 and st.bought < 0
                   else "sell one company" if st.n_sold == 0 else "sell one more company")
    if st.final_turn and st.n_sold == 0 and st.bought < 0:
        can = ["buy one and sell another, or sell two"]
    console.print("You may: " + (" / ".join(can) if can else "nothing more") + "; then 'done'. ('help')",
                  highlight=False)


def parse(line: str, state: MarketState):
    """Turn a command line into ``("trade", action) | ("done"|"undo"|"help"|"quit", None)``.

    Raises:
        ValueError: with a message for the player when the line is not a command.
    """
    words = line.strip().split()
    if not words:
        raise ValueError("type a command ('help' lists them)")
    cmd = words[0].lower()
    simple = {"done": "done", "d": "done", "end": "done", "undo": "undo", "u": "undo", "help": "help",
              "h": "help", "?": "help", "quit": "quit", "q": "quit", "exit": "quit"}
    if cmd in simple:
        if len(words) > 1:
            raise ValueError(f"'{cmd}' takes nothing after it")
        return simple[cmd], None
    if cmd in ("buy", "b", "sell", "s"):
        is_buy = cmd in ("buy", "b")
        if len(words) != 3:
            raise ValueError(f"write it as '{'buy B 4' if is_buy else 'sell A 7'}'")
        letter = words[1].upper()
        if letter not in R.COMPANIES:
            raise ValueError(f"no company {words[1]!r}: the companies are A, B, C and D")
        c = R.COMPANIES.index(letter)
        amount = words[2].lower()
        if amount in ("all", "max"):
            n = state.max_buy(c) if is_buy else state.max_sell(c)
            if n == 0:
                raise ValueError(f"you cannot {'buy' if is_buy else 'sell'} any {letter} now")
        else:
            try:
                n = int(amount)
            except ValueError:
                raise ValueError(f"{words[2]!r} is not a number of shares") from None
            if n < 1:
                raise ValueError("the number of shares must be 1 or more")
            if n > R.MAX_SHARES:
                raise ValueError(f"you can hold at most {R.MAX_SHARES} shares of a company")
        return "trade", (buy(c, n) if is_buy else sell(c, n))
    raise ValueError(f"unknown command {words[0]!r} ('help' lists them)")


def preview(state: MarketState, action) -> str:
    """One line saying what a legal trade costs or brings and how it moves the value."""
    t = previews.trade(state, action)
    name = R.COMPANIES[t.company]
    return (f"{'Buy' if t.buy else 'Sell'} {t.shares} {name} for {_money(t.amount)}: value {t.value_before} -> {t.value_after}, "
            f"cash {_money(t.cash_before)} -> {_money(t.cash_after)}, {name} shares {t.held_before} -> {t.held_after}")


def play_loop(s: Session, console: Console) -> None:
    """Run the prompt until the game ends or the player quits (input ends: same as quit)."""
    render(console, s)
    while not s.state.over:
        try:
            line = read_line(console, "market> ")
            try:
                kind, action = parse(line, s.state)
            except ValueError as e:
                console.print(f"[yellow]{e}[/yellow]")
                continue
            if kind == "help":
                console.print(HELP, markup=False, highlight=False)
                continue
            if kind == "quit":
                raise Quit
            if kind == "undo":
                if s.undo():
                    s.shown = len(s.state.log)
                    console.print("Undone.")
                    render(console, s)
                else:
                    console.print("[yellow]nothing to undo this turn[/yellow]")
                continue
            if kind == "done":
                s.apply(DONE)
                render(console, s)
                continue
            # a trade: check it on a copy first so the preview is only shown for legal trades
            try:
                s.state.clone().apply(action)
            except IllegalAction as e:
                console.print(f"[yellow]Not allowed ({e.rule}): {e.reason}[/yellow]", highlight=False)
                continue
            console.print(preview(s.state, action), highlight=False)
            answer = read_line(console, "Confirm? [Y/n] ").strip().lower()
            if answer not in ("", "y", "yes"):
                console.print("Cancelled.")
                continue
            s.apply(action)
            render(console, s)
        except (Quit, KeyboardInterrupt):
            s.save()
            console.print(f"\nSaved to {s.path}; resume with: rolling play market --resume {s.path}")
            return
    console.print(f"Record saved to {s.path}; replay with: rolling replay {s.path}")


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``play market``, ``simulate market`` and ``bench market``."""

    @groups["play"].command("market")
    def play_market(
        seed: int = typer.Option(None, "--seed", help="seed of the dice (default: random)"),
        save: str = typer.Option(None, "--save", help="record file, saved after every action "
                                 "(default: market-SEED.json, or the --resume file)"),
        resume: str = typer.Option(None, "--resume", help="continue the game in this record file"),
    ) -> None:
        """Play Rolling Market in the terminal (solitaire)."""
        console = Console(highlight=False)
        if resume is not None:
            if seed is not None:
                fail("--seed cannot be used with --resume (the record has its seed)")
            record = load_record(resume)
            path = save or resume
        else:
            if seed is None:
                seed = int.from_bytes(os.urandom(4), "little")
            record = GameRecord("market", {}, seed, [], meta={"names": ["player"]})
            path = save or f"market-{seed}.json"
        session = Session.start(record, path)
        session.save()
        console.print(f"Rolling Market, seed {record.seed}; saving to {path}. Type 'help' for commands.")
        play_loop(session, console)

    @groups["simulate"].command("market")
    def simulate_market(
        games: int = typer.Option(1000, "--games", help="number of games"),
        bot: str = typer.Option("heuristic", "--bot", help="random or heuristic"),
        seed: int = typer.Option(0, "--seed", help="seed of the run"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object: games, mean, median, p5, p95"),
    ) -> None:
        """Play many games with a bot and print the mean, median, 5th and 95th percentile score."""
        from rolling.games.market.bots import BOTS
        from rolling.games.market.sim import simulate

        if bot not in BOTS:
            fail(f"unknown bot {bot!r} for --bot (known: {', '.join(BOTS)})")
        if games < 1:
            fail(f"--games must be 1 or more, not {games}")
        t0 = time.perf_counter()
        with games_progress(f"market/{bot}", games, transient=as_json) as advance:
            stats = simulate(games, bot, seed, progress=advance)
        wall = time.perf_counter() - t0
        if as_json:
            print(json.dumps({k: stats[k] for k in ("games", "mean", "median", "p5", "p95")}))
            return
        print(f"Rolling Market, bot {bot}, {stats['games']} games, seed {seed} ({wall:.1f} s)")
        print(f"  mean {stats['mean']}  median {stats['median']}  p5 {stats['p5']}  p95 {stats['p95']}")

    @groups["bench"].command("market")
    def bench_market(
        games: int = typer.Option(2000, "--games", help="number of games"),
        bot: str = typer.Option("random", "--bot", help="random or heuristic"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ) -> None:
        """Measure games per second and actions per second of the Rolling Market engine with a bot."""
        from rolling.games.market.bots import BOTS
        from rolling.games.market.sim import game_seeds, play_game

        if bot not in BOTS:
            fail(f"unknown bot {bot!r} for --bot (known: {', '.join(BOTS)})")
        if games < 1:
            fail(f"--games must be 1 or more, not {games}")
        t0 = time.perf_counter()
        actions = 0
        for sd in game_seeds(0, games):
            actions += play_game(bot, sd)[1]
        wall = time.perf_counter() - t0
        out = {"games": games, "bot": bot, "seconds": round(wall, 3),
               "games_per_s": round(games / wall, 1), "actions_per_s": round(actions / wall, 1)}
        if as_json:
            print(json.dumps(out))
        else:
            print(f"market/{bot}: {games} games in {wall:.2f} s: {out['games_per_s']} games/s, "
                  f"{out['actions_per_s']} actions/s (bot time included)")


