"""Analyse a whole game: read the file, evaluate every decision in parallel, assemble the result.

Every action of the record is a decision of the seat that took it (its ``seat``; Market: the one
player). Decisions are split into chunks of consecutive actions; a chunk replays the game from the
start (the engines replay hundreds of actions in milliseconds) and evaluates its decisions with a
generator seeded from the analysis's seed and the decision's index alone, so the result does not
depend on the number of workers nor on which one evaluated what (with an iteration budget it is
the same bit for bit; with seconds, as many determinizations as fit, so it varies with the
machine's speed). Chunks run in this process, on a pool of processes (``workers``) or on Ray.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

from rolling.bots.ismcts import Budget, parse_budget
from rolling.core.errors import RecordError, UsageError
from rolling.core.record import GameRecord, read_json, replay_steps
from rolling.core.rng import Rng

from .evaluation import evaluate_decision
from .games import Kit
from .labels import LABELS, MARKET_THRESHOLDS, THRESHOLDS, label
from .summary import summarize
from .values import VALUES, ValueFunction

#: decimals kept of probabilities and dollars in the result
DIGITS = 6


def read_game(path: str) -> GameRecord:
    """A game record of this project, or an 18xx.games export of Rolling Stock Stars (imported
    with :func:`rolling.interop.e18xx.import_export`).

    Raises:
        RecordError: unreadable file, not a record nor an export, an export our engine cannot
            replay, or a game the analysis does not know.
    """
    data = read_json(path)
    if isinstance(data, dict) and "title" in data and "game" not in data:
        from rolling.interop.e18xx import check_export, import_export

        check_export(data)
        result = import_export(data)
        if result.error and not result.record.actions:
            raise RecordError(f"{path}: the 18xx.games export cannot be replayed: {result.error}")
        record = result.record
    else:
        record = GameRecord.from_json(data)
    if record.game not in ("stars", "freight", "market"):
        raise RecordError(f"{path}: no analysis for the game {record.game!r}")
    return record


def seat_names(record: GameRecord, n: int) -> list[str]:
    """The players' names, seat by seat (the record's ``names``, else ``Player 1``...)."""
    names = record.meta.get("names") or record.config.get("names") or []
    return [str(names[k]) if k < len(names) else f"Player {k + 1}" for k in range(n)]


def decision_seed(seed: int, n: int) -> int:
    """The seed of decision ``n``'s generator in an analysis seeded ``seed``."""
    return Rng(seed * 1_000_003 + n).next64()


def analyze_chunk(job: tuple[dict, list[int], str, int, ValueFunction | None]) -> list[dict[str, Any]]:
    """Evaluate the decisions ``indices`` of a record (a worker's task; see the module docstring).

    ``job`` is ``(record JSON, indices, budget text, seed, value function or None)``; returns one
    dict per decision (:func:`decision_entry`).
    """
    record_json, indices, budget_text, seed, value = job
    record = GameRecord.from_json(record_json)
    from rolling.games import get_game

    spec = get_game(record.game)
    kit = Kit(record.game)
    value = value or kit.default_value()
    budget = parse_budget(budget_text)
    wanted = set(indices)
    last = max(indices)
    out = []
    for i, state in enumerate(replay_steps(record, upto=last + 1)):
        kit.observe(state)
        if i in wanted:
            data = record.actions[i]
            action = spec.action_from_json(data)
            seat = data.get("seat", state.to_act[0] if state.to_act else 0)
            game = kit.searcher(seat, seed)
            ev = evaluate_decision(game, kit.hidden(state, seat), seat, action, budget,
                                   Rng(decision_seed(seed, i)), value)
            out.append(decision_entry(record.game, kit, state, i, seat, ev))
    return out


def decision_entry(game: str, kit: Kit, state: Any, n: int, seat: int, ev) -> dict[str, Any]:
    """One decision of the JSON (docs/analysis.md), less ``text`` (added by :func:`analyze`)."""
    before, after, best = ev.values[0], ev.values[ev.played], ev.values[ev.best]
    loss = max(0.0, best.win[seat] - after.win[seat])
    score_loss = max(0.0, best.score[seat] - after.score[seat])
    if game == "market":
        loss = 0.0
        tag = label(score_loss, MARKET_THRESHOLDS)
    else:
        tag = label(loss, THRESHOLDS)
    r = _rounded
    return {
        "n": n,
        "seat": seat,
        "action": ev.actions[ev.played].to_json(),
        "played": kit.describe(state, ev.actions[ev.played]),
        "win_before": r(before.win),
        "win_after": r(after.win),
        "score_before": r(before.score),
        "score_after": r(after.score),
        "best": ev.actions[ev.best].to_json(),
        "best_text": kit.describe(state, ev.actions[ev.best]),
        "best_win": round(best.win[seat], DIGITS),
        "best_score": round(best.score[seat], DIGITS),
        "loss": round(loss, DIGITS),
        "score_loss": round(score_loss, DIGITS),
        "label": tag,
        "candidates": len(ev.actions),
        "iterations": ev.iterations,
    }


def _rounded(xs) -> list[float]:
    return [round(x, DIGITS) for x in xs]


def action_texts(record: GameRecord) -> list[str]:
    """Each action's log lines as an onlooker reads them (secret money stays secret), joined by
    ``" | "``; the action's JSON where the game keeps no log."""
    texts: list[str] = []
    seen = 0
    for k, state in enumerate(replay_steps(record, log=True)):
        if k == 0:
            seen = len(getattr(state, "log", None) or ())
            continue
        if hasattr(state, "log_lines") and getattr(state, "log", None) is not None:
            lines = state.log_lines(None, seen)
            seen = len(state.log)
            texts.append(" | ".join(lines))
        else:
            texts.append(str(record.actions[k - 1]))
    return texts


def chunks(indices: list[int], workers: int) -> list[list[int]]:
    """Consecutive runs of ``indices``, about four per worker (at most 16 decisions each)."""
    if not indices:
        return []
    size = max(1, min(16, math.ceil(len(indices) / (4 * max(1, workers)))))
    return [indices[k:k + size] for k in range(0, len(indices), size)]


def analyze(record: GameRecord, budget: str | Budget = "0.2s", seed: int = 0, workers: int | None = 1,
            ray: str | None = None, value: ValueFunction | str | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Analyse every decision of ``record`` (see the module docstring and docs/analysis.md).

    Args:
        budget: per decision: determinizations (``"20"``) or CPU seconds (``"0.2s"``).
        seed: seeds every decision's determinizations.
        workers: processes (``None``: one per core); with ``ray``, the most chunks at once.
        ray: a Ray address (``"local"``: a new local Ray) to run the chunks there.
        value: the value function at the horizon: a :class:`ValueFunction`, or the name of one of
            :data:`rolling.analysis.values.VALUES` (``"learned"``, the default, or ``"heuristic"``;
            Market always values its final cash).
        progress: called with ``(decisions done, decisions in all)``.

    Returns:
        ``{"game", "names", "budget", "seed", "value", "decisions": [...], "summary": {...}}``
        (``value``: the value function's name, ``"cash"`` in Market, or its class's name when one
        was given).

    Raises:
        UsageError: a budget that cannot be read, fewer than one worker, or an unknown value
            function name.
        RecordError: the record does not replay.
    """
    try:
        budget_text = str(budget if isinstance(budget, Budget) else parse_budget(budget))
    except Exception as e:  # SeatError: the search's message names the budget
        raise UsageError(str(e)) from None
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    if value is None or isinstance(value, str):
        value_name = value or VALUES[0]
        try:
            value = Kit(record.game).default_value(value_name)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if record.game == "market":
            value_name = "cash"
    else:
        value_name = type(value).__name__
    texts = action_texts(record)
    from rolling.core.record import replay

    final = replay(record)
    n_seats = getattr(final, "n", 1)
    indices = list(range(len(record.actions)))
    n_workers = workers or os.cpu_count() or 1
    parts = chunks(indices, n_workers)
    jobs = [(record.to_json(), part, budget_text, seed, value) for part in parts]
    found: dict[int, dict] = {}

    def take(rows: list[dict]) -> None:
        for row in rows:
            found[row["n"]] = row
        if progress:
            progress(len(found), len(indices))

    if ray:
        _run_ray(jobs, take, workers, ray)
    elif n_workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            take(analyze_chunk(job))
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(min(n_workers, len(jobs))) as pool:
            for rows in pool.imap_unordered(analyze_chunk, jobs):
                take(rows)
    decisions = []
    for i in indices:
        row = found[i]
        decisions.append({"n": row["n"], "seat": row["seat"], "action": row["action"], "text": texts[i],
                          **{k: v for k, v in row.items() if k not in ("n", "seat", "action")}})
    names = seat_names(record, n_seats)
    return {
        "game": record.game,
        "names": names,
        "budget": budget_text,
        "seed": seed,
        "value": value_name,
        "labels": list(LABELS),
        "decisions": decisions,
        "summary": summarize(record.game, names, decisions, final),
    }


def _run_ray(jobs: list, take: Callable[[list[dict]], None], workers: int | None, address: str) -> None:
    try:
        import ray
    except ImportError:
        raise UsageError("--ray needs Ray: pip install 'rolling[ray]'") from None
    import logging

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(analyze_chunk)
        waiting = list(jobs)
        pending = []
        while waiting or pending:
            while waiting and len(pending) < slots:
                pending.append(task.remote(waiting.pop(0)))
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                take(ray.get(ref))
    finally:
        if started:
            ray.shutdown()
