"""Rolling Market on the server: the seat's trades as controls with the engine's previews, the
charts of a game (values, net worth, every roll's dice) and where a final score stands against the
bots' scores.

Units: share values 1..6 ($ per share), shares 0..12, cash and net worth whole $.
"""

from __future__ import annotations

from typing import Any

from rolling.core.record import GameRecord, replay_steps
from rolling.games.market import events as E
from rolling.games.market import previews
from rolling.games.market import rules as R
from rolling.games.market.actions import Buy, Sell


def net_worth(state: Any) -> int:
    """Cash plus every holding at its company's current value ($): what the player is worth while
    the game goes on. At the end shares are worth nothing (Introduction: the score is the cash),
    so a finished game's net worth is its cash."""
    if state.is_over:
        return state.cash
    return state.cash + sum(v * n for v, n in zip(state.values, state.shares, strict=True))


def trade_preview(state: Any, action: Buy | Sell) -> dict[str, Any]:
    """What a buy or sell does (:func:`rolling.games.market.previews.trade`) as JSON: ``{"buy",
    "company" (letter), "shares", "amount" ($ paid or received), "value_before", "value_after",
    "cash_before", "cash_after", "held_before", "held_after"}``."""
    t = previews.trade(state, action)
    return {"buy": t.buy, "company": R.COMPANIES[t.company], "shares": t.shares, "amount": t.amount,
            "value_before": t.value_before, "value_after": t.value_after, "cash_before": t.cash_before,
            "cash_after": t.cash_after, "held_before": t.held_before, "held_after": t.held_after}


def done_preview(state: Any) -> dict[str, Any]:
    """What ``done`` does: ``{"ends_game", "lost": {letter: shares}}``; on the last turn the shares
    still held are lost (worth nothing at the end)."""
    last = state.turns_left == 0
    lost = {R.COMPANIES[c]: n for c, n in enumerate(state.shares) if n} if last else {}
    return {"ends_game": last, "lost": lost}


def label(state: Any, action: Any) -> str:
    """``buy 3 B for $9``, ``sell 7 A for $26``, ``done: roll the dice`` / ``done: end the game``."""
    if isinstance(action, Buy):
        return f"buy {action.shares} {R.COMPANIES[action.company]} for ${state.quote_buy(action.company, action.shares)[0]}"
    if isinstance(action, Sell):
        return f"sell {action.shares} {R.COMPANIES[action.company]} for ${state.quote_sell(action.company, action.shares)[0]}"
    return "done: end the game" if state.turns_left == 0 else "done: roll the dice"


def decisions(state: Any, seat: int) -> list[dict[str, Any]]:
    """Every legal action of ``seat`` (at most 97) as a decision of :mod:`rolling.web.decisions`,
    grouped ``buy``, ``sell``, ``done``, each with its preview."""
    out = []
    for a in state.legal_actions(seat):
        data = a.to_json()
        kind = data["type"]
        preview = trade_preview(state, a) if kind in ("buy", "sell") else done_preview(state)
        out.append({"action": data, "type": kind, "args": {k: v for k, v in data.items() if k != "type"},
                    "field": None, "lo": 0, "hi": 0, "label": label(state, a), "group": kind, "preview": preview})
    return out


def _rolls(log: list[tuple]) -> list[dict[str, Any]]:
    """Every roll of the game from its log: ``{"roll", "dice": [4 fluctuation dice], "volatility_die"
    (0: not rolled, fixed at 3), "before", "after" (values), "splits": [letters], "overflow" ($),
    "closed", "turn" (the buy/sell turn it opened, None for a closed market)}``."""
    out: list[dict[str, Any]] = []
    for ev in log:
        kind = ev[0]
        if kind == E.ROLL:
            _, _, roll, dice, vdie, moves = ev
            out.append({"roll": roll, "dice": list(dice), "volatility_die": vdie, "before": [b for b, _ in moves],
                        "after": [a for _, a in moves], "splits": [], "overflow": 0, "closed": False, "turn": None})
        elif kind in (E.SPLIT, E.SPLIT_OVERFLOW) and out:
            out[-1]["splits"].append(R.COMPANIES[ev[2]])
            if kind == E.SPLIT_OVERFLOW:
                out[-1]["overflow"] += ev[8]
        elif kind == E.CLOSED and out:
            out[-1]["closed"] = True
        elif kind in (E.TURN, E.FINAL_TURN) and out:
            out[-1]["turn"] = ev[2]
    return out


def charts(record: GameRecord, names: list[str]) -> dict[str, Any]:
    """Rolling Market's charts: at the start of every buy/sell turn (after its roll), and at the end
    (or now, when trades were made since the turn began):

    - ``x``: ``turn 1`` .. ``turn 12``, then ``end`` or ``now``;
    - ``net_worth``: ``{player name: [$]}`` (:func:`net_worth`);
    - ``value``: ``{"A".."D": [1..6]}``, each company's share value;
    - ``rolls``: every roll with its dice (:func:`_rolls`), closed-market rolls included;
    - ``final``: once over, ``{"score": $, "standing": {bot: {"percentile", ...}}, "bots": {bot:
      distribution}, "games", "seed", "command"}`` against :mod:`rolling.sim.market_scores`;
      ``None`` before.
    """
    from rolling.sim import market_scores

    name = names[0] if names else "Player"
    x: list[str] = []
    worth: list[int] = []
    values: dict[str, list[int]] = {c: [] for c in R.COMPANIES}

    def sample(s: Any, lab: str) -> None:
        x.append(lab)
        worth.append(net_worth(s))
        for c, letter in enumerate(R.COMPANIES):
            values[letter].append(s.values[c])

    state, turn, changed = None, None, False
    for state in replay_steps(record, log=True):
        if state.turns_left != turn and not state.is_over:
            turn = state.turns_left
            sample(state, f"turn {R.BUY_SELL_TURNS - turn}")
            changed = False
        else:
            changed = True
    if state is not None and (state.is_over or changed):
        sample(state, "end" if state.is_over else "now")
    final = None
    if state is not None and state.is_over:
        data = market_scores.load()
        final = {"score": state.cash, "games": data["games"], "seed": data["seed"], "command": data["command"],
                 "standing": {bot: market_scores.standing(state.cash, d) for bot, d in data["bots"].items()},
                 "bots": data["bots"]}
    return {"x": x, "net_worth": {name: worth}, "value": values,
            "rolls": _rolls(state.log if state is not None and state.log else []), "final": final}
