"""How fast the Rolling Stock Stars search bot thinks (``rolling bench stars --search``).

The position is the middle of the bundled real 4-player game (``rss_hotseat_dividend``): its
actions are replayed up to half of them, then the heuristic plays on until a seat faces a phase 1
(Investment) decision with more than one candidate: there the Deck is hidden, so the search runs
its whole budget (later phases are exact and stop after one playout per candidate). The search then runs for ``seconds``; a
*playout* is one ISMCTS iteration (determinize, select, expand, play to the horizon, score).
"""

from __future__ import annotations

from rolling.games.stars.actions import from_json
from rolling.games.stars.bench import sample_record
from rolling.games.stars.config import Config
from rolling.games.stars.engine import new_game
from rolling.sim.stars import pick_seat

from . import ismcts
from .stars_heuristic import StarsHeuristicBot
from .stars_search import StarsSearch, StarsSearchBot


def mid_game_position():
    """``(state, seat)``: the mid-game decision described in the module docstring."""
    record = sample_record()
    s = new_game(Config.from_json(record.config), record.seed)
    actions = [from_json(a) for a in record.actions]
    for a in actions[: len(actions) // 2]:
        s.apply(a)
    guide = StarsHeuristicBot(0)
    last = 0
    while True:
        seat = pick_seat(s, last)
        if s.phase == 1:
            cands = StarsSearch(seat).candidates(s, seat, guide)  # the heuristic's move first
            if len(cands) > 1:
                return s, seat
            s.apply(cands[0][1])
        else:
            s.apply(guide.choose(s, seat))
        last = seat


def measure(seconds: float = 3.0) -> dict:
    """Search the mid-game position for ``seconds``; return ``{"playouts_per_s", "iterations",
    "seconds", "turn", "phase", "seat", "candidates", "reason"}``."""
    s, seat = mid_game_position()
    bot = StarsSearchBot(seed=0, budget=ismcts.Budget(seconds=seconds))
    bot.choose(s, seat)
    result = bot.last_result
    assert result is not None
    return {
        "playouts_per_s": round(result.iterations / result.seconds, 1),
        "iterations": result.iterations,
        "seconds": round(result.seconds, 3),
        "turn": s.turn,
        "phase": s.phase,
        "seat": seat,
        "candidates": len(result.ranked),
        "reason": bot.last_reason,
    }

