"""Hints: what the game's strongest bot (``make_bot(game, "bot")``) would do in a seat's place, with
its reason (``GET /api/games/{id}/hint?seat=N``).

Only games in which the bot sees nothing the seat does not are listed (:data:`HINT_GAMES`): Rolling
Market is a solitaire without secrets. Whatever bot the registry calls ``bot`` gives the hint, so a
stronger bot made the default gives better hints without a change here.

A hint is deterministic for a position: the bot is seeded from the state's digest and chooses on a
copy of the state, so the same seed and actions always give the same hint and the game is never
touched.
"""

from __future__ import annotations

from typing import Any

from rolling.bots import STRONGEST, make_bot

#: the games that give hints
HINT_GAMES = ("market",)


class NoHint(ValueError):
    """No hint can be given here (a game without hints, or a seat that has no decision now)."""


def _preview(game: str, state: Any, action: Any) -> dict[str, Any] | None:
    if game == "market":
        from rolling.games.market.actions import Buy, Sell

        from .market import done_preview, trade_preview

        return trade_preview(state, action) if isinstance(action, Buy | Sell) else done_preview(state)
    return None


def hint(game: str, state: Any, seat: int) -> dict[str, Any]:
    """What the strongest bot of ``game`` would do as ``seat`` now.

    Returns:
        ``{"bot": registry name, "action": action JSON, "label": text, "reason": the bot's
        ``last_reason`` (or None), "preview": what the action does (the game's decision preview)}``.

    Raises:
        NoHint: ``game`` gives no hints, or ``seat`` may not act now.
    """
    if game not in HINT_GAMES:
        raise NoHint(f"no hints in {game}: its bots would see what the seat does not")
    if state.is_over or seat not in state.to_act:
        raise NoHint("this seat has no decision to make now")
    bot = make_bot(game, "bot", seed=int(state.digest()[:15], 16))
    action = bot.choose(state.clone(), seat)
    if game == "market":
        from .market import label

        text = label(state, action)
    else:
        text = str(action)
    return {"bot": STRONGEST.get(game, "bot"), "action": action.to_json(), "label": text,
            "reason": getattr(bot, "last_reason", None), "preview": _preview(game, state, action)}
