"""Rolling Market at the terminal table: the companies' dice, values and holdings, a typed command
per trade with a preview to confirm, plugged into the shared loop of :mod:`.terminal`."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from rolling.core.errors import IllegalAction
from rolling.core.record import replay
from rolling.core.whole import parse_whole
from rolling.games.market import previews
from rolling.games.market import rules as R
from rolling.games.market.actions import DONE, action_from_json, buy, sell
from rolling.games.market.state import MarketState

from .session import PlaySession
from .terminal import Screen, read_line

COMMANDS = """Commands (company letters A-D, either case):
  buy B 4     buy 4 shares of B (a preview is shown: Enter or y confirms, n cancels)
  sell A 7    sell 7 shares of A
  buy B max   buy as many B as you can afford and hold ('sell A all' sells them all)
  done        end this turn's trading and roll the next turn
Each turn you may buy one company and/or sell one other company, in either
order, both optional; in the last two turns you may sell two different
companies instead. Shares trade at the current value; after every <volatility>
shares bought the value rises by 1 (max 6), after every <volatility> sold it
falls by 1 (min 1). At most 12 shares of a company. Your score is your cash
after the 12th buy/sell turn: shares still held are worth nothing."""


def _money(x: int) -> str:
    return f"${x}"


class MarketScreen(Screen):
    """Rolling Market (solitaire): the market table before each decision; ``undo`` stays within
    the turn, since ``done`` rolls the dice."""

    game = "market"
    undo_scope = " in this turn"

    def __init__(self) -> None:
        self.closed_seen: int | None = None

    def title(self, session: PlaySession) -> str:
        """``Rolling Market``."""
        return "Rolling Market"

    def commands(self, session: PlaySession) -> str:
        """The trading commands and a summary of the rules."""
        return COMMANDS

    def players(self, record) -> int:
        """Solitaire: one seat."""
        return 1

    def show(self, session: PlaySession, seat: int, console: Console, first: bool) -> None:
        """The dice, each company and the player's position (for a new decision)."""
        if first:
            if self.closed_seen is None:
                self.closed_seen = closed_before_last_roll(session)
            render(console, session.state, self.closed_seen)
            self.closed_seen = session.state.closed

    def read(self, session: PlaySession, seat: int, line: str, console: Console) -> Any:
        """``done`` (asked again on the last turn while shares are held: they are worth nothing
        at the end), or a trade previewed and confirmed (``None`` when cancelled)."""
        action = parse(line, session.state)
        if action == DONE:
            held = held_text(session.state)
            if session.state.turns_left == 0 and held:
                # ending the game with shares throws them away: the one 'done' worth a question
                console.print(f"You still hold {held}: shares are worth nothing at the end of the game, "
                              "only your cash counts.", style="yellow", highlight=False, markup=False)
                answer = read_line(console, "End the game anyway? [y/N] ").strip().lower()
                if answer not in ("y", "yes"):
                    console.print("Not ended: sell first ('sell A all').", markup=False, highlight=False)
                    return None
            return action
        # check it on a copy first so the preview is only shown for legal trades
        try:
            session.state.clone().apply(action)
        except IllegalAction as e:
            console.print(f"Not allowed ({e.rule}): {e.reason}", style="yellow", markup=False, highlight=False)
            return None
        console.print(preview(session.state, action), highlight=False)
        answer = read_line(console, "Confirm? [Y/n] ").strip().lower()
        if answer not in ("", "y", "yes"):
            console.print("Cancelled.")
            return None
        return action

    def final(self, session: PlaySession, console: Console, viewer: int | None) -> None:
        """The final cash, which is the score."""
        console.print(f"Final cash: [bold green]{_money(session.state.cash)}[/bold green]", highlight=False)


def closed_before_last_roll(session: PlaySession) -> int:
    """How many closed-market turns there were before the latest roll (the screen reports only
    the new ones)."""
    actions = session.record.actions
    last_done = max((i for i, a in enumerate(actions) if action_from_json(a) == DONE), default=None)
    if last_done is None:
        return 0
    return replay(session.record, last_done).closed


def render(console: Console, st: MarketState, closed_seen: int) -> None:
    """Draw the screen: the dice, each company and the player's position."""
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
    if st.closed > closed_seen:
        k = st.closed - closed_seen
        console.print(f"[bold yellow]Market closed[/bold yellow] on {k} turn{'s' if k > 1 else ''} "
                      "before this one (volatility die 1 or 6).", highlight=False)
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
    if left == 0:
        console.print(f"[bold yellow]Last turn:[/bold yellow] {LAST_TURN}", highlight=False)


#: the warning of the last buy/sell turn ("scores based on their final pile of cash")
LAST_TURN = "the game ends after it and only your cash counts: shares still held are worth nothing."


def held_text(st: MarketState) -> str:
    """The shares held, ``3 A and 2 C`` (empty when none)."""
    parts = [f"{n} {R.COMPANIES[c]}" for c, n in enumerate(st.shares) if n]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def parse(line: str, state: MarketState):
    """Turn a command line into an action: ``DONE``, or a buy or sell.

    Raises:
        ValueError: with a message for the player when the line is not a command.
    """
    words = line.strip().split()
    if not words:
        raise ValueError("type a command ('help' lists them)")
    cmd = words[0].lower()
    if cmd in ("done", "d", "end"):
        if len(words) > 1:
            raise ValueError(f"'{cmd}' takes nothing after it")
        return DONE
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
            n = parse_whole(amount)
            if n is None:
                raise ValueError(f"{words[2]!r} is not a number of shares (the digits 0-9)")
            if n < 1:
                raise ValueError("the number of shares must be 1 or more")
            if n > R.MAX_SHARES:
                raise ValueError(f"you can hold at most {R.MAX_SHARES} shares of a company")
        return buy(c, n) if is_buy else sell(c, n)
    raise ValueError(f"unknown command {words[0]!r} ('help' lists them)")


def preview(state: MarketState, action) -> str:
    """One line saying what a legal trade costs or brings and how it moves the value."""
    t = previews.trade(state, action)
    name = R.COMPANIES[t.company]
    return (f"{'Buy' if t.buy else 'Sell'} {t.shares} {name} for {_money(t.amount)}: value {t.value_before} -> {t.value_after}, "
            f"cash {_money(t.cash_before)} -> {_money(t.cash_after)}, {name} shares {t.held_before} -> {t.held_after}")
