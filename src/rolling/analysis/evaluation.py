"""One decision's evaluation, fair to the decider.

For the position before a decision and the deciding seat, :func:`evaluate_decision`:

1. lists the seat's candidate moves as the search bots do (the heuristic's move first, then the
   alternatives it ranks next; :mod:`rolling.analysis.games`), and adds the move actually played
   when it is not among them;
2. draws a *determinization* from the decider's information set only (the search bots'
   ``determinize``: the Deck, the hidden deck orders and the dice to come are redealt from what
   that seat could know; nothing hidden is read from the record), plays every candidate in that
   same determinization (common random numbers: candidates are compared on the same cards and
   dice), then every seat plays the heuristic (Market: the learned policy) up to the search's
   horizon, where the value function (:mod:`rolling.analysis.values`) says what each seat's win
   probability and expected final score are;
3. repeats step 2 within the budget (:class:`rolling.bots.ismcts.Budget`: a number of
   determinizations, deterministic for a seed, or seconds of CPU time per decision) and averages.

When nothing hidden can change a playout before its horizon (the search's ``exact``: Stars after
phase 1, Freight's last turn), one determinization gives the exact values and the rest of the
budget is not spent.

The position's value before the decision (``win_before``) is the value of the heuristic's own move
(the playout policy's: what the position is worth if play goes on as the model expects), the best
move is the candidate with the highest win probability for the decider (ties: the higher expected
score; Market, one player: the highest expected score), and the loss is what the move played gives
up against it, never below 0.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from rolling.bots.ismcts import MIN_ITERATIONS, Budget
from rolling.core.rng import Rng

from .values import Value, ValueFunction


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A decision's evaluation (see the module docstring).

    Attributes:
        actions: the candidates, the heuristic's move first (the move played among them).
        values: each candidate's mean :class:`Value`, in the same order.
        played: the index of the move played in ``actions``.
        best: the index of the best candidate for the decider.
        iterations: determinizations run.
        seconds: CPU seconds spent.
    """

    actions: list[Any]
    values: list[Value]
    played: int
    best: int
    iterations: int
    seconds: float


def playout(game: Any, d: Any, root: Any) -> None:
    """Play every seat's policy on ``d`` until the game's horizon for ``root`` or its end."""
    while not d.is_over and not game.stop(d, root):
        seat = game.next_seat(d)
        d.apply(game.policy(d, seat))


def evaluate_decision(game: Any, state: Any, seat: int, played: Any, budget: Budget, rng: Rng,
                      value: ValueFunction) -> Evaluation:
    """Evaluate ``seat``'s decision in ``state`` (unchanged) where it played ``played``.

    Args:
        game: the search adapter of the decider (:meth:`rolling.analysis.games.Kit.searcher`).
        budget: determinizations, or CPU seconds (at least :data:`rolling.bots.ismcts.MIN_ITERATIONS`
            determinizations then, unless the decision is exact).
        rng: draws the determinizations (seed it per decision for results that do not depend on
            which process evaluates which decision).
        value: the value function at the horizon.

    Returns:
        an :class:`Evaluation`.
    """
    start = time.thread_time()
    actions = [a for _, a in game.candidates(state, seat)]
    if played in actions:
        index = actions.index(played)
    else:
        actions.append(played)
        index = len(actions) - 1
    values, done = _values(game, state, seat, actions, budget, rng, value)
    best = max(range(len(actions)),
               key=lambda k: (round(values[k].win[seat], 9), values[k].score[seat], -k))
    return Evaluation(actions, values, index, best, done, time.thread_time() - start)


def evaluate_position(game: Any, state: Any, seat: int, budget: Budget, rng: Rng, value: ValueFunction) -> Value:
    """The value of ``state`` from ``seat``'s information set if play goes on as the model expects:
    the ``win_before`` of :func:`evaluate_decision` alone (the heuristic's move played out; the
    calibration script measures these)."""
    actions = [a for _, a in game.candidates(state, seat)][:1]
    return _values(game, state, seat, actions, budget, rng, value)[0][0]


def _values(game: Any, state: Any, seat: int, actions: list[Any], budget: Budget, rng: Rng,
            value: ValueFunction) -> tuple[list[Value], int]:
    start = time.thread_time()
    n_seats = len(seats_of(state))
    wins = [[0.0] * n_seats for _ in actions]
    scores = [[0.0] * n_seats for _ in actions]
    limit = budget.iterations
    if game.exact(state):
        limit = 1
    deadline = None if budget.seconds is None else start + budget.seconds
    done = 0
    while True:
        if limit is not None:
            if done >= limit:
                break
        elif done >= MIN_ITERATIONS and time.thread_time() >= deadline:  # type: ignore[operator]
            break
        d = game.determinize(state, seat, rng)
        for k, action in enumerate(actions):
            game.new_playout()
            x = d.clone()
            x.apply(action)
            playout(game, x, state)
            v = value(x, seat)
            w, sc = wins[k], scores[k]
            for i in range(n_seats):
                w[i] += v.win[i]
                sc[i] += v.score[i]
        done += 1
    values = [Value(tuple(x / done for x in w), tuple(x / done for x in sc)) for w, sc in zip(wins, scores, strict=True)]
    return values, done


def seats_of(state: Any) -> list[int]:
    """The seats of ``state``'s game (one per player; Market: one)."""
    return list(range(getattr(state, "n", 1)))
