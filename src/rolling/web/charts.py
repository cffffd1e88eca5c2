"""Charts of a game over its turns, for the history page (``GET /api/games/{id}/charts``).

Every game answers ``{"x": [labels], "net_worth": {player name: [$ or None]}, ...}`` with one
entry of ``x`` per sample and one value per sample in every series; a game adds its own series
(Rolling Stock Stars: ``share_price`` per corporation). :data:`BY_GAME` holds each game's function;
a game without one gets :func:`scores`: each player's score at the start and now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rolling.core.record import GameRecord, replay_steps


def _score_series(names: list[str]) -> tuple[list[str], dict[str, list], Callable[[Any, str], None]]:
    x: list[str] = []
    worth: dict[str, list] = {n: [] for n in names}

    def sample(s: Any, label: str) -> None:
        x.append(label)
        by_seat = {r["seat"]: r["score"] for r in s.standings()}
        for k, n in enumerate(names):
            worth[n].append(by_seat.get(k))

    return x, worth, sample


def _each_turn(record: GameRecord, sample: Callable[[Any, str], None], x: list[str]) -> None:
    """Call ``sample(state, label)`` at the start of every turn (``state.turn``) and at the end
    (or now); ``x`` is the list of labels ``sample`` appends to."""
    state, last_turn = None, None
    for state in replay_steps(record):
        if state.turn != last_turn:
            sample(state, f"turn {state.turn}")
            last_turn = state.turn
    if state is not None and (not x or x[-1] != "end"):
        sample(state, "end" if state.is_over else "now")


def scores(record: GameRecord, names: list[str]) -> dict[str, Any]:
    """Each player's score (the standings' ``score``) at the start and at the end or now."""
    x, worth, sample = _score_series(names)
    state = None
    for i, state in enumerate(replay_steps(record)):
        if i == 0:
            sample(state, "start")
    if state is not None:
        sample(state, "end" if state.is_over else "now")
    return {"x": x, "net_worth": worth}


def stars(record: GameRecord, names: list[str]) -> dict[str, Any]:
    """Rolling Stock Stars: each player's net worth ($, as scored), their ``assets`` (net worth less
    cash: companies at face value and shares at their price, open to everyone even with secret
    money) and each corporation's share price ($, None while it is not formed) at the start of every
    turn and at the end (or now)."""
    from rolling.games.stars import data as SD

    x, worth, sample_worth = _score_series(names)
    prices: dict[str, list] = {}
    assets: dict[str, list] = {n: [] for n in names}

    def sample(s: Any, label: str) -> None:
        sample_worth(s, label)
        for k, n in enumerate(names):
            assets[n].append(worth[n][-1] - s.cash[k] if worth[n][-1] is not None else None)
        for c in range(SD.N_CORPS):
            series = prices.setdefault(s.corp_code(c), [None] * (len(x) - 1))
            series.append(s.share_price(c) if s.corp_active[c] else None)

    _each_turn(record, sample, x)
    for series in prices.values():
        series.extend([None] * (len(x) - len(series)))
    return {"x": x, "net_worth": worth, "assets": assets, "share_price": prices}


def freight(record: GameRecord, names: list[str]) -> dict[str, Any]:
    """Rolling Freight: each player's stock ($, the score) at the start of every turn (the draft
    is turn 0) and at the end (or now), under ``net_worth``; ``phase`` gives the phase (A, B, C)
    of each sample."""
    from rolling.games.freight.components import PHASES

    x, worth, sample_worth = _score_series(names)
    phase: list[str] = []

    def sample(s: Any, label: str) -> None:
        sample_worth(s, label)
        phase.append(PHASES[min(s.phase, 2)])

    _each_turn(record, sample, x)
    return {"x": x, "net_worth": worth, "phase": phase}


def market(record: GameRecord, names: list[str]) -> dict[str, Any]:
    """Rolling Market: the player's net worth, each company's value and every roll's dice over the
    turns, and at the end the score against the bots' (:func:`rolling.web.market.charts`)."""
    from .market import charts as market_charts

    return market_charts(record, names)


#: game -> its charts function ``(record, player names) -> {"x", "net_worth", ...}``
BY_GAME: dict[str, Callable[[GameRecord, list[str]], dict[str, Any]]] = {"stars": stars, "freight": freight, "market": market}


def charts(record: GameRecord, names: list[str]) -> dict[str, Any]:
    """The charts of the game in ``record`` (players named ``names`` in seat order)."""
    return BY_GAME.get(record.game, scores)(record, names)
