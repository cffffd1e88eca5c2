"""What a viewer may read of a game on the routes that are not the engine's view (issue 29).

The game document, its WebSocket frames, the history and a past position show the engine's own
``state.view(seat)`` and log lines per seat, which hide what the rules hide. Two routes are built
from the game's record instead, so they have to be filtered here:

- the **record** (``GET /api/games/{id}/record``) carries the game's *seed*, and the seed fixes
  every card of the face-down deck, every die to come and every cargo drawn: replayed, it tells
  all of them, and everyone's secret cash. While the game runs it is refused
  (:func:`check_record`, 409 ``GameRunning``); the actions so far, which everyone saw, are at
  ``/history``. Once the game is over it is the whole record.
- the **charts** (``GET /api/games/{id}/charts``): with the Rolling Stock Stars variant *secret
  private money* (002, 3.2) a player's net worth is their cash plus open assets (face values, shares
  at their price), so it tells their cash. While the game runs a viewer gets the net worth of the
  players whose cash they may see (:func:`cash_seen`, the engine's rule
  :func:`rolling.games.stars.view.cash_audience`: their own, a two-handed partner hand's), and
  ``assets`` (net worth less cash: what lies open on the table) of every player; ``hidden`` names
  the others. Once the game is over, everything.
"""

from __future__ import annotations

from typing import Any

from rolling.core.events import sees

from .service import Live, WebError

#: the rule a refused record download names
RECORD_RULE = "hidden information: the seed fixes the deck's order and the dice to come"


class GameRunning(WebError):
    """What is asked for would reveal hidden information while the game runs (409)."""

    status, name = 409, "GameRunning"


def check_record(live: Live) -> None:
    """Refuse the record of a game that is not over (it carries the seed).

    Raises:
        GameRunning: the game is not over.
    """
    if not live.state.is_over:
        raise GameRunning("the record carries the game's seed, which tells the cards and dice to come: it can be "
                          "downloaded once the game is over (the actions so far are in the history)",
                          rule=RECORD_RULE)


def cash_seen(live: Live, held: tuple[int, ...]) -> set[int] | None:
    """The seats whose cash the holder of the seats ``held`` (none: a spectator) may see now, or
    ``None`` when every player's is open (no secret money, or the game is over)."""
    s = live.state
    if s.is_over or live.game != "stars" or "secret-money" not in s.config.variants:
        return None
    from rolling.games.stars.view import cash_audience

    viewers = held or (None,)
    return {p for p in range(len(live.seats)) if any(sees(cash_audience(s, p), k) for k in viewers)}


def charts_for(live: Live, held: tuple[int, ...], full: dict[str, Any]) -> dict[str, Any]:
    """The game's charts ``full`` (:func:`rolling.web.charts.charts`) as the seats ``held`` may see
    them: without the net worth of the players whose cash is hidden from them (a name two seats
    share goes when either is hidden), listed under ``hidden``."""
    seen = cash_seen(live, held)
    if seen is None:
        return full
    names = [x["name"] for x in live.seats]
    hidden = {n for k, n in enumerate(names) if k not in seen}
    out = dict(full)
    out["net_worth"] = {n: v for n, v in full.get("net_worth", {}).items() if n not in hidden}
    out["hidden"] = [n for n in dict.fromkeys(names) if n in hidden]
    return out
