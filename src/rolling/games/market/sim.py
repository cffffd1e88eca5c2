"""Batch simulation of Rolling Market games played by a bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rolling.core.rng import Rng

from .bots import make_bot
from .state import MarketState

#: mixed into a game's seed to seed its bot, so the bot's choices and the dice are independent
_BOT_SALT = 0x5BD1E9955BD1E995


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of ``games`` games of a run started with ``seed`` (SplitMix64 stream, 64-bit ints)."""
    rng = Rng(seed)
    return [rng.next64() for _ in range(games)]


def play_game(bot_name: str, seed: int) -> tuple[MarketState, int]:
    """Play one whole game with a bot.

    Returns:
        ``(final state, number of actions applied)``.

    Raises:
        ValueError: unknown bot name.
    """
    state = MarketState(seed)
    bot = make_bot(bot_name, seed ^ _BOT_SALT)
    n = 0
    while not state.over:
        state.apply(bot.choose(state))
        n += 1
    return state, n


def summarize(scores: list[int] | np.ndarray) -> dict[str, Any]:
    """``{"games", "mean", "median", "p5", "p95"}`` of a list of final scores (dollars).

    Percentiles use numpy's default (linear interpolation); floats are rounded to 3 decimals.
    """
    a = np.asarray(scores, dtype=float)
    if a.size == 0:
        return {"games": 0, "mean": None, "median": None, "p5": None, "p95": None}
    return {
        "games": int(a.size),
        "mean": round(float(a.mean()), 3),
        "median": round(float(np.median(a)), 3),
        "p5": round(float(np.percentile(a, 5)), 3),
        "p95": round(float(np.percentile(a, 95)), 3),
    }


def simulate(games: int, bot_name: str, seed: int = 0,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games with bot ``bot_name`` and summarise the final cash.

    Args:
        games: number of games, 0 or more.
        bot_name: ``"random"`` or ``"heuristic"``.
        seed: seed of the run; game ``i`` uses ``game_seeds(seed, games)[i]``.
        progress: called with the number of games just finished (in batches), for a progress bar.

    Returns:
        :func:`summarize` of the scores, plus ``"bot"``, ``"seed"`` and ``"actions"`` (total applied).

    Raises:
        ValueError: unknown bot name or negative ``games``.
    """
    if games < 0:
        raise ValueError("games must be 0 or more")
    make_bot(bot_name)
    scores = []
    actions = 0
    step = max(1, games // 200)
    pending = 0
    for s in game_seeds(seed, games):
        state, n = play_game(bot_name, s)
        scores.append(state.cash)
        actions += n
        pending += 1
        if progress is not None and pending >= step:
            progress(pending)
            pending = 0
    if progress is not None and pending:
        progress(pending)
    out = summarize(scores)
    out.update({"bot": bot_name, "seed": seed, "actions": actions})
    return out
