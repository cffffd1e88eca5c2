"""Information-set Monte Carlo tree search (single-observer ISMCTS), shared by the search bots.

The searching seat does not know everything: the order of a deck, the cards dealt, the dice to
come. Each iteration therefore plays in a *determinization*: a copy of the game in which the
hidden information is resampled from what the seat knows (the game's :class:`SearchGame` does
that), so the search never uses a fact the seat could not know. Then, as in MCTS:

1. **select**: from the root, walk down the tree of the searching seat's own decisions, choosing
   the child with the best upper confidence bound among the candidates *available* in this
   determinization (Cowling, Powley and Whitehouse 2012: a child's exploration term counts the
   iterations in which it was available, not its parent's visits);
2. **expand**: add the first available candidate not tried yet;
3. **simulate**: play on with the game's playout policy for every seat, for a bounded horizon;
4. **back up**: score the end position for the searching seat (a number in [0, 1]) and add it
   to every node on the path.

Other seats are not branched on: between the searching seat's decisions they play the playout
policy (the heuristic bot), which is both the opponent model and the rollout policy. Against
heuristic opponents that model is exact; against people it is an assumption the reason shown to
them makes plain.

**Large action spaces** (bids, purchase prices, dividends): a node's candidates are a short list
ordered by prior, the playout policy's own choice first (see each game's ``candidates``), and
*progressive widening* lets a node consider only its first ``ceil(WIDEN_C * visits ** WIDEN_ALPHA)``
candidates, so a few iterations go to the most promising moves and more iterations open more.

**Exact decisions**: when nothing hidden can change a playout before its horizon and the playout
policy is deterministic (the game's ``exact``), every iteration from the root would repeat the same
numbers, so the search plays each root candidate once and stops: a one-ply lookahead with exact
values, well within the budget.

**Budget** (:class:`Budget`): a number of iterations (``2000``: deterministic for a fixed seed)
or seconds per decision (``1s``, ``0.2s``, ``200ms``: as many iterations as fit, so the choice
may vary with the machine's speed). Seconds are the CPU time of the thread that searches
(``time.thread_time``), not wall time: on a loaded machine (a batch on every core, other people's
jobs) a decision still gets the thinking it was given, and takes longer; on a free core the two are
the same. Per thread, not per process, so that bots thinking at once in one process (the web
server's worker threads) each get their whole budget; in a single-threaded process (the terminal,
``rolling simulate``'s workers) the thread's time is the process's.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any, Protocol

from rolling.bots.reasons import Reason
from rolling.core.rng import Rng

from .base import SeatError

#: exploration constant of the upper confidence bound (rewards are in [0, 1])
EXPLORATION = 0.7
#: progressive widening: a node with v visits considers ceil(WIDEN_C * (v + 1) ** WIDEN_ALPHA) candidates
WIDEN_C = 2.0
WIDEN_ALPHA = 0.5
#: a time budget still runs at least this many iterations, so that a slow step cannot leave the
#: search with nothing to compare
MIN_ITERATIONS = 4


@dataclass(frozen=True, slots=True)
class Budget:
    """The search's budget per decision: ``iterations`` (deterministic) or ``seconds`` of the
    searching thread's CPU time (``time.thread_time``).

    Exactly one of the two is set. ``str(budget)`` is its canonical text (``"2000"``, ``"0.2s"``).
    """

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.iterations is not None:
            return str(self.iterations)
        return f"{self.seconds:g}s"


def parse_budget(text: str) -> Budget:
    """``"2000"`` -> 2000 iterations; ``"1s"``, ``"0.2s"``, ``"200ms"`` -> seconds per decision.

    Raises:
        SeatError: anything else, or a budget that is not positive.
    """
    t = text.strip().lower()
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(s|ms)?", t)  # ASCII digits only (rolling.core.whole)
    if not m:
        raise SeatError(f"search budget {text!r}: use iterations (2000) or seconds per decision (1s, 0.2s, 200ms)")
    value, unit = m.groups()
    if unit is None:
        if "." in value or int(value) <= 0:
            raise SeatError(f"search budget {text!r}: iterations must be a whole number above 0")
        return Budget(iterations=int(value))
    seconds = float(value) / (1000.0 if unit == "ms" else 1.0)
    if seconds <= 0:
        raise SeatError(f"search budget {text!r}: the time must be above 0")
    return Budget(seconds=seconds)


class SearchGame(Protocol):
    """What the search needs from a game (see :mod:`rolling.bots.stars_search` and
    :mod:`rolling.bots.freight_search`)."""

    def determinize(self, state: Any, seat: int, rng: Rng) -> Any:
        """A copy of ``state`` with what ``seat`` cannot see resampled (``rng`` draws it)."""

    def candidates(self, state: Any, seat: int) -> list[tuple[Any, Any]]:
        """``seat``'s candidate actions as ``(key, action)``, best prior first; keys are hashable
        and equal for the same move in different determinizations."""

    def next_seat(self, state: Any) -> int:
        """The seat that acts next (in any-order phases, the one the table would ask)."""

    def policy(self, state: Any, seat: int) -> Any:
        """The playout policy's action for ``seat``."""

    def stop(self, state: Any, root: Any) -> bool:
        """Whether a playout begun at ``root`` has gone far enough to be scored."""

    def reward(self, state: Any, seat: int) -> float:
        """How good ``state`` is for ``seat``, in [0, 1] (1: certain win)."""

    def describe(self, state: Any, action: Any) -> str:
        """A few words naming ``action`` for a person."""

    def new_playout(self) -> None:
        """Called before each iteration (playout policies with memory start afresh)."""

    def exact(self, state: Any) -> bool:
        """Whether nothing hidden can change a playout from ``state`` before the horizon (and the
        playouts are deterministic): then one iteration per root candidate gives exact values."""


class Node:
    """A node of the searching seat's decision tree: visits, total reward and availability."""

    __slots__ = ("children", "visits", "total", "avail", "action")

    def __init__(self, action: Any = None) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.action = action

    @property
    def mean(self) -> float:
        """Mean reward of the iterations through this node (0 when none)."""
        return self.total / self.visits if self.visits else 0.0


@dataclass(slots=True)
class SearchResult:
    """The root's statistics after a search: ``ranked`` is ``(key, action, visits, mean)`` for
    every candidate tried, most visited first; ``iterations`` run and ``seconds`` of CPU spent."""

    ranked: list[tuple[Any, Any, int, float]]
    iterations: int
    seconds: float

    @property
    def best(self) -> Any:
        """The most visited root action (ties: the higher mean, then the better prior)."""
        return self.ranked[0][1]


def widened(node: Node, count: int) -> int:
    """How many of ``count`` candidates ``node`` considers now (progressive widening)."""
    return min(count, max(1, math.ceil(WIDEN_C * (node.visits + 1) ** WIDEN_ALPHA)))


def search(game: SearchGame, state: Any, seat: int, budget: Budget, rng: Rng,
           root_candidates: list[tuple[Any, Any]] | None = None) -> SearchResult:
    """Run single-observer ISMCTS for ``seat`` (which must act in ``state``) within ``budget``.

    ``state`` is never changed. ``root_candidates`` (the candidates at the root, computed once from
    what the seat sees) defaults to ``game.candidates(state, seat)``.

    Returns:
        The root's statistics (:class:`SearchResult`); its ``best`` is the action to play.
    """
    start = time.thread_time()
    cands = root_candidates if root_candidates is not None else game.candidates(state, seat)
    root = Node()
    order = {key: k for k, (key, _) in enumerate(cands)}
    deadline = None if budget.seconds is None else start + budget.seconds
    limit = budget.iterations
    full = game.exact(state)
    if full:
        limit = len(cands) if limit is None else min(limit, len(cands))
    done = 0
    while True:
        if limit is not None:
            if done >= limit:
                break
        elif done >= MIN_ITERATIONS and time.thread_time() >= deadline:  # type: ignore[operator]
            break
        _iterate(game, state, seat, root, cands, rng, full)
        done += 1
    tried = [kv for kv in root.children.items() if kv[1].visits]
    ranked = sorted(tried, key=lambda kv: (-kv[1].visits, -kv[1].mean, order.get(kv[0], 1 << 30)))
    out = [(key, node.action, node.visits, node.mean) for key, node in ranked]
    return SearchResult(out, done, time.thread_time() - start)


def _iterate(game: SearchGame, root_state: Any, seat: int, root: Node, root_cands, rng: Rng,
             full: bool = False) -> None:
    game.new_playout()
    d = game.determinize(root_state, seat, rng)
    node = root
    path = [root]
    cands = root_cands
    while True:
        n = len(cands) if full else widened(node, len(cands))
        fresh = None
        best = None
        best_ucb = -1.0
        for key, action in cands[:n]:
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node(action)
            child.avail += 1
            if child.visits == 0:
                if fresh is None:
                    fresh = (child, action)
                continue
            ucb = child.mean + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
            if ucb > best_ucb:
                best, best_ucb = (child, action), ucb
        pick, action = fresh or best  # type: ignore[misc]
        d.apply(action)
        path.append(pick)
        node = pick
        if fresh is not None:
            break
        # advance the other seats to the searching seat's next decision (or the horizon)
        if not _advance(game, d, seat, root_state):
            break
        cands = game.candidates(d, seat)
        if not cands:
            break
    value = _playout(game, d, seat, root_state)
    for nd in path:
        nd.visits += 1
        nd.total += value


def _advance(game: SearchGame, d: Any, seat: int, root_state: Any) -> bool:
    """Play other seats by the policy until ``seat`` must decide; False at the horizon or the end."""
    while not d.is_over:
        if game.stop(d, root_state):
            return False
        s = game.next_seat(d)
        if s == seat:
            return True
        d.apply(game.policy(d, s))
    return False


def _playout(game: SearchGame, d: Any, seat: int, root_state: Any) -> float:
    while not d.is_over and not game.stop(d, root_state):
        s = game.next_seat(d)
        d.apply(game.policy(d, s))
    return game.reward(d, seat)


def margin_reward(values: list[float], seat: int, scale: float) -> float:
    """``1 / (1 + exp(-(values[seat] - max of the others) / scale))``, in [0, 1]: a
    win-probability-like reward for the margin over the strongest opponent (``values`` in $)."""
    best_other = max(v for k, v in enumerate(values) if k != seat)
    x = (values[seat] - best_other) / scale
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class SearchBot:
    """What the search bots share: the budget, the seeded generator of the determinizations, one
    game adapter per seat (``games``) and the last search's ``last_reason`` and ``last_result``.

    Args:
        seed: seeds the determinizations (with an iteration budget the bot is deterministic).
        budget: iterations (``"2000"``) or seconds per decision (``"1s"``, ``"0.2s"``), a
            :class:`Budget` or its text; default :data:`DEFAULT_BUDGET`.

    Raises:
        SeatError: a budget that cannot be read.
    """

    name = "search"
    DEFAULT_BUDGET = "0.2s"

    def __init__(self, seed: int = 0, budget: str | Budget | None = None) -> None:
        self.seed = seed
        self.budget = budget if isinstance(budget, Budget) else parse_budget(budget or self.DEFAULT_BUDGET)
        self.rng = Rng(seed)
        self.games: dict[int, Any] = {}
        self.last_reason: str | None = None
        self.last_result: SearchResult | None = None


def reason(game: SearchGame, state: Any, result: SearchResult, top: int = 3) -> Reason:
    """The search's reason for a person: its choice and the top alternatives, each with its
    visits and mean value (a win chance estimate, 0-100%), e.g. ``"search (240 iterations, 0.2 s):
    bid $14 240 visits 58% | leave 60 visits 41%"``. Those statistics are its plan: publicly the
    reason is only ``"the move its search rated best"`` (:mod:`rolling.bots.reasons`)."""
    parts = [f"{game.describe(state, action)} {visits} visits {mean:.0%}"
             for _, action, visits, mean in result.ranked[:top]]
    return Reason(f"search ({result.iterations} iterations, {result.seconds:.1f} s): " + " | ".join(parts),
                  "the move its search rated best")
