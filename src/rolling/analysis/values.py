"""What a position is worth to each seat: :class:`Value` (win probabilities and expected final
scores) and the pluggable :class:`ValueFunction` that gives it.

The analysis (:mod:`rolling.analysis.evaluation`) plays each candidate move out to the search bots'
horizon (:mod:`rolling.bots.stars_search`: the end of the turn; :mod:`rolling.bots.freight_search`:
the end of the deciding seat's next turn) and then asks a value function what the position there is
worth. The default, :class:`HeuristicValue`, turns the search bots' own valuation of each seat's
expected final score (Stars: :func:`rolling.bots.stars_search.wealth`; Freight:
:func:`rolling.bots.freight_search.expected_stock`) into win probabilities with a softmax::

    win[i] = exp(x[i] / T) / sum_j exp(x[j] / T),    x[i] = value[i] / max(1, mean of the values)

Values are divided by their mean so that one temperature fits every player count and every stage
of the game's money; the temperature ``T`` depends on how far the game has gone (a turn or round
bucket: the further from the end, the less a lead means) and was fitted by maximum likelihood on
simulated games (``scripts/analysis_calibration.py fit``, the file
``rolling/analysis/data/temperatures.json``; docs/analysis.md). When the game is over the value is
the result: 1/k for each of k winners (the standings' ``win``), 0 for the others.

The default in Stars and Freight is :class:`LearnedValue` (issue 34): the learned evaluation
:func:`rolling.bots.value.evaluate` (gradient-boosted trees on public features, trained on
simulated games; docs/strength.md) gives the win probabilities, and the search bots' valuation
above still gives the expected final scores (the ``score`` columns). :class:`HeuristicValue` stays
selectable (``rolling analyze --value heuristic``). Any callable ``(state, seat) -> Value`` plugs
in: ``seat`` is the seat whose information set the position was sampled from, and the function
must use no more than that seat may know.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Protocol

TEMPERATURES_FILE = "temperatures.json"


@dataclass(frozen=True, slots=True)
class Value:
    """What a position is worth, seat by seat.

    Attributes:
        win: each seat's win probability (sums to 1; in the Stars two-handed variant each hand
            holds half of its person's chance).
        score: each seat's expected final score ($).
    """

    win: tuple[float, ...]
    score: tuple[float, ...]


class ValueFunction(Protocol):
    """Position + seat -> per-seat win probabilities and expected scores (see the module
    docstring); ``seat`` is the observer whose information set ``state`` was sampled from."""

    def __call__(self, state: Any, seat: int) -> Value: ...


def result_value(standings: list[dict[str, Any]], n: int) -> Value:
    """The value of a finished game: 1/k for each of the k winners (``win``), the final scores."""
    win = [0.0] * n
    score = [0.0] * n
    winners = [r["seat"] for r in standings if r["win"]]
    for r in standings:
        score[r["seat"]] = float(r["score"])
        if r["seat"] in winners:
            win[r["seat"]] = 1.0 / len(winners)
    return Value(tuple(win), tuple(score))


def softmax_log(logs: list[float], temperature: float) -> list[float]:
    """Probabilities ``p[i]`` proportional to ``exp(logs[i] / temperature)`` (``logs``: log
    probabilities or log-odds; ``temperature`` > 0: above 1 tempers, below 1 sharpens)."""
    top = max(logs)
    ex = [math.exp(max(-700.0, (v - top) / temperature)) for v in logs]
    total = sum(ex)
    return [e / total for e in ex]


def softmax_win(values: list[float], temperature: float) -> list[float]:
    """Win probabilities from expected final scores (module docstring); ``temperature`` > 0."""
    scale = max(1.0, sum(values) / len(values)) * temperature
    top = max(values)
    ex = [math.exp(max(-60.0, (v - top) / scale)) for v in values]
    total = sum(ex)
    return [e / total for e in ex]


@lru_cache(maxsize=1)
def shipped_temperatures() -> dict[str, list[float]]:
    """The fitted temperatures, ``{game: [T for bucket 0, 1, ...]}`` (read once)."""
    with resources.files("rolling.analysis.data").joinpath(TEMPERATURES_FILE).open("r", encoding="utf-8") as f:
        data = json.load(f)
    return {game: [float(t) for t in entry["temperature"]] for game, entry in data["games"].items()}


@lru_cache(maxsize=1)
def shipped_learned() -> dict[str, dict[str, Any]]:
    """The learned value's fitted temperatures, ``{game: {"temperature": [T per bucket], "end": T
    once the game's end is triggered}}`` (entries ``GAME-learned`` of the file; read once)."""
    with resources.files("rolling.analysis.data").joinpath(TEMPERATURES_FILE).open("r", encoding="utf-8") as f:
        data = json.load(f)
    return {game[:-len("-learned")]: {"temperature": [float(t) for t in e["temperature"]], "end": float(e["end"])}
            for game, e in data["games"].items() if game.endswith("-learned")}


def end_triggered(s: Any) -> bool:
    """Whether the game's end is triggered: Stars, the game end card is flipped (one turn left);
    Freight, the final turns after the last End of Phase are running (``final_left`` >= 0)."""
    return bool(s.end_flipped) if hasattr(s, "end_flipped") else s.final_left >= 0


def stars_bucket(s: Any) -> int:
    """Stars: the turn the position is in, from 0 (turn 1)."""
    return max(0, s.turn - 1)


def freight_bucket(s: Any) -> int:
    """Freight: the round the position is in (a round is one turn of every player), from 0."""
    return max(0, s.turn) // max(1, s.n)


class HeuristicValue:
    """The default value function (module docstring) for ``game`` (``"stars"`` or ``"freight"``).

    Args:
        temperatures: one temperature per bucket (the last one serves every later bucket);
            default: the shipped, fitted ones.
    """

    def __init__(self, game: str, temperatures: list[float] | None = None) -> None:
        self.game = game
        self.temperatures = temperatures if temperatures is not None else shipped_temperatures()[game]

    def bucket(self, s: Any) -> int:
        """The temperature bucket of ``s``."""
        return stars_bucket(s) if self.game == "stars" else freight_bucket(s)

    def temperature(self, s: Any) -> float:
        """The temperature for ``s``."""
        t = self.temperatures
        return t[min(self.bucket(s), len(t) - 1)]

    def __call__(self, s: Any, seat: int) -> Value:
        if s.is_over:
            return result_value(s.standings(), s.n)
        values = expected_scores(self.game, s)
        t = self.temperature(s)
        if self.game == "stars" and "two-handed" in s.config.variants:
            from rolling.bots.stars_search import person_wealth
            from rolling.games.stars.state import two_handed_person

            persons = softmax_win(person_wealth(values), t)
            win = [persons[0 if two_handed_person(k) == "A" else 1] / 2 for k in range(s.n)]
        else:
            win = softmax_win(values, t)
        return Value(tuple(win), tuple(values))


class LearnedValue:
    """The learned value function for ``game`` (``"stars"`` or ``"freight"``; issue 34): win
    probabilities from :func:`rolling.bots.value.evaluate` as ``seat`` sees the position (public
    features only; in the Stars two-handed variant it rates the hands as players), expected final
    scores from the search bots' valuation (:func:`expected_scores`, as :class:`HeuristicValue`).
    The probabilities are tempered for the analysis's horizon: ``softmax(log p / T)``, ``T`` per
    turn (round) bucket, and one ``T`` for every position where the game's end is triggered
    (:func:`end_triggered`), fitted by maximum likelihood on heuristic games as the heuristic's
    (``scripts/analysis_calibration.py fit --value learned``; ``temperatures.json``, entries
    ``stars-learned``, ``freight-learned``). A finished game is worth its result.

    Args:
        temperatures: one per bucket (the last serves every later bucket); default: the shipped
            ones.
        end: the temperature once the end is triggered; default: the shipped one (with
            ``temperatures`` given: the last of them).
    """

    def __init__(self, game: str, temperatures: list[float] | None = None, end: float | None = None) -> None:
        if game not in ("stars", "freight"):
            raise ValueError(f"no learned value for the game {game!r}")
        self.game = game
        if temperatures is None:
            fitted = shipped_learned()[game]
            temperatures = fitted["temperature"]
            end = fitted["end"] if end is None else end
        self.temperatures = temperatures
        self.end = temperatures[-1] if end is None else end

    def temperature(self, s: Any) -> float:
        """The temperature for ``s`` (the end's, or its turn or round bucket's)."""
        if end_triggered(s):
            return self.end
        b = stars_bucket(s) if self.game == "stars" else freight_bucket(s)
        return self.temperatures[min(b, len(self.temperatures) - 1)]

    def __call__(self, s: Any, seat: int) -> Value:
        if s.is_over:
            return result_value(s.standings(), s.n)
        from rolling.bots.value import evaluate

        win = evaluate(s, seat)
        t = self.temperature(s)
        if t != 1.0:
            win = tuple(softmax_log([math.log(max(1e-300, p)) for p in win], t))
        return Value(tuple(win), tuple(expected_scores(self.game, s)))


#: the value functions ``rolling analyze --value`` chooses from (Stars and Freight), default first
VALUES = ("learned", "heuristic")


def value_function(game: str, name: str = "learned") -> ValueFunction:
    """The value function ``name`` (one of :data:`VALUES`) for ``game`` (``"stars"`` or
    ``"freight"``).

    Raises:
        ValueError: an unknown name or game.
    """
    if name == "learned":
        return LearnedValue(game)
    if name == "heuristic":
        if game not in ("stars", "freight"):
            raise ValueError(f"no heuristic value for the game {game!r}")
        return HeuristicValue(game)
    raise ValueError(f"unknown value function {name!r}: choose one of {', '.join(VALUES)}")


def expected_scores(game: str, s: Any) -> list[float]:
    """Each seat's expected final score ($) by the search bots' valuation (module docstring)."""
    if game == "stars":
        from rolling.bots.stars_heuristic import StarsHeuristicBot, schedule
        from rolling.bots.stars_search import wealth

        return wealth(s, schedule(s, max(1.0, StarsHeuristicBot.RATE_PER_PLAYER * s.n)))
    from rolling.bots.freight_search import expected_stock

    return expected_stock(s)
