"""Game analysis: every decision of a game evaluated from the decider's information set.

``rolling analyze FILE`` (:mod:`rolling.cli.analyze`) and the report's evaluation graph use it;
docs/analysis.md describes the method, the JSON and the calibration.

- :mod:`.values`: what a position is worth to each seat (:class:`Value`), the pluggable
  :class:`ValueFunction`, the default :class:`LearnedValue` (the learned evaluation) and
  :class:`HeuristicValue` (the valuation's softmax);
- :mod:`.games`: each game's search machinery (determinization from one seat's view, candidates,
  playouts);
- :mod:`.evaluation`: one decision's evaluation (:func:`evaluate_decision`);
- :mod:`.labels`: inaccuracy / mistake / blunder thresholds and accuracy;
- :mod:`.runner`: a whole game, in parallel (:func:`analyze`), and reading the file (:func:`read_game`);
- :mod:`.summary`: the per-seat summary.
"""

from .evaluation import Evaluation, evaluate_decision
from .labels import LABELS, THRESHOLDS, label, move_accuracy
from .runner import analyze, read_game
from .summary import summarize
from .values import HeuristicValue, LearnedValue, Value, ValueFunction

__all__ = [
    "LABELS", "THRESHOLDS", "Evaluation", "HeuristicValue", "LearnedValue", "Value", "ValueFunction", "analyze",
    "evaluate_decision", "label", "move_accuracy", "read_game", "summarize",
]
