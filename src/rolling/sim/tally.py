"""The summary of a batch, tallied game by game from its rows (:class:`Tally`).

The summary is what ``rolling simulate GAME --json`` prints and :func:`rolling.sim.simulate`
returns: per seat entry its win rate, wins, mean rank and score statistics, over the games that
ended (a game that raised counts in ``failed`` only), with 95% intervals (Wilson's for the win
rate, Student's t for the mean score: :mod:`rolling.report.stats`, which needs numpy only), and the
version of rolling that played them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


class Tally:
    """Running totals of a batch per seat entry; feed it the rows of whole games in any order."""

    def __init__(self, game: str, labels: Sequence[str], seed: int):
        self.game = game
        self.labels = list(labels)
        self.seed = seed
        n = len(labels)
        self.scores: list[list[int]] = [[] for _ in range(n)]
        self.wins = [0] * n
        self.ranks = [0] * n
        self.games = 0
        self.failed = 0
        self.actions = 0
        #: the first error seen, with its game's index and seed (the failure to look at first)
        self.first_error: tuple[int, int, str] | None = None

    def add(self, rows: Sequence[dict]) -> None:
        """Count rows: whole games, each game's rows in entry order (as :func:`~rolling.sim.table.play_rows` gives)."""
        n = len(self.labels)
        for k in range(0, len(rows), n):
            game = rows[k:k + n]
            head = game[0]
            if head["error"]:
                self.failed += 1
                if self.first_error is None or head["index"] < self.first_error[0]:
                    self.first_error = (head["index"], head["seed"], head["error"])
                continue
            self.games += 1
            self.actions += head["actions"]
            for j, row in enumerate(game):
                self.scores[j].append(row["score"])
                self.ranks[j] += row["rank"]
                self.wins[j] += row["win"]

    def summary(self) -> dict[str, Any]:
        """``{"game", "version", "games", "failed", "seed", "actions", "seats": [{"bot", "win_rate",
        "win_rate_low", "win_rate_high", "wins", "mean_rank", "mean_score", "mean_score_low",
        "mean_score_high", "median_score", "p5_score", "p95_score"}, ...]}``, seats in the order
        given (and ``mean``, ``median``, ``p5``, ``p95`` at the top for a one-seat game).

        ``version`` is ``rolling.__version__``. ``games`` counts the games that ended; rates are over
        them (``None`` when there are none). ``*_low``/``*_high`` bound 95% intervals: Wilson's for
        the win rate, Student's t for the mean score (``None`` for fewer than two games)."""
        from rolling import __version__
        from rolling.report.stats import mean_interval, wilson
        from rolling.sim import summarize

        def rounded(x: float, digits: int) -> float | None:
            return None if math.isnan(x) else round(x, digits)

        games = self.games
        seats = []
        for j, label in enumerate(self.labels):
            stats = summarize(self.scores[j])
            win_low, win_high = wilson(self.wins[j], games)
            _, score_low, score_high = mean_interval(self.scores[j])
            seats.append({
                "bot": label,
                "win_rate": round(self.wins[j] / games, 4) if games else None,
                "win_rate_low": rounded(win_low, 4),
                "win_rate_high": rounded(win_high, 4),
                "wins": self.wins[j],
                "mean_rank": round(self.ranks[j] / games, 3) if games else None,
                "mean_score": stats["mean"],
                "mean_score_low": rounded(score_low, 3),
                "mean_score_high": rounded(score_high, 3),
                "median_score": stats["median"],
                "p5_score": stats["p5"],
                "p95_score": stats["p95"],
            })
        out: dict[str, Any] = {"game": self.game, "version": __version__, "games": games, "failed": self.failed,
                               "seed": self.seed, "actions": self.actions, "seats": seats}
        if len(self.labels) == 1:
            out.update(summarize(self.scores[0]))
        return out
